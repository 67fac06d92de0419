"""BFS and DOBFS on the CPU against SciPy's BFS, on a Kronecker graph or graph files.

For each random root with edges, every implementation runs once to warm up,
then the implementations take turns ``--repeat`` times and each keeps its
fastest run (the machine's noise only ever adds time, and taking turns
spreads what another job on the machine costs over all of them). Printed
per graph: milliseconds per call (the median over the roots of each root's
fastest run), that time over SciPy's, and Graph500's rate (undirected edges
in the traversed component per second; the harmonic mean over the roots).

    python benchmarks/cpu_bfs.py [--scale 18] [--roots 4] [--repeat 3]
    python benchmarks/cpu_bfs.py --graph DE.gr --graph VT.gr --only bfs --repeat 20

SciPy gets a float64 matrix with int32 indices (``frontier bench``'s
``scipy-csgraph`` peer), which its csgraph takes as it is.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

import frontier as fr
from frontier.bench.measure import harmonic_mean, median, traversed_edges
from primitives import bfs, dobfs

IMPLEMENTATIONS = ("scipy", "bfs", "dobfs", "dobfs gunrock rule")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=18,
                        help="Kronecker scale, without --graph (default 18)")
    parser.add_argument("--graph", action="append", metavar="FILE",
                        help="a graph file (frontier.read_graph); repeat for several")
    parser.add_argument("--only", default=",".join(IMPLEMENTATIONS),
                        help=f"comma-separated, from {','.join(IMPLEMENTATIONS)} (default all)")
    parser.add_argument("--roots", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    chosen = args.only.split(",")
    unknown = sorted(set(chosen) - set(IMPLEMENTATIONS))
    if unknown:
        parser.error(f"unknown implementations {unknown}: expected some of {IMPLEMENTATIONS}")
    if "scipy" not in chosen:
        chosen.insert(0, "scipy")  # the times are given against it
    graphs = [(os.path.basename(path), fr.read_graph(path, device="cpu"))
              for path in args.graph] if args.graph else \
        [(f"kronecker {args.scale}", fr.generators.kronecker(args.scale, 16, seed=0,
                                                             device="cpu"))]
    for name, G in graphs:
        print(name)
        _compare(G, [n for n in IMPLEMENTATIONS if n in chosen], args.roots, args.repeat)


def _compare(G: fr.Graph, chosen: list[str], roots: int, repeat: int) -> None:
    """Time ``chosen`` on ``G`` from ``roots`` random roots, taking turns."""
    n = G.num_vertices
    matrix = sp.csr_matrix((np.ones(G.num_arcs), G.columns.astype(np.int32),
                            G.offsets.astype(np.int32)), shape=(n, n))
    degree = np.diff(G.offsets)
    starts = np.random.default_rng(1).choice(np.flatnonzero(degree), roots, replace=False)
    runs = {"scipy": lambda r: csgraph.breadth_first_order(matrix, r, return_predecessors=True),
            "bfs": lambda r: bfs(G, r), "dobfs": lambda r: dobfs(G, r),
            "dobfs gunrock rule": lambda r: dobfs(G, r, rule="gunrock")}
    runs = {name: runs[name] for name in chosen}
    rates: dict = {name: [] for name in runs}
    times: dict = {name: [] for name in runs}
    for root in starts.tolist():
        edges = traversed_edges(G, bfs(G, root).depth >= 0)
        best = dict.fromkeys(runs, float("inf"))
        for run in runs.values():
            run(root)
        for _ in range(repeat):
            for name, run in runs.items():
                start = time.perf_counter()
                run(root)
                best[name] = min(best[name], time.perf_counter() - start)
        for name in runs:
            rates[name].append(edges / best[name])
            times[name].append(best[name] * 1e3)
    scipy_ms = median(times["scipy"])
    for name in runs:
        ms = median(times[name])
        print(f"{name:>20}: {ms:8.3f} ms ({ms / scipy_ms:5.2f}x SciPy's), "
              f"{harmonic_mean(rates[name]) / 1e6:7.1f} MTEPS (harmonic mean over "
              f"{len(starts)} roots, best of {repeat} runs each)")


if __name__ == "__main__":
    main()
