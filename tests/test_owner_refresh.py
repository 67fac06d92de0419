"""The boundary of dense steps over ``"owner"`` arrays
(:mod:`frontier.multi.owner_refresh`): every copy takes its owner's value at
every boundary, with no snapshot and no comparison. It must answer exactly
as the snapshot boundary does (the same primitives with ``dense_steps``
off), on every route, duplication and worker kind, and every copy must be
on its owner's refresh list (a copy left out would keep what its own
device's step wrote)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists, enactor_options

import frontier as fr
from frontier.multi.enactor import boundary_class
from frontier.multi.exchange import Exchange
from frontier.multi.owner_refresh import OwnerRefresh, applies
from primitives.bfs import BFS
from primitives.cc import ConnectedComponents
from primitives.eigenvector import EigenvectorCentrality
from primitives.hits import HITS
from primitives.katz import KatzCentrality
from primitives.pagerank import PageRank, pagerank
from primitives.sssp import SSSP


class SnapshotPageRank(PageRank):
    dense_steps = False


class SnapshotHITS(HITS):
    dense_steps = False


class SnapshotEigenvector(EigenvectorCentrality):
    dense_steps = False


class SnapshotKatz(KatzCentrality):
    dense_steps = False


DENSE = {"pagerank": (PageRank, SnapshotPageRank), "hits": (HITS, SnapshotHITS),
         "eigenvector": (EigenvectorCentrality, SnapshotEigenvector),
         "katz": (KatzCentrality, SnapshotKatz)}


def _params(name: str, G: fr.Graph) -> dict:
    """The parameters ``fr.enact`` needs, as the public functions pass them."""
    n = G.num_vertices
    uniform = 1.0 / n
    common = {"max_iter": 200, "weighted": G.is_weighted}
    if name == "pagerank":
        return {**common, "alpha": 0.85, "tol": 1e-9, "personalization": uniform,
                "dangling": uniform, "nstart": uniform}
    if name == "hits":
        return {**common, "tol": 1e-9, "nstart": uniform, "normalized": True}
    if name == "eigenvector":
        return {**common, "tol": 1e-9, "nstart": uniform}
    return {**common, "alpha": 0.05, "beta": 1.0, "tol": 1e-9, "nstart": 0.0,
            "normalized": True}


def _assert_boundaries_agree(name: str, G: fr.Graph, options: dict, rtol: float = 0.0):
    """``name``'s run with the refresh of every copy and with the snapshot
    boundary: the same exception, or the same answers, and where they are
    exact (``rtol`` 0) in as many iterations."""
    outcomes = []
    for primitive in DENSE[name]:
        try:
            outcomes.append(fr.enact(primitive, G, **_params(name, G), **options).to_numpy())
        except Exception as error:  # noqa: BLE001 - both must fail alike
            outcomes.append(type(error))
    dense, snapshot = outcomes
    if isinstance(snapshot, type):
        assert dense is snapshot
        return
    for field, values in snapshot.arrays().items():
        np.testing.assert_allclose(getattr(dense, field), values, rtol=rtol,
                                   atol=1e-12 if rtol else 0.0)
    if not rtol:
        assert dense.iterations == snapshot.iterations


@dataclass
class _Sums(fr.Result):
    value: object


class _Scribbler(fr.Primitive):
    """Dense steps over one ``"owner"`` array whose new value at a vertex is
    the sum of its in-neighbours' values plus its id, modulo a prime: exact
    integers, and a copy's own step writes a partial sum (its device lacks
    some of its in-edges), which only its owner's refresh puts right."""

    communicate = {"value": "owner"}
    dense_steps = True

    def setup(self):
        self.value = self.vertex_ids().astype(np.int64) + 1

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        pulled = fr.neighbor_reduce(self.graph, fr.functors.SourceValue(self.value), "sum",
                                    dtype=np.int64)
        self.value = (pulled + self.vertex_ids()) % 1_000_003
        return frontier

    def converged(self, frontier, iteration):
        return iteration >= 6

    def result(self):
        return _Sums(self.value)


def test_dense_owner_primitives_take_the_refresh_of_every_copy():
    for declared, plain in DENSE.values():
        assert applies(declared) and not applies(plain)
        assert boundary_class(declared, "selective") is OwnerRefresh
        assert boundary_class(declared, "broadcast") is OwnerRefresh
        assert boundary_class(plain, "selective") is Exchange
    assert applies(_Scribbler)
    for sparse in (BFS, SSSP, ConnectedComponents):
        assert not applies(sparse)

    class Summing(_Scribbler):
        communicate = {"value": "owner", "total": "sum"}

    assert not applies(Summing)  # a "sum" array needs its offers


@pytest.mark.parametrize("name", sorted(DENSE))
@given(edges=edge_lists(max_vertices=40, max_edges=140), options=enactor_options(),
       communication=st.sampled_from(["selective", "broadcast"]))
