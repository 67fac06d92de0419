"""Strongly connected components against NetworkX: random graphs (directed
and undirected, isolated vertices, self loops, parallel edges), long cycles
and chains, the multi-device matrix, and the NetworkX backend's three
functions."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from device_matrix import matrix_tests, same_arrays
from hypothesis import given
from strategies import edge_lists, with_device
from test_nx_backend import check, nx_graphs, quiet_cache  # noqa: F401 -- a fixture

import frontier as fr
from frontier.nx_backend import strongly_connected
from primitives import strongly_connected_components


@given(edge_lists(directed=True, max_vertices=60, max_edges=150))
def test_the_backend_s_scipy_labels_are_the_primitive_s(edges):
    """On the CPU the backend labels components with SciPy's csgraph: the
    same labels as the primitive (each component's smallest vertex)."""
    graph = edges.graph("cpu")
    np.testing.assert_array_equal(strongly_connected.scipy_labels(graph),
                                  fr.to_numpy(strongly_connected_components(graph).labels))


def expected_labels(g, n: int) -> np.ndarray:
    """NetworkX's components as labels: the smallest vertex of each."""
    components = nx.strongly_connected_components(g) if g.is_directed() \
        else nx.connected_components(g)
    labels = np.empty(n, np.int64)
    for component in components:
        labels[list(component)] = min(component)
    return labels


@with_device
@given(edge_lists(max_vertices=60, max_edges=150))
def test_random_graphs_match_networkx(device, edges):
    result = strongly_connected_components(edges.graph(device))
    np.testing.assert_array_equal(fr.to_numpy(result.labels),
                                  expected_labels(edges.networkx(), edges.num_vertices))


@pytest.mark.parametrize("n", [1, 2, 50])
def test_cycles_chains_and_their_unions(device, n):
    """A cycle is one component, a chain n components, and a chain of
    cycles with an edge back one component again."""
    ring = np.arange(n)
    cycle = fr.Graph.from_edges(ring, (ring + 1) % n, directed=True, device=device)
    assert (fr.to_numpy(strongly_connected_components(cycle).labels) == 0).all()
    chain = fr.Graph.from_edges(ring[:-1], ring[1:], num_vertices=n, directed=True,
                                device=device)
    np.testing.assert_array_equal(fr.to_numpy(strongly_connected_components(chain).labels),
                                  ring)
    g = nx.DiGraph()
    for k in range(n):  # triangles k, k+n, k+2n, joined k -> k+1
        nx.add_cycle(g, [k, k + n, k + 2 * n])
        if k:
            g.add_edge(k - 1, k)
    G = fr.Graph.from_edges(*np.array(list(g.edges)).T, num_vertices=3 * n, directed=True,
                            device=device)
    np.testing.assert_array_equal(fr.to_numpy(strongly_connected_components(G).labels),
                                  expected_labels(g, 3 * n))
    g.add_edge(n - 1, 0)
    G = fr.Graph.from_edges(*np.array(list(g.edges)).T, num_vertices=3 * n, directed=True,
                            device=device)
    assert (fr.to_numpy(strongly_connected_components(G).labels) == 0).all()


def test_empty_graph():
    G = fr.Graph.from_edges([], [], num_vertices=0, directed=True, device="cpu")
    assert strongly_connected_components(G).labels.shape == (0,)


# The multi-device matrix: the single-device labels, exactly.
test_matrix_on_virtual_devices, test_parts_sharing_a_gpu = matrix_tests(
    lambda G, edges, **o: strongly_connected_components(G, **o), same_arrays("labels"))


# the NetworkX backend

@given(nx_graphs())
def test_backend_matches_networkx(graph):
    """Counts and connectivity exactly (undirected graphs raise
    NetworkXNotImplemented before dispatching, the null graph
    NetworkXPointlessConcept); the components as sets, in a reverse
    topological order of the condensation, and in NetworkX's order where
    that order is the only one."""
    directed = graph.is_directed()
    check(nx.number_strongly_connected_components, graph, dispatched=directed)
    check(nx.is_strongly_connected, graph, dispatched=directed)
    if not directed:
        return
    got = list(nx.strongly_connected_components(graph, backend="frontier"))
    expected = list(nx.strongly_connected_components(graph))
    assert sorted(map(sorted, got)) == sorted(map(sorted, expected))
    position = {node: k for k, component in enumerate(got) for node in component}
    assert all(position[v] <= position[u] for u, v in graph.edges())
    condensation = nx.condensation(graph, expected)
    order = list(nx.topological_sort(condensation))
    if all(condensation.has_edge(a, b) for a, b in zip(order, order[1:])):
        assert got == expected
