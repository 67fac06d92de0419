"""Betweenness on the CPU split over its sources into threads
(:mod:`frontier.split_runs`): the time of one call by thread count.

    python benchmarks/split_threads.py                  # BA 200,000 x 5, k=16, 1/2/4/8 threads
    python benchmarks/split_threads.py --threads 1,4 --k 64 --rounds 5

The graph is NetworkX's Barabasi-Albert graph (the first-call benchmark's),
converted once; each round times one call per thread count, the counts in
turn, after one warm-up call each. Prints the median of the rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import networkx as nx

import frontier as fr
from frontier.split_runs import THREADS_VARIABLE
from primitives import betweenness_centrality


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--edges-per-node", type=int, default=5)
    parser.add_argument("--k", type=int, default=16, help="sampled sources")
    parser.add_argument("--threads", default="1,2,4,8")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    counts = [int(count) for count in args.threads.split(",")]
    G = fr.Graph.from_networkx(nx.barabasi_albert_graph(args.nodes, args.edges_per_node, seed=0),
                               device="cpu")
    print(f"Barabasi-Albert {args.nodes} x {args.edges_per_node}: {G.num_arcs} arcs, "
          f"k={args.k}, {os.cpu_count()} cores")
    times = {count: [] for count in counts}
    pieces = {}
    for round_ in range(args.rounds + 1):
        for count in counts:
            os.environ[THREADS_VARIABLE] = str(count)
            begin = time.perf_counter()
            result = betweenness_centrality(G, k=args.k, seed=0, devices="cpu")
            if round_:  # the first round warms up
                times[count].append(time.perf_counter() - begin)
            pieces[count] = getattr(result, "pieces", 1)
    for count in counts:
        print(f"threads {count} ({pieces[count]} pieces): {statistics.median(times[count]):.3f} s "
              f"(rounds: {', '.join(f'{t:.3f}' for t in times[count])})")


if __name__ == "__main__":
    main()
