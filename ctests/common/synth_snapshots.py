#!/usr/bin/env python3
"""Synthetic snapshot directories of N ranks from a real run's (helper of
t_report_merge_scale.sh and bench/report_merge_scale.sh).

  synth_snapshots.py SRC N DST [--per-host 64]

SRC holds the snapshot.RANK.txt files of a real run of T ranks that hung
(ctests/hang_ring.c under papi-mpit-report -o).  DST gets N of them: rank 0
is SRC's rank 0, rank R > 0 is SRC's rank 1 + (R - 1) % (T - 1), with every
rank it names moved by the same distance: a peer at distance d (in -T/2 <
d <= T/2, around the ring of T) of the source rank is at distance d of R
(mod N), so a ring stays a ring; the members "0-(T-1)" of MPI_COMM_WORLD
become "0-(N-1)".  Lines renumbered: R (rank, size), A (peer, members), B
(members of MPI_COMM_WORLD), H (the host: node0000, node0001, ..., PER_HOST
ranks each), C (peers of a site), T (receivers), M (columns), X (peers).
The others are copied as they are.
"""
import os
import sys


def main():
    args = sys.argv[1:]
    per_host = 64
    if "--per-host" in args:
        i = args.index("--per-host")
        per_host = int(args[i + 1])
        del args[i : i + 2]
    if len(args) != 3:
        sys.exit("usage: synth_snapshots.py SRC N DST [--per-host 64]")
    src, n, dst = args[0], int(args[1]), args[2]
    tmpl = []
    while os.path.exists(os.path.join(src, "snapshot.%d.txt" % len(tmpl))):
        with open(os.path.join(src, "snapshot.%d.txt" % len(tmpl))) as f:
            tmpl.append(f.read().split("\n"))
    t = len(tmpl)
    if t < 2 or n < t:
        sys.exit("synth_snapshots.py: %d snapshots in %s (2 or more, and at most N=%d)" % (t, src, n))
    world_src, world_dst = "0-%d" % (t - 1), "0-%d" % (n - 1)
    os.makedirs(dst, exist_ok=True)

    for r in range(n):
        s = 0 if r == 0 else 1 + (r - 1) % (t - 1)

        def peer(p):
            p = int(p)
            if p < 0:
                return str(p)
            d = (p - s) % t
            if d > t // 2:
                d -= t
            return str((r + d) % n)

        def pairs(field, sep=","):
            if field in ("", "-"):
                return field
            out = []
            for item in field.split(sep):
                head, _, rest = item.partition(":")
                out.append(peer(head) + (":" + rest if rest else ""))
            return sep.join(out)

        lines = []
        for line in tmpl[s]:
            f = line.split("\t")
            k = f[0]
            if k == "R" and len(f) > 2:
                f[1], f[2] = str(r), str(n)
                if len(f) > 8:
                    f[8] = str(100000 + r)
            elif k == "A" and len(f) > 12:
                f[7] = peer(f[7])
                if f[12] == world_src:
                    f[12] = world_dst
            elif k == "B" and len(f) > 3 and f[1] == "world":
                f[2], f[3] = str(n), world_dst
            elif k == "H" and len(f) > 1:
                f[1] = "node%04d" % (r // per_host)
            elif k == "C" and len(f) > 5:
                f[5] = pairs(f[5])
            elif k == "T" and len(f) > 1:
                f[1] = pairs(f[1])
            elif k == "M" and len(f) > 4:
                f[3] = str(n)
                f[4] = pairs(f[4])
            elif k == "X" and len(f) > 2:
                f[2] = pairs(f[2])
            lines.append("\t".join(f))
        with open(os.path.join(dst, "snapshot.%d.txt" % r), "w") as out:
            out.write("\n".join(lines))


if __name__ == "__main__":
    main()
