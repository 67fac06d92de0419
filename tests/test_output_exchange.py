"""The boundary that works from the output frontier
(:mod:`frontier.multi.output_exchange`) against the snapshot boundary it
replaces for primitives that declare ``changes_only_in_output``, and the
check that catches a wrong declaration."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from checks import assert_bfs_tree, assert_shortest_path_tree
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists, enactor_options

import frontier as fr
from frontier.multi.output_exchange import OutputExchange, applies
from frontier.primitive import CHECK_VARIABLE, DeclarationError
from primitives.bfs import BFS
from primitives.cc import ConnectedComponents
from primitives.dobfs import DOBFS
from primitives.sssp import SSSP


class SnapshotBFS(BFS):
    changes_only_in_output = False


class SnapshotDOBFS(DOBFS):
    changes_only_in_output = False


class SnapshotSSSP(SSSP):
    changes_only_in_output = False


class SnapshotCC(ConnectedComponents):
    changes_only_in_output = False


class RefreshingSSSP(SSSP):
    """SSSP as it was before it declared copies_may_lag: with refreshes."""

    copies_may_lag = False


DECLARED = {"bfs": (BFS, SnapshotBFS), "dobfs": (DOBFS, SnapshotDOBFS),
            "sssp": (SSSP, SnapshotSSSP), "cc": (ConnectedComponents, SnapshotCC)}
DOBFS_DEFAULTS = {"rule": "beamer", "alpha": 15.0, "beta": 18.0, "do_a": 0.01, "do_b": 0.1,
                  "direction": None}


def _params(name: str, source: int) -> dict:
    if name == "cc":
        return {}
    if name == "sssp":
        return {"source": source, "delta": 2.0}
    if name == "dobfs":
        return {"source": source, **DOBFS_DEFAULTS}
    return {"source": source}


def test_the_declaring_primitives_take_the_output_boundary():
    for declared, plain in DECLARED.values():
        assert applies(declared, "selective")
        assert not applies(declared, "broadcast")  # the baseline keeps snapshots
        assert not applies(plain, "selective")


@pytest.mark.parametrize("name", sorted(DECLARED))
@given(edges=edge_lists(max_vertices=40, max_edges=140, integer_weights=True),
       options=enactor_options())
@settings(max_examples=max(5, settings().max_examples // 4))
def test_output_boundary_gives_the_snapshot_boundarys_answer(name, edges, options):
    declared, plain = DECLARED[name]
    G = edges.graph("cpu")
    source = edges.num_vertices // 2
    fast = fr.enact(declared, G, **_params(name, source), **options).to_numpy()
    snapshot = fr.enact(plain, G, **_params(name, source), **options).to_numpy()
    if name == "cc":
        np.testing.assert_array_equal(fast.labels, snapshot.labels)
    elif name == "sssp":
        np.testing.assert_array_equal(fast.distance, snapshot.distance)
        assert_shortest_path_tree(G, source, fast.distance, fast.predecessor)
    else:
        np.testing.assert_array_equal(fast.depth, snapshot.depth)
        assert_bfs_tree(G, source, fast.depth, fast.predecessor)
    assert fast.iterations == snapshot.iterations


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_large_levels_refresh_copies_by_bitmap(monkeypatch, name):
    """Under shared ids a level that changes more than one owned slot in 32
    refreshes the copies with a bitmap over the owned slots and the values
    in its order; small levels name their slots. Both happen here, and the
    answers are one device's. (SSSP, which sends no refreshes, with them.)"""
    bitmaps = []
    real = OutputExchange._owned_refresh

    def spy(self, arrays, changed):
        message = real(self, arrays, changed)
        bitmaps.append(message[0].dtype == np.uint8)
        return message

    monkeypatch.setattr(OutputExchange, "_owned_refresh", spy)
    G = fr.generators.kronecker(9, 8, seed=2, weights=(1, 9), device="cpu")
    source = int(np.argmax(G.out_degree()))
    declared = RefreshingSSSP if name == "sssp" else DECLARED[name][0]
    one = fr.enact(declared, G, **_params(name, source)).to_numpy()
    many = fr.enact(declared, G, **_params(name, source), devices=3,
                    duplication="all").to_numpy()
    assert any(bitmaps) and not all(bitmaps)
    for field, values in one.arrays().items():
        if field != "predecessor":
            np.testing.assert_array_equal(getattr(many, field), values, err_msg=field)
    if name == "sssp":
        assert_shortest_path_tree(G, source, many.distance, many.predecessor)
    elif name != "cc":
        assert_bfs_tree(G, source, many.depth, many.predecessor)


@dataclass
class MarksResult(fr.Result):
    mark: object


class _Marks(fr.Primitive):
    """Each step raises ``mark`` at the frontier's out-neighbours; the
    ``stray`` option also raises it at slot 0 without returning it, and
    ``backwards`` lowers a mark it returns."""

    parameters = ("stray", "backwards")
    communicate = {"mark": "max"}
    changes_only_in_output = True

    def setup(self):
        self.mark = self.vertex_array(0, np.int32)

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        if iteration == 2:
            return self.frontier_of([])
        out = fr.advance(self.graph, frontier)
        self.mark[out.ids] = iteration + 1
        if self.params["stray"]:
            self.mark[0] = 100 + iteration
        if self.params["backwards"] and iteration == 1:
            self.mark[out.ids] = -1
        return out

    def result(self):
        return MarksResult(self.mark)


