#!/usr/bin/env bash
# per_rank.sh DIR CMD...: runs CMD as one rank of a job, its stderr into
# DIR/err.RANK and its exit status into DIR/status.RANK, then copies that
# stderr to its own and exits with the status.  What a rank wrote and how it
# ended are then known without the launcher's output forwarding (PRRTE now
# and then forwards none of a rank's early stderr: launcher_is_prrte,
# test_lib.sh) or its exit status (PRRTE's own, now and then 1 or 255 where
# every rank ended with 2).
dir=$1; shift
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-x}}}
mkdir -p "$dir"
"$@" 2>"$dir/err.$rank"
rc=$?
echo $rc >"$dir/status.$rank"
cat "$dir/err.$rank" >&2
exit $rc