@settings(max_examples=max(5, settings().max_examples // 4))
def test_the_refresh_of_every_copy_answers_as_the_snapshot_boundary(name, edges, options,
                                                                    communication):
    G = edges.graph("cpu")
    if G.num_vertices == 0:
        return
    _assert_boundaries_agree(name, G, {**options, "communication": communication})


@given(edges=edge_lists(max_vertices=40, max_edges=160), options=enactor_options(),
       communication=st.sampled_from(["selective", "broadcast"]))
@settings(max_examples=max(5, settings().max_examples // 4))
def test_every_copy_takes_its_owners_value(edges, options, communication):
    G = edges.graph("cpu")
    if G.num_vertices == 0:
        return
    one = fr.enact(_Scribbler, G).to_numpy().value
    many = fr.enact(_Scribbler, G, **options, communication=communication).to_numpy()
    np.testing.assert_array_equal(many.value, one)


def test_the_boundary_keeps_no_snapshot():
    G = fr.generators.kronecker(8, 8, seed=5)
    options = {"devices": 2, "duplication": "all", **_params("pagerank", G)}
    dense = fr.enact(PageRank, G, **options)
    snapshot = fr.enact(SnapshotPageRank, G, **options)
    np.testing.assert_array_equal(dense.rank, snapshot.rank)
    # the snapshot of ``spread``: 8 bytes a slot, every vertex a slot of each part
    assert dense.part_bytes + 8 * G.num_vertices <= snapshot.part_bytes


def test_pagerank_meets_the_other_devices_once_a_step(monkeypatch):
    """The change and the next step's dangling mass are summed together
    (``vertex_sums``): one collective a step, the first step's dangling
    mass aside."""
    from frontier.multi.communicator import LocalCommunicator

    made = {"each": 0, "single": 0}
    stepping = []
    real_each, real_single = LocalCommunicator.allreduce_each, LocalCommunicator.allreduce
    real_step = PageRank.step

    def step(self, frontier, iteration):
        stepping.append(True)
        try:
            return real_step(self, frontier, iteration)
        finally:
            stepping.pop()

    def counted(kind, real):
        def collective(self, *args):
            if stepping and self.rank == 0:
                made[kind] += 1
            return real(self, *args)
        return collective

    monkeypatch.setattr(PageRank, "step", step)
    monkeypatch.setattr(LocalCommunicator, "allreduce_each", counted("each", real_each))
    monkeypatch.setattr(LocalCommunicator, "allreduce", counted("single", real_single))
    G = fr.generators.kronecker(8, 8, seed=5)
    many = pagerank(G, devices=2)
    np.testing.assert_allclose(many.rank, pagerank(G).rank, rtol=1e-12, atol=1e-15)
    assert made["each"] == many.iterations
    assert made["single"] == 1  # the first step's dangling mass


@pytest.mark.parametrize("count", [1, 3])
def test_vertex_sums_are_vertex_sum_each(count):
    """On one device and on three (each device's sums), in the order given."""
    seen = []

    class Summing(_Scribbler):
        def setup(self):
            super().setup()
            ids = self.vertex_ids().astype(np.float64)
            arrays = [ids, ids * ids, self.vertex_array(1.0, np.float64)]
            seen.append(([float(total) for total in self.vertex_sums(arrays)],
                         [float(self.vertex_sum(values)) for values in arrays]))

        def converged(self, frontier, iteration):
            return iteration >= 1

    G = fr.generators.kronecker(6, 4, seed=1)
    fr.enact(Summing, G, devices=count)
    n = G.num_vertices
    expected = [n * (n - 1) / 2, (n - 1) * n * (2 * n - 1) / 6, n]
    assert seen == [(expected, expected)] * count


@pytest.mark.gpu
@pytest.mark.parametrize("count", [2, 3])
def test_vertex_sums_on_parts_sharing_a_gpu(count):
    """The GPU's sums read once for arrays of one dtype, and exactly where
    the dtypes differ (an int64 sum that float64 would round)."""
    seen = []
    large = 2**53 + 1

    class Summing(_Scribbler):
        def setup(self):
            super().setup()
            ids = self.vertex_ids().astype(np.float64)
            alike = [ids, ids * ids, self.vertex_array(1.0, np.float64)]
            mixed = [self.vertex_array(large, np.int64), ids]
            seen.append((self.vertex_sums(alike), self.vertex_sums(mixed)))

        def converged(self, frontier, iteration):
            return iteration >= 1

    G = fr.generators.kronecker(6, 4, seed=1, device="cuda:0")
    fr.enact(Summing, G, devices=["cuda:0"] * count)
    n = G.num_vertices
    alike = [n * (n - 1) / 2, (n - 1) * n * (2 * n - 1) / 6, n]
    assert seen == [(alike, [n * large, n * (n - 1) / 2])] * count
    assert all(type(total) is int for _, (total, _) in seen)


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(DENSE))
@given(edges=edge_lists(max_vertices=60, max_edges=240), count=st.integers(2, 4),
       duplication=st.sampled_from(["all", "one_hop"]))
@settings(max_examples=max(3, settings().max_examples // 4))
def test_the_refresh_of_every_copy_on_parts_sharing_a_gpu(name, edges, count, duplication):
    G = edges.graph("cuda:0")
    if G.num_vertices == 0:
        return
    # Not to the bit: the GPU's sums over in-edges add a long row's pieces
    # by atomics, in an order that varies from run to run.
    _assert_boundaries_agree(name, G, {"devices": ["cuda:0"] * count,
                                       "duplication": duplication}, rtol=1e-9)
    scribbled = fr.enact(_Scribbler, G, devices=["cuda:0"] * count,
                         duplication=duplication).to_numpy().value
    np.testing.assert_array_equal(scribbled, fr.enact(_Scribbler, edges.graph("cpu")).value)
