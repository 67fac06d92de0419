"""Each of the six called with its defaults equals its NetworkX counterpart
called with NetworkX's defaults, on weighted and unweighted random graphs
(both sides see the same graph: a NetworkX graph with a "weight" attribute
where the Frontier graph has weights)."""

from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given
from strategies import edge_lists

import frontier as fr
from primitives import (
    betweenness_centrality,
    bfs,
    connected_components,
    dobfs,
    pagerank,
    sssp,
)

# Positive weights: weighted shortest paths and NetworkX's Dijkstra agree
# without zero-weight ties; the graphs are simple so that every NetworkX
# graph class sees the same edges.
graphs = edge_lists(max_vertices=25, max_edges=70)


def both(edges):
    weights = None if edges.weights is None else np.asarray(edges.weights) + 1
    G = fr.Graph.from_edges(edges.src, edges.dst, weights, edges.num_vertices, edges.directed,
                            deduplicate=True, remove_self_loops=True, device="cpu")
    g = G.to_networkx()
    return G, g


def as_vector(values: dict, n: int, missing) -> np.ndarray:
    return np.array([values.get(v, missing) for v in range(n)], dtype=np.float64)


@given(graphs)
def test_traversals_with_defaults(edges):
    G, g = both(edges)
    n, source = G.num_vertices, G.num_vertices - 1
    hops = as_vector(nx.single_source_shortest_path_length(g, source), n, -1)
    np.testing.assert_array_equal(bfs(G, source).depth, hops)
    np.testing.assert_array_equal(dobfs(G, source).depth, hops)
    lengths = as_vector(nx.single_source_dijkstra_path_length(g, source), n, np.inf)
    np.testing.assert_allclose(sssp(G, source).distance, lengths, rtol=1e-12)


@given(graphs)
def test_components_with_defaults(edges):
    G, g = both(edges)
    components = nx.weakly_connected_components(g) if G.directed \
        else nx.connected_components(g)
    expected = np.arange(G.num_vertices)
    for component in components:
        expected[list(component)] = min(component)
    np.testing.assert_array_equal(connected_components(G).labels, expected)


@given(graphs)
def test_centralities_with_defaults(edges):
    G, g = both(edges)
    n = G.num_vertices
    np.testing.assert_allclose(betweenness_centrality(G).centrality,
                               as_vector(nx.betweenness_centrality(g), n, 0), atol=1e-9)
    np.testing.assert_allclose(pagerank(G).rank, as_vector(nx.pagerank(g), n, 0), atol=1e-6)
