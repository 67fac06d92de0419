"""Bad input to the six primitives, directed and undirected: a specific
error, or NetworkX's answer; never a silently wrong one."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

import frontier as fr
from primitives import (
    betweenness_centrality,
    bfs,
    connected_components,
    dobfs,
    pagerank,
    sssp,
)

TRAVERSALS = {"bfs": bfs, "dobfs": dobfs, "sssp": sssp}
ALL_SIX = {**TRAVERSALS, "cc": connected_components, "bc": betweenness_centrality,
           "pagerank": pagerank}
DIRECTED = pytest.mark.parametrize("directed", [False, True], ids=["undirected", "directed"])


def path(directed: bool, weights=None) -> fr.Graph:
    return fr.Graph.from_edges([0, 1, 2], [1, 2, 3], weights, directed=directed, device="cpu")


@DIRECTED
@pytest.mark.parametrize("name", sorted(TRAVERSALS))
@pytest.mark.parametrize("source, message", [
    (4, "source=4 is out of range for a graph of 4 vertices"),
    (-1, "source=-1 is out of range"),
    (1.0, "source=1.0 must be an integer vertex id"),
    (np.float64(1), "must be an integer vertex id"),
    (True, "source=True must be an integer vertex id"),
    (False, "source=False must be an integer vertex id"),
    ("0", "source='0' must be an integer vertex id"),
    (None, "source=None must be an integer vertex id"),
])
def test_bad_sources(name, directed, source, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        TRAVERSALS[name](path(directed), source=source)


@DIRECTED
@pytest.mark.parametrize("name", sorted(ALL_SIX))
def test_unknown_options_are_refused(name, directed):
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['colour'\]"):
        ALL_SIX[name](path(directed), colour="red")


@pytest.mark.parametrize("option, value", [
    ("devices", 0), ("devices", "abacus"), ("devices", 1.5), ("partition", "halves"),
    ("duplication", "some"), ("communication", "pigeon"), ("memory_limit", "plenty")])
@pytest.mark.parametrize("name", sorted(ALL_SIX))
def test_bad_enactor_options(name, option, value):
    with pytest.raises(ValueError, match=str(value).replace(".", r"\.")):
        ALL_SIX[name](path(False), **{option: value})


@DIRECTED
@pytest.mark.parametrize("name", sorted(TRAVERSALS))
def test_empty_graph_has_no_source(name, directed):
    empty = fr.Graph.from_edges([], [], num_vertices=0, directed=directed, device="cpu")
    with pytest.raises(ValueError, match="out of range for a graph of 0 vertices"):
        TRAVERSALS[name](empty, source=0)


@DIRECTED
def test_empty_graph_whole_graph_primitives(directed):
    empty = fr.Graph.from_edges([], [], num_vertices=0, directed=directed, device="cpu")
    assert len(connected_components(empty).labels) == 0
    assert len(pagerank(empty).rank) == 0
    assert len(betweenness_centrality(empty).centrality) == 0


def oracle(directed: bool, n: int, edges, source: int):
    g = (nx.DiGraph if directed else nx.Graph)()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    return g


@DIRECTED
@pytest.mark.parametrize("source", [0, 3])
def test_graph_without_edges_and_sources_without_edges(directed, source):
    """Vertex 3 has no edge; a 4-vertex graph without edges has none at all."""
    for edges in ([], [(0, 1), (1, 2)]):
        src = [u for u, _ in edges]
        dst = [v for _, v in edges]
        G = fr.Graph.from_edges(src, dst, num_vertices=4, directed=directed, device="cpu")
        g = oracle(directed, 4, edges, source)
        lengths = nx.single_source_shortest_path_length(g, source)
        depth = [lengths.get(v, -1) for v in range(4)]
        assert bfs(G, source).depth.tolist() == depth
        assert dobfs(G, source).depth.tolist() == depth
        assert sssp(G, source).distance.tolist() == [math.inf if d < 0 else float(d)
                                                     for d in depth]
        components = nx.weakly_connected_components(g) if directed \
            else nx.connected_components(g)
        labels = np.arange(4)
        for component in components:
            labels[list(component)] = min(component)
        assert connected_components(G).labels.tolist() == labels.tolist()
        expected = nx.pagerank(g)
        np.testing.assert_allclose(pagerank(G).rank, [expected[v] for v in range(4)],
                                   atol=1e-6)
        expected = nx.betweenness_centrality(g)
        np.testing.assert_allclose(betweenness_centrality(G).centrality,
                                   [expected[v] for v in range(4)], atol=1e-9)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_weights_are_refused_when_building(bad):
    with pytest.raises(ValueError, match="weights must be finite"):
        fr.Graph.from_edges([0, 1], [1, 2], [1.0, bad], device="cpu")


@DIRECTED
def test_negative_weights_where_they_matter(directed):
    G = path(directed, weights=[1.0, -2.0, 3.0])
    with pytest.raises(ValueError, match=r"edge \(1, 2\) has weight -2.0"):
        sssp(G, 0)
    with pytest.raises(ValueError, match="weight -2.0"):
        betweenness_centrality(G, weight="weight")
    with pytest.raises(ValueError, match="weight -2.0"):
        pagerank(G)
    # Hop-count primitives ignore weights: the NetworkX answer.
    assert bfs(G, 0).depth.tolist() == [0, 1, 2, 3]
    assert betweenness_centrality(G).centrality.tolist() == \
        pytest.approx(list(nx.betweenness_centrality(
            oracle(directed, 4, [(0, 1), (1, 2), (2, 3)], 0)).values()))
    assert pagerank(G, weight=None).rank.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("k", [0, 5, -1, 1.5, True, "2"])
def test_bad_sample_sizes(k):
    with pytest.raises(ValueError, match="k="):
        betweenness_centrality(path(False), k=k)


@pytest.mark.parametrize("bad", [{"alpha": "high"}, {"alpha": math.nan}, {"tol": -1},
                                 {"max_iter": 0.5}, {"max_iter": -2}])
def test_bad_pagerank_numbers(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        pagerank(path(True), **bad)
