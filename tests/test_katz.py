"""Katz centrality against networkx.katz_centrality: random graphs (directed
and undirected, weighted, isolated vertices, self loops, parallel edges
summed), every option, named graphs, errors, and the multi-device matrix."""

from __future__ import annotations

import networkx as nx
import pytest
from device_matrix import matrix_tests, same_arrays
from graphs import named_graphs
from hypothesis import given
from hypothesis import strategies as st
from oracles import assert_same_outcome, outcome, summed_networkx
from strategies import edge_lists, with_device

import frontier as fr
from primitives import katz_centrality

TIGHT = {"tol": 1e-10, "max_iter": 1000}


@with_device
@given(edge_lists(), st.booleans(), st.floats(0.01, 0.3), st.booleans())
def test_random_graphs_match_networkx(device, edges, weighted, alpha, normalized):
    """Also where the series diverges (alpha above 1 / lambda_max): both
    then raise PowerIterationFailedConvergence."""
    weight = "weight" if weighted else None
    actual = outcome(katz_centrality, edges.graph(device), alpha=alpha, weight=weight,
                     normalized=normalized, **TIGHT)
    expected = outcome(nx.katz_centrality, summed_networkx(edges, weighted), alpha=alpha,
                       weight="weight", normalized=normalized, **TIGHT)
    assert_same_outcome(actual, expected, atol=1e-8)


@given(edge_lists(max_vertices=20, max_edges=40), st.data())
def test_options_and_iterations_match_networkx(edges, data):
    n = edges.num_vertices
    values = st.floats(-2.0, 5.0)
    beta = data.draw(st.one_of(values, st.fixed_dictionaries({v: values for v in range(n)})))
    nstart = data.draw(st.none() | st.fixed_dictionaries({v: values for v in range(n)}))
    max_iter = data.draw(st.integers(0, 40))
    tol = data.draw(st.sampled_from([1e-3, 1e-6]))
    options = {"alpha": 0.05, "beta": beta, "nstart": nstart, "max_iter": max_iter, "tol": tol}
    actual = outcome(katz_centrality, edges.graph(), **options)
    expected = outcome(nx.katz_centrality, summed_networkx(edges, False), weight="weight",
                       **options)
    assert_same_outcome(actual, expected, atol=1e-12)


def test_a_subnormal_norm_scales_as_networkx():
    """NetworkX multiplies by the norm's reciprocal, which overflows for a
    subnormal norm (hypothesis found it: one vertex, beta 5e-324)."""
    g = nx.empty_graph(1)
    expected = nx.katz_centrality(g, alpha=0.05, beta=5e-324, tol=1e-3)
    actual = katz_centrality(fr.Graph.from_networkx(g, device="cpu"), alpha=0.05,
                             beta=5e-324, tol=1e-3).to_numpy().centrality
    assert expected == {0: float("inf")} and actual.tolist() == [float("inf")]


@pytest.mark.parametrize("name", sorted(named_graphs()))
def test_named_graphs_match_networkx(device, name):
    """With alpha=0.02, and with every default (alpha=0.1 diverges on some:
    then both raise)."""
    g = named_graphs()[name]
    G = fr.Graph.from_networkx(g, device=device)
    as_nodes = nx.relabel_nodes(g, {node: i for i, node in enumerate(g)})
    for options in ({"alpha": 0.02}, {}):
        assert_same_outcome(outcome(katz_centrality, G, **options),
                            outcome(nx.katz_centrality, as_nodes, **options), atol=1e-12)


def test_empty_graph_and_errors():
    empty = fr.Graph.from_edges([], [], num_vertices=0, device="cpu")
    assert katz_centrality(empty).centrality.shape == (0,)
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    with pytest.raises(nx.NetworkXError, match="every node"):
        katz_centrality(G, beta={0: 1.0, 1: 1.0})
    with pytest.raises(nx.PowerIterationFailedConvergence):
        katz_centrality(G, max_iter=0)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        katz_centrality(G, alpha=2.0)
    with pytest.raises(ValueError, match="alpha"):
        katz_centrality(G, alpha=float("nan"))
    with pytest.raises(ValueError, match="beta"):
        katz_centrality(G, beta="one")


# The multi-device matrix: the single-device answer, to 1e-9.
test_matrix_on_virtual_devices, test_parts_sharing_a_gpu = matrix_tests(
    lambda G, edges, **o: katz_centrality(
        G, alpha=0.05, beta={v: 1.0 + v % 3 for v in range(edges.num_vertices)}, **TIGHT, **o),
    same_arrays("centrality", atol=1e-9))
