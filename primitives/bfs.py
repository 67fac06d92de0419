"""Breadth-first search: depth and a predecessor tree from one source.

Each iteration advances the frontier over its out-edges; an edge whose
destination has no depth yet claims it (one winner per vertex), and the
claimed vertices form the next frontier.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import frontier as fr


@dataclass
class BFSResult(fr.Result):
    """``depth[v]``: hops from the source (-1 if unreached);
    ``predecessor[v]``: the vertex ``v`` was reached from (-1 for the source
    and for unreached vertices)."""

    depth: object
    predecessor: object

    vertex_fields = ("predecessor",)


class BFS(fr.Primitive):
    parameters = ("source",)
    vertex_parameters = ("source",)
    # Unreached is -1 and a vertex is found on one level only (copies are
    # refreshed between levels), so an offer only ever replaces -1: max.
    # A predecessor is right only with the depth it was found at.
    communicate = {"depth": "max", "predecessor": fr.follows("depth")}
    # A step writes only the vertices it claims, which it returns.
    changes_only_in_output = True
    # The step is one claiming advance labelled iteration + 1, returned as is.
    replayable = True

    def setup(self):
        self.source = self.local_slots([self.params["source"]], name="source")
        self.depth = self.vertex_array(-1, np.int32)
        self.predecessor = self.vertex_array(-1, fr.index_dtype(self.num_vertices))
        self.depth[self.source] = 0

    def initial_frontier(self):
        return self.frontier_of(self.source)

    def step(self, frontier, iteration):
        visit = fr.functors.ClaimUnvisited(self.depth, iteration + 1, self.predecessor)
        return fr.advance(self.graph, frontier, visit)

    def result(self):
        return BFSResult(self.depth, self.predecessor)


def bfs(G: fr.Graph, source: int = 0, **options) -> BFSResult:
    """Breadth-first search from ``source``.

    Parameters
    ----------
    G : frontier.Graph
    source : int or node
        The start vertex: a node of ``G.node_labels`` when ``G`` has them.
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Returns
    -------
    BFSResult
        ``depth`` (int32, -1 = unreached) and ``predecessor``.

    Raises
    ------
    ValueError
        If ``source`` is not a vertex of ``G``.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import bfs
    >>> G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], device="cpu")
    >>> bfs(G, source=0).depth.tolist()
    [0, 1, 2, 3]
    """
    return fr.enact(BFS, G, source=source, **options)
