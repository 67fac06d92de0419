"""Runs in pieces on the CPU's cores (``independent_items``): betweenness
split over its sources answers as one run over all of them, the run stays
whole where it must, and a wrong declaration is caught with
``FRONTIER_CHECK_DECLARATIONS=1`` (on in the suite, so every split run
below is also compared with a whole one)."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from frontier import split_runs
from frontier.primitive import CHECK_VARIABLE, DeclarationError
from primitives import betweenness_centrality, edge_betweenness_centrality


def _graph(edges) -> fr.Graph:
    return fr.Graph.from_edges(edges.src, edges.dst, edges.weights, edges.num_vertices,
                               edges.directed, device="cpu")


@contextlib.contextmanager
def threads(count: int, min_work: int = 0):
    """Runs split into ``count`` pieces at most, from ``min_work`` arc passes."""
    with mock.patch.object(split_runs, "MIN_WORK", min_work), \
            mock.patch.dict(os.environ, {split_runs.THREADS_VARIABLE: str(count)}):
        yield


@given(edge_lists(max_vertices=30, max_edges=90), st.booleans(), st.booleans(),
       st.integers(2, 4), st.data())
def test_betweenness_in_pieces_is_one_run(edges, normalized, endpoints, count, data):
    G = _graph(edges)
    weight = "weight" if edges.weights is not None else None
    if weight is not None:
        G = fr.Graph.from_edges(edges.src, edges.dst, np.abs(edges.weights) + 1,
                                edges.num_vertices, edges.directed, device="cpu")
    k = data.draw(st.none() | st.integers(1, edges.num_vertices))
    options = dict(k=k, normalized=normalized, endpoints=endpoints, weight=weight, seed=7)
    with threads(1):
        whole = betweenness_centrality(G, **options)
    with threads(count):
        split = betweenness_centrality(G, **options)
    sources = edges.num_vertices if k is None else k
    assert getattr(split, "pieces", 1) == min(count, sources)
    assert not hasattr(whole, "pieces")
    np.testing.assert_allclose(split.centrality, whole.centrality, rtol=1e-9, atol=1e-12)


@given(edge_lists(max_vertices=25, max_edges=70), st.integers(2, 3))
def test_edge_betweenness_in_pieces_is_one_run(edges, count):
    G = _graph(edges)
    with threads(1):
        whole = edge_betweenness_centrality(G)
    with threads(count):
        split = edge_betweenness_centrality(G)
    np.testing.assert_array_equal(split.src, whole.src)
    np.testing.assert_array_equal(split.dst, whole.dst)
    np.testing.assert_allclose(split.centrality, whole.centrality, rtol=1e-9, atol=1e-12)


def test_the_counts_add_up():
    G = fr.generators.kronecker(8, 8, seed=1, device="cpu")
    with threads(1):
        whole = betweenness_centrality(G, k=12, seed=0)
    with threads(3):
        split = betweenness_centrality(G, k=12, seed=0)
    assert split.pieces == 3 and split.devices == ("cpu",)
    assert split.iterations == whole.iterations  # every source's levels, once
    assert split.elapsed_s >= split.setup_s > 0


def test_a_run_stays_whole_where_it_must():
    G = fr.generators.kronecker(7, 8, seed=1, device="cpu")
    with threads(4):
        assert betweenness_centrality(G, k=1, seed=0).__dict__.get("pieces") is None  # one item
        assert betweenness_centrality(G, k=8, seed=0, max_iterations=10_000) \
            .__dict__.get("pieces") is None
        assert betweenness_centrality(G, k=8, seed=0, memory_limit="1G") \
            .__dict__.get("pieces") is None
        assert betweenness_centrality(G, k=8, seed=0).pieces == 4
    with threads(4, min_work=G.num_arcs * 8 + 1):  # below the work that pays
        assert betweenness_centrality(G, k=8, seed=0).__dict__.get("pieces") is None
    with threads(1):
        assert betweenness_centrality(G, k=8, seed=0).__dict__.get("pieces") is None


@pytest.mark.parametrize("value", ["0", "-2", "two", "1.5"])
def test_a_bad_thread_count_is_refused(value):
    with mock.patch.dict(os.environ, {split_runs.THREADS_VARIABLE: value}), \
            pytest.raises(ValueError, match="FRONTIER_CPU_THREADS"):
        split_runs.cpu_threads()


def test_the_default_thread_count_follows_the_cores():
    with mock.patch.dict(os.environ, {split_runs.THREADS_VARIABLE: ""}):
        count = split_runs.cpu_threads()
    assert 1 <= count <= split_runs.MAX_THREADS
    assert count <= (os.cpu_count() or 1)


@dataclass
class _Total(fr.Result):
    total: object


class _Reached(fr.Primitive):
    """For each item (a source), the vertices one hop away counted into
    ``total``; with ``forget`` its ``absorb`` drops the other run's counts
    (a wrong declaration), with ``fail`` a piece raises."""

    parameters = ("items", "forget", "fail", "pause")
    defaults = {"forget": False, "fail": None, "pause": 0.0}
    independent_items = "items"

    def setup(self):
        self.items = list(self.params["items"])
        self.total = self.vertex_array(0, np.int64)

    def initial_frontier(self):
        return self.frontier_of([])

    def converged(self, frontier, iteration):
        return iteration == len(self.items)

    def step(self, frontier, iteration):
        item = self.items[iteration]
        if item == self.params["fail"]:
            raise RuntimeError(f"item {item} failed")
        time.sleep(self.params["pause"])
        ends = self.graph.columns[self.graph.offsets[item]:self.graph.offsets[item + 1]]
        np.add.at(self.total, ends, 1)
        return frontier

    def absorb(self, other):
        if not self.params["forget"]:
            self.total += other.total

    def result(self):
        return _Total(self.total.copy())


def test_a_user_primitive_runs_in_pieces():
    G = fr.generators.kronecker(7, 8, seed=2, device="cpu")
    items = list(range(0, G.num_vertices, 3))
    with threads(1):
        whole = fr.enact(_Reached, G, items=items)
    with threads(3):
        split = fr.enact(_Reached, G, items=items)
    assert split.pieces == 3
    np.testing.assert_array_equal(split.total, whole.total)
    assert split.iterations == len(items)


def test_items_given_as_an_iterator_are_read_once():
    G = fr.generators.kronecker(7, 8, seed=2, device="cpu")
    with threads(1):
        whole = fr.enact(_Reached, G, items=list(range(0, 40, 2)))
    with threads(3):  # the check's whole run reads the same items
        split = fr.enact(_Reached, G, items=iter(range(0, 40, 2)))
    assert split.pieces == 3
    np.testing.assert_array_equal(split.total, whole.total)


def test_a_wrong_absorb_is_caught():
    G = fr.generators.kronecker(7, 8, seed=2, device="cpu")
    with threads(2), mock.patch.dict(os.environ, {CHECK_VARIABLE: "1"}), \
            pytest.raises(DeclarationError, match="independent_items='items'.*2 pieces.*total"):
        fr.enact(_Reached, G, items=list(range(20)), forget=True)
    with threads(2), mock.patch.dict(os.environ, {CHECK_VARIABLE: "0"}):  # unchecked: wrong
        wrong = fr.enact(_Reached, G, items=list(range(20)), forget=True)
    with threads(1):
        right = fr.enact(_Reached, G, items=list(range(20)), forget=True)
    assert wrong.total.sum() < right.total.sum()


def test_a_failing_piece_raises_its_error():
    G = fr.generators.kronecker(7, 8, seed=2, device="cpu")
    with threads(3), pytest.raises(RuntimeError, match="item 7 failed"):
        fr.enact(_Reached, G, items=list(range(12)), fail=7)


def test_a_failing_piece_stops_the_others():
    """Piece 1 fails at its first item; pieces 0 and 2 would take 1 s each
    (10 items of 0.1 s) but stop at their next step."""
    G = fr.generators.kronecker(6, 8, seed=2, device="cpu")
    begin = time.perf_counter()
    with threads(3), pytest.raises(RuntimeError, match="item 1 failed"):
        fr.enact(_Reached, G, items=list(range(30)), fail=1, pause=0.1)
    assert time.perf_counter() - begin < 0.6


def test_a_declaration_without_absorb_says_so():
    class NoAbsorb(_Reached):
        absorb = fr.Primitive.absorb

    G = fr.generators.kronecker(6, 8, seed=2, device="cpu")
    with threads(2), pytest.raises(NotImplementedError, match="must define absorb"):
        fr.enact(NoAbsorb, G, items=list(range(6)))


@pytest.mark.gpu
def test_a_gpu_run_stays_whole():
    G = fr.generators.kronecker(8, 8, seed=1, device="cuda:0")
    with threads(4):
        result = betweenness_centrality(G, k=8, seed=0)
    assert result.__dict__.get("pieces") is None and result.devices == ("cuda:0",)


def test_no_more_pieces_than_fit_in_memory():
    G = fr.generators.kronecker(7, 8, seed=1, device="cpu")
    with threads(4):
        assert betweenness_centrality(G, k=8, seed=0).pieces == 4
        with mock.patch.object(split_runs, "PIECE_BYTES_PER_ARC", 1 << 60):
            assert betweenness_centrality(G, k=8, seed=0).__dict__.get("pieces") is None
