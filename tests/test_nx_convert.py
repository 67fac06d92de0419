"""The NetworkX backend's conversion (``convert_from_nx``) against a plain
Python loop over NetworkX's adjacency, on random graphs of every class:
nodes of several kinds (equal but distinct objects among them), weights of
several types or missing, self loops, parallel edges, isolated nodes, views
and subclasses whose edges share one data dict."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from networkx_graphs import ThinGraph, ThinMultiGraph, networkx_graphs, networkx_views
from strategies import edge_lists

import frontier as fr
from frontier.nx_backend.graph import _edge_weights, convert_from_nx

EDGE_ATTRS = [None, {"weight": 1}, {"weight": 0.5, "absent": 7}]


def reference_convert(graph, edge_attrs):
    """What ``convert_from_nx`` gives, by a loop over ``graph.adj``: nodes
    numbered in ``graph`` order, each node's neighbours in NetworkX's order,
    every arc (every key of a multigraph) in row order, an undirected edge
    kept from the row of its end first in node order, and each attribute's
    values over every arc, classified by the backend's ``_edge_weights``
    (its classification is tested against NetworkX's answers in
    test_nx_backend.py; here, which values it is given)."""
    nodes = list(graph)
    index = {node: i for i, node in enumerate(nodes)}
    multigraph, directed = graph.is_multigraph(), graph.is_directed()

    def adjacency(adj):
        neighbours = [[index[v] for v in adj[u]] for u in nodes]
        return np.cumsum([0] + [len(row) for row in neighbours]), \
            [v for row in neighbours for v in row]

    arcs = []  # (src, dst, key, data) for every arc in row order
    for u in nodes:
        for v, held in graph.adj[u].items():
            for key, data in (held.items() if multigraph else [(None, held)]):
                arcs.append((index[u], index[v], key, data))
    keep = [directed or s <= t for s, t, _, _ in arcs]
    weights = {}
    for attr, default in (edge_attrs or {}).items():
        values = [data.get(attr, default) for *_, data in arcs]
        weights[attr] = _edge_weights(values, np.array(keep, bool), attr)
        if not directed:
            by_arc = {(s, t, key): value for (s, t, key, _), value in zip(arcs, values)}
            if any(value != by_arc[(t, s, key)] for (s, t, key), value in by_arc.items()):
                weights[attr].problem = "differs"
                weights[attr].values = None
    kept = [arc for arc, k in zip(arcs, keep) if k]
    return {"nodes": nodes, "index": index,
            "successors": adjacency(graph.adj),
            "predecessors": adjacency(graph.pred if directed else graph.adj),
            "edge_src": [s for s, *_ in kept], "edge_dst": [t for _, t, *_ in kept],
            "weights": weights}


def assert_converts_as_the_loop(graph, edge_attrs) -> None:
    got, expected = convert_from_nx(graph, edge_attrs=edge_attrs), \
        reference_convert(graph, edge_attrs)
    assert got.nodes == expected["nodes"] and got.index == expected["index"]
    assert (got.directed, got.multigraph) == (graph.is_directed(), graph.is_multigraph())
    for name in ("successors", "predecessors"):
        offsets, neighbours = expected[name]
        adjacency = getattr(got, name)
        assert adjacency.offsets.tolist() == offsets.tolist(), name
        assert adjacency.neighbors.tolist() == neighbours, name
        assert adjacency.neighbors.dtype == np.int64, name
    assert got.edge_src.tolist() == expected["edge_src"]
    assert got.edge_dst.tolist() == expected["edge_dst"]
    assert sorted(got.weights) == sorted(expected["weights"])
    for attr, column in expected["weights"].items():
        found = got.weights[attr]
        assert found.kind == column.kind, attr
        assert (found.problem is None) == (column.problem is None), (attr, found.problem)
        if column.values is None:
            assert found.values is None, attr
        else:
            assert found.values.dtype == column.values.dtype, attr
            np.testing.assert_array_equal(found.values, column.values, err_msg=attr)


@given(networkx_graphs(), st.sampled_from(EDGE_ATTRS))
def test_conversion_matches_the_adjacency_loop(graph, edge_attrs):
    assert_converts_as_the_loop(graph, edge_attrs)


@given(networkx_graphs(), st.sampled_from(EDGE_ATTRS), st.data())
def test_conversion_of_views_matches_the_adjacency_loop(graph, edge_attrs, data):
    view = data.draw(st.sampled_from(networkx_views(graph)))
    assert_converts_as_the_loop(view, edge_attrs)


@given(edge_lists(directed=False, max_vertices=8, max_edges=12),
       st.sampled_from([ThinGraph, ThinMultiGraph]))
def test_conversion_of_graphs_whose_edges_share_a_data_dict(edges, cls):
    ThinMultiGraph.all_key_dict = {}
    graph = cls()
    graph.add_edges_from(zip(edges.src.tolist(), edges.dst.tolist()))
    assert_converts_as_the_loop(graph, {"weight": 1})


def test_weights_read_with_get_from_dicts_that_answer_missing_keys():
    # A data dict whose __missing__ answers (and inserts) must be read with
    # get, as NetworkX reads it: the missing weight is the default.
    class Eager(dict):
        def __missing__(self, key):
            self[key] = 5
            return 5

    class EagerGraph(nx.Graph):
        edge_attr_dict_factory = Eager

    graph = EagerGraph([("a", "b", {"weight": 2}), ("b", "c")])
    assert convert_from_nx(graph, edge_attrs={"weight": 1}).weights["weight"].values.tolist() \
        == [2, 1]
    assert fr.Graph.from_networkx(graph, device="cpu").weights.tolist() == [2, 2, 1, 1]
    assert "weight" not in graph["b"]["c"]


@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph])
def test_adjacency_out_of_node_order_is_read_in_node_order(cls):
    # Rows are read in the adjacency dict's own order only where it is the
    # nodes' order: a graph whose _adj was reordered by hand is looked up.
    graph = cls([("a", "b", {"weight": 3}), ("b", "c"), ("c", "c")])
    graph._adj = dict(reversed(graph._adj.items()))
    assert_converts_as_the_loop(graph, {"weight": 1})


@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph])
def test_graphs_without_edge_data_read_the_defaults(cls):
    """No edge holds anything (every data dict empty: the conversion reads
    none of them), then one edge holds an attribute (all are read); nodes
    that are the ids 0..n-1 in order, in another order (the ids' own path,
    which reads neighbours as ints), and strings."""
    generated = nx.gnm_random_graph(30, 80, seed=1,
                                    directed=cls in (nx.DiGraph, nx.MultiDiGraph))
    shuffled = cls()
    shuffled.add_nodes_from(reversed(range(30)))
    shuffled.add_edges_from(generated.edges())
    for graph in (cls(generated), shuffled, nx.relabel_nodes(cls(generated), str)):
        first = next(iter(graph))
        graph.add_edge(first, first)  # a self loop
        for edge_attrs in EDGE_ATTRS:
            assert_converts_as_the_loop(graph, edge_attrs)
        u, v = next(iter(graph.edges()))
        graph.edges[(u, v, 0) if graph.is_multigraph() else (u, v)]["absent"] = 2
        for edge_attrs in EDGE_ATTRS:
            assert_converts_as_the_loop(graph, edge_attrs)
