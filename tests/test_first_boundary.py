"""The first boundary of a multi-device run (frontier/multi/exchange.py):
for declared arrays that ``vertex_array`` made with a scalar fill, each
owner sends its fill and only the shared entries that differ from it, and
every copy is set to its owner's fill before those entries land. Compared
here with the single-device answer (a primitive whose setup leaves
part-local values in copies) and with the first boundary that sends every
shared entry; and BFS's first boundary is the source's entry, not every
shared slot."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from device_matrix import check_devices, gpu_strategies, matrix, same_arrays
from hypothesis import given, settings
from strategies import edge_lists
from test_multi_device import CELL_EXAMPLES

import frontier as fr
from frontier.multi import exchange
from primitives import bfs


@dataclass
class CountsResult(fr.Result):
    value: object     # in-neighbour count at every third vertex, else 7
    smallest: object  # the least value over each vertex's arcs' two ends


class LocalCounts(fr.Primitive):
    """Setup writes each third vertex's neighbour count, which on a copy
    counts only the part's own arcs (so a copy holds a partial count until
    the first boundary), and leaves the fill 7 elsewhere, also on owners
    whose count happens to be 7; one step reads both ends of every arc."""

    communicate = {"value": "min"}

    def setup(self):
        xp = self.xp
        self.value = self.vertex_array(7, np.int64)
        counts = fr.neighbor_reduce(self.graph, lambda src, dst, edge, weight:
                                    xp.ones(len(dst), dtype=np.int64), "sum", dtype=np.int64)
        every_third = self.vertex_ids() % 3 == 0
        self.value[every_third] = counts[every_third]
        self.smallest = self.vertex_array(-1, np.int64)

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        value = self.value
        self.smallest[:] = fr.neighbor_reduce(
            self.graph, lambda src, dst, edge, weight: np.minimum(value[src], value[dst]),
            "min", identity=-1, dtype=np.int64)
        return self.frontier_of([])

    def result(self):
        return CountsResult(self.value, self.smallest)


@matrix
@settings(max_examples=CELL_EXAMPLES)
@given(edges=edge_lists(max_vertices=30, max_edges=90, weighted=False))
def test_copies_take_their_owners_values(count, partition, duplication, communication, edges):
    G = edges.graph("cpu")
    check_devices(lambda **options: fr.enact(LocalCounts, G, **options).to_numpy(),
                  same_arrays("value", "smallest"), count, partition, duplication,
                  communication)


@gpu_strategies
@settings(max_examples=CELL_EXAMPLES)
@given(edges=edge_lists(max_vertices=30, max_edges=90, weighted=False))
def test_copies_take_their_owners_values_on_a_shared_gpu(duplication, communication, edges):
    G = edges.graph("cuda:0")
    check_devices(lambda **options: fr.enact(LocalCounts, G, **options).to_numpy(),
                  same_arrays("value", "smallest"), ["cuda:0"] * 3, "random", duplication,
                  communication, home="cuda:0")


def exchanged(monkeypatch, whole: bool, run):
    """``run()``'s result with the first boundary from fills (or sending
    every shared entry, ``whole``), and the bytes its first boundary sent."""
    sent = []
    plain = exchange.Exchange._alltoall

    def counted(self, outgoing, *args):
        if not getattr(self, "started", True):
            sent.append(sum(a.nbytes for message in outgoing.values() for a in message))
        return plain(self, outgoing, *args)

    real_start = exchange.Exchange.start

    def start(self, frontier):
        self.started = False
        try:
            return real_start(self, frontier)
        finally:
            self.started = True

    monkeypatch.setattr(exchange.Exchange, "_alltoall", counted)
    monkeypatch.setattr(exchange.Exchange, "start", start)
    if whole:
        monkeypatch.setattr(fr.Primitive, "fills_of", lambda self, arrays: None)
    result = run()
    monkeypatch.undo()
    return result, sum(sent)


@pytest.mark.parametrize("duplication", ["all", "one_hop"])
def test_bfs_first_boundary_sends_the_source_not_every_slot(monkeypatch, duplication):
    G = fr.generators.kronecker(10, 8, seed=1, device="cpu")
    source = int(np.argmax(G.out_degree()))

    def run():
        return bfs(G, source=source, devices=3, duplication=duplication).to_numpy()

    fills, few = exchanged(monkeypatch, False, run)
    whole, every = exchanged(monkeypatch, True, run)
    same_arrays("depth", "predecessor")(whole, fills)
    # three owners, two peers each: the fills and at most the source's entry
    # per message (a few dozen bytes), against every shared slot's entry
    assert few <= 3 * 2 * 64 < every
