#!/usr/bin/env bash
# HPCToolkit's hpcrun (the site's own, named by PAPI_MPIT_HPCTOOLKIT) samples on an MPI event through PAPI's software
# overflow:
#   mpirun -np 2 hpcrun -e mpit:::UNEXPECTED_MSGS@T [-e CPUTIME] -o DIR ./burst_app
# burst_app.c (no PAPI call) gives rank 1 B bursts of T unexpected messages
# with CPU work after each, rank 0 exactly 1 (common/bursts.h).  hpcrun adds
# 1 to the event's metric per sample and records T as the metric's period.
# Per rank, summed over its .hpcrun files (one per thread; hpcrun-metric-sum):
# rank 1 has B-1 to B samples of the mpit metric, rank 0 none, period T.
# With the mpit event alone, each rank's .log SUMMARY counts exactly those
# samples; with -e CPUTIME beside it, CPUTIME is > 0 and the SUMMARY counts
# more.  `-e mpit:::NO_SUCH_EVENT` (and a variable name that does not exist)
# stops the run, without hanging, with a message naming the event.
#
# Run by ctests/run.sh (environment: FLAVOR MPICC MPIRUN MPIRUN_OPTS BIN
# PAPI_MPIT_BACKEND_DIR), in $BIN.  The PAPI under test is the installed
# prefix PAPI_PREFIX (default: MPIT_BUILDDIR/install).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/common/test_lib.sh"
case $KIND in
  openmpi-spc|mpich-events) ;;
  *) echo "SKIP hpcrun is tested on the flavors with an UNEXPECTED_MSGS counter (openmpi-spc, mpich-events), not $FLAVOR"; exit 77 ;;
esac
test_workdir hpcrun || exit 1
export PAPI_PREFIX=${PAPI_PREFIX:-${MPIT_BUILDDIR:-$top/_build}/install}

need_client hpcrun PAPI_MPIT_HPCTOOLKIT bin hpcrun
hpcrun=$client_dir/hpcrun
msum=$client_dir/hpcrun-metric-sum
# the per-metric sums of .hpcrun files, a small reader linked against
# HPCToolkit's own (a site installs it beside hpcrun)
[ -x "$msum" ] || msum=$(command -v hpcrun-metric-sum || true)
[ -n "$msum" ] || { echo "SKIP no hpcrun-metric-sum in $client_dir or on PATH: nothing reads the .hpcrun files"; exit 77; }

B=5 T=20 WORK_MS=60
$MPICC -Wall -Wextra -Werror -I"$here/common" "$here/burst_app.c" -o burst_app \
  || { echo "FAIL: burst_app does not build"; exit 1; }

