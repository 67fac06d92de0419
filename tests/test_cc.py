"""Connected components against NetworkX: the same partition, each component
labelled with its smallest vertex id."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from graphs import DATASETS, named_graphs, read_snap
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from primitives import connected_components


def oracle_labels(graph, nodes) -> np.ndarray:
    """For each node (in ``nodes`` order) the smallest position in its component."""
    position = {node: i for i, node in enumerate(nodes)}
    components = nx.weakly_connected_components(graph) if graph.is_directed() \
        else nx.connected_components(graph)
    labels = np.empty(len(nodes), dtype=np.int64)
    for component in components:
        members = [position[node] for node in component]
        labels[members] = min(members)
    return labels


@with_device
@given(edge_lists())
def test_random_graphs_match_networkx(device, edges):
    result = connected_components(edges.graph(device)).to_numpy()
    expected = oracle_labels(edges.networkx(), list(range(edges.num_vertices)))
    np.testing.assert_array_equal(result.labels, expected)
    assert result.labels.dtype == fr.index_dtype(edges.num_vertices)


@given(edge_lists(directed=True, max_vertices=60, max_edges=60))
def test_sparse_directed_graphs(edges):
    # Few edges per vertex: many components, and chains that need several rounds.
    result = connected_components(edges.graph("cpu"), devices="cpu")
    np.testing.assert_array_equal(result.labels,
                                  oracle_labels(edges.networkx(), list(range(edges.num_vertices))))


@pytest.mark.parametrize("name,graph", named_graphs().items(), ids=list(named_graphs()))
def test_named_graphs(device, name, graph):
    # Splitting off a few vertices makes more than one component to find.
    graph = graph.copy()
    graph.remove_edges_from(list(graph.edges(list(graph.nodes)[:3])))
    G = fr.Graph.from_networkx(graph, weight=None, device=device)
    labels = fr.to_numpy(connected_components(G).labels)
    np.testing.assert_array_equal(labels, oracle_labels(graph, list(graph.nodes)))


@pytest.mark.parametrize("directed", [True, False])
def test_path_with_decreasing_ids_needs_several_rounds(directed):
    # Vertex ids run against the path, so labels must travel its whole length.
    n = 257
    order = np.random.default_rng(7).permutation(n)
    G = fr.Graph.from_edges(order[1:], order[:-1], num_vertices=n, directed=directed,
                            device="cpu")
    result = connected_components(G, devices="cpu")
    assert (result.labels == 0).all()
    assert 1 < result.iterations <= 2 * int(np.log2(n)) + 2


def test_isolated_vertices_and_empty_graph():
    G = fr.Graph.from_edges([2, 4], [4, 4], num_vertices=6, directed=True, device="cpu")
    assert connected_components(G).labels.tolist() == [0, 1, 2, 3, 2, 5]
    empty = fr.Graph.from_edges([], [], num_vertices=0, device="cpu")
    assert connected_components(empty).labels.tolist() == []


@pytest.mark.skipif(not DATASETS.is_dir(), reason=f"{DATASETS} is not present")
def test_wiki_vote_has_24_weak_components():
    n, src, dst = read_snap(DATASETS / "wiki-Vote.txt")
    G = fr.Graph.from_edges(src, dst, num_vertices=n, directed=True, device="cpu")
    labels = connected_components(G, devices="cpu").labels
    sizes = np.bincount(labels, minlength=n)
    assert np.count_nonzero(sizes) == 24
    assert sizes.max() == 7066


@pytest.mark.parametrize("everyone", [True, False])
@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
def test_point_to_roots_against_a_walk_up(device, everyone):
    """compute with PointToRoots (a fused kernel on a GPU) gives every listed
    vertex the root of its tree, as walking up one label at a time does, and
    leaves the others; random forests, deep chains included."""
    rng = np.random.default_rng(5)
    n = 5000
    parent = np.arange(n)
    for v in range(1, n):  # a random forest with labels pointing to smaller ids
        if rng.random() < 0.97:
            parent[v] = v - 1 if rng.random() < 0.5 else rng.integers(0, v)
    G = fr.Graph.from_edges([0], [1], num_vertices=n, device=device)
    labels = G.device.asarray(parent)
    ids = np.arange(n) if everyone else np.flatnonzero(rng.random(n) < 0.3)
    frontier = fr.Frontier.all(n, G.device) if everyone else fr.Frontier.from_ids(ids, n, G.device)
    fr.compute(frontier, fr.functors.PointToRoots(labels), graph=G)
    expected = parent.copy()
    for v in ids:
        root = v
        while parent[root] != root:
            root = parent[root]
        expected[v] = root
    np.testing.assert_array_equal(fr.to_numpy(labels), expected)


@pytest.mark.gpu
@given(edges=edge_lists(max_vertices=60, max_edges=160), parts=st.integers(2, 3))
def test_one_hop_parts_hook_and_jump_by_slot_kernels_as_by_the_general_path(edges, parts):
    """On one_hop parts (labels are caller ids, looked up in each part's
    slot table) CC's hooking and pointer jumping run hook_slots and
    point_to_roots_slots; with them switched off, the functors' array
    operations. Both give one device's labels, directed graphs included."""
    import frontier.operators.fused as fused

    G = edges.graph("cuda:0")
    expected = connected_components(G).to_numpy().labels
    options = {"devices": ["cuda:0"] * parts, "duplication": "one_hop"}
    fast = connected_components(G, **options).to_numpy().labels
    try:
        fused.SLOT_KERNELS = False
        general = connected_components(G, **options).to_numpy().labels
    finally:
        fused.SLOT_KERNELS = True
    np.testing.assert_array_equal(fast, expected)
    np.testing.assert_array_equal(general, expected)


@pytest.mark.gpu
def test_slot_kernels_look_labels_up_in_the_slot_table():
    """point_to_roots_slots on a hand-made table: labels are caller ids,
    slots hold owned ids 10, 20, 30 then proxies 5, 25; a label without a
    slot (7) stops the walk there."""
    import cupy

    from frontier.operators.fused import point_to_roots
    from frontier.slots import SlotTable

    table = SlotTable(cupy.asarray([10, 20, 30, 5, 25], dtype=np.int64), 3)
    # slot: 0 (10) -> 20 (slot 1) -> 5 (slot 3) -> 5 (a root); 2 (30) -> 7: none here
    labels = cupy.asarray([20, 5, 7, 5, 10], dtype=np.int64)
    point_to_roots(fr.Frontier.all(5, fr.get_device("cuda:0")), labels, table)
    assert labels.tolist() == [5, 5, 7, 5, 5]
