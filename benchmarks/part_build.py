"""How long building and placing a graph's parts takes, on the graph's GPU
against on the host (issue 27: ``duplication="one_hop"`` parts sort every
arc by its new slot numbers, which took minutes on the host at Kronecker 26).

For each duplication, ``--parts`` parts sharing ``cuda:0`` of a Kronecker
graph: the parts built where ``frontier.multi.enactor`` builds them now
(on the graph's GPU) and on the host, each timed once from a graph that
holds no parts yet (wall seconds, synchronized), then one PageRank call on
them (to ``tol = 1e-6 / n``, about 17 iterations: the call's ``elapsed_s``
after a warm-up call), and PageRank on one part. Prints one line per
case; ``--host-limit`` skips the host build of graphs larger than that
scale (it can take minutes).

    python benchmarks/part_build.py --kronecker 24 --parts 2 [--host-limit 24]
"""

from __future__ import annotations

import argparse
import time

import frontier as fr
from frontier.multi import enactor
from partition.subgraph import build_parts
from primitives import pagerank


def on_host(graph, owner, count, duplication):
    return build_parts(graph, owner, count, duplication)


def timed_build(G, devices, duplication: str, where: str) -> float:
    """Seconds to build and place the parts (``where``: "gpu" or "host")."""
    G.release_parts()
    built = enactor._built_parts
    if where == "host":
        enactor._built_parts = on_host
    try:
        fr.get_device("cuda:0").synchronize()
        start = time.perf_counter()
        enactor._placed_parts(G, devices, None, 0, duplication, None)
        fr.get_device("cuda:0").synchronize()
        return time.perf_counter() - start
    finally:
        enactor._built_parts = built


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kronecker", type=int, default=20)
    parser.add_argument("--parts", type=int, default=2)
    parser.add_argument("--host-limit", type=int, default=24)
    parser.add_argument("--duplication", default="all,one_hop")
    args = parser.parse_args()
    G = fr.generators.kronecker(args.kronecker, 16, seed=0, device="cuda:0")
    devices = [fr.get_device("cuda:0")] * args.parts
    names = ["cuda:0"] * args.parts
    tol = 1e-6 / G.num_vertices  # NetworkX's test sums over all vertices: some iterations
    for duplication in args.duplication.split(","):
        places = ["gpu"] + (["host"] if args.kronecker <= args.host_limit else [])
        for where in places:
            seconds = timed_build(G, devices, duplication, where)
            pagerank(G, tol=tol, devices=names, duplication=duplication)  # warm-up
            call = pagerank(G, tol=tol, devices=names, duplication=duplication)
            print(f"kronecker {args.kronecker}, {args.parts} parts, {duplication}, built on "
                  f"{where}: {seconds:.2f} s; pagerank {call.elapsed_s * 1e3:.1f} ms "
                  f"({call.iterations} iterations)", flush=True)
    one = pagerank(G, tol=tol)
    one = pagerank(G, tol=tol)
    print(f"kronecker {args.kronecker}, one part: pagerank {one.elapsed_s * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
