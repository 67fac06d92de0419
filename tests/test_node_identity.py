"""Node identity: a graph from NetworkX gives NetworkX's answer for each node.

Nodes that are exactly the integers 0..n-1 are the vertex ids whatever order
they were inserted in; any other nodes are labels, by which primitives take
their source and ``Result.to_dict`` gives every answer back.
"""

from __future__ import annotations

import math
import re

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from frontier.cli import main
from primitives import (
    betweenness_centrality,
    bfs,
    connected_components,
    dobfs,
    label_propagation,
    pagerank,
    sssp,
    strongly_connected_components,
)

# One device, and two devices splitting the graph (the multi-device enactor).
DEVICE_SETS = [
    "cpu",
    ["cpu:0", "cpu:1"],
    pytest.param("cuda:0", marks=pytest.mark.gpu),
    pytest.param(["cuda:0", "cuda:0"], marks=pytest.mark.gpu),
]
CONVERGED = {"tol": 1e-10, "max_iter": 1000}


def naming(kind: str):
    """A node for each vertex position 0..n-1: ``ids`` is a permutation of
    0..n-1 (so nodes are ids again), the others labels."""
    def name(position: int, permutation):
        value = int(permutation[position])
        if kind == "ids":
            return value
        if kind == "shifted":
            return value + 1
        if kind == "strings":
            return f"node {value}"
        return value if value % 2 else (f"s{value}", value)  # ints and tuples
    return name


@st.composite
def networkx_graphs(draw):
    """A NetworkX graph built edge by edge from a random edge list, its nodes
    renamed (see :func:`naming`) and inserted in a random order."""
    edges = draw(edge_lists(max_vertices=16, max_edges=30, min_vertices=1))
    kind = draw(st.sampled_from(["ids", "shifted", "strings", "mixed"]))
    seed = draw(st.integers(0, 2**32 - 1))
    multigraph = draw(st.booleans())
    nodes_first = draw(st.booleans())
    rng = np.random.default_rng(seed)
    name = naming(kind)
    permutation = rng.permutation(edges.num_vertices)
    cls = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}
    g = cls[(edges.directed, multigraph)]()
    nodes = [name(i, permutation) for i in rng.permutation(edges.num_vertices)]
    if nodes_first:
        g.add_nodes_from(nodes)
    # Positive weights (SSSP and PageRank need non-negative ones); None: the
    # attribute is absent, and NetworkX counts 1.
    weights = None if edges.weights is None else edges.weights + 1
    for i in rng.permutation(len(edges.src)):
        u, v = name(edges.src[i], permutation), name(edges.dst[i], permutation)
        g.add_edge(u, v, **({} if weights is None else {"weight": weights[i].item()}))
    g.add_nodes_from(nodes)  # the isolated ones, last when not first
    return g, kind


def lightest(g, u, v) -> float:
    """The weight of the lightest edge u -> v (NetworkX's default 1 without one)."""
    data = g[u][v].values() if g.is_multigraph() else [g[u][v]]
    return min(d.get("weight", 1) for d in data)


def check_traversal(g, source, result) -> None:
    """BFS or DOBFS: NetworkX's hop count for each node, and a predecessor
    one level up across an edge (None for the source and unreached nodes)."""
    depth, predecessor = result.to_dict("depth"), result.to_dict("predecessor")
    lengths = nx.single_source_shortest_path_length(g, source)
    assert depth == {node: lengths.get(node, -1) for node in g}
    for node, parent in predecessor.items():
        if depth[node] <= 0:
            assert parent is None
        else:
            assert g.has_edge(parent, node) and depth[parent] == depth[node] - 1


def check_shortest_paths(g, source, result) -> None:
    """SSSP: Dijkstra's distance for each node, and a predecessor across a
    tight edge."""
    distance, predecessor = result.to_dict("distance"), result.to_dict("predecessor")
    expected = nx.single_source_dijkstra_path_length(g, source)
    assert set(distance) == set(g)
    for node in g:
        assert distance[node] == pytest.approx(expected.get(node, math.inf))
        parent = predecessor[node]
        if node == source or node not in expected:
            assert parent is None
        else:
            assert distance[parent] + lightest(g, parent, node) == pytest.approx(distance[node])


def check_components(g, result) -> None:
    """Connected components (weakly for a directed graph): NetworkX's
    partition, each part labelled by one of its nodes."""
    labels = result.to_dict("labels")
    parts = {}
    for node, label in labels.items():
        parts.setdefault(label, set()).add(node)
    found = nx.weakly_connected_components(g) if g.is_directed() else nx.connected_components(g)
    assert sorted(map(sorted_repr, parts.values())) == sorted(map(sorted_repr, found))
    assert all(label in parts[label] for label in parts)


def sorted_repr(nodes) -> list:
    """A part's nodes in a fixed order (nodes of mixed types do not compare)."""
    return sorted(map(repr, nodes))


