#!/usr/bin/env bash
# Across hosts: 2 "hosts" on one machine, each a Linux network namespace with
# its own hostname, joined by a veth pair with a private /30 that exists only
# inside them.  mpirun runs on host A; Open MPI's remote agent
# (hosts_agent.sh, in place of ssh, with ssh's bare environment) starts the
# orted on host B; a hostfile gives 2 slots to each host: 4 ranks, 2 per host,
# Open MPI SPC build, ob1 over TCP between the hosts (vader within one).
# (a) papi-mpit-report: the early ring of report_pairs gives UNEXPECTED_MSGS
#     5/2/3/4 and BYTES_RECEIVED 64/16/32/48 per rank, and bytes sent = bytes
#     received = 160 over the job; on all pairs (eager and rendezvous
#     messages) every rank's BYTES_SENT/BYTES_RECEIVED equal Open MPI's own
#     SPC dump and the dump's unexpected messages are the report's plus what
#     the tool's self-check saw outside the count (report_spc_compare.py);
#     report.json, written by rank 0 on host A, holds all 4 ranks, 2 per host.
# (b) hosts_papi_app, a plain PAPI program: per rank UNEXPECTED_MSGS,
#     BYTES_SENT, BYTES_RECEIVED (and BYTES_SENT_MPI) against the arranged
#     traffic and the SPC dump.
# Both: the veth carried at least the user bytes sent across the hosts.
# (c) papi-mpit-report's communication matrix (--matrix) at 16 ranks, 8 a host:
#     report_matrix_app's pattern exact and equal to Open MPI's own printout
#     (pml_monitoring_enable_output) as in t_report_matrix, across TCP: p2p
#     and coll on Open MPI 5, coll on 4.1 (p2p absent: open-mpi/ompi#9260).
#
# Two Open MPI 4.1.4 behaviours, seen over TCP, shape the checks:
# - ob1 files a sent message under BYTES_SENT_USER or BYTES_SENT_MPI by
#   req_status.MPI_TAG of the send request (pml_ob1_sendreq.c, e.g. lines 207,
#   328, 514, 586, 648), which is set only when a send completes
#   (pml_ob1_sendreq.h:204): a send that is not sent inline (TCP has no
#   sendi) is classified by the tag of the request object's previous use.
#   Some user bytes then land in BYTES_SENT_MPI (the same ones every run):
#   BYTES_SENT + BYTES_SENT_MPI is the arranged total where no collective runs,
#   and BYTES_SENT alone equals the dump but not the arranged traffic.
# - a rank receiving over TCP sometimes counts 1-5 unexpected messages more
#   than arranged; they are still in ob1's unexpected queue at MPI_Finalize
#   (the dump's OMPI_SPC_UNEXPECTED_IN_QUEUE) and are no user message on
#   MPI_COMM_WORLD (MPI_Iprobe finds none, pml_ob1_unexpected_msgq_length is
#   0 per peer): the arranged count is the dump's UNEXPECTED - UNEXPECTED_IN_QUEUE.
# Only on openmpi-spc; skips where network namespaces cannot be made.
# timeout: 900
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
[ "$KIND" = openmpi-spc ] || { echo "SKIP runs across hosts need Open MPI's SPCs (openmpi-spc), not $FLAVOR"; exit 77; }
for c in ip unshare python3; do
  command -v $c >/dev/null || { echo "SKIP $c is not installed"; exit 77; }
done
report_tool || exit 1
test_workdir hosts || exit 1

