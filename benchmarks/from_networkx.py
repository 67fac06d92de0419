"""The time of ``Graph.from_networkx`` on a large NetworkX graph.

The graph is ``nx.barabasi_albert_graph(NODES, 5, seed=0)`` (1,000,000
edges for 200,000 nodes) with a uniform random ``weight`` on every edge and,
by default, string nodes (``"v0"``, ``"v1"``, ...; ``--nodes ids`` keeps
the integers, which are then the vertex ids). Prints the median and every
time of ``--runs`` conversions to a CPU graph; ``--peer`` also times
NetworkX's own ``to_scipy_sparse_array`` (COO) on the same graph once.

    python benchmarks/from_networkx.py [--nodes strings|ids] [--size 200000] [--peer]
"""

from __future__ import annotations

import argparse
import statistics
import time

import networkx as nx
import numpy as np

import frontier as fr


def weighted_graph(size: int, nodes: str):
    g = nx.barabasi_albert_graph(size, 5, seed=0)
    weights = np.random.default_rng(0).random(g.number_of_edges())
    for (_, _, data), weight in zip(g.edges(data=True), weights.tolist()):
        data["weight"] = weight
    return g if nodes == "ids" else nx.relabel_nodes(g, {v: f"v{v}" for v in g})


def seconds(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", choices=("strings", "ids"), default="strings")
    parser.add_argument("--size", type=int, default=200_000, help="nodes (5 edges each)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--peer", action="store_true")
    args = parser.parse_args()
    g = weighted_graph(args.size, args.nodes)
    times = [seconds(lambda: fr.Graph.from_networkx(g, device="cpu"))
             for _ in range(args.runs)]
    print(f"{g.number_of_nodes()} nodes ({args.nodes}), {g.number_of_edges()} weighted edges: "
          f"from_networkx median {statistics.median(times):.2f} s "
          f"({', '.join(f'{t:.2f}' for t in times)})")
    if args.peer:
        nodes = list(g)
        peer = seconds(lambda: nx.to_scipy_sparse_array(g, nodelist=nodes, format="coo"))
        print(f"networkx.to_scipy_sparse_array: {peer:.2f} s")


if __name__ == "__main__":
    main()
