"""Writing your own primitive: the k-hop neighbourhood of a vertex.

``primitives/`` does not ship this one. It is a BFS that stops after ``k``
levels, written the way every Frontier primitive is: a result dataclass, a
``frontier.Primitive`` subclass (``setup``, ``initial_frontier``, ``step``,
``converged``, ``result``) whose step is one ``advance`` with a small
vectorized functor, and a public function that checks its arguments and calls
``frontier.enact``. The same code runs on NumPy or CuPy. Its property test
against NetworkX is in ``tests/test_examples.py``.

    python examples/k_hop.py                     # Kronecker scale 14, k = 2
    python examples/k_hop.py --scale 10 --k 3
"""

import argparse
import os
from dataclasses import dataclass

import numpy as np

import frontier as fr


@dataclass
class KHopResult(fr.Result):
    hops: object  # hops from the source (0..k); -1 for vertices farther than k hops


class KHop(fr.Primitive):
    communicate = {"hops": "max"}  # merging a remote update: -1 (unreached) loses

    def setup(self):
        self.source = self.local_slots([self.params["source"]], name="source")
        self.k = self.params["k"]
        self.hops = self.vertex_array(-1, np.int32)
        self.put(self.hops, self.source, 0)

    def initial_frontier(self):
        return self.frontier_of(self.source)

    def step(self, frontier, iteration):
        hops = self.hops

        def reach(src, dst, edge, weight):
            # one vectorized call per batch of edges: claim the destinations
            # not reached yet; the edges that won form the next frontier
            return fr.claim(hops, dst, iteration + 1)

        return fr.advance(self.graph, frontier, reach)

    def converged(self, frontier, iteration):
        # k levels done, or the default test: no vertex active (on any device)
        return iteration == self.k or super().converged(frontier, iteration)

    def result(self):
        return KHopResult(self.hops)


def k_hop(G: fr.Graph, source: int, k: int, **options) -> KHopResult:
    """The vertices within ``k`` hops of ``source`` along out-edges.

    Returns a result whose ``hops`` array gives each vertex's hop count from
    ``source`` (at most ``k``), or -1. Raises ``ValueError`` for a vertex
    that is not in ``G`` or a negative ``k``. ``options`` are the enactor's
    (``devices=``, ``partition=``, ...).
    """
    source = fr.check_vertex(G, source)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:
        raise ValueError(f"k={k!r}: expected a non-negative integer number of hops")
    return fr.enact(KHop, G, source=source, k=int(k), **options)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=14, help="2^SCALE vertices (default 14)")
    parser.add_argument("--k", type=int, default=2, help="hops (default 2)")
    args = parser.parse_args()
    scale = 8 if os.environ.get("FRONTIER_EXAMPLE_SMALL") else args.scale

    G = fr.generators.kronecker(scale, edgefactor=16, seed=0)
    source = int(np.flatnonzero(fr.to_numpy(G.degree()))[0])
    r = k_hop(G, source, args.k)
    hops = r.to_numpy().hops
    print(f"{G.num_vertices} vertices; from vertex {source}, {r.iterations} advances:")
    for h in range(args.k + 1):
        print(f"  {np.count_nonzero(hops == h):>8} vertices at exactly {h} hops")
    print(f"  {np.count_nonzero(hops >= 0):>8} vertices within {args.k} hops")
