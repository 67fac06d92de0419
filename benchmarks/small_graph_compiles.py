"""Kernels the backend's first GPU calls compile on small graphs (issue 33).

CuPy compiles a reduction for each block size, which below 2,048 entries
follows the array's length, so a warmup on large graphs alone leaves
kernels that a first call on a small graph compiles
(``frontier.warmup.SMALL_EXERCISE_NODES``). For each size, every function of
``frontier/nx_backend/call_table.py`` runs once on a Barabasi-Albert graph
on ``--device``, converted afresh, in this one process; the script prints
the kernels NVRTC compiled per size and function (through
``first_call.py``'s ledger). Run it after ``frontier warmup`` with the same
``CUPY_CACHE_DIR``:

    CUPY_CACHE_DIR=/tmp/warmed frontier warmup --quiet
    CUPY_CACHE_DIR=/tmp/warmed python benchmarks/small_graph_compiles.py \\
        --nodes 30,70,150,300,600,1000 --edges-per-node 2 --seed 7

Sizes must be at least 16 (the table's ``betweenness_centrality`` samples
16 sources). Exit status 1 if anything was compiled.
"""

from __future__ import annotations

import argparse
import sys
import time

import cupy
import networkx as nx
from first_call import Ledger, _watch_compiles

from frontier.nx_backend.call_table import CALLS, preparation


def compiled_by_calls(nodes: int, edges_per_node: int, seed: int, device: str,
                      ledger: Ledger) -> dict[str, list[str]]:
    """``{function: kernels compiled}`` for the functions whose call on a
    graph of ``nodes`` nodes compiled any."""
    small = nx.barabasi_albert_graph(nodes, edges_per_node, seed=seed)
    compiled = {}
    for function, (_, call, *_) in CALLS.items():
        prepare = preparation(function)
        before = len(ledger.names)
        with nx.config(cache_converted_graphs=False), \
                nx.config.backends.frontier(device=device):
            call(nx, small if prepare is None else prepare(small), backend="frontier")
        if len(ledger.names) > before:
            compiled[function] = ledger.names[before:]
    return compiled


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="30,70,150,300,600,1000",
                        help="graph sizes, comma-separated (at least 16 each)")
    parser.add_argument("--edges-per-node", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--device", default="cuda:0")
    args = parser.parse_args()
    sizes = [int(size) for size in args.nodes.split(",")]
    if min(sizes) < 16:
        parser.error("--nodes: each size at least 16")
    ledger = Ledger()
    _watch_compiles(ledger, cupy)
    total = 0
    for nodes in sizes:
        began = time.perf_counter()
        compiled = compiled_by_calls(nodes, args.edges_per_node, args.seed, args.device, ledger)
        count = sum(map(len, compiled.values()))
        total += count
        print(f"{nodes} nodes ({args.edges_per_node} edges per new node, seed {args.seed}): "
              f"{count} kernels compiled, {time.perf_counter() - began:.1f} s")
        for function, names in compiled.items():
            print(f"    {function}: {', '.join(names)}")
    print(f"total: {total} kernels compiled")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
