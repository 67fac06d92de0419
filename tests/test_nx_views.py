"""The NetworkX backend on NetworkX's graph views: ``subgraph``,
``edge_subgraph``, ``reverse``, ``restricted_view``, ``subgraph_view``,
``to_directed``/``to_undirected`` views, and views of views, of every graph
class. A view converts to what a copy of it converts to, and every function
gives NetworkX's outcome on it."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_nx_backend import check, node_of, nx_graphs

from frontier.nx_backend import convert_from_nx


@pytest.fixture(autouse=True)
def quiet_cache():
    """Converted graphs are cached on G; NetworkX warns on every reuse."""
    with nx.config(warnings_to_ignore={"cache"}):
        yield


def edges_of(graph) -> list:
    """Every edge, with its key for a multigraph (what edge_subgraph takes)."""
    return list(graph.edges(keys=True) if graph.is_multigraph() else graph.edges)


@st.composite
def views(draw, graph, depth=2):
    """A view of ``graph`` (and now and then a view of that view, ``depth`` deep at most)."""
    nodes, edges = list(graph), edges_of(graph)
    some_nodes = st.lists(st.sampled_from(nodes), unique=True) if nodes else st.just([])
    some_edges = st.lists(st.sampled_from(edges), unique=True) if edges else st.just([])
    kinds = ["subgraph", "edge_subgraph", "restricted_view", "subgraph_view", "to_directed"]
    kinds += ["reverse", "to_undirected"] if graph.is_directed() else []
    kind = draw(st.sampled_from(kinds))
    if kind == "subgraph":
        view = graph.subgraph(draw(some_nodes))
    elif kind == "edge_subgraph":
        view = graph.edge_subgraph(draw(some_edges))
    elif kind == "restricted_view":
        view = nx.restricted_view(graph, draw(some_nodes), draw(some_edges))
    elif kind == "subgraph_view":
        hidden = set(draw(some_edges))
        if not graph.is_directed():  # NetworkX asks about either orientation
            hidden |= {(v, u, *key) for u, v, *key in hidden}
        view = nx.subgraph_view(graph, filter_edge=lambda *edge: edge not in hidden)
    elif kind == "reverse":
        view = graph.reverse(copy=False)
    elif kind == "to_undirected":
        view = graph.to_undirected(as_view=True)
    else:
        view = graph.to_directed(as_view=True)
    if depth > 1 and draw(st.integers(0, 3)) == 0:
        return draw(views(view, depth - 1))
    return view


def test_edge_subgraph_of_a_multigraph_converts():
    """Regression: NetworkX reports lengths for these rows that ignore the
    edge filter (node 0 has 2 neighbours by len(), 1 by iteration), which the
    conversion trusted (``ValueError: iterator too short``)."""
    graph = nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 3), (0, 2)])
    view = graph.edge_subgraph([(0, 1, 0), (1, 2, 0)])
    assert len(view._adj[0]) == 2 and list(view._adj[0]) == [1]  # NetworkX's lengths
    converted = convert_from_nx(view)
    assert converted.nodes == [0, 1, 2] and converted.number_of_edges() == 2
    check(nx.pagerank, view)
    check(nx.connected_components, view)
    directed = nx.MultiDiGraph([(0, 1), (0, 1), (1, 2), (2, 0)]).edge_subgraph([(0, 1, 1),
                                                                                (2, 0, 0)])
    check(nx.bfs_edges, directed, 2)
    check(nx.single_source_shortest_path_length, directed, 0)


def rows(adjacency) -> list:
    """Each vertex's neighbours, sorted (a view's order is its own, not its copy's)."""
    offsets, neighbors = adjacency.offsets, adjacency.neighbors
    return [sorted(neighbors[a:b].tolist()) for a, b in zip(offsets[:-1], offsets[1:])]


