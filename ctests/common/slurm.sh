# A private Slurm for the tests that run under srun (t_report_slurm,
# t_report_hang_slurm), sourced after test_lib.sh: Debian's slurm-wlm on
# this host (munged, slurmctld, slurmd: a private configuration, key,
# sockets, state and logs under $PWD/slurm, 127.0.0.1 only, ports that were
# free), stopped at the end whatever happened (a trap on EXIT).  Where Slurm
# cannot start here (not root, slurm-wlm or munge not installed, a daemon
# that does not come up) the test skips (exit 77) and says why.

slurm_skip() { echo "SKIP $*"; exit 77; }

# slurm_check: skips unless Slurm can run here (before building anything)
slurm_check() {
  local b
  [ "$(id -u)" = 0 ] || slurm_skip "slurmd must run as root to start tasks (SlurmdUser=root); this test is not root"
  for b in munged munge slurmctld slurmd srun sinfo scontrol; do
    command -v $b >/dev/null || slurm_skip "$b is not installed (scripts/deps.sh installs munge, slurmctld, slurmd, slurm-client)"
  done
  [ -e /usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix.so ] || [ -n "$(find /usr/lib -name mpi_pmix.so -path '*slurm*' 2>/dev/null | head -1)" ] \
    || slurm_skip "Slurm's PMIx plugin (mpi_pmix.so) is not installed"
}

# slurm_stop: stops what slurm_start started (its pid files only)
slurm_stop() {
  local f pid
  for f in "$S/slurmd.pid" "$S/slurmctld.pid" "$S/munge/pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
}

# slurm_logs: the end of each daemon's log
slurm_logs() { local f; for f in "$S"/log/*.log "$S/munge/log"; do [ -f "$f" ] && { echo "--- $f"; tail -15 "$f"; }; done; }

# slurm_start [LINE...]: starts munged, slurmctld and slurmd, with each LINE
# added to slurm.conf (KillWait=5, ...); exports SLURM_CONF and sets S (the
# directory), slurm_node, slurm_cpus; returns once the node is idle (polled,
# at most 60 s)
slurm_start() {
  slurm_check
  S=$PWD/slurm
  mkdir -p "$S/munge" "$S/state" "$S/spool" "$S/log" && chmod 700 "$S/munge"
  trap slurm_stop EXIT
  # ---- munge: its own key and socket
  head -c 1024 /dev/urandom >"$S/munge/key" && chmod 400 "$S/munge/key"
  munged -f --socket="$S/munge/sock" --key-file="$S/munge/key" --pid-file="$S/munge/pid" \
    --log-file="$S/munge/log" --seed-file="$S/munge/seed" \
    || { slurm_logs; slurm_skip "munged does not start (log above)"; }
  munge -S "$S/munge/sock" -n </dev/null | unmunge -S "$S/munge/sock" >/dev/null \
    || { slurm_logs; slurm_skip "munge does not answer on its socket"; }
  # ---- two ports free now on 127.0.0.1
  local pc pd state line t0=$SECONDS
  read -r pc pd < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
  slurm_node=$(hostname -s)
  slurm_cpus=$(nproc)
  export SLURM_CONF=$S/slurm.conf
  cat >"$SLURM_CONF" <<EOF
ClusterName=papimpit
SlurmctldHost=$slurm_node(127.0.0.1)
SlurmctldPort=$pc
SlurmdPort=$pd
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
EOF
  for line in "$@"; do echo "$line" >>"$SLURM_CONF"; done
  cat >>"$SLURM_CONF" <<EOF
NodeName=$slurm_node NodeAddr=127.0.0.1 CPUs=$slurm_cpus State=UNKNOWN
PartitionName=test Nodes=$slurm_node Default=YES MaxTime=10 State=UP OverSubscribe=FORCE:4
EOF
  slurmctld -i -f "$SLURM_CONF" || { slurm_logs; slurm_skip "slurmctld does not start (log above)"; }
  slurmd -f "$SLURM_CONF" || { slurm_logs; slurm_skip "slurmd does not start (log above)"; }
  # the node idle: polled, at most 60 s
  state=
  for _ in $(seq 300); do
    state=$(sinfo -h -n "$slurm_node" -o %T 2>/dev/null)
    [ "$state" = idle ] && break
    sleep 0.2
  done
  [ "$state" = idle ] || { slurm_logs; slurm_skip "the Slurm node is '$state', not idle, after 60 s (logs above)"; }
  ok "$(sinfo -V) up: munged, slurmctld (port $pc), slurmd (port $pd) on 127.0.0.1, $slurm_cpus CPUs${*:+; $*}; the node idle after $((SECONDS - t0)) s"
}
