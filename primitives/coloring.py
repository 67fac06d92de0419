"""Greedy vertex colouring in NetworkX's ``largest_first`` order, computed
in parallel (Jones and Plassmann).

NetworkX's ``greedy_color(G, strategy="largest_first")`` visits the vertices
by degree, largest first (ties in vertex order), and gives each the smallest
colour none of its already coloured neighbours has. A vertex's colour
depends only on the colours of its neighbours earlier in that order, so the
vertices can be coloured in rounds: each round colours every vertex whose
earlier neighbours are all coloured, all at once, with the same result as
the sequential visit. Each vertex counts its earlier neighbours still
uncoloured (``pending``); a round colours the vertices whose count reached
0 and advances over their edges to count down their later neighbours'
(``frontier.count_down``, which reports each vertex once, when its count
reaches 0: the next round's vertices). Every edge is walked once.

The smallest colour not taken by the neighbours (their ``mex``) is found 64
colours at a time: a ``neighbor_reduce`` ORs ``1 << colour`` over the
neighbours whose colour lies in the window, and a vertex whose window is
full looks at the next one.

Degrees are NetworkX's: a self loop counts twice, parallel edges each. On
several devices ``degree`` and ``color`` are ``"owner"`` arrays: a device
computes them from all edges of the vertices it owns, and copies of remote
vertices take their owners' values between steps; ``pending`` is a
``"sum"`` array, so a count-down at a copy reaches the owner, whose next
frontier then holds the vertex.

The primitive reads a vertex's neighbours over its in-edges and counts down
over out-edges: it runs on ``G`` when undirected and on ``G`` reversed when
directed (whose neighbours are then ``G``'s successors, as NetworkX's are).
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
    communicate = {"degree": "owner", "color": "owner", "pending": "sum"}

    def setup(self):
        def ends(src, dst, edge, weight):  # a self loop has two ends here
            return 1 + (src == dst)

        self.degree = fr.neighbor_reduce(self.graph, ends, "sum", dtype=np.int64)
        self.color = self.vertex_array(-1, np.int64)
        # earlier neighbours uncoloured; int32, which GPU atomic adds take
        self.pending = self.vertex_array(0, np.int32)
        self.precedence = None  # set once copies hold their owners' degrees

    def initial_frontier(self):
        return self.all_vertices()

    def earlier(self, first, then):
        """Whether ``first`` comes before ``then`` in the largest-first order."""
        return self.precedence[first] > self.precedence[then]

    def step(self, frontier, iteration):
        """Colour the vertices of ``frontier`` whose earlier neighbours are all
        coloured; the output frontier is the later neighbours that this
        made ready (their count of uncoloured earlier neighbours reached 0)."""
        color, pending = self.color, self.pending
        if iteration == 0:  # the owned vertices, once copies hold their owners' degrees
            # larger first: degree, then the smaller id; one gather a vertex
            # instead of a degree's and an id's (degree * n < 2**63 for any
            # graph that fits: degrees below 2**32, n at most 2**31)
            n = self.num_vertices
            self.precedence = self.degree * n + (n - 1 - self.vertex_ids().astype(np.int64))
            def waits_for(src, dst, edge, weight):  # dst waits for src
                return self.earlier(src, dst).astype(np.int32)

            self.pending[frontier.ids] = fr.neighbor_reduce(
                self.graph, waits_for, "sum", vertices=frontier, dtype=np.int32)
        ready = fr.filter(frontier, lambda v: (pending[v] == 0) & (color[v] == -1))
        self.color[ready.ids] = self.smallest_free_color(ready.ids)

        def count_down(src, dst, edge, weight):
            # a later neighbour waits for src, so it is not coloured yet;
            # it is ready (once) when its last earlier neighbour is coloured
            return fr.count_down(pending, dst, where=self.earlier(src, dst))

        return fr.advance(self.graph, ready, count_down)

    def smallest_free_color(self, vertices):
        """The smallest colour no neighbour of each vertex has."""
        xp, color = self.xp, self.color
        free = xp.full(len(vertices), -1, np.int64)
        pending, low = xp.arange(len(vertices)), 0
        while len(pending):
            def bit(src, dst, edge, weight, low=low):
                offset = color[src] - low
                inside = (offset >= 0) & (offset < WINDOW)
                shift = xp.clip(offset, 0, WINDOW - 1).astype(np.uint64)
                return xp.where(inside, xp.left_shift(xp.uint64(1), shift), xp.uint64(0))

            taken = fr.neighbor_reduce(self.graph, bit, xp.bitwise_or, identity=0,
                                       vertices=vertices[pending],
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
    if G.directed:  # G's successors as in-neighbours
        G = G.with_edges(G.columns, G.arc_sources())
    return fr.enact(GreedyColoring, G, **options)
