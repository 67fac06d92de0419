"""HITS against networkx.hits: random graphs (directed and undirected,
weighted, isolated vertices, self loops, parallel edges summed), both
normalizations, named graphs, errors, and the multi-device matrix.

NetworkX computes the leading singular vectors with ARPACK. Where the
largest singular value of the adjacency matrix is simple the vectors are
unique and both must agree; where it is not, NetworkX's answer is whichever
vector of the singular space ARPACK finds, so the test checks instead that
the answer is a fixed point of HITS (``a ~ h A``, ``h ~ A a``).
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from device_matrix import matrix_tests, same_arrays
from graphs import named_graphs
from hypothesis import given
from hypothesis import strategies as st
from oracles import summed_networkx
from strategies import edge_lists, with_device

import frontier as fr
from primitives import hits

TIGHT = {"tol": 1e-13, "max_iter": 20000}


def scores(result):
    return fr.to_numpy(result.hub), fr.to_numpy(result.authority)


def leading_singular_values(g, nodes) -> tuple[np.ndarray, np.ndarray]:
    """The adjacency matrix of ``g`` and its two largest singular values
    (0 where it has fewer)."""
    matrix_ = nx.to_numpy_array(g, nodelist=nodes)
    return matrix_, np.append(np.linalg.svd(matrix_, compute_uv=False), [0.0, 0.0])[:2]


def assert_hits(g, nodes, hub, authority) -> None:
    """A fixed point of HITS normalized to sum 1, and NetworkX's answer where
    the leading singular vectors are unique (NetworkX's ARPACK needs two
    vertices)."""
    matrix_, singular = leading_singular_values(g, nodes)
    np.testing.assert_allclose([hub.sum(), authority.sum()], [1, 1], rtol=0, atol=1e-12)
    from_hubs, from_authorities = hub @ matrix_, matrix_ @ authority
    np.testing.assert_allclose(authority, from_hubs / from_hubs.sum(), rtol=0, atol=1e-9)
    np.testing.assert_allclose(hub, from_authorities / from_authorities.sum(), rtol=0,
                               atol=1e-9)
    if singular[1] < 0.9 * singular[0] and len(nodes) > 1:
        expected_hub, expected_authority = nx.hits(g, tol=1e-12)
        np.testing.assert_allclose(hub, [expected_hub[v] for v in nodes], rtol=0, atol=1e-8)
        np.testing.assert_allclose(authority, [expected_authority[v] for v in nodes], rtol=0,
                                   atol=1e-8)


@with_device
@given(edge_lists(), st.booleans())
def test_random_graphs_match_networkx(device, edges, weighted):
    g = summed_networkx(edges, weighted)
    nodes = list(range(edges.num_vertices))
    singular = leading_singular_values(g, nodes)[1]
    G = edges.graph(device)
    weight = "weight" if weighted else None
    if singular[0] == 0:  # no edge of non-zero weight: NetworkX's ARPACK fails too
        with pytest.raises(nx.NetworkXError):
            hits(G, weight=weight, **TIGHT)
        return
    try:
        hub, authority = scores(hits(G, weight=weight, **TIGHT))
    except nx.PowerIterationFailedConvergence:
        # only where the two leading singular values are within 1%
        assert singular[1] > 0.99 * singular[0]
        return
    assert_hits(g, nodes, hub, authority)


@given(edge_lists(max_vertices=25, max_edges=60, weighted=False), st.data())
def test_unnormalized_and_nstart_match_networkx(edges, data):
    """Unnormalized, NetworkX's authorities are a unit singular vector of
    either sign and its hubs A times it; ours are the non-negative one."""
    g = summed_networkx(edges, False)
    singular = leading_singular_values(g, list(range(edges.num_vertices)))[1]
    if singular[0] == 0 or singular[1] > 0.9 * singular[0] or edges.num_vertices < 2:
        return  # covered by the test above
    n = edges.num_vertices
    nstart = data.draw(st.none() | st.fixed_dictionaries({v: st.floats(0.1, 5.0)
                                                          for v in range(n)}))
    hub, authority = scores(hits(edges.graph(), nstart=nstart, normalized=False, **TIGHT))
    expected = nx.hits(g, tol=1e-12, nstart=nstart, normalized=False)
    expected_hub, expected_authority = (np.array([d[v] for v in range(n)]) for d in expected)
    sign = 1.0 if expected_authority.sum() > 0 else -1.0
    np.testing.assert_allclose(authority, sign * expected_authority, rtol=0, atol=1e-8)
    np.testing.assert_allclose(hub, sign * expected_hub, rtol=0, atol=1e-7)


@pytest.mark.parametrize("name", sorted(named_graphs()))
def test_named_graphs_match_networkx(device, name):
    g = named_graphs()[name]
    hub, authority = scores(hits(fr.Graph.from_networkx(g, device=device), **TIGHT))
    assert_hits(g, list(g), hub, authority)


def test_networkx_example_at_default_settings():
    """NetworkX's own example (Langville and Meyer), to 1e-4 as its test."""
    g = nx.DiGraph([(1, 3), (1, 5), (2, 1), (3, 5), (5, 4), (5, 3), (6, 5)])
    result = hits(fr.Graph.from_networkx(g, device="cpu"))
    expected_hub, expected_authority = nx.hits(g)
    hub, authority = scores(result)
    np.testing.assert_allclose(hub, [expected_hub[v] for v in g], atol=1e-4)
    np.testing.assert_allclose(authority, [expected_authority[v] for v in g], atol=1e-4)


def test_empty_graph_and_errors():
    empty = hits(fr.Graph.from_edges([], [], num_vertices=0, device="cpu"))
    assert empty.hub.shape == empty.authority.shape == (0,)
    G = fr.Graph.from_edges([0, 1], [1, 2], directed=True, device="cpu")
    with pytest.raises(nx.PowerIterationFailedConvergence):
        hits(G, max_iter=0)
    with pytest.raises(nx.NetworkXError, match="undefined"):
        hits(fr.Graph.from_edges([], [], num_vertices=3, device="cpu"))
    with pytest.raises(nx.NetworkXError, match="undefined"):
        hits(G, nstart={2: 1.0})  # a hub without out-edges
    with pytest.raises(ValueError, match="non-negative"):
        hits(fr.Graph.from_edges([0], [1], [-1.0], device="cpu"))
    with pytest.raises(ZeroDivisionError):
        hits(G, nstart={0: 1.0, 1: -1.0})


# The multi-device matrix: the single-device answer, to 1e-9.
test_matrix_on_virtual_devices, test_parts_sharing_a_gpu = matrix_tests(
    lambda G, edges, **o: hits(G, normalized=edges.num_vertices % 2 == 0, **TIGHT, **o),
    same_arrays("hub", "authority", atol=1e-9))