def assert_close_by_node(found: dict, expected: dict) -> None:
    assert set(found) == set(expected)
    for node, value in expected.items():
        assert found[node] == pytest.approx(value, abs=1e-9), node


@pytest.mark.parametrize("devices", DEVICE_SETS, ids=["cpu", "2cpu", "gpu", "2gpu"])
@with_device
@given(case=networkx_graphs(), data=st.data())
def test_six_primitives_give_networkx_answers_by_node(devices, case, data):
    g, kind = case
    G = fr.Graph.from_networkx(g, device="cpu")
    if kind == "ids":
        assert G.node_labels is None
    else:
        assert G.node_labels == list(g)
    source = data.draw(st.sampled_from(list(g)), label="source")
    check_traversal(g, source, bfs(G, source=source, devices=devices))
    check_traversal(g, source, dobfs(G, source=source, devices=devices))
    check_shortest_paths(g, source, sssp(G, source=source, devices=devices))
    check_components(g, connected_components(G, devices=devices))
    assert_close_by_node(betweenness_centrality(G, devices=devices).to_dict("centrality"),
                         nx.betweenness_centrality(g))
    assert_close_by_node(pagerank(G, devices=devices, **CONVERGED).to_dict("rank"),
                         nx.pagerank(g, **CONVERGED))


@pytest.mark.parametrize("devices", DEVICE_SETS, ids=["cpu", "2cpu", "gpu", "2gpu"])
def test_les_miserables_numbered_in_sorted_order(devices):
    # The nodes are 0..76, inserted in the order of the original's names.
    g = nx.convert_node_labels_to_integers(nx.les_miserables_graph(), ordering="sorted")
    assert list(g) != sorted(g)
    G = fr.Graph.from_networkx(g, device="cpu")
    assert G.node_labels is None
    rank = fr.to_numpy(pagerank(G, devices=devices, **CONVERGED).rank)
    expected = nx.pagerank(g, **CONVERGED)
    np.testing.assert_allclose(rank, [expected[k] for k in range(len(g))], atol=1e-12)
    depth = fr.to_numpy(bfs(G, source=5, devices=devices).depth)
    lengths = nx.single_source_shortest_path_length(g, 5)
    assert depth.tolist() == [lengths[k] for k in range(len(g))]


@pytest.mark.parametrize("devices", DEVICE_SETS, ids=["cpu", "2cpu", "gpu", "2gpu"])
def test_les_miserables_by_name(devices):
    g = nx.les_miserables_graph()
    G = fr.Graph.from_networkx(g, device="cpu")
    depth = bfs(G, source="Valjean", devices=devices).to_dict("depth")
    assert depth == nx.single_source_shortest_path_length(g, "Valjean")
    distance = sssp(G, source="Valjean", devices=devices).to_numpy().to_dict("distance")
    assert distance == pytest.approx(nx.single_source_dijkstra_path_length(g, "Valjean"))
    assert_close_by_node(pagerank(G, devices=devices, **CONVERGED).to_dict("rank"),
                         nx.pagerank(g, **CONVERGED))


def test_a_labelled_graph_takes_nodes_not_positions():
    G = fr.Graph.from_networkx(nx.path_graph([10, 20, 30]), device="cpu")
    assert G.node_labels == [10, 20, 30]
    assert bfs(G, source=30).to_dict("depth") == {10: 2, 20: 1, 30: 0}
    for bad in (0, 2, "10", [10]):
        with pytest.raises(ValueError, match=re.escape(f"source={bad!r} is not a node of")):
            bfs(G, source=bad)
    with pytest.raises(ValueError, match="vertex='x' is not a node"):
        G.vertex_id("x")
    assert G.vertex_id(np.int64(20)) == 1
    assert [G.node(v) for v in range(3)] == [10, 20, 30]
    with pytest.raises(ValueError, match="vertex=3 is out of range"):
        G.node(3)


def test_an_unlabelled_graph_takes_ids():
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    assert G.vertex_id(2) == 2
    with pytest.raises(ValueError, match="source=3 is out of range"):
        bfs(G, source=3)
    result = bfs(G, source=1)
    assert result.to_dict("depth") == {0: 1, 1: 0, 2: 1}
    assert result.to_dict("predecessor") == {0: 1, 1: None, 2: 1}


def test_relabelling_after_building_is_seen():
    G = fr.Graph.from_networkx(nx.path_graph(["a", "b"]), device="cpu")
    assert G.vertex_id("b") == 1
    G.node_labels = ["x", "y"]
    assert G.vertex_id("y") == 1
    with pytest.raises(ValueError, match="'b'"):
        G.vertex_id("b")