# ---- the two hosts; names unique to this run, removed on any exit
prefix=pmh$$-
nsa=${prefix}hostA nsb=${prefix}hostB
net=10.213.13.0/30 addra=10.213.13.1 addrb=10.213.13.2
made=""
cleanup() {
  local ns pid
  for ns in $made; do
    # processes left in our namespaces (an orted after a timeout), by pid
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
    ip netns del "$ns" 2>/dev/null
  done
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
if ! err=$(ip netns add "$nsa" 2>&1); then
  echo "SKIP this machine does not allow network namespaces (ip netns add: $err)"
  exit 77
fi
made=$nsa
ip netns add "$nsb" || { echo "FAIL: ip netns add $nsb"; exit 1; }
made="$nsa $nsb"
# veth ends are created inside the namespaces: nothing appears outside them
ip -n "$nsa" link add vhA type veth peer name vhB netns "$nsb" \
  && ip -n "$nsa" addr add $addra/30 dev vhA && ip -n "$nsb" addr add $addrb/30 dev vhB \
  && ip -n "$nsa" link set lo up && ip -n "$nsb" link set lo up \
  && ip -n "$nsa" link set vhA up && ip -n "$nsb" link set vhB up \
  || { echo "FAIL: cannot set up the veth pair"; exit 1; }
for i in $(seq 50); do  # bounded wait for the link to come up on both ends
  ip -n "$nsa" -br link show vhA | grep -q ' UP ' && ip -n "$nsb" -br link show vhB | grep -q ' UP ' && break
  [ "$i" = 50 ] && { echo "FAIL: the veth pair did not come up"; exit 1; }
  sleep 0.1  # poll interval, not a synchronisation
done
ip -n "$nsa" route get $addrb | grep -q "dev vhA" || { echo "FAIL: host A has no route to host B over vhA"; exit 1; }
ok "hosts: $nsa ($addra, vhA) and $nsb ($addrb, vhB)"

# ---- launch: mpirun on host A, the agent for host B
cp "$here/hosts_agent.sh" agent.sh && chmod +x agent.sh || { echo "FAIL: cannot copy the agent"; exit 1; }
export HOSTS_NS_PREFIX=$prefix
printf 'hostA slots=2\nhostB slots=2\n' >hostfile
mpi_prefix=$(cd "$(dirname "$MPIRUN")/.." && pwd)
# the shared-memory BTL within a host: "sm" since Open MPI 5.0, "vader" before
shm_btl=vader
case $FLAVOR in openmpi-[56]*) shm_btl=sm ;; esac
# the environment the ranks need, passed on as a user does (the agent's
# environment is bare, like ssh's)
opts=(--allow-run-as-root --prefix "$mpi_prefix" --hostfile hostfile -np 4 --map-by slot --bind-to none
      --mca plm_rsh_agent "$PWD/agent.sh" --mca plm_rsh_no_tree_spawn 1
      --mca pml ob1 --mca btl tcp,$shm_btl,self --mca btl_tcp_if_include $net --mca oob_tcp_if_include $net
      --mca mpi_spc_attach all --mca mpi_spc_dump_enabled true
      -x LD_LIBRARY_PATH -x PAPI_MPIT_BACKEND_DIR -x PAPI_MPIT_REPORT_LIBDIR -x PAPI_MPIT_REPORT_SELFCHECK)
export PAPI_MPIT_REPORT_SELFCHECK=1
# run_a ARGS...: mpirun on host A (the login node of this little cluster)
run_a() {
  timeout 120 ip netns exec "$nsa" unshare --uts sh -c 'hostname hostA && exec "$@"' run_a \
    "$MPIRUN" "${opts[@]}" "$@"
}
# veth bytes received on host B's end
rx_b() { ip -n "$nsb" -s -j link show vhB | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["stats64"]["rx"]["bytes"])'; }

$MPICC -O2 -Wall -Wextra -Werror "$here/report_pairs.c" -o report_pairs || { echo "FAIL: cannot build report_pairs"; exit 1; }
$MPICC -Wall -Wextra -Werror -I"$PAPI_INC" "$here/hosts_papi_app.c" -L"$PAPI_LIB" -lpapi -Wl,-rpath,"$PAPI_LIB" \
  -o hosts_papi_app || { echo "FAIL: cannot build hosts_papi_app"; exit 1; }

# json_values FILE EVENT: the per-rank values of EVENT in a report.json
json_values() {
  python3 -c 'import json,sys
ev = {e["name"]: e["values"] for e in json.load(open(sys.argv[1]))["events"]}
print(" ".join(str(v) for v in ev[sys.argv[2]]))' "$1" "$2" 2>/dev/null
}

# ---- (a) the report tool: the early ring, exact
# rank r sends r+1 messages of 16 bytes to r+1 and a 0-byte token
ring_ev=mpit:::UNEXPECTED_MSGS,mpit:::BYTES_SENT,mpit:::BYTES_SENT_MPI,mpit:::BYTES_RECEIVED
run_a "$wrap" -q -o ring -e $ring_ev ./report_pairs -r >ring.out 2>ring.err
rc=$?
[ $rc = 0 ] || { fail "report, early ring: exit $rc"; tail -30 ring.err; }
got=$(json_values ring/report.json mpit:::UNEXPECTED_MSGS)
[ "$got" = "5 2 3 4" ] && ok "report, early ring: UNEXPECTED_MSGS per rank $got" \
  || fail "report, early ring: UNEXPECTED_MSGS per rank '$got', arranged 5 2 3 4"
