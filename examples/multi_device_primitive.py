"""Write a primitive once, run it on one device and, unchanged, on three.

Two primitives written with user functors (not built-ins), the way
docs/writing-a-primitive.md teaches:

* ``Reach``: breadth-first search by claiming unvisited vertices, recording
  each vertex's parent. A parent is a vertex id stored as a value, so it is
  the caller's id: ``self.vertex_ids()[src]``.
* ``MinLabel``: connected components by min-label propagation. Every vertex
  starts with its own id as label, ``self.vertex_ids()``, and each step
  pushes labels over the edges of the vertices whose label went down.

Neither names a device. ``communicate`` declares what a multi-device run
keeps consistent: ``hops`` merges remote claims with ``max`` (unreached is
-1), ``parent`` follows the winning claim, ``labels`` merge with ``min``.
The script runs both on one device, then on three virtual CPU devices under
every duplication and communication strategy, with the devices driven by
threads of this process and by worker processes (``workers="processes"``,
which imports this script in each worker: hence the ``__main__`` guard at
the bottom), and checks the answers agree.

    python examples/multi_device_primitive.py [--scale 12]
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from dataclasses import dataclass

import numpy as np

import frontier as fr


@dataclass
class ReachResult(fr.Result):
    hops: object    # hops from the source, -1 if unreached
    parent: object  # the vertex each was reached from, -1 for the source and unreached


class Reach(fr.Primitive):
    communicate = {"hops": "max", "parent": fr.follows("hops")}

    def setup(self):
        self.source = self.local_slots([self.params["source"]], name="source")
        self.hops = self.vertex_array(-1, np.int64)
        self.parent = self.vertex_array(-1, np.int64)
        self.put(self.hops, self.source, 0)

    def initial_frontier(self):
        return self.frontier_of(self.source)

    def step(self, frontier, iteration):
        hops, parent, ids = self.hops, self.parent, self.vertex_ids()

        def visit(src, dst, edge, weight):
            won = fr.claim(hops, dst, iteration + 1)
            parent[dst[won]] = ids[src[won]]
            return won

        return fr.advance(self.graph, frontier, visit)

    def result(self):
        return ReachResult(self.hops, self.parent)


@dataclass
class LabelResult(fr.Result):
    labels: object  # the smallest vertex id of each vertex's component


class MinLabel(fr.Primitive):
    """Components of an undirected graph by min-label propagation."""

    communicate = {"labels": "min"}

    def setup(self):
        self.labels = self.vertex_ids().astype(np.int64)

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        labels = self.labels

        def lower(src, dst, edge, weight):
            return fr.scatter_min(labels, dst, labels[src])

        return fr.advance(self.graph, frontier, lower)

    def result(self):
        return LabelResult(self.labels)


def strategies():
    """The eight combinations of duplication, communication and workers."""
    return itertools.product(("all", "one_hop"), ("selective", "broadcast"),
                             ("threads", "processes"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=12, help="Kronecker scale")
    args = parser.parse_args(argv)
    scale = 8 if os.environ.get("FRONTIER_EXAMPLE_SMALL") else args.scale
    G = fr.generators.kronecker(scale, 8, seed=2, device="cpu")
    source = int(np.argmax(fr.to_numpy(G.out_degree())))
    reach = fr.enact(Reach, G, source=source)
    labels = fr.enact(MinLabel, G)
    print(f"{G}: {int((reach.hops >= 0).sum())} vertices reached from {source} in "
          f"{reach.iterations - 1} levels, {len(np.unique(labels.labels))} components")
    for duplication, communication, workers in strategies():
        options = {"devices": 3, "duplication": duplication, "communication": communication,
                   "workers": workers}
        many = fr.enact(Reach, G, source=source, **options)
        components = fr.enact(MinLabel, G, **options)
        same = np.array_equal(many.hops, reach.hops) and \
            np.array_equal(components.labels, labels.labels)
        fr.validate.graph500_bfs(G, source, many.hops, many.parent)
        print(f"3 devices, {duplication:>7} / {communication:<9} / {workers:<9}: "
              f"{'same answers' if same else 'DIFFERENT ANSWERS'}, "
              f"{many.exchanged_bytes + components.exchanged_bytes:>8} bytes exchanged")
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
