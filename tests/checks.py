"""Assertions shared by the traversal tests: NetworkX's hop counts, a valid
BFS tree and a valid shortest-path tree; and which of the project's
primitives make a declaration."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import networkx as nx
import numpy as np

import frontier as fr
import primitives
from frontier.validate import graph500_bfs


def declaring(declaration: str) -> set[str]:
    """The names of the primitive classes of :mod:`primitives` whose
    ``declaration`` (a class attribute such as ``copies_may_lag``) is true."""
    found = set()
    for module in pkgutil.iter_modules(primitives.__path__):
        loaded = importlib.import_module(f"primitives.{module.name}")
        for name, value in inspect.getmembers(loaded, inspect.isclass):
            if issubclass(value, fr.Primitive) and value.__module__ == loaded.__name__ \
                    and getattr(value, declaration):
                found.add(name)
    return found


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


def assert_shortest_path_tree(G: fr.Graph, source: int, distance, predecessor) -> None:
    """Each reached vertex but the source hangs off a tight edge, and following
    predecessors from any reached vertex leads to the source."""
    distance, predecessor = fr.to_numpy(distance), fr.to_numpy(predecessor).astype(np.int64)
    n = G.num_vertices
    assert predecessor[source] == -1 and distance[source] == 0
    assert (predecessor[np.isinf(distance)] == -1).all()
    child = np.flatnonzero(np.isfinite(distance))
    child = child[child != source]
    parent = predecessor[child]
    assert (parent >= 0).all()
    src, dst, weights = G.edges()
    weights = np.ones(len(src)) if weights is None else weights
    tight = distance[src] + weights == distance[dst]
    tight_arcs = src[tight].astype(np.int64) * n + dst[tight]
    assert np.isin(parent * n + child, tight_arcs).all(), "a predecessor edge is not tight"
    walker = child.copy()
    for _ in range(n):
        walker = np.where(walker == source, walker, predecessor[walker])
    assert (walker == source).all(), "the predecessors have a cycle"
