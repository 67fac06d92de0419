"""Does BFS get faster when a Kronecker graph's vertices are numbered by
degree (issue 29's "destinations ordered by degree")?

Builds ``kronecker(SCALE)`` on the GPU and the same graph relabelled so that
vertex 0 has the largest degree (a permutation ``perm``, new id -> old), so
that the visited bits of the hubs, which most arcs lead to, share a few
cache lines. ``time`` mode runs BFS and DOBFS from 8 random roots on both
(median of 5 calls each after a warm-up, timed by
``frontier.bench.measure.timer`` as ``frontier bench`` times them; the depths
compared); ``profile``
mode runs one BFS on each from one root between ``cudaProfilerStart`` and
``cudaProfilerStop``, for Nsight Compute::

    PYTHONPATH=. python benchmarks/degree_order.py time 24
    ncu --profile-from-start off --clock-control none --kernel-name regex:claim_push \\
        --metrics gpu__time_duration.sum,lts__t_sectors.sum,l1tex__t_sector_hit_rate.pct \\
        --csv --log-file bfs.csv python benchmarks/degree_order.py profile 24

(A CPU smoke run: ``time 12 cpu``.) The relabelled graph is built here for
the measurement only: Frontier does not renumber graphs.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import frontier as fr
from frontier.bench.measure import timer
from frontier.generators import kronecker
from frontier.graph import Graph
from primitives import bfs, dobfs


def relabelled(G: Graph):
    """``G`` with vertex ``i`` the ``i``-th largest degree, and the old id of
    each new one's inverse: ``(graph, new_id_of_old)``."""
    xp, n, m = G.xp, G.num_vertices, G.num_arcs
    degree = xp.diff(G.offsets)
    perm = xp.argsort(-degree)  # new -> old
    new_id = xp.empty_like(perm)
    new_id[perm] = xp.arange(n)
    offsets = xp.zeros(n + 1, xp.int64)
    xp.cumsum(degree[perm], out=offsets[1:])
    arc = xp.arange(m, dtype=xp.int64)
    row = xp.searchsorted(offsets, arc, side="right") - 1
    old_arc = G.offsets[perm][row] + (arc - offsets[row])
    columns = new_id[G.columns[old_arc]].astype(G.columns.dtype)
    return Graph(offsets=offsets, columns=columns, weights=None, directed=G.directed,
                 device=G.device, num_edges=G.num_edges), new_id


def _median_call(function, graph, root: int):
    """The median of 5 calls' seconds after a warm-up, and the last result."""
    measure = timer(graph.device)
    function(graph, root)  # warm-up
    runs = [measure(lambda: function(graph, root)) for _ in range(5)]
    return statistics.median(ms for _, ms in runs) / 1e3, runs[-1][0]


def main() -> None:
    mode, scale = sys.argv[1], int(sys.argv[2])
    G = kronecker(scale, 16, seed=0, device=sys.argv[3] if len(sys.argv) > 3 else "cuda:0")
    start = time.perf_counter()
    R, new_id = relabelled(G)
    G.device.synchronize()
    print(f"Kronecker {scale}: relabelled in {time.perf_counter() - start:.3f} s")
    host_new_id = fr.to_numpy(new_id)
    degree = np.diff(fr.to_numpy(G.offsets))
    roots = np.random.default_rng(1).choice(np.flatnonzero(degree > 0), 8, replace=False)
    if mode == "profile":
        import cupy

        root = int(roots[0])
        for _ in range(2):
            bfs(G, root), bfs(R, int(host_new_id[root]))
        G.device.synchronize()
        cupy.cuda.runtime.profilerStart()
        bfs(G, root)
        G.device.synchronize()
        bfs(R, int(host_new_id[root]))
        G.device.synchronize()
        cupy.cuda.runtime.profilerStop()
        return
    for name, function in (("bfs", bfs), ("dobfs", dobfs)):
        times = {"as generated": [], "by degree": []}
        for root in roots.tolist():
            plain, result = _median_call(function, G, root)
            ordered, by_degree = _median_call(function, R, int(host_new_id[root]))
            same = bool((result.depth == by_degree.depth[new_id]).all())
            times["as generated"].append(plain)
            times["by degree"].append(ordered)
            print(f"{name} from {root}: {plain * 1e3:.3f} ms, by degree {ordered * 1e3:.3f} ms, "
                  f"same depths: {same}")
        for order, seconds in times.items():
            rate = len(seconds) / sum(s / (G.num_edges / 1e9) for s in seconds)
            print(f"{name}, {order}: {rate:.1f} GTEPS (harmonic mean, all edges)")


if __name__ == "__main__":
    main()
