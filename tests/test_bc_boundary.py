"""Betweenness on several devices with the output boundary.

Unweighted Brandes declares ``changes_only_in_output``: a forward step
returns the level whose path counts it pulled together with the level it
claimed, a backward step the level whose coefficients it set, and between
sources :meth:`frontier.Primitive.refill` sets the arrays back alike on
every device. These tests compare it with the snapshot boundary and with
one device on random graphs, show the old forward step (which set the
counts of a level it did not return) caught by the declaration checks, and
check ``refill`` itself."""

from __future__ import annotations

from dataclasses import dataclass
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from frontier.multi.output_exchange import applies
from frontier.primitive import CHECK_VARIABLE, DeclarationError
from primitives.bc import Brandes, WeightedBrandes
from primitives.edge_bc import ArcBrandes, WeightedArcBrandes


class SnapshotBrandes(Brandes):
    changes_only_in_output = False


class ClaimsOnlyBrandes(Brandes):
    """Brandes before it declared the output boundary: a forward step
    returns its claims alone, though it set the counts of the level before."""

    def settled(self, frontier):
        return frontier

    def discovered(self, level, found):
        return found


def _enact(primitive, G, sources, endpoints: bool, **options):
    return fr.enact(primitive, G.simplified(), sources=sources, endpoints=endpoints,
                    scale=(1.0, None), **options).to_numpy()


def test_unweighted_betweenness_takes_the_output_boundary():
    assert applies(Brandes, "selective") and applies(ArcBrandes, "selective")
    assert not applies(Brandes, "broadcast")
    # summed release counts keep the weighted forms on the snapshot boundary
    for snapshot in (WeightedBrandes, WeightedArcBrandes, SnapshotBrandes):
        assert not applies(snapshot, "selective")


def _compare(G, devices, duplication, sources, endpoints):
    """Brandes and ArcBrandes on ``devices`` with the output boundary, with
    the snapshot one and on one device: the same centralities."""
    options = {"devices": devices, "duplication": duplication}
    one = _enact(Brandes, G, sources, endpoints)
    fast = _enact(Brandes, G, sources, endpoints, **options)
    snapshot = _enact(SnapshotBrandes, G, sources, endpoints, **options)
    for run in (fast, snapshot):
        np.testing.assert_allclose(run.centrality, one.centrality, rtol=0, atol=1e-9)
        assert run.iterations == one.iterations
    arcs_one = _enact(ArcBrandes, G, sources, endpoints)
    arcs = _enact(ArcBrandes, G, sources, endpoints, **options)
    np.testing.assert_allclose(arcs.arc_centrality, arcs_one.arc_centrality, rtol=0, atol=1e-9)


@given(edges=edge_lists(max_vertices=40, max_edges=140), count=st.integers(2, 4),
       duplication=st.sampled_from(["all", "one_hop"]), endpoints=st.booleans(),
       data=st.data())
@settings(max_examples=max(5, settings().max_examples // 4))
def test_output_boundary_gives_one_devices_betweenness(edges, count, duplication, endpoints,
                                                       data):
    """Several sources (the arrays refilled between them), on 2-4 virtual
    devices; the declaration checks run (the suite sets them)."""
    G = edges.graph("cpu")
    sources = data.draw(st.lists(st.integers(0, edges.num_vertices - 1), min_size=1,
                                 max_size=4, unique=True))
    _compare(G, count, duplication, sources, endpoints)


@pytest.mark.gpu
@given(edges=edge_lists(max_vertices=40, max_edges=140), count=st.integers(2, 3),
       duplication=st.sampled_from(["all", "one_hop"]))
@settings(max_examples=max(5, settings().max_examples // 4))
def test_output_boundary_on_parts_sharing_a_gpu(edges, count, duplication):
    G = edges.graph("cuda:0")
    sources = list(range(min(3, edges.num_vertices)))
    _compare(G, ["cuda:0"] * count, duplication, sources, False)


def test_a_forward_step_that_hides_its_counts_is_caught(monkeypatch):
    """Returning only the claimed level leaves the counts set at the level
    before unsent: the checks name it, where the run would read stale
    counts on the copies."""
    monkeypatch.setenv(CHECK_VARIABLE, "1")
    G = fr.Graph.from_edges(np.arange(30), np.arange(1, 31), num_vertices=31,
                            directed=False, device="cpu")
    with pytest.raises(DeclarationError, match="sigma"):
        _enact(ClaimsOnlyBrandes, G, [0], False, devices=2)


@dataclass
class MarkResult(fr.Result):
    mark: object


class Refills(fr.Primitive):
    """Sets ``mark`` back to 3 at the first vertex in its first step, on
    every device (``lopsided``: only where this device's frontier is not
    empty, a decision each device takes alone)."""

    parameters = ("lopsided",)
    communicate = {"mark": "max"}
    changes_only_in_output = True

    def setup(self):
        self.mark = self.vertex_array(7, np.int32)
        self.first = self.local_slots([0])

    def initial_frontier(self):
        return self.frontier_of(self.first)

    def step(self, frontier, iteration):
        if not self.params["lopsided"] or frontier.size:
            self.refill(self.mark, 3, self.first)
        return self.frontier_of([])

    def result(self):
        return MarkResult(self.mark)


def test_refill_on_one_device_sets_the_touched_slots():
    G = fr.generators.grid(3, 4, device="cpu")
    mark = fr.enact(Refills, G, lopsided=False).to_numpy().mark
    assert mark[0] == 3 and (mark[1:] == 7).all()


@pytest.mark.parametrize("duplication", ["all", "one_hop"])
def test_refill_on_several_devices_sets_every_slot_alike(duplication):
    G = fr.generators.grid(3, 4, device="cpu")
    with mock.patch.dict("os.environ", {CHECK_VARIABLE: "1"}):
        mark = fr.enact(Refills, G, lopsided=False, devices=3,
                        duplication=duplication).to_numpy().mark
    assert (mark == 3).all()


def test_refills_that_differ_between_devices_are_caught():
    """Only the device holding vertex 0's frontier refills: the run ends in
    DeclarationError, not in copies that disagree."""
    G = fr.generators.grid(3, 4, device="cpu")
    with pytest.raises(DeclarationError, match="refilled"):
        fr.enact(Refills, G, lopsided=True, devices=2)