got=$(json_values ring/report.json mpit:::BYTES_RECEIVED)
[ "$got" = "64 16 32 48" ] && ok "report, early ring: BYTES_RECEIVED per rank $got" \
  || fail "report, early ring: BYTES_RECEIVED per rank '$got', arranged 64 16 32 48"
s_user=$(json_values ring/report.json mpit:::BYTES_SENT) s_mpi=$(json_values ring/report.json mpit:::BYTES_SENT_MPI)
tot=$(echo $s_user $s_mpi | tr ' ' '\n' | awk '{ t += $1 } END { print t + 0 }')
[ "$tot" = 160 ] && ok "report, early ring: over the job bytes sent = bytes received = 160 (BYTES_SENT $s_user, BYTES_SENT_MPI $s_mpi)" \
  || fail "report, early ring: over the job $tot bytes sent (BYTES_SENT '$s_user' + BYTES_SENT_MPI '$s_mpi'), 160 received"

# ---- (a) the report tool: all pairs against the SPC dump
rx0=$(rx_b)
run_a "$wrap" -q -o pairs ./report_pairs -p >pairs.out 2>pairs.err
rc=$?
rx1=$(rx_b)
# (Open MPI 5.0 over TCP files a few bytes of the tool's zero-byte
# collectives as user bytes: they are accounted for, not required to be 0)
misfiled=""; case $FLAVOR in openmpi-[56]*) misfiled=--misfiled-ok ;; esac
if [ $rc = 0 ] && python3 "$here/report_spc_compare.py" pairs/report.json pairs.err 4 $misfiled; then
  ok "report, all pairs: report = SPC dump on every rank"
else
  fail "report, all pairs (exit $rc): report and SPC dump differ"; grep -v OMPI_SPC pairs.err | tail -30
fi
python3 - pairs/report.json $((rx1 - rx0)) <<'EOF' || fails=$((fails + 1))
import json, sys
doc = json.load(open(sys.argv[1]))
ev = {e["name"]: e["values"] for e in doc["events"]}
sent, recv, hosts = ev["mpit:::BYTES_SENT"], ev["mpit:::BYTES_RECEIVED"], doc.get("hosts")
bad = 0
if doc.get("ranks") != 4 or len(sent) != 4 or len(recv) != 4:
    print("FAIL: report.json has %r ranks, %d/%d values" % (doc.get("ranks"), len(sent), len(recv))); bad = 1
if hosts != ["hostA", "hostA", "hostB", "hostB"]:
    print("FAIL: report.json hosts %r, expected ranks 0,1 on hostA and 2,3 on hostB" % hosts); bad = 1
else:
    print("ok: report.json (written by rank 0 on hostA) holds 4 ranks on hosts %s" % " ".join(hosts))
# report_pairs -p: every pair exchanges the same messages both ways, so a
# rank receives recv[r]/3 user bytes from each peer (BYTES_SENT may miss some,
# see above); host B's two ranks receive from ranks 0 and 1
across = (recv[2] + recv[3]) * 2 // 3
rx = int(sys.argv[2])
if rx < across:
    print("FAIL: host B's veth received %d bytes, less than the %d user bytes sent to it" % (rx, across)); bad = 1
else:
    print("ok: host B's veth received %d bytes >= %d user bytes sent across" % (rx, across))
sys.exit(bad)
EOF

# ---- (b) a plain PAPI program
small=20 large=3
want_u=$((small + large + 1)) want_b=$((small * 100 + large * 100000 + 4 + 4))
rx0=$(rx_b)
run_a ./hosts_papi_app -s $small -l $large >papi.out 2>papi.err
rc=$?
rx1=$(rx_b)
cat papi.out
[ $rc = 0 ] || { fail "hosts_papi_app exited with $rc"; tail -30 papi.err; }
# Open MPI 5.0 over TCP files more bytes (72 to 168 per rank here) under BYTES_SENT_MPI
# inside the counted region (seen here), which no rank receives as user or
# MPI bytes: there the user bytes of each rank lie between BYTES_SENT and
# BYTES_SENT + BYTES_SENT_MPI, and the job's sums are not compared
ompi5=0; case $FLAVOR in openmpi-[56]*) ompi5=1 ;; esac
python3 - papi.out papi.err $want_u $want_b $((rx1 - rx0)) $ompi5 <<'EOF' || fails=$((fails + 1))
import re, sys
out, err = open(sys.argv[1]).read(), open(sys.argv[2], errors="replace").read()
want_u, want_b, rx, ompi5 = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6] == "1"
got = {int(m[0]): (m[1],) + tuple(int(x) for x in m[2:]) for m in re.findall(
    r"hosts_papi_app rank (\d+) host (\S+) UNEXPECTED_MSGS=(\d+) BYTES_SENT=(\d+) BYTES_RECEIVED=(\d+) "
    r"BYTES_SENT_MPI=(\d+) BYTES_RECEIVED_MPI=(\d+) go=1", out)}
