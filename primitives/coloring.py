"""Greedy vertex colouring in NetworkX's ``largest_first`` order, computed
in parallel (Jones and Plassmann).

NetworkX's ``greedy_color(G, strategy="largest_first")`` visits the vertices
by degree, largest first (ties in vertex order), and gives each the smallest
colour none of its already coloured neighbours has. A vertex's colour
depends only on the colours of its neighbours earlier in that order, so the
vertices can be coloured in rounds: each round colours every vertex whose
earlier neighbours are all coloured, all at once, with the same result as
the sequential visit.

The smallest colour not taken by the neighbours (their ``mex``) is found 64
colours at a time: a ``neighbor_reduce`` ORs ``1 << colour`` over the
neighbours whose colour lies in the window, and a vertex whose window is
full looks at the next one.

Degrees are NetworkX's: a self loop counts twice, parallel edges each. On
several devices ``degree`` and ``color`` are ``"owner"`` arrays: a device
computes them from all edges of the vertices it owns, and copies of remote
vertices take their owners' values between steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import frontier as fr

WINDOW = 64


@dataclass
class ColoringResult(fr.Result):
    """``color[v]``: the colour of ``v`` (0, 1, ...); neighbours differ."""

    color: object


class GreedyColoring(fr.Primitive):
    parameters = ()
    communicate = {"degree": "owner", "color": "owner"}

    def setup(self):
        def ends(src, dst, edge, weight):  # a self loop has two ends here
            return 1 + (src == dst)

        self.degree = fr.neighbor_reduce(self.graph, ends, "sum", direction="push",
                                         dtype=np.int64)
        self.color = self.vertex_array(-1, np.int64)
        self.ids = self.vertex_ids()

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        """Colour every uncoloured vertex whose earlier neighbours are coloured;
        the output frontier is the vertices still uncoloured."""
        color, degree, ids = self.color, self.degree, self.ids

        def waits_for(src, dst, edge, weight):
            earlier = (degree[dst] > degree[src]) | \
                ((degree[dst] == degree[src]) & (ids[dst] < ids[src]))
            return (color[dst] == -1) & earlier

        uncolored = fr.filter(frontier, lambda v: color[v] == -1)
        blocked = fr.neighbor_reduce(self.graph, waits_for, "any", vertices=uncolored,
                                     direction="push")
        ready = uncolored.ids[~blocked]
        self.color[ready] = self.smallest_free_color(ready)
        return fr.filter(uncolored, lambda v: color[v] == -1)

    def smallest_free_color(self, vertices):
        """The smallest colour no neighbour of each vertex has."""
        xp, color = self.xp, self.color
        free = xp.full(len(vertices), -1, np.int64)
        pending, low = xp.arange(len(vertices)), 0
        while len(pending):
            def bit(src, dst, edge, weight, low=low):
                offset = color[dst] - low
                inside = (offset >= 0) & (offset < WINDOW)
                shift = xp.clip(offset, 0, WINDOW - 1).astype(np.uint64)
                return xp.where(inside, xp.left_shift(xp.uint64(1), shift), xp.uint64(0))

            taken = fr.neighbor_reduce(self.graph, bit, xp.bitwise_or, identity=0,
                                       vertices=vertices[pending], direction="push",
                                       dtype=np.uint64).astype(np.uint64)
            full = taken == np.uint64(2**64 - 1)
            open_ = ~taken[~full]  # a 1 for each free colour of the window
            lowest = open_ & (~open_ + np.uint64(1))
            # log2 of a power of two, rounded: CUDA's log2(8.0) is not exactly 3
            position = xp.rint(xp.log2(lowest.astype(np.float64))).astype(np.int64)
            free[pending[~full]] = low + position
            pending, low = pending[full], low + WINDOW
        return free

    def result(self):
        return ColoringResult(self.color)


def greedy_color(G: fr.Graph, **options) -> ColoringResult:
    """Colour the vertices as ``networkx.greedy_color(G, "largest_first")``.

    Parameters
    ----------
    G : frontier.Graph
        Undirected (a directed graph's colouring treats out-edges as the
        neighbours, which NetworkX does for directed graphs too).
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Returns
    -------
    ColoringResult
        ``color`` (int64): NetworkX's colour of every vertex, the smallest
        colour not taken by a neighbour earlier in the largest-first order.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import greedy_color
    >>> G = fr.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 2], device="cpu")
    >>> greedy_color(G).color.tolist()
    [1, 2, 0, 1]
    """
    return fr.enact(GreedyColoring, G, **options)
