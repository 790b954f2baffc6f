# Shared by the shell tests (ctests/t_*.sh): counting failures, a clean work
# directory under $BIN, and the PAPI utilities of the build.
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# PAPI utilities sit in $PAPI_UTILS/<name> (or <name>/<name> in some layouts)
util() { if [ -x "$PAPI_UTILS/$1/$1" ]; then echo "$PAPI_UTILS/$1/$1"; else echo "$PAPI_UTILS/$1"; fi; }
# test_workdir NAME: an empty $BIN/NAME, made the current directory
test_workdir() { work=$BIN/$1; rm -rf "$work" && mkdir -p "$work" && cd "$work"; }
