"""Graph500 BFS validation: accepts real BFS output, rejects each kind of corruption."""

from __future__ import annotations

import numpy as np
import pytest
from graphs import DATASETS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from frontier.device import to_numpy
from frontier.generators import grid, kronecker
from frontier.validate import BFSValidationError, graph500_bfs
from primitives import bfs


def bfs_arrays(G, source):
    r = bfs(G, source=G.node(source))  # source: a vertex id, also on a labelled graph
    return to_numpy(r.depth).astype(np.int64), to_numpy(r.predecessor).astype(np.int64)


@st.composite
def bfs_cases(draw):
    edges = draw(edge_lists(weighted=False))
    return edges, draw(st.integers(0, edges.num_vertices - 1))


@given(bfs_cases())
def test_accepts_bfs_on_random_graphs(case):
    edges, source = case
    G = edges.graph()
    graph500_bfs(G, source, *bfs_arrays(G, source))


def test_accepts_bfs_on_device_arrays(device):
    G = kronecker(8, seed=3, device=device)
    source = int(np.argmax(to_numpy(G.out_degree())))
    r = bfs(G, source=source)
    graph500_bfs(G, source, r.depth, r.predecessor)
    graph500_bfs(G, source, to_numpy(r.depth), to_numpy(r.predecessor))


@pytest.mark.skipif(not DATASETS.is_dir(), reason=f"datasets folder {DATASETS} is absent")
def test_accepts_bfs_on_a_directed_dataset():
    G = fr.read_graph(DATASETS / "wiki-Vote.txt", device="cpu")
    graph500_bfs(G, 5, *bfs_arrays(G, 5))


# One corruption per check, on a 4 x 4 grid searched from corner 0:
#   0  1  2  3
#   4  5  6  7
#   8  9 10 11
#  12 13 14 15


@pytest.fixture
def grid_bfs():
    G = grid(4, 4, device="cpu")
    depth, parent = bfs_arrays(G, 0)
    return G, depth, parent


def rejects(G, depth, parent, check, vertex, source=0):
    with pytest.raises(BFSValidationError, match=rf"^check {check} \(") as info:
        graph500_bfs(G, source, depth, parent)
    assert (info.value.check, info.value.vertex) == (check, vertex)
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_check_1_cycle(grid_bfs):
    G, depth, parent = grid_bfs
    parent[1], parent[5] = 5, 1
    message = rejects(G, depth, parent, 1, 1)
    assert "check 1 (tree) fails at vertex 1" in message and "never reaches the source" in message


def test_check_1_root_and_dangling_predecessors(grid_bfs):
    G, depth, parent = grid_bfs
    bad_root = parent.copy()
    bad_root[0] = 1
    assert "source needs depth 0" in rejects(G, depth, bad_root, 1, 0)
    outside = parent.copy()
    outside[6] = 16
    assert "not a vertex" in rejects(G, depth, outside, 1, 6)


def test_check_2_tree_levels(grid_bfs):
    G, depth, parent = grid_bfs
    depth[15] += 1
    assert "predecessor's depth + 1" in rejects(G, depth, parent, 2, 15)


def test_check_3_edge_levels():
    # Triangle 0-1-2 searched from 0, with 2 wrongly placed below 1.
    G = fr.Graph.from_edges([0, 1, 0], [1, 2, 2], device="cpu")
    depth, parent = np.array([0, 1, 2]), np.array([-1, 0, 1])
    assert "skips a BFS level" in rejects(G, depth, parent, 3, 0)


def test_check_3_directed_allows_back_edges_but_not_skips():
    # Directed cycle 0->1->2->3->0: the back edge 3->0 spans three levels upward.
    G = fr.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], directed=True, device="cpu")
    graph500_bfs(G, 0, *bfs_arrays(G, 0))
    H = fr.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], directed=True, device="cpu")
    rejects(H, np.array([0, 1, 2, 3]), np.array([-1, 0, 1, 2]), 3, 0)


def test_check_4_unreached_neighbour(grid_bfs):
    G, depth, parent = grid_bfs
    depth[15], parent[15] = -1, -1
    assert "edge to an unreached vertex" in rejects(G, depth, parent, 4, 11)


def test_check_4_reached_but_not_in_tree(grid_bfs):
    G, depth, parent = grid_bfs
    parent[15] = -1
    assert "not in the tree" in rejects(G, depth, parent, 4, 15)


