"""The backend's weighted path functions (frontier/nx_backend/paths.py)
against NetworkX: the same lengths and keys, every path a shortest one, and
NetworkX's own paths where edges are counted."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists


def path_length(g, path, weight):
    for u, v in zip(path, path[1:]):
        assert g.has_edge(u, v), f"{u}->{v} of {path} is not an edge"
    return sum(g[u][v][weight] if weight else 1 for u, v in zip(path, path[1:]))


@given(edges=edge_lists(max_vertices=20, max_edges=60), data=st.data())
def test_dijkstra_paths_through_the_backend(edges, data):
    g = edges.networkx(multigraph=False)
    source = data.draw(st.integers(0, edges.num_vertices - 1))
    target = data.draw(st.integers(0, edges.num_vertices - 1))
    # Every edge weight 1: NetworkX's own paths.
    assert nx.single_source_dijkstra_path(g, source, weight=None, backend="frontier") == \
        nx.single_source_dijkstra_path(g, source, weight=None)
    lengths, paths = nx.single_source_dijkstra(g, source, backend="frontier")
    assert lengths == nx.single_source_dijkstra_path_length(g, source)
    for v, path in paths.items():
        assert path[0] == source and path[-1] == v
        assert path_length(g, path, "weight") == pytest.approx(lengths[v])
    reachable = nx.has_path(g, source, target)
    for weight in (None, "weight"):
        if reachable:
            path = nx.shortest_path(g, source, target, weight=weight, backend="frontier")
            assert path_length(g, path, weight) == \
                pytest.approx(nx.shortest_path_length(g, source, target, weight=weight))
        else:
            with pytest.raises(nx.NetworkXNoPath):
                nx.dijkstra_path(g, source, target, weight=weight or "weight",
                                 backend="frontier")
        to_target = nx.shortest_path(g, target=target, weight=weight, backend="frontier")
        assert to_target.keys() == nx.shortest_path(g, target=target, weight=weight).keys()
        for v, path in to_target.items():
            assert path[0] == v and path[-1] == target


@given(edges=edge_lists(weighted=False, max_vertices=30, max_edges=90), data=st.data(),
       each=st.sampled_from([None, 1, 1.0, 2.5, 0.1, 3]), multigraph=st.booleans())
def test_one_weight_gives_networkx_s_own_dijkstra_paths(edges, data, each, multigraph):
    """Every edge weighing the same (no edge has the attribute: ``each``
    None, or each has ``each``): the Dijkstra functions give NetworkX's own
    paths and lengths, not merely shortest ones (NetworkX's Dijkstra then
    visits in BFS order)."""
    g = edges.networkx(multigraph=multigraph)
    for *_, attributes in g.edges(data=True):
        del attributes["weight"]
    if each is not None:
        nx.set_edge_attributes(g, each, "weight")
    source = data.draw(st.integers(0, edges.num_vertices - 1))
    target = data.draw(st.integers(0, edges.num_vertices - 1))
    assert nx.single_source_dijkstra(g, source, backend="frontier") == \
        nx.single_source_dijkstra(g, source)
    assert nx.single_source_dijkstra_path(g, source, backend="frontier") == \
        nx.single_source_dijkstra_path(g, source)
    assert nx.shortest_path(g, target=target, weight="weight", backend="frontier") == \
        nx.shortest_path(g, target=target, weight="weight")
    if nx.has_path(g, source, target):
        assert nx.dijkstra_path(g, source, target, backend="frontier") == \
            nx.dijkstra_path(g, source, target)


def test_errors_and_declines_are_networkx_s():
    g = nx.path_graph(4)
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_dijkstra(g, 9, backend="frontier")
    with pytest.raises(ValueError, match="method not supported"):
        nx.shortest_path(g, 0, 2, method="astar", backend="frontier")
    with pytest.raises(NotImplementedError):  # all pairs: NetworkX's
        nx.shortest_path(g, backend="frontier")
    assert nx.single_source_dijkstra(g, 2, 2, backend="frontier") == (0, [2])
