"""Paths from BFS and SSSP's predecessor trees, against NetworkX.

Shortest paths tie, so a path is checked for being a path of the graph from
the source to its node with NetworkX's length, not for being NetworkX's.
"""

from __future__ import annotations

import math

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from primitives import (
    dijkstra_path,
    has_path,
    shortest_path,
    single_source_dijkstra,
    single_source_shortest_path,
)


def assert_paths(g, source, paths: dict, lengths: dict, weighted: bool) -> None:
    """``paths`` reach exactly ``lengths``' nodes, each a path of ``g`` from
    ``source`` whose hops (weights) add up to NetworkX's length."""
    assert set(paths) == set(lengths)
    for node, path in paths.items():
        assert path[0] == source and path[-1] == node
        total = 0
        for u, v in zip(path, path[1:]):
            assert g.has_edge(u, v), (u, v)
            total += g[u][v]["weight"] if weighted else 1
        assert math.isclose(total, lengths[node], rel_tol=1e-9, abs_tol=1e-9)


@with_device
@given(edges=edge_lists(weighted=False), data=st.data())
def test_single_source_shortest_path_matches_networkx(device, edges, data):
    g = edges.networkx(multigraph=False)
    source = data.draw(st.integers(0, edges.num_vertices - 1))
    cutoff = data.draw(st.none() | st.integers(0, 4))
    paths = single_source_shortest_path(edges.graph(device), source, cutoff=cutoff)
    lengths = nx.single_source_shortest_path_length(g, source, cutoff=cutoff)
    assert_paths(g, source, paths, lengths, weighted=False)


@with_device
@given(edges=edge_lists(weighted=True), data=st.data())
def test_single_source_dijkstra_matches_networkx(device, edges, data):
    g = edges.networkx(multigraph=False)
    source = data.draw(st.integers(0, edges.num_vertices - 1))
    distances, paths = single_source_dijkstra(edges.graph(device), source)
    expected = nx.single_source_dijkstra_path_length(g, source)
    assert distances.keys() == expected.keys()
    for node, length in expected.items():
        assert math.isclose(distances[node], length, rel_tol=1e-9, abs_tol=1e-9)
        assert type(distances[node]) is type(length)
    assert_paths(g, source, paths, expected, weighted=True)


@given(edges=edge_lists(weighted=True), data=st.data())
def test_a_target_and_has_path(edges, data):
    g = edges.networkx(multigraph=False)
    G = edges.graph("cpu")
    source, target = data.draw(st.tuples(*[st.integers(0, edges.num_vertices - 1)] * 2))
    assert has_path(G, source, target) == nx.has_path(g, source, target)
    if nx.has_path(g, source, target):
        length, path = single_source_dijkstra(G, source, target)
        assert math.isclose(length, nx.dijkstra_path_length(g, source, target), abs_tol=1e-9)
        assert dijkstra_path(G, source, target) == path
        assert len(shortest_path(G, source, target)) - 1 == \
            nx.shortest_path_length(g, source, target)
    else:
        with pytest.raises(nx.NetworkXNoPath):
            dijkstra_path(G, source, target)
        with pytest.raises(nx.NetworkXNoPath):
            shortest_path(G, source, target, weight="weight")


def test_nodes_are_the_callers():
    g = nx.les_miserables_graph()
    G = fr.Graph.from_networkx(g, device="cpu")
    paths = shortest_path(G, "Valjean")
    assert_paths(g, "Valjean", paths, nx.single_source_shortest_path_length(g, "Valjean"),
                 weighted=False)
    distances, paths = single_source_dijkstra(G, "Napoleon", weight="weight")
    assert distances == pytest.approx(nx.single_source_dijkstra_path_length(g, "Napoleon"))
    assert_paths(g, "Napoleon", paths, distances, weighted=True)


def test_errors_are_networkx_errors():
    g = nx.DiGraph([(0, 1)])
    g.add_node(2)
    G = fr.Graph.from_networkx(g, device="cpu")
    with pytest.raises(nx.NodeNotFound):
        single_source_shortest_path(G, 7)
    with pytest.raises(nx.NodeNotFound):
        has_path(G, 0, 7)
    with pytest.raises(nx.NodeNotFound):
        shortest_path(G, 0, 7)
    with pytest.raises(nx.NetworkXNoPath):
        shortest_path(G, 1, 0)
    assert not has_path(G, 0, 2) and has_path(G, 0, 1)
    with pytest.raises(ValueError, match="method not supported"):
        shortest_path(G, 0, method="astar")


@pytest.mark.parametrize("devices", [["cpu:1", "cpu:2"], ["cpu:1", "cpu:2", "cpu:3"]])
@given(edges=edge_lists(), data=st.data())
def test_several_devices_give_shortest_paths(devices, edges, data):
    """The trees differ with the partition where paths tie; each path is still
    a shortest one."""
    g = edges.networkx(multigraph=False)
    source = data.draw(st.integers(0, edges.num_vertices - 1))
    weighted = edges.weights is not None
    distances, paths = single_source_dijkstra(edges.graph("cpu"), source,
                                              weight="weight" if weighted else None,
                                              devices=devices, partition="random")
    expected = (nx.single_source_dijkstra_path_length(g, source) if weighted
                else nx.single_source_shortest_path_length(g, source))
    assert distances == pytest.approx(expected)
    assert_paths(g, source, paths, expected, weighted)
