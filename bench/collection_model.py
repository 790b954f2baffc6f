#!/usr/bin/env python3
"""What the collection model of doc/performance.md ("collecting the records
at scale") predicts for papi-mpit-report's tool_s.collection.

Zero-byte messages (--mode tags, where the MPI counts bytes):

    T(P) = 4 L log2(P) + P (b / 3 * t + j)

Real bytes (--mode bytes, the default where it counts none):

    T(P) = 4 L log2(P) + P (b * c + j)

L: one-way latency of a zero-byte message, t: rank 0's time per arriving
zero-byte message, c: rank 0's time per arriving byte (transfer, copy and
join), j: CPU per record joined, b: bytes a rank adds to the collected
records.  It assumes a core per rank: it has no term for ranks waiting to be
scheduled, which dominates oversubscribed runs.

    bench/collection_model.py [--mode tags|bytes] [--L us] [--t us] [--c ns] [--j us] [--b bytes] P...

bench/zero_byte_rate.c measures L and t on this machine;
bench/report_collection.sh prints collection_bytes (b is its growth per rank)
and tool_s.collection (c is its time over its bytes at a rank count where
the machine is not yet swamped).
"""
import argparse
import math

ap = argparse.ArgumentParser(description="collection model")
ap.add_argument("--mode", choices=("tags", "bytes"), default="tags")
ap.add_argument("--L", type=float, default=2.0, help="one-way zero-byte latency, us")
ap.add_argument("--t", type=float, default=0.5, help="rank 0's time per arriving zero-byte message, us")
ap.add_argument("--c", type=float, default=1.5, help="rank 0's time per arriving byte, ns (real bytes)")
ap.add_argument("--j", type=float, default=3.5, help="CPU per record joined, us")
ap.add_argument("--b", type=float, default=34, help="bytes a rank adds to the collected records")
ap.add_argument("P", type=int, nargs="+")
a = ap.parse_args()
per_byte_us = a.t / 3 if a.mode == "tags" else a.c / 1e3
print(f"mode {a.mode}: L={a.L} us, " + (f"t={a.t} us" if a.mode == "tags" else f"c={a.c} ns/byte") +
      f", j={a.j} us, b={a.b} bytes")
print(f"{'ranks':>6} {'4 L log2 P (ms)':>16} {'P (b cost + j) (ms)':>20} {'T (s)':>10}")
for p in a.P:
    lat = 4 * a.L * math.log2(p) / 1e3
    rec = p * (a.b * per_byte_us + a.j) / 1e3
    print(f"{p:6d} {lat:16.4f} {rec:20.4f} {(lat + rec) / 1e3:10.6f}")
