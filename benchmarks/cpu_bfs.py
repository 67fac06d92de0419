"""BFS and DOBFS on the CPU against SciPy's BFS, on one Kronecker graph.

For each random root with edges, every implementation runs once to warm up,
then the implementations take turns ``--repeat`` times and each keeps its
fastest run (the machine's noise only ever adds time). The rate is
Graph500's (undirected edges in the traversed component per second), the
harmonic mean over the roots.

    python benchmarks/cpu_bfs.py [--scale 18] [--roots 4] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

import frontier as fr
from frontier.bench.measure import harmonic_mean, traversed_edges
from primitives import bfs, dobfs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=18)
    parser.add_argument("--roots", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    G = fr.generators.kronecker(args.scale, 16, seed=0, device="cpu")
    matrix = sp.csr_matrix((np.ones(G.num_arcs, np.int8), G.columns, G.offsets),
                           shape=(G.num_vertices, G.num_vertices))
    degree = np.diff(G.offsets)
    roots = np.random.default_rng(1).choice(np.flatnonzero(degree), args.roots, replace=False)
    runs = {"scipy": lambda r: csgraph.breadth_first_order(matrix, r, return_predecessors=True),
            "bfs": lambda r: bfs(G, r), "dobfs": lambda r: dobfs(G, r),
            "dobfs gunrock rule": lambda r: dobfs(G, r, rule="gunrock")}
    rates: dict = {name: [] for name in runs}
    for root in roots.tolist():
        edges = traversed_edges(G, bfs(G, root).depth >= 0)
        best = dict.fromkeys(runs, float("inf"))
        for run in runs.values():
            run(root)
        for _ in range(args.repeat):
            for name, run in runs.items():
                start = time.perf_counter()
                run(root)
                best[name] = min(best[name], time.perf_counter() - start)
        for name in runs:
            rates[name].append(edges / best[name])
    for name, rate in rates.items():
        print(f"{name:>20}: {harmonic_mean(rate) / 1e6:7.1f} MTEPS (harmonic mean over "
              f"{len(rate)} roots, best of {args.repeat} runs each)")


if __name__ == "__main__":
    main()