def _ring(n: int = 12) -> fr.Graph:
    return fr.Graph.from_edges(np.arange(n), (np.arange(n) + 1) % n, device="cpu")


def test_a_declared_primitive_passes_its_check(monkeypatch):
    monkeypatch.setenv(CHECK_VARIABLE, "1")
    result = fr.enact(_Marks, _ring(), stray=False, backwards=False, devices=2)
    assert result.to_numpy().mark.tolist() == [2] * 12


@pytest.mark.parametrize("duplication", ["all", "one_hop"])
def test_a_write_outside_the_output_is_caught(monkeypatch, duplication):
    monkeypatch.setenv(CHECK_VARIABLE, "1")
    with pytest.raises(DeclarationError, match=r"changed mark\[0\].*outside the frontier"):
        fr.enact(_Marks, _ring(), stray=True, backwards=False, devices=2,
                 duplication=duplication)


def test_a_write_against_the_combiner_is_caught(monkeypatch):
    monkeypatch.setenv(CHECK_VARIABLE, "1")
    with pytest.raises(DeclarationError, match="against its combiner 'max'"):
        fr.enact(_Marks, _ring(), stray=False, backwards=True, devices=3)


class _Reach(fr.Primitive):
    """Marks the vertices reached from vertex 0; a step's output holds a
    vertex once per arc that reached it (repeats)."""

    communicate = {"seen": "max"}
    changes_only_in_output = True

    def setup(self):
        self.seen = self.vertex_array(0, np.int32)
        self.source = self.local_slots([0], name="source")
        self.seen[self.source] = 1

    def initial_frontier(self):
        return self.frontier_of(self.source)

    def step(self, frontier, iteration):
        seen = self.seen
        out = fr.advance(self.graph, frontier, lambda src, dst, edge, weight: seen[dst] == 0)
        seen[out.ids] = 1
        return out

    def result(self):
        return MarksResult(self.seen)


def test_an_output_with_repeats_refreshes_each_slot_once():
    """0 reaches 1..20, which all reach 21 and 22: a level of 40 ids, two
    distinct, refreshed by bitmap (over 1 in 32 of the 23 owned slots) from
    a part that received no offer (the other owns vertices never reached)."""
    src = [0] * 20 + list(range(1, 21)) * 2
    dst = list(range(1, 21)) + [21] * 20 + [22] * 20
    G = fr.Graph.from_edges(src, dst, num_vertices=40, directed=True, device="cpu")
    owner = np.array([0] * 23 + [1] * 17)
    many = fr.enact(_Reach, G, devices=2, partition=lambda graph, parts, seed: owner)
    assert many.to_numpy().mark.tolist() == [1] * 23 + [0] * 17


def test_the_declaration_needs_one_way_combiners():
    class Summing(_Marks):
        communicate = {"mark": "sum"}

    with pytest.raises(ValueError, match="'mark' is declared 'sum'"):
        applies(Summing, "selective")
    with pytest.raises(ValueError, match="'mark' is declared 'sum'"):
        fr.enact(Summing, _ring(), stray=False, backwards=False, devices=2)


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(DECLARED))
@given(edges=edge_lists(max_vertices=60, max_edges=240, integer_weights=True),
       count=st.integers(2, 4), duplication=st.sampled_from(["all", "one_hop"]))
@settings(max_examples=max(3, settings().max_examples // 4))
def test_output_boundary_on_parts_sharing_a_gpu(name, edges, count, duplication):
    """The same comparison with the parts on ``cuda:0``, the output boundary
    with its split and collection kernels and with its whole-array CuPy
    code (``FUSED_BOUNDARY = False``)."""
    import frontier.multi.output_exchange as output_exchange

    declared, plain = DECLARED[name]
    G = edges.graph("cuda:0")
    source = edges.num_vertices // 2
    options = {"devices": ["cuda:0"] * count, "duplication": duplication}
    fused = fr.enact(declared, G, **_params(name, source), **options).to_numpy()
    output_exchange.FUSED_BOUNDARY = False  # not monkeypatch: hypothesis runs many examples
    try:
        whole_array = fr.enact(declared, G, **_params(name, source), **options).to_numpy()
    finally:
        output_exchange.FUSED_BOUNDARY = True
    snapshot = fr.enact(plain, G, **_params(name, source), **options).to_numpy()
    for other in (whole_array, snapshot):
        for field, values in other.arrays().items():
            if field != "predecessor":
                np.testing.assert_array_equal(getattr(fused, field), values)
        assert fused.iterations == other.iterations
    host = edges.graph("cpu")
    if name == "sssp":
        assert_shortest_path_tree(host, source, fused.distance, fused.predecessor)
    elif name != "cc":
        assert_bfs_tree(host, source, fused.depth, fused.predecessor)


@pytest.mark.gpu
def test_an_output_with_repeats_on_parts_sharing_a_gpu():
    src = [0] * 20 + list(range(1, 21)) * 2
    dst = list(range(1, 21)) + [21] * 20 + [22] * 20
    G = fr.Graph.from_edges(src, dst, num_vertices=40, directed=True, device="cuda:0")
    owner = np.array([0] * 23 + [1] * 17)
    many = fr.enact(_Reach, G, devices=["cuda:0", "cuda:0"],
                    partition=lambda graph, parts, seed: owner)
    assert many.to_numpy().mark.tolist() == [1] * 23 + [0] * 17
