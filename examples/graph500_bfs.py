"""A full Graph500 BFS run: generate, search from 64 roots, validate, report TEPS.

Follows the Graph500 benchmark's steps: kernel 1 builds the graph from a
Kronecker edge list (timed as construction); kernel 2 is a BFS from each of 64
roots drawn at random among the vertices with at least one edge; every BFS
tree is checked with the Graph500 validation rules; and the traversed edges
per second (TEPS: input edges inside the traversed component, divided by the
search time) are summarized as the specification asks, harmonic mean
included.

    python examples/graph500_bfs.py                 # scale 16, edgefactor 16
    python examples/graph500_bfs.py --scale 20 --roots 16
    FRONTIER_EXAMPLE_SMALL=1 python examples/graph500_bfs.py   # scale 10, the CI size
"""

import argparse
import os
import time

import numpy as np

import frontier as fr
from frontier.bench.measure import harmonic_mean, traversed_edges
from primitives import bfs


def statistics(name: str, values: list[float]) -> None:
    """Print the Graph500 summary of ``values``: minimum, quartiles, maximum."""
    first, median, third = np.percentile(values, [25, 50, 75])
    for stat, value in [("min", min(values)), ("firstquartile", first), ("median", median),
                        ("thirdquartile", third), ("max", max(values))]:
        print(f"{stat}_{name}: {value:.6g}")


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--scale", type=int, default=16, help="2^SCALE vertices (default 16)")
parser.add_argument("--edgefactor", type=int, default=16, help="edges per vertex (default 16)")
parser.add_argument("--roots", type=int, default=64, help="BFS roots (Graph500: 64)")
parser.add_argument("--seed", type=int, default=0, help="seeds the graph and the roots")
args = parser.parse_args()
scale = 10 if os.environ.get("FRONTIER_EXAMPLE_SMALL") else args.scale

start = time.perf_counter()
G = fr.generators.kronecker(scale, args.edgefactor, seed=args.seed, progress=True)
G.device.synchronize()
construction_s = time.perf_counter() - start

degree = G.degree()
candidates = np.flatnonzero(fr.to_numpy(degree) > 0)
rng = np.random.default_rng(args.seed)
roots = rng.choice(candidates, min(args.roots, len(candidates)), replace=False).tolist()

bfs(G, source=roots[0])  # warm-up: the first call compiles kernels on a GPU
seconds, teps = [], []
for root in roots:
    r = bfs(G, source=root)
    fr.validate.graph500_bfs(G, root, r.depth, r.predecessor)  # raises on a bad tree
    edges = traversed_edges(G, r.depth >= 0, degree)
    seconds.append(r.elapsed_s)
    teps.append(edges / r.elapsed_s)

print(f"SCALE: {scale}")
print(f"edgefactor: {args.edgefactor}")
print(f"NBFS: {len(roots)}")
print(f"device: {G.device.describe()}")
# on a GPU the first run also compiles CuPy's kernels (cached for later runs)
print(f"construction_time: {construction_s:.6g}")
print("validation: all BFS trees passed")
statistics("time", seconds)
statistics("TEPS", teps)
print(f"harmonic_mean_TEPS: {harmonic_mean(teps):.6g}")
