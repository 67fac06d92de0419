"""Quickstart: build graphs, run the built-in primitives, check the answers.

Shows the two usual ways in (a Graph500 Kronecker generator and a NetworkX
graph), the four everyday primitives (BFS, SSSP, PageRank, connected
components), how to read their results, and the Graph500 validation of a BFS
tree. Runs on the default device: the first GPU if CuPy sees one, else NumPy
(set ``FRONTIER_DEVICE=cpu`` to choose the CPU).

    python examples/quickstart.py              # Kronecker scale 16
    python examples/quickstart.py --scale 12
    FRONTIER_EXAMPLE_SMALL=1 python examples/quickstart.py   # the CI size
"""

import argparse
import os

import networkx as nx
import numpy as np

import frontier as fr
from primitives import bfs, connected_components, pagerank, sssp

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--scale", type=int, default=16, help="2^SCALE vertices (default 16)")
args = parser.parse_args()
scale = 8 if os.environ.get("FRONTIER_EXAMPLE_SMALL") else args.scale

# 1. A generated graph: Graph500 Kronecker, undirected, weights 1..64 for SSSP.
G = fr.generators.kronecker(scale, edgefactor=16, seed=0, weights=(1, 64))
print(f"graph: {G.num_vertices} vertices, {G.num_edges} edges on {G.device.name}")
source = int(np.argmax(fr.to_numpy(G.degree())))  # a well-connected vertex

r = bfs(G, source=source)
fr.validate.graph500_bfs(G, source, r.depth, r.predecessor)  # raises if the tree is wrong
depth = r.to_numpy().depth  # results live on the device; to_numpy() copies them to the host
print(f"BFS from {source}: reached {np.count_nonzero(depth >= 0)} vertices, "
      f"{depth.max()} levels, in {r.elapsed_s * 1e3:.1f} ms; Graph500 validation passed")

distance = sssp(G, source=source).to_numpy().distance  # inf where unreached
print(f"SSSP from {source}: farthest reached vertex at distance "
      f"{distance[np.isfinite(distance)].max():g}")

rank = pagerank(G, alpha=0.85).to_numpy().rank
top = np.argsort(rank)[::-1][:3]
print(f"PageRank: top vertices {top.tolist()}, ranks sum to {rank.sum():.6f}")

labels = connected_components(G).to_numpy().labels
isolated = np.count_nonzero(fr.to_numpy(G.degree()) == 0)
print(f"connected components: {len(np.unique(labels))} ({isolated} of them isolated vertices)")

# 2. A NetworkX graph, converted both ways; NetworkX gives the reference answers.
g = nx.karate_club_graph()  # 34 members, weighted edges
K = fr.Graph.from_networkx(g, weight="weight")
depth = bfs(K, source=0).to_numpy().depth
assert depth.tolist() == [nx.shortest_path_length(g, 0, v) for v in range(34)]
rank = pagerank(K, weight="weight").to_numpy().rank
expected = nx.pagerank(g, weight="weight")
assert np.allclose(rank, [expected[v] for v in range(34)], atol=1e-6)
distance = sssp(K, source=0).to_numpy().distance
assert np.allclose(distance, [nx.dijkstra_path_length(g, 0, v) for v in range(34)])
print(f"karate club: BFS, SSSP and PageRank agree with NetworkX; most central member "
      f"{int(np.argmax(rank))}; back to NetworkX: {K.to_networkx()}")