# metric SUMS RANK PATTERN: "sum period" of the metric whose name matches,
# summed over the rank's .hpcrun files (one per thread), or "none"
metric() {
  awk -v pat="$3" -v rank="$2" '
    /\.hpcrun$/ { n = split($0, p, "/"); split(p[n], f, "-"); mine = (f[2] + 0 == rank) }
    mine && $1 == "metric" && $3 ~ pat {
      for (i = 4; i <= NF; i++) { if ($i ~ /^period=/) per = substr($i, 8); if ($i ~ /^sum=/) s += substr($i, 5) }
      found = 1 }
    END { if (found) printf "%.6g %s\n", s, per; else print "none" }' "$1"
}
# summary_samples RANK: the sample count of the rank's .log SUMMARY lines
summary_samples() {
  cat meas/*-"$(printf %06d "$1")"-*.log 2>/dev/null | sed -n 's/^SUMMARY: samples: \([0-9]*\) .*/\1/p' \
    | awk '{ s += $1; n++ } END { if (n) print s; else print "none" }'
}
# sample RUN-LABEL HPCRUN-EVENT-ARGS...: runs burst_app under hpcrun into ./meas,
# prints the metric sums (sums.txt); 1 if the run or the reading failed
sample() {
  local label=$1; shift
  rm -rf meas
  echo "+ $MPIRUN -np 2 hpcrun $* -o meas ./burst_app -b $B -t $T -w $WORK_MS"
  timeout 180 $MPIRUN $MPIRUN_OPTS -np 2 "$hpcrun" "$@" -o meas ./burst_app -b $B -t $T -w $WORK_MS \
    >"$label.out" 2>"$label.err"
  local rc=$?
  cat "$label.out" "$label.err"
  [ $rc -eq 0 ] || { fail "$label: hpcrun run exited with $rc"; return 1; }
  grep -q "burst_app rank 1: $B bursts of $T messages received" "$label.out" || { fail "$label: rank 1 did not finish"; return 1; }
  ls meas
  "$msum" meas/*.hpcrun >sums.txt || { fail "$label: hpcrun-metric-sum failed on meas/*.hpcrun"; return 1; }
  cat sums.txt
}
# check_mpit LABEL RANK: rank 1 has B-1..B samples, rank 0 none, period T;
# prints the count
check_mpit() {
  set -- "$1" "$2" $(metric sums.txt "$2" '^mpit:::UNEXPECTED_MSGS$')
  local label=$1 rank=$2 n=$3 period=${4:-}
  if [ "$n" = none ]; then fail "$label: rank $rank has no mpit:::UNEXPECTED_MSGS metric"; return; fi
  [ "$period" = "$T" ] && ok "$label: rank $rank's mpit metric has period $T" \
    || fail "$label: rank $rank's mpit metric has period $period, expected $T"
  if [ "$rank" = 1 ]; then
    [ "$n" -ge $((B - 1)) ] && [ "$n" -le $B ] && ok "$label: rank 1 has $n samples of mpit:::UNEXPECTED_MSGS ($B bursts of $T)" \
      || fail "$label: rank 1 has $n samples of mpit:::UNEXPECTED_MSGS, expected $((B - 1)) to $B"
  else
    [ "$n" -eq 0 ] && ok "$label: rank 0 has no sample of mpit:::UNEXPECTED_MSGS (it receives 1 unexpected message)" \
      || fail "$label: rank 0 has $n samples of mpit:::UNEXPECTED_MSGS, expected 0"
  fi
}

# ---- the mpit event alone: every sample the .log counts is one of its samples
if sample mpit -e "mpit:::UNEXPECTED_MSGS@$T"; then
  for rank in 0 1; do
    check_mpit mpit $rank
    n=$(metric sums.txt $rank '^mpit:::UNEXPECTED_MSGS$' | cut -d' ' -f1)
    s=$(summary_samples $rank)
    [ "$s" = "$n" ] && ok "mpit: rank $rank's .log SUMMARY counts $s samples, its mpit samples" \
      || fail "mpit: rank $rank's .log SUMMARY counts $s samples, but its .hpcrun files hold $n mpit samples"
  done
fi

# ---- with CPUTIME beside it
if sample cputime -e "mpit:::UNEXPECTED_MSGS@$T" -e CPUTIME; then
  for rank in 0 1; do
    check_mpit cputime $rank
    n=$(metric sums.txt $rank '^mpit:::UNEXPECTED_MSGS$' | cut -d' ' -f1)
    cpu=$(metric sums.txt $rank '^CPUTIME$' | cut -d' ' -f1)
    awk -v c="$cpu" 'BEGIN { exit !(c + 0 > 0) }' && ok "cputime: rank $rank's CPUTIME metric is $cpu s" \
      || fail "cputime: rank $rank's CPUTIME metric is $cpu, expected > 0"
    s=$(summary_samples $rank)
    [ "$s" != none ] && [ "$s" -gt "$n" ] && ok "cputime: rank $rank's .log SUMMARY counts $s samples (mpit: $n)" \
      || fail "cputime: rank $rank's .log SUMMARY counts $s samples, expected more than its $n mpit samples"
  done
fi

# ---- an mpit event that does not exist stops the run (no hang), with a
# message naming it: a portable metric (upper case) and an MPI_T variable name
# (lower case; on Open MPI a variable may appear in MPI_Init, so it can only be
# refused when hpcrun starts PAPI after MPI_Init)
for bad in NO_SUCH_EVENT no_such_variable; do
  rm -rf meas
  timeout 120 $MPIRUN $MPIRUN_OPTS -np 2 "$hpcrun" -e "mpit:::$bad" -o meas ./burst_app -b 1 -t 1 -w 1 \
    >bad.out 2>bad.err
  rc=$?
  cat bad.out bad.err
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "hpcrun -e mpit:::$bad exits with $rc" \
    || fail "hpcrun -e mpit:::$bad exited with $rc (124: timed out)"
  grep -Eq "^(papi-mpit: |HPCToolkit fatal error: ).*$bad" bad.err && ok "a message names $bad" \
    || fail "no papi-mpit: or HPCToolkit message naming $bad on stderr"
  grep -q 'burst_app rank' bad.out && fail "burst_app ran to its end with mpit:::$bad"
done

[ $fails -eq 0 ] || exit 1
echo "PASS hpcrun"