def test_check_4_directed_reach():
    G = fr.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True, device="cpu")
    rejects(G, np.array([0, 1, -1]), np.array([-1, 0, -1]), 4, 1)


def test_check_5_tree_edge_missing(grid_bfs):
    G, depth, parent = grid_bfs
    parent[2] = 4  # depth 1, so the levels still fit, but 4 and 2 are not adjacent
    assert "no edge from its predecessor" in rejects(G, depth, parent, 5, 2)


def test_check_5_uses_edge_direction():
    G = fr.Graph.from_edges([0, 2], [1, 1], directed=True, device="cpu")
    # Vertex 2 is unreachable from 0; claiming 1 -> 2 as a tree edge breaks check 5
    # (levels and spanning are consistent with 2 at depth 2).
    rejects(G, np.array([0, 1, 2]), np.array([-1, 0, 1]), 5, 2)


def test_bad_arguments(grid_bfs):
    G, depth, parent = grid_bfs
    with pytest.raises(ValueError, match=r"depth has shape \(15,\), expected \(16,\)"):
        graph500_bfs(G, 0, depth[:-1], parent)
    with pytest.raises(ValueError, match="source=16 is not a vertex"):
        graph500_bfs(G, 16, depth, parent)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=10)
@given(st.integers(0, 2**32 - 1), st.data())
def test_rejects_a_random_reparenting_across_levels(seed, data):
    G = kronecker(6, seed=seed % 1000, device="cpu")
    depth, parent = bfs_arrays(G, 0)
    reached = np.flatnonzero(depth > 0)
    if len(reached) < 2:
        return
    v = int(data.draw(st.sampled_from(reached.tolist())))
    w = int(data.draw(st.sampled_from(np.flatnonzero(depth >= depth[v]).tolist())))
    parent[v] = w  # a predecessor at the same or a deeper level cannot be valid
    with pytest.raises(BFSValidationError):
        graph500_bfs(G, 0, depth, parent)


# batches of arcs and the row search of check 5 ------------------------------------------


@given(edge_lists(weighted=False), st.data())
def test_tree_edge_search_matches_a_set_of_arcs(edges, data):
    from frontier.validate import _check_tree_edges

    G = edges.graph()
    n = G.num_vertices
    parent = np.array(data.draw(st.lists(st.integers(-1, n - 1), min_size=n, max_size=n)),
                      dtype=np.int64)
    children = np.flatnonzero(parent != -1)
    src, dst, _ = G.edges()
    arcs = set(zip(src.tolist(), dst.tolist()))
    missing = [int(v) for v in children if (int(parent[v]), int(v)) not in arcs]
    if missing:
        with pytest.raises(BFSValidationError) as info:
            _check_tree_edges(G, parent, children)
        assert (info.value.check, info.value.vertex) == (5, missing[0])
    else:
        _check_tree_edges(G, parent, children)


@given(bfs_cases(), st.integers(1, 9), st.data())
def test_arc_batches_accept_and_reject_like_one_pass(case, batch, data):
    edges, source = case
    G = edges.graph()
    depth, parent = bfs_arrays(G, source)
    if data.draw(st.booleans()):  # corrupt one vertex's depth
        v = data.draw(st.integers(0, G.num_vertices - 1))
        depth[v] = data.draw(st.integers(-1, G.num_vertices))

    def outcome(arc_batch):
        try:
            graph500_bfs(G, source, depth, parent, arc_batch=arc_batch)
        except BFSValidationError:
            return "rejected"
        return "accepted"

    assert outcome(batch) == outcome(1 << 30)


@pytest.mark.gpu
@pytest.mark.multi_gpu
def test_a_part_on_the_second_gpu_is_checked_there():
    """edge_levels on a graph on cuda:1 called with cuda:0 current: the
    checks run on cuda:1, after the copy of the host depths (read from
    cuda:0 they once raced that copy). A correct BFS passes; a corrupted
    depth still fails."""
    import cupy

    from primitives import bfs

    G = fr.generators.kronecker(20, 16, seed=1, device="cuda:1")
    root = int(fr.to_numpy(G.out_degree()).argmax())
    depth = fr.to_numpy(bfs(G, source=root).depth)
    with cupy.cuda.Device(0):
        for _ in range(3):
            fr.validate.edge_levels(G, depth)
        wrong = depth.copy()
        wrong[wrong == 1] = 3
        with pytest.raises(fr.validate.BFSValidationError, match="check 3"):
            fr.validate.edge_levels(G, wrong)
