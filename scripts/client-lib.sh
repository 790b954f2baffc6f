# Shared by scripts/client-*.sh (sourced): the Debian packages a client
# build needs, the PAPI it is built against, its lock and its cache stamp.
#
# install_missing: installs the packages that are missing.
#   install_missing NAME LOG PACKAGE...   (NAME for messages; output appended to LOG)
install_missing() {
  local name=$1 log=$2 missing="" p
  shift 2
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
  done
  [ -n "$missing" ] || return 0
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  echo "[$name] apt-get install$missing" >&2
  { $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing; } >>"$log" 2>&1 ||
    { echo "$name: installing$missing failed (log: $log)" >&2; tail -20 "$log" >&2; return 1; }
}

# papi_identity PREFIX: the PAPI a client is built against, for its cache
# stamp: the version in papi.h and libpapi's soname.  PAPI's structs change
# between versions (PAPI_event_info_t grew from 6680 to 23068 bytes in 7.2),
# so a client built against another PAPI is rebuilt, not reused.
papi_identity() {
  local version soname
  version=$(grep '^#define PAPI_VERSION[^_]' "$1/include/papi.h" | sed 's/.*NUMBER(\(.*\)).*/\1/' | tr , .)
  soname=$(objdump -p "$1/lib/libpapi.so" 2>/dev/null | awk '/SONAME/ { print $2 }')
  echo "papi-$version:$soname"
}

# client_begin NAME LOCK: how every client build starts.  Needs an installed
# PAPI in $PAPI_PREFIX; makes the cache's directories; holds
# $CACHE/clients/.LOCK.lock on fd 9 until the script ends (one build at a
# time: a second caller waits, then finds the first one's stamp); points
# $CACHE/clients/papi at the PAPI under test (an absolute target, so it
# survives a cd), the stable name the clients are built against.
client_begin() {
  [ -f "$PAPI_PREFIX/include/papi.h" ] && [ -e "$PAPI_PREFIX/lib/libpapi.so" ] ||
    { echo "$1: no installed PAPI in $PAPI_PREFIX (include/papi.h, lib/libpapi.so)" >&2; return 1; }
  mkdir -p "$CACHE/clients" "$CACHE/logs"
  exec 9>"$CACHE/clients/.$2.lock"
  flock 9
  ln -sfn "$(cd "$PAPI_PREFIX" && pwd)" "$CACHE/clients/papi"
}

# client_built PREFIX STAMP FILE...: true when PREFIX holds a finished build
# of STAMP (what was built: archive, PAPI, configure line) with every FILE
# (relative to PREFIX).  A different stamp means rebuild.
client_built() {
  local prefix=$1 stamp=$2 f
  shift 2
  [ -f "$prefix/.built" ] && [ "$(cat "$prefix/.built")" = "$stamp" ] || return 1
  for f in "$@"; do [ -e "$prefix/$f" ] || return 1; done
}