dump, rank = {}, None
for line in err.splitlines():
    m = re.search(r"MPI_COMM_WORLD Rank (\d+):", line)
    if m:
        rank = int(m.group(1)); dump[rank] = {}
        continue
    m = re.search(r"(OMPI_SPC_\w+) -> (\d+)", line)
    if m and rank is not None:
        dump[rank][m.group(1)] = int(m.group(2))
if sorted(got) != [0, 1, 2, 3] or sorted(dump) != [0, 1, 2, 3]:
    print("FAIL: hosts_papi_app lines for ranks %s, SPC dump for ranks %s" % (sorted(got), sorted(dump)))
    sys.exit(1)
bad = 0
for r in range(4):
    host, u, s, rv, smpi, rmpi = got[r]
    d = {k: dump[r].get("OMPI_SPC_" + k, 0) for k in
         ("UNEXPECTED", "UNEXPECTED_IN_QUEUE", "BYTES_SENT_USER", "BYTES_SENT_MPI", "BYTES_RECEIVED_USER")}
    line = ("rank %d on %s: UNEXPECTED_MSGS=%d BYTES_SENT=%d (+ BYTES_SENT_MPI %d) BYTES_RECEIVED=%d; arranged %d/%d/%d; "
            "SPC dump UNEXPECTED %d (still queued %d) BYTES_SENT_USER %d BYTES_SENT_MPI %d BYTES_RECEIVED_USER %d") % (
        r, host, u, s, smpi, rv, want_u, want_b, want_b, d["UNEXPECTED"], d["UNEXPECTED_IN_QUEUE"],
        d["BYTES_SENT_USER"], d["BYTES_SENT_MPI"], d["BYTES_RECEIVED_USER"])
    checks = [
        (host == ("hostA" if r < 2 else "hostB"), "runs on the wrong host"),
        (rv == want_b == d["BYTES_RECEIVED_USER"], "BYTES_RECEIVED is not the arranged count and the dump's"),
        (s == d["BYTES_SENT_USER"] and smpi == d["BYTES_SENT_MPI"], "BYTES_SENT(_MPI) differ from the dump"),
        (s <= want_b <= s + smpi if ompi5 else s + smpi == want_b,
         "BYTES_SENT + BYTES_SENT_MPI is not the arranged count"),
        # every arranged unexpected message counted at PAPI_stop, nothing the
        # dump lacks; what is still queued at MPI_Finalize was not arranged
        (want_u <= u <= d["UNEXPECTED"], "UNEXPECTED_MSGS outside [arranged, dump]"),
        # (Open MPI 5.0's own messages in the counted region, the bytes it
        # files as MPI, may arrive unexpected too: seen once, 25 for 24)
        (d["UNEXPECTED"] - d["UNEXPECTED_IN_QUEUE"] >= want_u if ompi5
         else d["UNEXPECTED"] - d["UNEXPECTED_IN_QUEUE"] == want_u,
         "the dump's unexpected messages less those still queued are not the arranged"),
    ]
    why = [w for okay, w in checks if not okay]
    if why:
        print("FAIL: %s (%s)" % (line, "; ".join(why))); bad = 1
    else:
        print("ok: " + line)
sent = sum(got[r][2] + got[r][4] for r in range(4)); recv = sum(got[r][3] for r in range(4))
if ompi5:
    print("(Open MPI 5.0: %d bytes sent as BYTES_SENT + BYTES_SENT_MPI, %d received as user bytes, %d as MPI)"
          % (sent, recv, sum(got[r][5] for r in range(4))))
elif sent != recv:
    print("FAIL: over the job %d bytes sent (BYTES_SENT + BYTES_SENT_MPI), %d received" % (sent, recv)); bad = 1