def test_to_dict_rejects_other_names():
    result = connected_components(fr.Graph.from_networkx(nx.path_graph("ab"), device="cpu"))
    assert result.to_dict("labels") == {"a": "a", "b": "a"}
    with pytest.raises(ValueError, match="no array 'rank'.*'labels'"):
        result.to_dict("rank")
    result.node_labels = ["a"]
    with pytest.raises(ValueError, match="2 entries, not one for each of the 1 nodes"):
        result.to_dict("labels")


@pytest.mark.parametrize("devices", DEVICE_SETS, ids=["cpu", "2cpu", "gpu", "2gpu"])
@with_device
@given(edges=edge_lists(max_vertices=16, max_edges=30), seed=st.integers(0, 2**32 - 1),
       data=st.data())
def test_edges_with_any_integer_ids_relabelled(devices, edges, seed, data):
    # Sparse, negative and int64-sized ids: with relabel=True they are nodes.
    if not len(edges.src):
        return
    rng = np.random.default_rng(seed)
    ids = rng.choice(np.array([-(2**62), -7, 0, 3, 1000, 2**40, 2**62]), 7, replace=False)
    ids = np.concatenate([ids, rng.integers(-(2**62), 2**62, edges.num_vertices)])
    src, dst = ids[edges.src], ids[edges.dst]
    weights = None if edges.weights is None else edges.weights + 1
    G = fr.Graph.from_edges(src, dst, weights, directed=edges.directed, relabel=True,
                            device="cpu")
    g = nx.MultiDiGraph() if edges.directed else nx.MultiGraph()
    for i, (u, v) in enumerate(zip(src.tolist(), dst.tolist())):
        g.add_edge(u, v, **({} if weights is None else {"weight": weights[i].item()}))
    nodes = sorted(g)
    assert G.node_labels == (None if nodes == list(range(len(g))) else nodes)
    source = data.draw(st.sampled_from(nodes), label="source")
    check_traversal(g, source, bfs(G, source=np.int64(source), devices=devices))
    check_shortest_paths(g, source, sssp(G, source=source, devices=devices))
    check_components(g, connected_components(G, devices=devices))
    assert_close_by_node(pagerank(G, devices=devices, **CONVERGED).to_dict("rank"),
                         nx.pagerank(g, **CONVERGED))


def test_edges_with_gaps_are_vertices_unless_relabelled():
    G = fr.Graph.from_edges([0, 5], [5, 9], device="cpu")
    assert G.num_vertices == 10 and G.node_labels is None
    assert connected_components(G).to_dict("labels")[3] == 3  # a vertex of its own
    relabelled = fr.Graph.from_edges([0, 5], [5, 9], relabel=True, device="cpu")
    assert relabelled.node_labels == [0, 5, 9]
    assert bfs(relabelled, source=9).to_dict("depth") == {0: 2, 5: 1, 9: 0}
    with pytest.raises(ValueError, match=r"negative: vertex ids start at 0 \(relabel=True"):
        fr.Graph.from_edges([-1], [2], device="cpu")
    with pytest.raises(ValueError, match="leave out num_vertices=4"):
        fr.Graph.from_edges([0], [2], num_vertices=4, relabel=True, device="cpu")
    with pytest.raises(ValueError, match="beyond int64"):
        fr.Graph.from_edges(np.array([2**63], dtype=np.uint64), [0], relabel=True, device="cpu")
    with pytest.raises(ValueError, match="source=1 is not a node of the graph"):
        bfs(relabelled, source=1)


@pytest.mark.parametrize("source, depth", [(None, [0, 1, 2, 3]), (30, [-1, -1, 0, 1])])
def test_command_line_source_is_a_node_of_the_file(tmp_path, capsys, source, depth):
    # A (directed) edge list with ids 10..40 is relabelled on reading: --source names
    # one of its ids, and the default is the first vertex (node 10).
    path, output = tmp_path / "path.txt", tmp_path / "r.npz"
    path.write_text("10 20\n20 30\n30 40\n")
    arguments = [] if source is None else ["--source", str(source)]
    assert main(["run", "bfs", "--graph", str(path), "--devices", "cpu", "--output",
                 str(output), "--quiet", "--json", *arguments]) == 0
    assert np.load(output)["depth"].tolist() == depth
    capsys.readouterr()


def test_component_and_community_labels_are_nodes():
    g = nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c"), ("d", "d")])
    G = fr.Graph.from_networkx(g, device="cpu")
    labels = strongly_connected_components(G).to_dict("labels")
    parts = {}
    for node, label in labels.items():
        parts.setdefault(label, set()).add(node)
    assert sorted(map(sorted, parts.values())) == \
        sorted(map(sorted, nx.strongly_connected_components(g)))
    assert all(label in part for label, part in parts.items())
    u = fr.Graph.from_networkx(nx.path_graph(["x", "y"]), device="cpu")
    assert set(label_propagation(u).to_dict("labels").values()) <= {"x", "y"}
