"""BFS against NetworkX, its predecessor tree, and a user-functor BFS that must
agree with the built-in (fused) one."""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np
import pytest
import scipy.io
from checks import assert_bfs_tree, oracle_depths
from graphs import DATASETS
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from frontier.device import to_numpy
from primitives import bfs


@st.composite
def bfs_cases(draw):
    edges = draw(edge_lists(weighted=False))
    return edges, draw(st.integers(0, edges.num_vertices - 1))


@with_device
@given(bfs_cases())
def test_depth_matches_networkx(device, case):
    edges, source = case
    G = edges.graph(device)
    r = bfs(G, source=source).to_numpy()
    depth = oracle_depths(edges.networkx(), list(range(edges.num_vertices)), source)
    np.testing.assert_array_equal(r.depth, depth)
    assert_bfs_tree(G, source, r.depth, r.predecessor)
    assert r.iterations == depth.max() + 1  # the last step finds nothing new


@with_device
@given(bfs_cases())
def test_graph500_validation(device, case):
    edges, source = case
    G = edges.graph(device)
    r = bfs(G, source=source)
    fr.validate.graph500_bfs(G, source, r.depth, r.predecessor)


@dataclass
class UserBFSResult(fr.Result):
    depth: object
    predecessor: object


class UserBFS(fr.Primitive):
    """BFS through the general path: a plain lambda around fr.claim."""

    def setup(self):
        self.source = fr.check_vertex(self.graph, self.params["source"])
        self.depth = self.vertex_array(-1, np.int32)
        self.predecessor = self.vertex_array(-1, np.int64)
        self.depth[self.source] = 0

    def initial_frontier(self):
        return self.frontier_of([self.source])

    def step(self, frontier, iteration):
        def visit(src, dst, edge, weight):
            won = fr.claim(self.depth, dst, iteration + 1)
            self.predecessor[dst[won]] = src[won]
            return won

        return fr.advance(self.graph, frontier, visit,
                          chunk_edges=self.params.get("chunk_edges", 1 << 24))

    def result(self):
        return UserBFSResult(self.depth, self.predecessor)


@with_device
@given(bfs_cases(), st.sampled_from([3, 1 << 24]))
def test_user_functor_equals_builtin(device, case, chunk_edges):
    edges, source = case
    G = edges.graph(device)
    builtin = bfs(G, source=source).to_numpy()
    user = fr.enact(UserBFS, G, source=source, chunk_edges=chunk_edges).to_numpy()
    np.testing.assert_array_equal(user.depth, builtin.depth)
    assert user.iterations == builtin.iterations
    assert_bfs_tree(G, source, user.depth, user.predecessor)


def test_known_graph(device):
    G = fr.Graph.from_edges([0, 1, 2, 1, 5], [1, 2, 3, 3, 5], num_vertices=6, device=device)
    r = bfs(G, source=0)
    assert to_numpy(r.depth).tolist() == [0, 1, 2, 2, -1, -1]
    assert to_numpy(r.predecessor).tolist() == [-1, 0, 1, 1, -1, -1]
    assert r.iterations == 3
    directed = fr.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True, device=device)
    assert to_numpy(bfs(directed, source=1).depth).tolist() == [2, 0, 1]


def test_result_to_numpy(device):
    G = fr.Graph.from_edges([0, 1], [1, 2], device=device)
    r = bfs(G, source=2)
    assert r.depth.dtype == np.int32
    assert r.predecessor.dtype == fr.index_dtype(3)
    host = r.to_numpy()
    assert isinstance(host.depth, np.ndarray) and isinstance(host.predecessor, np.ndarray)
    assert host.depth.tolist() == [2, 1, 0]
    assert (host.iterations, host.elapsed_s) == (r.iterations, r.elapsed_s)
    assert host.iterations == 3 and host.elapsed_s >= 0
    assert set(host.arrays()) == {"depth", "predecessor"}


def test_edgeless_and_single_vertex(device):
    edgeless = fr.Graph.from_edges([], [], num_vertices=4, device=device)
    r = bfs(edgeless, source=2)
    assert to_numpy(r.depth).tolist() == [-1, -1, 0, -1]
    assert to_numpy(r.predecessor).tolist() == [-1] * 4
    assert r.iterations == 1
    single = fr.Graph.from_edges([], [], num_vertices=1, device=device)
    assert to_numpy(bfs(single, source=0).depth).tolist() == [0]
    loop = fr.Graph.from_edges([0], [0], device=device)
    r = bfs(loop, source=0)
    assert to_numpy(r.depth).tolist() == [0]
    assert to_numpy(r.predecessor).tolist() == [-1]


@pytest.mark.parametrize("source, message", [
    (3, "source=3 is out of range for a graph of 3 vertices"),
    (-1, "source=-1 is out of range"),
    (1.0, "source=1.0 must be an integer vertex id"),
    (True, "source=True must be an integer vertex id"),
    ("0", "source='0' must be an integer vertex id"),
])
def test_bad_source(source, message):
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    with pytest.raises(ValueError, match=message):
        bfs(G, source=source)


def test_numpy_integer_source():
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    assert bfs(G, source=np.int32(1)).depth.tolist() == [1, 0, 1]


def test_chesapeake(device):
    path = DATASETS / "chesapeake.mtx"
    if not path.exists():
        pytest.skip(f"dataset folder not present: {path}")
    matrix = scipy.io.mmread(path)
    G = fr.Graph.from_scipy(matrix, directed=False, weighted=False, device=device)
    oracle = nx.from_scipy_sparse_array(matrix.tocsr())
    for source in (0, 17, 38):
        r = bfs(G, source=source).to_numpy()
        np.testing.assert_array_equal(r.depth, oracle_depths(oracle, list(range(39)), source))
        assert_bfs_tree(G, source, r.depth, r.predecessor)