else:
    print("ok: over the job bytes sent (BYTES_SENT + BYTES_SENT_MPI) = bytes received = %d" % sent)
# the ring crosses from host A to host B once (rank 1 -> rank 2)
if rx < want_b:
    print("FAIL: host B's veth received %d bytes, less than the %d user bytes rank 1 sent to rank 2" % (rx, want_b)); bad = 1
else:
    print("ok: host B's veth received %d bytes >= %d user bytes sent across" % (rx, want_b))
sys.exit(bad)
EOF

# ---- (c) the communication matrix across the hosts: 16 ranks, 8 a host,
# report_matrix_app's known pattern under the tool with --matrix (a list
# naming no monitoring event: the tool turns monitoring on itself), exact and equal
# to Open MPI's own printout once the tool's traffic and the MPI's own (an
# idle run's printout) are added, as t_report_matrix checks on one host
printf 'hostA slots=8\nhostB slots=8\n' >hostfile16
# (Open MPI 6.0 across hosts picks HAN, the hierarchical collectives, whose
# set-up inside the first collective sends 21 more 4-byte messages from rank
# 0 to every rank than the program's pattern: the MPI's own traffic, left
# out here with coll ^han so that the pattern is exact)
opts16=(--allow-run-as-root --prefix "$mpi_prefix" --hostfile hostfile16 -np 16 --map-by slot --bind-to none
        --mca coll ^han
        --mca plm_rsh_agent "$PWD/agent.sh" --mca plm_rsh_no_tree_spawn 1
        --mca pml ob1 --mca btl tcp,$shm_btl,self --mca btl_tcp_if_include $net --mca oob_tcp_if_include $net
        -x LD_LIBRARY_PATH -x PAPI_MPIT_BACKEND_DIR -x PAPI_MPIT_REPORT_LIBDIR -x PAPI_MPIT_REPORT_SELFCHECK)
run_a16() {
  timeout 240 ip netns exec "$nsa" unshare --uts sh -c 'hostname hostA && exec "$@"' run_a16 \
    "$MPIRUN" "${opts16[@]}" "$@"
}
$MPICC -O2 -Wall -Wextra -Werror -I"$here/common" "$here/report_matrix_app.c" -o report_matrix_app \
  || { echo "FAIL: cannot build report_matrix_app"; exit 1; }
case $FLAVOR in
  openmpi-[56]*) kinds=p2p,coll absent= ;;
  *) kinds=coll absent=p2p:open-mpi/ompi#9260 ;;
esac
rm -rf prof16 idle16 && mkdir prof16 idle16
rx0=$(rx_b)
run_a16 --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$PWD/prof16/prof" \
  "$wrap" -q --matrix -o m16 -e mpit:::UNEXPECTED_MSGS ./report_matrix_app >m16.out 2>m16.err
rc=$?
rx1=$(rx_b)
run_a16 --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$PWD/idle16/prof" \
  "$wrap" -q --matrix -o i16 -e mpit:::UNEXPECTED_MSGS ./report_matrix_app idle >i16.out 2>i16.err
rci=$?
if [ $rc = 0 ] && [ $rci = 0 ] && python3 "$here/report_matrix_check.py" m16 16 $kinds $absent \
    --prof "$PWD/prof16/prof" m16.err --idle "$PWD/idle16/prof" i16.err >m16.check; then
  ok "matrix across hosts, 16 ranks: $kinds exact${absent:+, ${absent%%:*} absent with its reason}; = Open MPI's printout + the tool's and the MPI's own traffic ($(tr '\n' ';' <m16.check))"
else
  fail "matrix across hosts, 16 ranks (exit $rc, idle run $rci): $(head -20 m16.check 2>/dev/null)"
  tail -20 m16.err
fi
python3 - m16/report.json $((rx1 - rx0)) <<'PY' || fails=$((fails + 1))
import json, sys
doc = json.load(open(sys.argv[1]))
hosts = doc.get("hosts") or []
if hosts != ["hostA"] * 8 + ["hostB"] * 8:
    print("FAIL: matrix run's hosts %r, expected ranks 0-7 on hostA and 8-15 on hostB" % hosts); sys.exit(1)
print("ok: matrix run: ranks 0-7 on hostA, 8-15 on hostB; host B's veth received %s bytes" % sys.argv[2])
PY

[ $fails -eq 0 ] && echo "PASS t_hosts" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
