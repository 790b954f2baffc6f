#!/bin/sh
# Remote agent of t_hosts.sh, in place of ssh: "hosts_agent.sh [options] HOST
# COMMAND..." runs COMMAND on HOST, where a host is a Linux network namespace
# named $HOSTS_NS_PREFIX$HOST, given its own hostname (a UTS namespace) so that
# the MPI sees two nodes.  Like ssh it joins COMMAND's words into one shell
# command line and starts it with a bare environment (only PATH and HOME): the
# launcher must pass everything else itself (Open MPI: --prefix, -x).  Options
# before HOST (ssh's, which a launcher may add) are ignored.
set -u
while [ $# -gt 0 ]; do
  case $1 in
    -*) shift ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "hosts_agent: usage: hosts_agent.sh HOST COMMAND..." >&2; exit 255; }
host=$1
shift
ns=${HOSTS_NS_PREFIX:?hosts_agent: HOSTS_NS_PREFIX is not set}$host
ip netns list | grep -q "^$ns\( \|$\)" || { echo "hosts_agent: no such host $host (namespace $ns)" >&2; exit 255; }
exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="${HOME:-/}" \
  ip netns exec "$ns" unshare --uts sh -c 'hostname "$1" && shift && exec sh -c "$*"' hosts_agent "$host" "$@"
