# Shared by scripts/client-*.sh (sourced): installs the Debian packages a
# client build needs when some are missing.
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
