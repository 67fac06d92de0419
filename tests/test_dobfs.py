"""DOBFS against NetworkX: exact depths and a valid predecessor tree, in every
direction mode, on random and named graphs."""

from __future__ import annotations

import re

import numpy as np
import pytest
from checks import assert_bfs_tree, oracle_depths
from graphs import DATASETS, named_graphs, read_snap
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from primitives import bfs, dobfs

MODES = [None, "push", "pull"]


@with_device
@given(edge_lists(weighted=False), st.sampled_from(MODES), st.data())
def test_random_graphs_match_networkx(device, edges, mode, data):
    source = data.draw(st.integers(0, edges.num_vertices - 1), label="source")
    G = edges.graph(device)
    result = dobfs(G, source, direction=mode).to_numpy()
    nodes = list(range(edges.num_vertices))
    np.testing.assert_array_equal(result.depth, oracle_depths(edges.networkx(), nodes, source))
    assert result.depth.dtype == np.int32
    assert_bfs_tree(G, source, result.depth, result.predecessor)
    if mode is not None:
        assert set(result.directions) <= {mode}


@given(edge_lists(weighted=False), st.data(),
       st.sampled_from([0.0, 1e-3, 0.1, 1.0, 1e9]), st.sampled_from([0.0, 0.2, 1.0, 1e9]))
def test_any_switch_factors_give_bfs_depths(edges, data, do_a, do_b):
    source = data.draw(st.integers(0, edges.num_vertices - 1), label="source")
    G = edges.graph("cpu")
    result = dobfs(G, source, do_a=do_a, do_b=do_b, devices="cpu")
    np.testing.assert_array_equal(result.depth, bfs(G, source, devices="cpu").depth)
    assert_bfs_tree(G, source, result.depth, result.predecessor)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name,graph", named_graphs().items(), ids=list(named_graphs()))
def test_named_graphs(device, name, graph, mode):
    G = fr.Graph.from_networkx(graph, weight=None, device=device)
    nodes = list(graph.nodes)
    for source in range(0, len(nodes), 7):
        result = dobfs(G, nodes[source], direction=mode)  # a labelled graph's source is a node
        np.testing.assert_array_equal(fr.to_numpy(result.depth),
                                      oracle_depths(graph, nodes, source))
        assert_bfs_tree(G, source, result.depth, result.predecessor)


def test_directed_pull_walks_in_edges():
    # 0 -> 1 -> 2 and 3 -> 2: pulling, 2 must find 1 (not 3, which is no parent).
    G = fr.Graph.from_edges([0, 1, 3], [1, 2, 2], num_vertices=4, directed=True, device="cpu")
    result = dobfs(G, 0, direction="pull")
    assert result.depth.tolist() == [0, 1, 2, -1]
    assert result.predecessor.tolist() == [-1, 0, 1, -1]
    assert result.directions == ("pull", "pull", "pull")


def test_switch_rule_pushes_then_pulls_then_pushes():
    # A star of stars: the hub's 40 neighbours each lead to 3 leaves.
    hub_edges = [(0, i) for i in range(1, 41)]
    leaf_edges = [(i, 40 + 3 * i + k) for i in range(1, 41) for k in range(3)]
    src, dst = np.array(hub_edges + leaf_edges).T
    G = fr.Graph.from_edges(src, dst, device="cpu")
    assert dobfs(G, 0, direction="push").directions == ("push",) * 3
    gunrock = {"rule": "gunrock"}
    # With do_a = 0 the first level already pulls; a huge do_a never pulls.
    assert dobfs(G, 0, do_a=0.0, **gunrock).directions[0] == "pull"
    assert set(dobfs(G, 0, do_a=1e9, **gunrock).directions) == {"push"}
    # do_b = 0 never leaves pull once there; a huge do_b leaves at once.
    assert dobfs(G, 0, do_a=0.0, do_b=0.0, **gunrock).directions == ("pull",) * 3
    assert dobfs(G, 0, do_a=0.0, do_b=1e9, **gunrock).directions == ("pull", "push", "push")


def test_beamer_rule_counts_edges():
    # The same star of stars: the hub's frontier edges (40) against the
    # unvisited vertices' in-edges decide; alpha scales the threshold.
    hub_edges = [(0, i) for i in range(1, 41)]
    leaf_edges = [(i, 40 + 3 * i + k) for i in range(1, 41) for k in range(3)]
    src, dst = np.array(hub_edges + leaf_edges).T
    G = fr.Graph.from_edges(src, dst, device="cpu")
    # m_f = 40 out-edges of the hub, m_u = 2 * 160 - 40 = 280 in-edges left:
    # pull at once when 40 > 280 / alpha, i.e. alpha > 7.
    assert dobfs(G, 0, alpha=8.0).directions[0] == "pull"
    assert dobfs(G, 0, alpha=6.0).directions[0] == "push"
    # A huge beta never returns to push; beta = 0 returns at once.
    assert dobfs(G, 0, alpha=1e9, beta=1e9).directions == ("pull",) * 3
    assert dobfs(G, 0, alpha=1e9, beta=0.0).directions[:2] == ("pull", "push")
    expected = bfs(G, 0).depth
    for options in ({"alpha": 8.0}, {"alpha": 6.0}, {"rule": "gunrock"}):
        np.testing.assert_array_equal(dobfs(G, 0, **options).depth, expected)


def test_unreachable_and_single_vertex():
    G = fr.Graph.from_edges([0], [1], num_vertices=3, device="cpu")
    for mode in MODES:
        result = dobfs(G, 0, direction=mode)
        assert result.depth.tolist() == [0, 1, -1]
        assert result.predecessor.tolist() == [-1, 0, -1]
    lone = fr.Graph.from_edges([], [], num_vertices=1, device="cpu")
    assert dobfs(lone, 0).depth.tolist() == [0]


def test_to_numpy_keeps_directions():
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    result = dobfs(G, 0, direction="pull")
    assert result.to_numpy().directions == result.directions == ("pull",) * 3


@pytest.mark.parametrize("kwargs,message", [
    ({"source": 5}, "source=5 is out of range for a graph of 3 vertices"),
    ({"source": -1}, "source=-1 is out of range"),
    ({"source": 1.5}, "must be an integer vertex id"),
    ({"direction": "sideways"}, "direction='sideways'"),
    ({"do_a": -1}, "do_a=-1 must be a finite number >= 0"),
    ({"do_b": float("nan")}, "do_b=nan must be a finite number >= 0"),
    ({"do_a": "often"}, "do_a='often' must be a number"),
    ({"rule": "newton"}, "rule='newton'"),
    ({"alpha": -1}, "alpha=-1 must be a finite number >= 0"),
])
def test_bad_input(kwargs, message):
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    with pytest.raises(ValueError, match=re.escape(message)):
        dobfs(G, **kwargs)


@pytest.mark.skipif(not DATASETS.is_dir(), reason=f"{DATASETS} is not present")
@pytest.mark.parametrize("name,directed", [("wiki-Vote.txt", True),
                                           ("facebook_combined.txt", False)])
def test_real_graphs_switch_and_match_bfs(name, directed):
    n, src, dst = read_snap(DATASETS / name)
    G = fr.Graph.from_edges(src, dst, num_vertices=n, directed=directed, device="cpu")
    source = int(np.argmax(fr.to_numpy(G.out_degree())))
    expected = bfs(G, source, devices="cpu").depth
    result = dobfs(G, source, devices="cpu")
    assert result.directions[0] == "push" and "pull" in result.directions
    np.testing.assert_array_equal(result.depth, expected)
    assert_bfs_tree(G, source, result.depth, result.predecessor)
