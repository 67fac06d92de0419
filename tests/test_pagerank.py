"""PageRank against networkx.pagerank: random multigraphs, every option, named
graphs, a real dataset, convergence failure and bad input."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from graphs import DATASETS, named_graphs
from hypothesis import given
from hypothesis import strategies as st
from strategies import EdgeList, edge_lists, with_device

import frontier as fr
from primitives import pagerank

# Tight enough that both runs are within 1e-9 of the fixed point.
CONVERGED = {"tol": 1e-10, "max_iter": 1000}


def as_vector(ranks: dict, nodes) -> np.ndarray:
    return np.array([ranks[node] for node in nodes])


def assert_ranks(result, expected: np.ndarray) -> None:
    rank = fr.to_numpy(result.rank)
    assert rank.dtype == np.float64
    np.testing.assert_allclose(rank, expected, rtol=0, atol=1e-6)


def vertex_weights(data, n: int, label: str):
    """A dict of positive weights over a random subset of the vertices, or None."""
    if not data.draw(st.booleans(), label=f"use {label}"):
        return None
    return data.draw(st.dictionaries(st.integers(0, n - 1), st.floats(0.1, 5.0),
                                     min_size=1, max_size=n), label=label)


@with_device
@given(edge_lists(), st.booleans())
def test_random_graphs_match_networkx(device, edges, use_weights):
    weight = "weight" if use_weights and edges.weights is not None else None
    result = pagerank(edges.graph(device), weight=weight, **CONVERGED)
    expected = nx.pagerank(edges.networkx(multigraph=True), weight=weight, **CONVERGED)
    assert_ranks(result, as_vector(expected, range(edges.num_vertices)))
    assert abs(float(fr.to_numpy(result.rank).sum()) - 1) < 1e-9


@given(edge_lists(max_vertices=25, max_edges=60), st.floats(0.5, 0.95), st.data())
def test_options_match_networkx(edges, alpha, data):
    n = edges.num_vertices
    options = {name: vertex_weights(data, n, name)
               for name in ("personalization", "nstart", "dangling")}
    weight = "weight" if edges.weights is not None else None
    result = pagerank(edges.graph("cpu"), alpha=alpha, weight=weight, **options, **CONVERGED)
    expected = nx.pagerank(edges.networkx(), alpha=alpha, weight=weight, **options, **CONVERGED)
    assert_ranks(result, as_vector(expected, range(n)))


@pytest.mark.parametrize("name", sorted(named_graphs()))
@pytest.mark.parametrize("weight", [None, "weight"])
def test_named_graphs_match_networkx(device, name, weight):
    g = named_graphs()[name]
    nodes = list(g)
    G = fr.Graph.from_networkx(g, device=device)
    assert_ranks(pagerank(G, weight=weight, **CONVERGED),
                 as_vector(nx.pagerank(g, weight=weight, **CONVERGED), nodes))
    # Dict arguments are keyed by the graph's own nodes.
    options = {"personalization": {nodes[0]: 1.0, nodes[-1]: 3.0},
               "nstart": {nodes[1]: 2.0, nodes[2]: 1.0},
               "dangling": {nodes[3]: 1.0}}
    assert_ranks(pagerank(G, weight=weight, **options, **CONVERGED),
                 as_vector(nx.pagerank(g, weight=weight, **options, **CONVERGED), nodes))


@pytest.mark.parametrize("name", sorted(named_graphs()))
def test_iterations_match_networkx_at_default_tolerance(name):
    """NetworkX converges in exactly as many iterations as we report: the same
    stopping rule, sum |x - xlast| < N * tol."""
    g = named_graphs()[name]
    result = pagerank(fr.Graph.from_networkx(g, device="cpu"), weight="weight")
    assert result.iterations > 1
    nx.pagerank(g, max_iter=result.iterations)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(g, max_iter=result.iterations - 1)


@pytest.mark.parametrize("max_iter", [0, 1, 5])
def test_no_convergence_raises_like_networkx(max_iter):
    g = nx.karate_club_graph()
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(g, max_iter=max_iter, tol=1e-12)
    with pytest.raises(nx.PowerIterationFailedConvergence, match=str(max_iter)):
        pagerank(fr.Graph.from_networkx(g, device="cpu"), max_iter=max_iter, tol=1e-12)


def test_dangling_vertices_and_zero_weights():
    # 2 has no out-edge; 3's only out-edge weighs 0, so 3 is dangling too.
    edges = EdgeList(5, np.array([0, 1, 1, 3, 4]), np.array([1, 2, 0, 0, 3]),
                     np.array([2.0, 1.0, 3.0, 0.0, 1.0]), directed=True)
    for weight in (None, "weight"):
        result = pagerank(edges.graph("cpu"), weight=weight, dangling={2: 1.0, 4: 1.0},
                          **CONVERGED)
        expected = nx.pagerank(edges.networkx(), weight=weight, dangling={2: 1.0, 4: 1.0},
                               **CONVERGED)
        assert_ranks(result, as_vector(expected, range(5)))


def test_parallel_edges_add_up():
    # Two parallel arcs 0 -> 1 carry twice the rank of the single arc 0 -> 2.
    G = fr.Graph.from_edges([0, 0, 0], [1, 1, 2], num_vertices=3, directed=True, device="cpu")
    rank = fr.to_numpy(pagerank(G, alpha=1.0, nstart={0: 1.0}, max_iter=1, tol=1.0).rank)
    np.testing.assert_allclose(rank, [0, 2 / 3, 1 / 3])


def test_empty_and_single_vertex_graphs():
    empty = fr.Graph.from_edges([], [], num_vertices=0, device="cpu")
    assert len(pagerank(empty).rank) == 0
    single = fr.Graph.from_edges([], [], num_vertices=1, device="cpu")
    np.testing.assert_allclose(fr.to_numpy(pagerank(single).rank), [1.0])


@given(edge_lists())
def test_defaults_match_networkx_defaults(edges):
    """Both weigh edges by default; an unweighted graph's edges weigh 1."""
    expected = nx.pagerank(edges.networkx(multigraph=True))
    assert_ranks(pagerank(edges.graph("cpu")), as_vector(expected, range(edges.num_vertices)))


def test_bad_input():
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    with pytest.raises(ValueError, match="7"):
        pagerank(G, personalization={7: 1.0})
    with pytest.raises(ZeroDivisionError, match="personalization"):
        pagerank(G, personalization={0: 0.0})
    with pytest.raises(ZeroDivisionError, match="nstart"):
        pagerank(G, nstart={1: 0})
    with pytest.raises(TypeError, match="dict"):
        pagerank(G, dangling=[1.0, 0.0, 0.0])
    labelled = fr.Graph.from_networkx(nx.les_miserables_graph(), device="cpu")
    with pytest.raises(ValueError, match="'Nobody'"):
        pagerank(labelled, personalization={"Nobody": 1.0})


def test_netscience_dataset():
    path = DATASETS / "netscience.mtx"
    if not path.exists():
        pytest.skip(f"dataset {path} is not present")
    import scipy.io

    matrix = scipy.io.mmread(path)
    G = fr.Graph.from_scipy(matrix, directed=False, device="cpu")
    g = G.to_networkx()
    for weight in (None, "weight"):
        expected = nx.pagerank(g, weight=weight, **CONVERGED)
        assert_ranks(pagerank(G, weight=weight, **CONVERGED), as_vector(expected, range(len(g))))
