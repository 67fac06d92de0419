"""NetworkX's breadth-first order, rebuilt from the depths a Frontier BFS found.

NetworkX's BFS visits a level's vertices in the order they were discovered
and, for each, its neighbours in adjacency order; a vertex is discovered by
the first such (parent, neighbour) pair that reaches it. So, given every
vertex's depth, level ``d + 1`` in NetworkX's order is: the neighbours of
level ``d``'s vertices, in that order, that have depth ``d + 1``, each at its
first occurrence -- and its first parent there is its BFS-tree parent. That
is a few vectorized array operations per level, with no per-vertex Python.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .graph import Adjacency


@dataclass
class Levels:
    """Vertices in NetworkX's BFS order, with the BFS-tree parent of each
    (-1 for the first level) and where each level starts in ``vertices``
    (``starts[d]:starts[d+1]`` is level ``d``)."""

    vertices: np.ndarray
    parents: np.ndarray
    starts: np.ndarray

    def level(self, d: int) -> np.ndarray:
        return self.vertices[self.starts[d]:self.starts[d + 1]]


def bfs_levels(adjacency: Adjacency, depth: np.ndarray, first, limit=None) -> Levels:
    """The levels of a BFS from the vertices ``first`` (level 0, in this
    order), where ``depth`` holds each vertex's distance from them (-1 if
    unreached) and ``adjacency`` the neighbours in NetworkX's order.

    Level ``d`` is expanded while ``d < limit`` (NetworkX's ``depth_limit``
    and ``cutoff`` test), every level if ``limit`` is None.
    """
    offsets, neighbors = adjacency.offsets, adjacency.neighbors
    level = np.asarray(first, dtype=np.int64)
    vertices, parents, sizes = [level], [np.full(len(level), -1, np.int64)], [len(level)]
    d = 0
    while len(level) and (limit is None or d < limit):
        begin = offsets[level]
        count = offsets[level + 1] - begin
        total = int(count.sum())
        # Positions of every arc out of the level, level order then adjacency order.
        arcs = np.arange(total, dtype=np.int64) + np.repeat(begin - (np.cumsum(count) - count),
                                                            count)
        children = neighbors[arcs]
        discovered = depth[children] == d + 1
        children = children[discovered]
        via = np.repeat(level, count)[discovered]
        _, first_seen = np.unique(children, return_index=True)
        first_seen.sort()
        level = children[first_seen]
        if not len(level):
            break
        vertices.append(level)
        parents.append(via[first_seen])
        sizes.append(len(level))
        d += 1
    starts = np.zeros(len(sizes) + 1, np.int64)
    np.cumsum(sizes, out=starts[1:])
    return Levels(np.concatenate(vertices), np.concatenate(parents), starts)
