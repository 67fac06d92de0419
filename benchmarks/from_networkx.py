"""The time of ``Graph.from_networkx``, and of the NetworkX backend's
``convert_from_nx``, on a large NetworkX graph.

The graph is ``nx.barabasi_albert_graph(NODES, 5, seed=0)`` (``--graph ba``,
999,975 edges for 200,000 nodes: issue 33's graph) or
``nx.gnm_random_graph(NODES, 5 * NODES, seed=0)`` (``--graph gnm``, 1,000,000
edges in random order), with a uniform random ``weight`` on every edge and,
by default, string nodes (``"v0"``, ``"v1"``, ...; ``--nodes ids`` keeps
the integers, which are then the vertex ids; ``--nodes shuffled`` inserts
them in a random order). Prints the median and every time of ``--runs``
conversions to a CPU graph, and seconds per million edges (median and
best: on a shared machine the best is the code's own cost), then the same
for ``convert_from_nx(G, edge_attrs={"weight": 1})`` (what NetworkX's
dispatcher runs for ``nx.pagerank(G, backend="frontier")``).
``--unweighted`` converts without weights (``weight=None``, no
``edge_attrs``), ``--multigraph`` the graph as a ``MultiGraph``;
``--peer`` also times NetworkX's own ``to_scipy_sparse_array`` (COO) on
the same graph once.

Run it with ``PYTHONPATH`` at the checkout to time (the script's own
folder comes first on ``sys.path``, so an installed ``frontier`` would
be timed otherwise):

    PYTHONPATH=. python benchmarks/from_networkx.py [--graph ba|gnm]
        [--nodes strings|ids|shuffled] [--unweighted] [--multigraph] [--size 200000]
        [--runs 5] [--peer]
"""

from __future__ import annotations

import argparse
import statistics
import time

import networkx as nx
import numpy as np

import frontier as fr
from frontier.nx_backend.graph import convert_from_nx


def weighted_graph(size: int, nodes: str, graph: str = "ba"):
    """The benchmark's graph (see the module docstring)."""
    if graph == "ba":
        g = nx.barabasi_albert_graph(size, 5, seed=0)
    else:
        g = nx.gnm_random_graph(size, 5 * size, seed=0)
    weights = np.random.default_rng(0).random(g.number_of_edges())
    for (_, _, data), weight in zip(g.edges(data=True), weights.tolist()):
        data["weight"] = weight
    if nodes == "ids":
        return g
    if nodes == "shuffled":
        shuffled = nx.Graph()
        shuffled.add_nodes_from(np.random.default_rng(1).permutation(size).tolist())
        shuffled.add_edges_from(g.edges(data=True))
        return shuffled
    return nx.relabel_nodes(g, {v: f"v{v}" for v in g})


def seconds(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", choices=("ba", "gnm"), default="ba")
    parser.add_argument("--nodes", choices=("strings", "ids", "shuffled"), default="strings")
    parser.add_argument("--size", type=int, default=200_000, help="nodes (5 edges each)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--unweighted", action="store_true")
    parser.add_argument("--multigraph", action="store_true")
    parser.add_argument("--peer", action="store_true")
    args = parser.parse_args()
    g = weighted_graph(args.size, args.nodes, args.graph)
    if args.multigraph:
        g = nx.MultiGraph(g)
    weight = None if args.unweighted else "weight"
    edge_attrs = None if args.unweighted else {"weight": 1}
    kind = " (MultiGraph)" if args.multigraph else ""
    print(f"{args.graph}{kind}: {g.number_of_nodes()} nodes ({args.nodes}), {g.number_of_edges()} "
          f"edges, {'unweighted' if args.unweighted else 'weighted'}")
    for name, call in (("from_networkx", lambda: fr.Graph.from_networkx(g, weight, device="cpu")),
                       ("convert_from_nx", lambda: convert_from_nx(g, edge_attrs=edge_attrs))):
        times = [seconds(call) for _ in range(args.runs)]
        median = statistics.median(times)
        print(f"  {name}: median {median:.2f} s, best {min(times):.2f} s "
              f"({', '.join(f'{t:.2f}' for t in times)}); per million edges "
              f"{median / g.number_of_edges() * 1e6:.2f} s (median), "
              f"{min(times) / g.number_of_edges() * 1e6:.2f} s (best)")
    if args.peer:
        nodes = list(g)
        peer = seconds(lambda: nx.to_scipy_sparse_array(g, nodelist=nodes, format="coo"))
        print(f"networkx.to_scipy_sparse_array: {peer:.2f} s")


if __name__ == "__main__":
    main()
