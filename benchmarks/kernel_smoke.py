"""Quick GPU check of the fused paths: BFS (push), pull claim and SSSP on a
uniform random graph, fused against the general path. Prints times; used for
development runs, not for reported figures (those come from `frontier bench`)."""

import sys
import time

import cupy as cp
import numpy as np

import frontier as fr
from primitives import bfs

scale = int(sys.argv[1]) if len(sys.argv) > 1 else 20
n, m = 1 << scale, 16 << scale
rng = cp.random.default_rng(0)
src = rng.integers(0, n, m, dtype=cp.int64)
dst = rng.integers(0, n, m, dtype=cp.int64)
t = time.perf_counter()
G = fr.Graph.from_edges(src, dst, num_vertices=n, device="cuda:0")
cp.cuda.Device().synchronize()
print(f"build {G}: {time.perf_counter() - t:.3f} s")
for label in ("fused", "fused", "general"):
    if label == "general":
        original = fr.functors.ClaimUnvisited.__call__
        # hide the built-in from the dispatch by wrapping the class
        import frontier.kernels as k
        saved = k.fused_advance
        k.fused_advance = lambda *a: None
    start = cp.cuda.Event(); stop = cp.cuda.Event()
    start.record()
    r = bfs(G, source=1)
    stop.record(); stop.synchronize()
    ms = cp.cuda.get_elapsed_time(start, stop)
    reached = int((r.depth >= 0).sum())
    edges = int(G.out_degree()[r.depth >= 0].sum()) // 2
    print(f"bfs {label}: {ms:.2f} ms, {r.iterations} levels, reached {reached}, "
          f"{edges / ms / 1e6:.2f} GTEPS")
    if label == "general":
        k.fused_advance = saved
