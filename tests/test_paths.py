"""Shortest paths (primitives/paths.py) against NetworkX: the same reachable
vertices and lengths, and every path a real path of that length; the same
answers on several devices."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matrix_cells import matrix_tests, run_cell
from strategies import edge_lists, with_device

import frontier as fr
from primitives import (
    dijkstra_path,
    has_path,
    shortest_path,
    single_source_dijkstra,
    single_source_shortest_path,
)
from primitives.paths import tree_depth


def path_weight(g, path, weighted: bool):
    """The length of ``path`` in the simple NetworkX graph ``g`` (lightest
    parallel edge); fails if a step is not an edge."""
    total = 0
    for u, v in zip(path, path[1:]):
        assert g.has_edge(u, v), f"{u}->{v} of {path} is not an edge"
        total += g[u][v]["weight"] if weighted else 1
    return total


def assert_paths(g, source, paths, lengths, weighted):
    """``paths`` has NetworkX's keys, each from ``source`` to its key with the
    shortest length ``lengths`` gives."""
    assert set(paths) == set(lengths)
    for v, path in paths.items():
        assert path[0] == source and path[-1] == v
        assert path_weight(g, path, weighted) == pytest.approx(lengths[v])


@with_device
@given(edges=edge_lists(), data=st.data())
def test_single_source_shortest_path_matches_networkx(device, edges, data):
    g = edges.networkx(multigraph=False)
    source = data.draw(st.integers(0, edges.num_vertices - 1))
    cutoff = data.draw(st.none() | st.integers(0, 4))
    paths = single_source_shortest_path(edges.graph(device), source, cutoff=cutoff)
    lengths = nx.single_source_shortest_path_length(g, source, cutoff=cutoff)
    assert_paths(g, source, paths, lengths, weighted=False)
    assert paths == {} or all(len(p) - 1 == lengths[v] for v, p in paths.items())


@with_device
@given(edges=edge_lists(weighted=True), data=st.data())
def test_single_source_dijkstra_matches_networkx(device, edges, data):
    g = edges.networkx(multigraph=False)
    source = data.draw(st.integers(0, edges.num_vertices - 1))
    cutoff = data.draw(st.none() | st.floats(0, 30))
    lengths, paths = single_source_dijkstra(edges.graph(device), source, cutoff=cutoff)
    expected = nx.single_source_dijkstra_path_length(g, source, cutoff=cutoff)
    assert lengths.keys() == expected.keys()
    for v, length in lengths.items():
        assert length == pytest.approx(expected[v])
        assert type(length) is type(expected[v])  # int weights give int lengths
    assert list(lengths.values()) == sorted(lengths.values())
    assert_paths(g, source, paths, expected, weighted=True)


@given(edges=edge_lists(weighted=True), data=st.data())
def test_paths_to_one_target_and_has_path(edges, data):
    g = edges.networkx(multigraph=False)
    G = edges.graph()
    n = edges.num_vertices
    source, target = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    reachable = nx.has_path(g, source, target)
    assert has_path(G, source, target) is reachable
    for weight in (None, "weight"):
        if not reachable:
            with pytest.raises(nx.NetworkXNoPath):
                shortest_path(G, source, target, weight=weight)
            continue
        path = shortest_path(G, source, target, weight=weight)
        expected = nx.shortest_path_length(g, source, target, weight=weight)
        assert path[0] == source and path[-1] == target
        assert path_weight(g, path, weight is not None) == pytest.approx(expected)
    if reachable:
        length, path = single_source_dijkstra(G, source, target)
        assert path == dijkstra_path(G, source, target)
        assert length == pytest.approx(nx.dijkstra_path_length(g, source, target))


@given(edges=edge_lists(max_vertices=12, max_edges=30), data=st.data())
def test_shortest_path_without_source_or_target(edges, data):
    g = edges.networkx(multigraph=False)
    G = edges.graph()
    target = data.draw(st.integers(0, edges.num_vertices - 1))
    weight = data.draw(st.sampled_from([None, "weight"]))
    weighted = weight is not None and edges.weights is not None
    to_target = shortest_path(G, target=target, weight=weight)
    expected = nx.shortest_path(g, target=target, weight=weight if weighted else None)
    assert to_target.keys() == expected.keys()
    for v, path in to_target.items():
        assert path[0] == v and path[-1] == target
        assert path_weight(g, path, weighted) == pytest.approx(
            path_weight(g, expected[v], weighted))
    every = shortest_path(G, weight=weight)
    assert set(every) == set(range(edges.num_vertices))
    for s, paths in every.items():
        assert paths.keys() == set(nx.descendants(g, s)) | {s}


def test_networkx_errors():
    G = fr.Graph.from_edges([0, 1], [1, 2], num_vertices=4, directed=True, device="cpu")
    with pytest.raises(nx.NodeNotFound):
        single_source_shortest_path(G, 7)
    with pytest.raises(nx.NodeNotFound):
        has_path(G, 0, -1)
    with pytest.raises(nx.NetworkXNoPath):
        dijkstra_path(G, 2, 0)
    with pytest.raises(ValueError, match="method not supported"):
        shortest_path(G, 0, 2, method="astar")
    assert single_source_dijkstra(G, 3, 3) == (0, [3])
    assert shortest_path(G, 0, 2) == [0, 1, 2]
    negative = fr.Graph.from_edges([0], [1], weights=[-1.0], device="cpu")
    with pytest.raises(ValueError, match="negative"):
        single_source_dijkstra(negative, 0)


def test_tree_depth_is_list_ranking():
    predecessor = np.array([-1, 0, 1, 2, 1, -1, 5, -1])
    assert tree_depth(predecessor).tolist() == [0, 1, 2, 3, 2, 0, 1, 0]


def _paths_run(edges):
    source = edges.num_vertices // 2

    def run(G, **options):
        lengths, paths = single_source_dijkstra(G, source, **options)
        return lengths, paths, single_source_shortest_path(G, source, **options)

    return run


def _check_cell(edges, devices, partition, duplication, communication, home="cpu",
                workers="threads"):
    G = edges.graph(home)
    (lengths, _, hops), (many_lengths, many_paths, many_hops) = run_cell(
        _paths_run(edges), G, devices, partition, duplication, communication, home, workers)
    # Equal shortest paths may differ between runs: the same lengths, valid paths.
    g = edges.networkx(multigraph=False)
    assert many_lengths == lengths
    assert_paths(g, edges.num_vertices // 2, many_paths, lengths, edges.weights is not None)
    assert {v: len(p) for v, p in many_hops.items()} == {v: len(p) for v, p in hops.items()}
    assert_paths(g, edges.num_vertices // 2, many_hops,
                 {v: len(p) - 1 for v, p in hops.items()}, weighted=False)


(test_paths_on_virtual_devices, test_paths_on_parts_sharing_a_gpu,
 test_paths_in_worker_processes) = matrix_tests(_check_cell)


def test_with_edges_builds_where_the_graph_lives():
    """Graph.with_edges, which the path, k-core, triangle and edge
    betweenness primitives use to derive graphs without naming a device."""
    G = fr.Graph.from_edges([0, 1], [1, 2], num_vertices=5, directed=True, device="cpu")
    H = G.with_edges([2, 1], [1, 0])
    assert H.device == G.device and H.directed and H.num_vertices == 5
    K = G.with_edges([0], [3], [2.5], num_vertices=4, directed=False)
    assert not K.directed and K.num_vertices == 4 and K.weights.tolist() == [2.5, 2.5]