def edge_list(converted, weighted: bool) -> list:
    """The converted edges, with their weights if ``weighted``, sorted
    (undirected ones as a sorted pair)."""
    ends = zip(converted.edge_src.tolist(), converted.edge_dst.tolist())
    if not converted.directed:
        ends = (tuple(sorted(pair)) for pair in ends)
    if not weighted:
        return sorted(ends)
    return sorted(zip(ends, converted.weights["weight"].values.tolist()))


def one_sided(view) -> bool:
    """Whether an edge of an undirected view has other data in its two
    directions (``to_undirected(as_view=True)`` of a directed graph with
    both (u, v) and (v, u)): its copy keeps one of them."""
    return not view.is_directed() and any(view._adj[u][v] != view._adj[v][u]
                                          for u, v in view.edges())


def test_weights_of_a_two_sided_undirected_view_are_left_to_networkx():
    """NetworkX weighs (u, v) by u's row here and (v, u) by v's."""
    graph = nx.DiGraph()
    graph.add_weighted_edges_from([("a", "b", 1), ("b", "a", 5), ("b", "c", 1)])
    view = graph.to_undirected(as_view=True)
    assert view["a"]["b"]["weight"] == 1 and view["b"]["a"]["weight"] == 5
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(view, "c", backend="frontier")
    with nx.config(backend_priority=["frontier"], fallback_to_nx=True):
        assert nx.single_source_dijkstra_path_length(view, "c") == {"c": 0, "b": 1, "a": 6}
    check(nx.single_source_shortest_path_length, view, "c")  # no weights: Frontier runs


@given(nx_graphs(), st.data())
def test_a_view_converts_as_its_copy(graph, data):
    view = data.draw(views(graph))
    copy = view.copy()
    ours, theirs = (convert_from_nx(g, edge_attrs={"weight": 1}) for g in (view, copy))
    assert ours.nodes == theirs.nodes and ours.directed == theirs.directed
    assert rows(ours.successors) == rows(theirs.successors)
    assert rows(ours.predecessors) == rows(theirs.predecessors)
    assert edge_list(ours, False) == edge_list(theirs, False)
    if one_sided(view):  # the backend declines such weights
        assert ours.weights["weight"].problem is not None
    else:
        assert edge_list(ours, True) == edge_list(theirs, True)


@given(nx_graphs(), st.data())
def test_functions_on_views_match_networkx(graph, data):
    view = data.draw(views(graph))
    source, target = node_of(view, data), node_of(view, data)
    weight = data.draw(st.sampled_from([None, "weight"]))
    if one_sided(view):  # left to NetworkX with a weight (tested above)
        weight = None
    check(nx.bfs_edges, view, source)
    check(nx.bfs_layers, view, source)
    check(nx.single_source_shortest_path_length, view, source)
    check(nx.single_source_dijkstra_path_length, view, source, weight=weight, ordered=False)
    check(nx.shortest_path_length, view, source, target, weight=weight)
    check(nx.betweenness_centrality, view, weight=weight)
    check(nx.pagerank, view, weight=weight, tol=1e-10, max_iter=1000)
    if view.is_directed():
        check(nx.weakly_connected_components, view)
        check(nx.number_strongly_connected_components, view)
    else:
        check(nx.connected_components, view)
        check(nx.node_connected_component, view, source)


def test_views_on_each_device(device):
    """Fixed views of a weighted graph, on the CPU and (``-m gpu``) the GPU."""
    graph = nx.MultiDiGraph(nx.les_miserables_graph())
    keep = [edge for i, edge in enumerate(edges_of(graph)) if i % 3]
    with nx.config.backends.frontier(device=device):
        for view in (graph.edge_subgraph(keep), graph.reverse(copy=False),
                     nx.restricted_view(graph, ["Valjean"], keep[:20]),
                     graph.to_undirected(as_view=True).subgraph(list(graph)[::2])):
            source = next(iter(view))
            check(nx.pagerank, view, weight="weight", tol=1e-10, max_iter=1000)
            check(nx.betweenness_centrality, view, weight=None)
            check(nx.single_source_dijkstra_path_length, view, source, ordered=False)
            check(nx.bfs_edges, view, source)
