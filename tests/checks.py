"""Assertions shared by the traversal tests: NetworkX's hop counts and a
valid BFS tree."""

from __future__ import annotations

import networkx as nx
import numpy as np

import frontier as fr
from frontier.validate import graph500_bfs


def oracle_depths(graph, nodes, source) -> np.ndarray:
    """Hop counts from NetworkX, -1 for unreached, in ``nodes`` order."""
    lengths = nx.single_source_shortest_path_length(graph, nodes[source])
    return np.array([lengths.get(node, -1) for node in nodes], dtype=np.int64)


def assert_bfs_tree(G: fr.Graph, source: int, depth, predecessor) -> None:
    """Each reached vertex but the source hangs off an edge from one level up,
    and the Graph500 checks pass."""
    graph500_bfs(G, source, depth, predecessor)
    depth, predecessor = fr.to_numpy(depth), fr.to_numpy(predecessor)
    n = G.num_vertices
    assert depth[source] == 0 and predecessor[source] == -1
    assert (predecessor[depth == -1] == -1).all()
    child = np.flatnonzero(depth > 0)
    parent = predecessor[child].astype(np.int64)
    assert (parent >= 0).all()
    assert (depth[parent] == depth[child] - 1).all()
    src, dst, _ = G.edges()
    arcs = src.astype(np.int64) * n + dst
    assert np.isin(parent * n + child, arcs).all(), "a predecessor is not an in-neighbour"
