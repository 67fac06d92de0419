"""Edge betweenness (primitives/edge_bc.py) against NetworkX, on one device
and on several."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from device_matrix import matrix_tests, process_tests, same_arrays
from hypothesis import given
from hypothesis import strategies as st
from strategies import EdgeList, edge_lists, with_device

import frontier as fr
from primitives import edge_betweenness_centrality
from primitives.edge_bc import ArcBrandes


def positive(edges: EdgeList) -> EdgeList:
    """The same edges with weights >= 1 (weighted betweenness needs them > 0)."""
    weights = None if edges.weights is None else edges.weights + 1
    return EdgeList(edges.num_vertices, edges.src, edges.dst, weights, edges.directed)


def as_dict(result) -> dict:
    r = result
    return {(u, v): c for u, v, c in zip(np.asarray(r.src).tolist(), np.asarray(r.dst).tolist(),
                                         np.asarray(r.centrality).tolist())}


def assert_matches(result, expected: dict, directed: bool) -> None:
    """NetworkX's value for every edge (self loops 0 and absent here)."""
    got = as_dict(result)
    assert len(got) == sum(u != v for u, v in expected)
    for (u, v), value in expected.items():
        if u == v:
            assert value == 0
            continue
        key = (u, v) if directed or u < v else (v, u)
        assert got[key] == pytest.approx(value, abs=1e-9), (u, v)


@with_device
@given(edges=edge_lists(max_vertices=20, max_edges=50), data=st.data())
def test_random_graphs_match_networkx(device, edges, data):
    edges = positive(edges)
    g = edges.networkx(multigraph=False)
    weight = data.draw(st.sampled_from([None, "weight"])) if edges.weights is not None else None
    normalized = data.draw(st.booleans())
    k = data.draw(st.none() | st.integers(1, edges.num_vertices))
    r = edge_betweenness_centrality(edges.graph(device), k=k, normalized=normalized,
                                    weight=weight, seed=5)
    expected = nx.edge_betweenness_centrality(g, k=k, normalized=normalized, weight=weight,
                                              seed=5)
    assert_matches(r, expected, edges.directed)


@pytest.mark.parametrize("devices", [None, 2, 3])
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
def test_arc_shares_of_a_path(devices, duplication):
    """The path 0-1-2-3; arcs in CSR order 0>1 1>0 1>2 2>1 2>3 3>2, each
    counting the ordered pairs whose shortest path takes it, on one device
    and assembled from several."""
    G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], device="cpu")
    options = {"sources": range(4), "endpoints": False, "scale": (1.0, None)}
    if devices is not None:
        options.update(devices=devices, duplication=duplication)
    assert fr.enact(ArcBrandes, G, **options).arc_centrality.tolist() == [3, 3, 4, 4, 3, 3]


def test_named_graph_and_errors():
    g = nx.karate_club_graph()
    G = fr.Graph.from_networkx(g, weight=None, device="cpu")
    assert_matches(edge_betweenness_centrality(G), nx.edge_betweenness_centrality(g), False)
    with pytest.raises(ValueError, match="k=0"):
        edge_betweenness_centrality(G, k=0)
    with pytest.raises(ValueError, match="no edge weights"):
        edge_betweenness_centrality(G, weight="weight")
    zero = fr.Graph.from_edges([0], [1], weights=[0.0], device="cpu")
    with pytest.raises(ValueError, match="positive"):
        edge_betweenness_centrality(zero, weight="weight")


@given(edges=edge_lists(max_vertices=12, max_edges=30))
def test_backend_matches_networkx(edges):
    """Through the NetworkX backend: NetworkX's keys, order and values."""
    g = positive(edges).networkx(multigraph=False)
    for weight in (None, "weight"):
        expected = nx.edge_betweenness_centrality(g, weight=weight)
        ours = nx.edge_betweenness_centrality(g, weight=weight, backend="frontier")
        assert list(ours) == list(expected)
        assert list(ours.values()) == pytest.approx(list(expected.values()), abs=1e-9)


@pytest.mark.parametrize("nodes", ["positions", "shuffled", "strings", "bools"])
def test_backend_keeps_node_identity(nodes):
    """NetworkX's keys with their nodes' types, whether the nodes are the
    ints of their positions (no lookup), other ints, strings, or False and
    True beside ints (equal to 0 and 1, but not the same nodes); a self
    loop gets 0."""
    g = nx.barabasi_albert_graph(40, 2, seed=1)
    g.add_edge(5, 5)
    order = list(np.random.default_rng(2).permutation(40)) if nodes == "shuffled" \
        else list(range(40))
    label = {"strings": lambda v: f"n{v}", "bools": lambda v: bool(v) if v < 2 else v}.get(
        nodes, int)
    h = nx.Graph()
    h.add_nodes_from(label(int(v)) for v in order)
    h.add_edges_from((label(u), label(v)) for u, v in g.edges)
    expected = nx.edge_betweenness_centrality(h)
    ours = nx.edge_betweenness_centrality(h, backend="frontier")
    assert list(ours) == list(expected)
    assert [tuple(map(type, edge)) for edge in ours] == \
        [tuple(map(type, edge)) for edge in expected]
    assert list(ours.values()) == pytest.approx(list(expected.values()), abs=1e-9)


def _edge_bc(G, edges, **options):
    weight = "weight" if edges.weights is not None else None
    return edge_betweenness_centrality(G, weight=weight, **options)


def _positive_graph(edges, device):
    return positive(edges).graph(device)


_same = same_arrays("src", "dst", "centrality", atol=1e-9)
(test_edge_bc_on_virtual_devices, test_edge_bc_on_parts_sharing_a_gpu) = \
    matrix_tests(_edge_bc, _same, _positive_graph)
test_edge_bc_in_worker_processes = process_tests(_edge_bc, _same, _positive_graph)


def test_undirected_edges_pair_up_past_65536_vertices():
    """An undirected edge's two arcs are paired by src * n + dst, which once
    overflowed int32 from n = 2**16 (Kronecker 16's values summed short):
    a star of 70,000 vertices and a few edges between its leaves."""
    n = 70_000
    leaves = np.arange(1, n)
    src = np.concatenate([np.zeros(n - 1, dtype=np.int64), [60_000, 65_537, 3]])
    dst = np.concatenate([leaves, [69_999, 69_998, 66_000]])
    G = fr.Graph.from_edges(src, dst, num_vertices=n, directed=False, device="cpu")
    r = edge_betweenness_centrality(G, k=2, seed=3, normalized=False)
    g = nx.Graph(zip(src.tolist(), dst.tolist()))
    expected = nx.edge_betweenness_centrality(g, k=2, seed=3, normalized=False)
    found = {frozenset(e): v for e, v in zip(zip(r.src.tolist(), r.dst.tolist()),
                                              r.centrality.tolist())}
    assert found == pytest.approx({frozenset(e): v for e, v in expected.items()})
