"""The exchange's "sum" and "owner" combiners on random graphs: a user
primitive that adds along every arc for two iterations (offers of changes,
from several devices to one owner) and counts on the owner only, on one and
on several virtual devices under every strategy."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from strategies import edge_lists

import frontier as fr

STRATEGIES = [{"devices": [f"cpu:{i}" for i in range(count)], "duplication": duplication,
               "communication": communication}
              for count in (2, 3) for duplication in ("all", "one_hop")
              for communication in ("selective", "broadcast")]
AMOUNTS = (0.5, 0.25)


@dataclass
class Added(fr.Result):
    received: object
    visits: object


class AddAlongArcs(fr.Primitive):
    """``received[v]``: the sum over iterations of the amount every arc into
    ``v`` carries; ``visits[v]``: the iterations ``v`` was active on its owner."""

    communicate = {"received": "sum", "visits": "owner"}

    def setup(self):
        self.received = self.vertex_array(0.0, np.float64)
        self.visits = self.vertex_array(0, np.int32)

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        amount = AMOUNTS[iteration]

        def add(src, dst, edge, weight):
            fr.scatter_add(self.received, dst, amount)
            return self.xp.zeros(len(dst), dtype=bool)

        fr.advance(self.graph, frontier, add)
        self.visits[frontier.ids] += 1
        return frontier

    def converged(self, frontier, iteration):
        return iteration >= len(AMOUNTS)

    def result(self):
        return Added(self.received, self.visits)


@pytest.mark.parametrize("options", STRATEGIES,
                         ids=[f"{len(s['devices'])}-{s['duplication']}-{s['communication']}"
                              for s in STRATEGIES])
@given(edges=edge_lists(max_vertices=30, max_edges=90, weighted=False))
def test_sum_and_owner_data_equal_one_device(options, edges):
    G = edges.graph()
    one = fr.enact(AddAlongArcs, G, devices="cpu")
    in_arcs = fr.to_numpy(G.in_degree()).astype(np.float64)
    np.testing.assert_array_equal(one.received, sum(AMOUNTS) * in_arcs)
    np.testing.assert_array_equal(one.visits, np.full(G.num_vertices, len(AMOUNTS)))
    many = fr.enact(AddAlongArcs, G, **options)
    np.testing.assert_array_equal(many.received, one.received)
    np.testing.assert_array_equal(many.visits, one.visits)
