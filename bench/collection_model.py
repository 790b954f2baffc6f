#!/usr/bin/env python3
"""What the collection model of doc/performance.md ("collecting the records
at scale") predicts for papi-mpit-report's tool_s.collection:

    T(P) = 4 L log2(P) + P (b / 3 * t + j)

L: one-way latency of a zero-byte message, t: rank 0's time per arriving
zero-byte message, j: CPU per record joined, b: bytes a rank adds to the
collected records (3 a message).  It assumes a core per rank: it has no term
for ranks waiting to be scheduled, which dominates oversubscribed runs.

    bench/collection_model.py [--L us] [--t us] [--j us] [--b bytes] P...

Defaults: the HPC figures of doc/performance.md (L 2 us, t 0.5 us, j 3.5 us,
b 34).  bench/zero_byte_rate.c measures L and t on this machine;
bench/report_collection.sh prints collection_bytes, whose growth per rank is b.
"""
import argparse
import math

ap = argparse.ArgumentParser(description="collection model: T(P) = 4 L log2 P + P (b/3 t + j)")
ap.add_argument("--L", type=float, default=2.0, help="one-way zero-byte latency, us")
ap.add_argument("--t", type=float, default=0.5, help="rank 0's time per arriving zero-byte message, us")
ap.add_argument("--j", type=float, default=3.5, help="CPU per record joined, us")
ap.add_argument("--b", type=float, default=34, help="bytes a rank adds to the collected records")
ap.add_argument("P", type=int, nargs="+")
a = ap.parse_args()
print(f"L={a.L} us, t={a.t} us, j={a.j} us, b={a.b} bytes")
print(f"{'ranks':>6} {'4 L log2 P (ms)':>16} {'P (b/3 t + j) (ms)':>19} {'T (s)':>10}")
for p in a.P:
    lat = 4 * a.L * math.log2(p) / 1e3
    rec = p * (a.b / 3 * a.t + a.j) / 1e3
    print(f"{p:6d} {lat:16.4f} {rec:19.4f} {(lat + rec) / 1e3:10.6f}")
