# Shared by the shell tests (ctests/t_*.sh): counting failures, a clean work
# directory under $BIN, and the PAPI utilities of the build.
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# PAPI utilities sit in $PAPI_UTILS/<name> (or <name>/<name> in some layouts)
util() { if [ -x "$PAPI_UTILS/$1/$1" ]; then echo "$PAPI_UTILS/$1/$1"; else echo "$PAPI_UTILS/$1"; fi; }
# test_workdir NAME: an empty $BIN/NAME, made the current directory
test_workdir() { work=$BIN/$1; rm -rf "$work" && mkdir -p "$work" && cd "$work"; }
# report_tool: the build's papi-mpit-report in $wrap (build tree in $build),
# its interposers in PAPI_MPIT_REPORT_LIBDIR, and none of the caller's other
# PAPI_MPIT_REPORT_* variables (each test sets what it means); 1 when the
# tool is not built.
report_tool() {
  build=${MPIT_BUILDDIR:-$(cd "$BIN/../.." && pwd)}
  wrap=$build/utils/papi-mpit-report
  local v
  for v in $(compgen -e); do
    case $v in PAPI_MPIT_REPORT_*) unset "$v" ;; esac
  done
  export PAPI_MPIT_REPORT_LIBDIR=$build/.libs
  [ -x "$wrap" ] || { echo "FAIL: $wrap not built"; return 1; }
}
