"""Betweenness centrality against networkx.betweenness_centrality: random
multigraphs (unweighted and weighted), sampled sources, named graphs, a real
dataset and bad input."""

from __future__ import annotations

import dataclasses
import random

import networkx as nx
import numpy as np
import pytest
from graphs import DATASETS, named_graphs
from hypothesis import given
from hypothesis import strategies as st
from strategies import EdgeList, edge_lists, with_device

import frontier as fr
from primitives import betweenness_centrality

small_graphs = edge_lists(max_vertices=30, max_edges=80)


def positive(edges: EdgeList) -> EdgeList:
    """The same graph with every weight made positive (shifted up by 1)."""
    return dataclasses.replace(edges, weights=edges.weights + 1)


def assert_centrality(result, expected: dict, nodes) -> None:
    centrality = fr.to_numpy(result.centrality)
    assert centrality.dtype == np.float64
    np.testing.assert_allclose(centrality, [expected[node] for node in nodes],
                               rtol=0, atol=1e-6)


@with_device
@given(small_graphs, st.booleans(), st.booleans())
def test_random_graphs_match_networkx(device, edges, normalized, endpoints):
    result = betweenness_centrality(edges.graph(device), normalized=normalized,
                                    endpoints=endpoints)
    # NetworkX's Brandes visits each neighbour once, so the multigraph oracle
    # counts parallel edges once too.
    expected = nx.betweenness_centrality(edges.networkx(multigraph=True),
                                         normalized=normalized, endpoints=endpoints)
    assert_centrality(result, expected, range(edges.num_vertices))


@with_device
@given(edge_lists(weighted=True, max_vertices=25, max_edges=70), st.booleans(), st.booleans())
def test_weighted_random_graphs_match_networkx(device, edges, normalized, endpoints):
    edges = positive(edges)
    result = betweenness_centrality(edges.graph(device), weight="weight",
                                    normalized=normalized, endpoints=endpoints)
    expected = nx.betweenness_centrality(edges.networkx(multigraph=True), weight="weight",
                                         normalized=normalized, endpoints=endpoints)
    assert_centrality(result, expected, range(edges.num_vertices))


@given(small_graphs, st.booleans(), st.booleans(), st.integers(0, 2**32 - 1), st.data())
def test_sampled_sources_match_networkx(edges, normalized, endpoints, seed, data):
    k = data.draw(st.integers(1, edges.num_vertices), label="k")
    weight = "weight" if data.draw(st.booleans(), label="weighted") \
        and edges.weights is not None else None
    if weight is not None:
        edges = positive(edges)
    result = betweenness_centrality(edges.graph("cpu"), k=k, seed=seed, weight=weight,
                                    normalized=normalized, endpoints=endpoints)
    expected = nx.betweenness_centrality(edges.networkx(), k=k, seed=seed, weight=weight,
                                         normalized=normalized, endpoints=endpoints)
    # NaN where NetworkX has no data (one sampled source, endpoints excluded)
    assert_centrality(result, expected, range(edges.num_vertices))


@pytest.mark.parametrize("name", sorted(named_graphs()))
def test_named_graphs_match_networkx(device, name):
    g = named_graphs()[name]
    G = fr.Graph.from_networkx(g, device=device)
    for weight in (None, "weight"):
        for normalized in (True, False):
            for endpoints in (False, True):
                options = {"weight": weight, "normalized": normalized, "endpoints": endpoints}
                assert_centrality(betweenness_centrality(G, **options),
                                  nx.betweenness_centrality(g, **options), list(g))
    assert_centrality(betweenness_centrality(G, k=7, seed=42),
                      nx.betweenness_centrality(g, k=7, seed=42), list(g))


def test_parallel_edges_and_self_loops_count_once():
    # A path 0 - 1 - 2 with 0 - 1 doubled and loops on 1 and 2.
    multi = fr.Graph.from_edges([0, 0, 1, 1, 2], [1, 1, 2, 1, 2], device="cpu")
    simple = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    expected = [0.0, 1.0, 0.0]
    for G in (multi, simple):
        result = betweenness_centrality(G, normalized=False)
        np.testing.assert_allclose(fr.to_numpy(result.centrality), expected)


def test_lightest_parallel_edge_is_the_path_length():
    # 0 -> 2 directly weighs 5 or 1 (parallel); via 1 it weighs 2.
    G = fr.Graph.from_edges([0, 0, 0, 1], [2, 2, 1, 2], [5.0, 1.0, 1.0, 1.0],
                            directed=True, device="cpu")
    result = betweenness_centrality(G, weight="weight", normalized=False)
    np.testing.assert_allclose(fr.to_numpy(result.centrality), [0.0, 0.0, 0.0])
    G = fr.Graph.from_edges([0, 0, 1], [2, 1, 2], [5.0, 1.0, 1.0], directed=True, device="cpu")
    result = betweenness_centrality(G, weight="weight", normalized=False)
    np.testing.assert_allclose(fr.to_numpy(result.centrality), [0.0, 1.0, 0.0])


def test_k_equal_to_n_ignores_seed():
    g = nx.florentine_families_graph()
    G = fr.Graph.from_networkx(g, device="cpu")
    full = fr.to_numpy(betweenness_centrality(G).centrality)
    sampled = fr.to_numpy(betweenness_centrality(G, k=len(g), seed=1).centrality)
    np.testing.assert_array_equal(full, sampled)


@pytest.mark.parametrize("make_seed", [random.Random, np.random.default_rng])
def test_seed_generators_sample_like_networkx(make_seed):
    g = nx.les_miserables_graph()
    G = fr.Graph.from_networkx(g, device="cpu")
    result = betweenness_centrality(G, k=5, seed=make_seed(11), endpoints=True)
    expected = nx.betweenness_centrality(g, k=5, seed=make_seed(11), endpoints=True)
    assert_centrality(result, expected, list(g))


def test_empty_graph():
    empty = fr.Graph.from_edges([], [], num_vertices=0, device="cpu")
    assert len(betweenness_centrality(empty).centrality) == 0
    assert len(betweenness_centrality(empty, k=0).centrality) == 0


def test_bad_input():
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    for k in (0, 4, -1, 1.5):
        with pytest.raises(ValueError, match=f"k={k}"):
            betweenness_centrality(G, k=k)
    with pytest.raises(ValueError, match="no edge weights"):
        betweenness_centrality(G, weight="weight")
    W = fr.Graph.from_edges([0, 1], [1, 2], [1.0, 0.0], device="cpu")
    with pytest.raises(ValueError, match="weight 0.0"):
        betweenness_centrality(W, weight="weight")


def test_chesapeake_dataset():
    path = DATASETS / "chesapeake.mtx"
    if not path.exists():
        pytest.skip(f"dataset {path} is not present")
    import scipy.io

    G = fr.Graph.from_scipy(scipy.io.mmread(path), directed=False, weighted=False,
                            device="cpu")
    g = G.to_networkx()
    for normalized in (True, False):
        expected = nx.betweenness_centrality(g, normalized=normalized)
        assert_centrality(betweenness_centrality(G, normalized=normalized), expected, list(g))
