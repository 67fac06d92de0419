"""k-cores (primitives/kcore.py) against NetworkX, on one device and several."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from device_matrix import matrix_tests, process_tests, same_arrays
from hypothesis import given
from hypothesis import strategies as st
from strategies import EdgeList, edge_lists, with_device

import frontier as fr
from primitives import core_number, k_core


def without_loops(edges: EdgeList) -> EdgeList:
    """NetworkX refuses self loops in core numbers: drop them."""
    keep = edges.src != edges.dst
    weights = None if edges.weights is None else edges.weights[keep]
    return EdgeList(edges.num_vertices, edges.src[keep], edges.dst[keep], weights,
                    edges.directed)


def expected_cores(edges: EdgeList) -> list[int]:
    cores = nx.core_number(edges.networkx(multigraph=False))
    return [cores[v] for v in range(edges.num_vertices)]


@with_device
@given(edges=edge_lists())
def test_core_numbers_match_networkx(device, edges):
    edges = without_loops(edges)
    r = core_number(edges.graph(device)).to_numpy()
    assert r.core.tolist() == expected_cores(edges)
    assert r.core.dtype == np.int64


@with_device
@given(edges=edge_lists(), k=st.none() | st.integers(0, 6))
def test_k_core_matches_networkx(device, edges, k):
    edges = without_loops(edges)
    g = edges.networkx(multigraph=False)
    ours = k_core(edges.graph(device), k).to_networkx()
    theirs = nx.k_core(g, k)
    assert sorted(ours.nodes) == sorted(theirs.nodes)
    assert ours.is_directed() == theirs.is_directed()
    data = "weight" if edges.weights is not None else False  # the oracle weighs 1 else
    assert nx.utils.edges_equal(ours.edges(data=data), theirs.edges(data=data))


def test_k_core_keeps_labels_and_takes_given_core_numbers():
    g = nx.karate_club_graph()
    G = fr.Graph.from_networkx(nx.relabel_nodes(g, str), weight=None, device="cpu")
    main = k_core(G)
    assert sorted(main.node_labels) == sorted(nx.k_core(nx.relabel_nodes(g, str)).nodes)
    cores = core_number(G).core
    assert k_core(G, 2, core_number=cores).num_vertices == len(nx.k_core(g, 2))
    with pytest.raises(ValueError, match="one per vertex"):
        k_core(G, core_number=cores[:-1])


def test_self_loops_are_refused_as_networkx_refuses_them():
    G = fr.Graph.from_edges([0, 1], [1, 1], device="cpu")
    with pytest.raises(nx.NetworkXNotImplemented, match="self loops"):
        core_number(G)
    with pytest.raises(nx.NetworkXNotImplemented):
        k_core(G, core_number=[1, 1])
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.core_number(nx.Graph([(0, 1), (1, 1)]))


def test_peeling_raises_k_several_times():
    # A clique of 5 (core 4), a triangle (core 2) and a tail (core 1).
    g = nx.complete_graph(5)
    g.add_edges_from([(4, 5), (5, 6), (6, 4), (6, 7), (7, 8)])
    g.add_node(9)
    G = fr.Graph.from_networkx(g, weight=None, device="cpu")
    r = core_number(G)
    assert r.core.tolist() == [4, 4, 4, 4, 4, 2, 2, 1, 1, 0]
    assert r.core.tolist() == list(nx.core_number(g).values())
    assert r.iterations >= 6  # peeling rounds and level changes


@given(edges=edge_lists(max_vertices=15, max_edges=40))
def test_backend_matches_networkx(edges):
    weighted = without_loops(edges).networkx(multigraph=False)
    assert nx.core_number(weighted, backend="frontier") == nx.core_number(weighted)
    g = weighted.__class__()  # k_core copies attributes: the backend takes graphs without
    g.add_nodes_from(weighted)
    g.add_edges_from(weighted.edges)
    g.graph["name"] = "plain"
    ours, theirs = nx.k_core(g, backend="frontier"), nx.k_core(g)
    assert type(ours) is type(theirs) and ours.graph == theirs.graph
    # Node order: G's here; NetworkX's small subgraph views iterate a set.
    assert sorted(ours.nodes) == sorted(theirs.nodes)
    assert nx.utils.edges_equal(ours.edges, theirs.edges)
    cores = nx.core_number(g)
    assert nx.utils.edges_equal(nx.k_core(g, 1, cores, backend="frontier").edges,
                                nx.k_core(g, 1, cores).edges)


def test_backend_leaves_attributes_to_networkx():
    g = nx.Graph([(0, 1, {"weight": 2})])
    with pytest.raises(NotImplementedError, match="k_core"):
        nx.k_core(g, backend="frontier")
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.core_number(nx.Graph([(0, 0)]), backend="frontier")


@given(edges=edge_lists(max_vertices=12, max_edges=30), data=st.data())
def test_attribute_check_on_own_dicts_matches_networkx_s_views(edges, data):
    """The k-core's attribute check reads a graph's own dicts in C; it says
    what NetworkX's node and edge views say, for every graph class, an
    attribute on one node or one edge (or none), and a subgraph view."""
    from frontier.nx_backend.cores import _has_attributes

    g = edges.networkx(multigraph=data.draw(st.booleans()))
    for *_, attributes in g.edges(data=True):
        attributes.clear()
    where = data.draw(st.sampled_from(["none", "node", "edge"]))
    if where == "node":
        g.nodes[data.draw(st.sampled_from(list(g)))]["colour"] = "red"
    elif where == "edge" and g.number_of_edges():
        *_, attributes = data.draw(st.sampled_from(list(g.edges(data=True))))
        attributes["weight"] = 0
    for graph in (g, g.subgraph(list(g)[::2])):
        expected = any(graph.nodes[n] for n in graph) or \
            any(d for *_, d in graph.edges(data=True))
        assert _has_attributes(graph) == expected


def _cores(G, edges, **options):
    return core_number(G, **options)


def _loopless_graph(edges, device):
    return without_loops(edges).graph(device)


(test_core_numbers_on_virtual_devices, test_core_numbers_on_parts_sharing_a_gpu) = \
    matrix_tests(_cores, same_arrays("core"), _loopless_graph)
test_core_numbers_in_worker_processes = process_tests(_cores, same_arrays("core"),
                                                      _loopless_graph)


def test_labelled_graphs_answer_by_node():
    g = nx.relabel_nodes(nx.karate_club_graph(), lambda v: f"member {v}")
    d = nx.DiGraph(nx.relabel_nodes(nx.gnp_random_graph(20, 0.2, seed=2, directed=True),
                                    lambda v: ("v", v)))
    for graph in (g, d):
        G = fr.Graph.from_networkx(graph, weight=None, device="cpu")
        assert core_number(G).to_dict("core") == nx.core_number(graph)
        cores = nx.core_number(graph)
        assert sorted(k_core(G, 3, cores).node_labels) == sorted(nx.k_core(graph, 3, cores))


def test_with_edges_builds_where_the_graph_lives():
    """Graph.with_edges, which the k-core, triangle and edge betweenness
    primitives use to derive graphs without naming a device."""
    G = fr.Graph.from_edges([0, 1], [1, 2], num_vertices=5, directed=True, device="cpu")
    G.node_labels = list("abcde")
    H = G.with_edges([2, 1], [1, 0])
    assert H.device == G.device and H.directed and H.num_vertices == 5
    assert H.node_labels == G.node_labels  # the same vertices
    K = G.with_edges([0], [3], [2.5], num_vertices=4, directed=False)
    assert not K.directed and K.node_labels is None and K.weights.tolist() == [2.5, 2.5]
