"""The ``dense_steps`` declaration: every step's frontier holds every vertex
(PageRank, HITS, the power iterations). It picks a multi-device run's
default ``duplication`` (``"one_hop"`` on a GPU graph driven by threads,
whose parts are built on its GPU), which must answer as ``"all"`` and one
device do, and a wrong declaration is caught with
``FRONTIER_CHECK_DECLARATIONS=1``."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from frontier.enactor import default_duplication
from frontier.primitive import CHECK_VARIABLE, DeclarationError
from primitives.bc import Brandes
from primitives.bfs import BFS, bfs
from primitives.cc import ConnectedComponents
from primitives.dobfs import DOBFS
from primitives.eigenvector import EigenvectorCentrality
from primitives.hits import HITS
from primitives.katz import KatzCentrality
from primitives.pagerank import PageRank, pagerank
from primitives.sssp import SSSP

DENSE = [PageRank, HITS, EigenvectorCentrality, KatzCentrality]
SPARSE = [BFS, DOBFS, SSSP, ConnectedComponents, Brandes]


def _graph(edges, device: str = "cpu") -> fr.Graph:
    return fr.Graph.from_edges(edges.src, edges.dst, edges.weights, edges.num_vertices,
                               edges.directed, device=device)


@pytest.mark.parametrize("primitive", DENSE + SPARSE, ids=lambda p: p.__name__)
def test_the_default_duplication_follows_the_declaration(primitive):
    assert primitive.dense_steps == (primitive in DENSE)
    on_gpu = SimpleNamespace(device=SimpleNamespace(is_gpu=True))  # a GPU graph's stand-in
    expected = "one_hop" if primitive in DENSE else "all"
    assert default_duplication(primitive, on_gpu) == expected
    # parts built on the host: processes, or a graph in host memory
    assert default_duplication(primitive, on_gpu, "processes") == "all"
    on_host = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    assert default_duplication(primitive, on_host) == "all"


def test_a_run_without_a_duplication_records_the_default():
    graph = fr.generators.kronecker(7, 8, seed=3)
    assert pagerank(graph, devices=2).partition["duplication"] == "all"  # a host graph
    assert pagerank(graph, devices=2, duplication="one_hop").partition["duplication"] == \
        "one_hop"
    assert bfs(graph, 0, devices=2).partition["duplication"] == "all"


@given(edges=edge_lists(max_vertices=50, max_edges=200), count=st.integers(2, 3))
@settings(max_examples=max(5, settings().max_examples // 4))
def test_pagerank_answers_alike_under_the_default_and_all(edges, count):
    """The default, ``one_hop`` and ``"all"`` against one device."""
    graph = _graph(edges)
    one = pagerank(graph, devices=1).to_numpy().rank
    for duplication in (None, "one_hop", "all"):
        parts = pagerank(graph, devices=count, duplication=duplication).to_numpy().rank
        np.testing.assert_allclose(parts, one, rtol=1e-9, atol=1e-12)


@dataclass
class _Seen(fr.Result):
    seen: object


class _Shrinking(fr.Primitive):
    """Declares dense_steps, but from its second step on its frontier holds
    only the vertices with an even id."""

    dense_steps = True
    communicate = {"seen": "owner"}

    def setup(self):
        self.seen = self.vertex_array(0, np.int64)

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        self.seen[frontier.ids] += 1
        even = self.vertex_ids()[frontier.ids] % 2 == 0
        return fr.Frontier.from_ids(frontier.ids[even], self.graph.num_vertices,
                                    self.graph.device)

    def converged(self, frontier, iteration):
        return iteration >= 3

    def result(self):
        return _Seen(self.seen)


@pytest.mark.parametrize("devices", [1, 2, 3])
def test_a_frontier_without_every_vertex_is_caught(monkeypatch, devices):
    monkeypatch.setenv(CHECK_VARIABLE, "1")
    graph = fr.Graph.from_edges(np.arange(9), (np.arange(9) + 1) % 9, device="cpu")
    with pytest.raises(DeclarationError, match="dense_steps.*step 1 holds 5 of the graph's 9"):
        fr.enact(_Shrinking, graph, devices=devices)
    monkeypatch.setenv(CHECK_VARIABLE, "0")  # unchecked, the run goes on
    seen = fr.enact(_Shrinking, graph, devices=devices).to_numpy().seen
    assert seen.tolist() == [3 if v % 2 == 0 else 1 for v in range(9)]


@pytest.mark.gpu
@given(edges=edge_lists(max_vertices=60, max_edges=240), count=st.integers(2, 3))
@settings(max_examples=max(3, settings().max_examples // 4))
def test_pagerank_default_on_parts_sharing_a_gpu(edges, count):
    graph = _graph(edges, "cuda:0")
    one = pagerank(graph, devices=["cuda:0"]).to_numpy().rank
    parts = pagerank(graph, devices=["cuda:0"] * count)
    assert parts.partition["duplication"] == "one_hop"
    np.testing.assert_allclose(parts.to_numpy().rank, one, rtol=1e-9, atol=1e-12)
