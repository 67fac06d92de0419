"""Breadth-first search: depth and a predecessor tree from one source.

Each iteration advances the frontier over its out-edges; an edge whose
destination has no depth yet claims it (one winner per vertex), and the
claimed vertices form the next frontier. With ``direction="auto"`` the
advance chooses per level between that push and a pull, in which every
unvisited vertex looks over its in-edges for a parent in the frontier
(:class:`frontier.AutoDirection`): direction-optimizing BFS
(:func:`~primitives.dobfs` sets its rule).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import frontier as fr


@dataclass
class BFSResult(fr.Result):
    """``depth[v]``: hops from the source (-1 if unreached);
    ``predecessor[v]``: the vertex ``v`` was reached from (-1 for the source
    and for unreached vertices). With ``direction="auto"``, ``directions``
    (not an array, so not a field) holds ``"push"`` or ``"pull"`` for each
    iteration."""

    depth: object
    predecessor: object

    vertex_fields = ("predecessor",)


class BFS(fr.Primitive):
    parameters = ("source", "direction")
    defaults = {"direction": "push"}
    vertex_parameters = ("source",)
    # Unreached is -1 and a vertex's depth is the level that found it first:
    # an offer from a device whose copy was not yet told so loses to the
    # owner's earlier level. A predecessor is right only with its depth.
    communicate = {"depth": "earliest", "predecessor": fr.follows("depth")}
    # A step writes only the vertices it claims, which it returns.
    changes_only_in_output = True
    # The step is one claiming advance labelled iteration + 1, returned as is
    # (an automatic direction runs on only through levels whose rule it
    # checks on the device, and records their directions).
    replayable = True
    # setup fills the arrays and puts the source's depth wherever it has a slot.
    uniform_setup = True

    @property
    def copies_may_lag(self) -> bool:
        """A push claims a copy it sees unreached and offers it, which costs
        at most an offer the owner turns down; a pull looks for parents
        among the copies, so an automatic direction needs them current."""
        return self.params["direction"] == "push"

    def setup(self):
        self.source = self.local_slots([self.params["source"]], name="source")
        self.depth = self.vertex_array(-1, np.int32)
        self.predecessor = self.vertex_array(-1, fr.index_dtype(self.num_vertices))
        self.put(self.depth, self.source, 0)
        self.direction = self.traversal_direction()

    def traversal_direction(self):
        """What each level's advance gets as ``direction``."""
        direction = self.params["direction"]
        if direction == "auto":
            return self.auto_direction()
        if direction != "push":
            raise ValueError(f"direction={direction!r}: expected 'push' or 'auto'")
        return direction

    def initial_frontier(self):
        return self.frontier_of(self.source)

    def step(self, frontier, iteration):
        visit = fr.functors.ClaimUnvisited(self.depth, iteration + 1, self.predecessor)
        return fr.advance(self.graph, frontier, visit, direction=self.direction)

    def result(self):
        return self.with_directions(BFSResult(self.depth, self.predecessor))

    def with_directions(self, result):
        """``result``, with ``directions`` (one per level) after an automatic direction."""
        if isinstance(self.direction, fr.AutoDirection):
            result.directions = tuple(self.direction.directions)
        return result


def bfs(G: fr.Graph, source: int = 0, *, direction: str = "push", **options) -> BFSResult:
    """Breadth-first search from ``source``.

    Parameters
    ----------
    G : frontier.Graph
    source : int or node
        The start vertex: a node of ``G.node_labels`` when ``G`` has them.
    direction : ``"push"`` or ``"auto"``
        ``"auto"``: push or pull chosen per level by Beamer's rule
        (:class:`frontier.AutoDirection`); :func:`~primitives.dobfs` takes
        the rule's settings.
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
        If ``source`` is not a vertex of ``G``, or ``direction`` is neither
        ``"push"`` nor ``"auto"``.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import bfs
    >>> G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], device="cpu")
    >>> bfs(G, source=0).depth.tolist()
    [0, 1, 2, 3]
    """
    return fr.enact(BFS, G, source=source, direction=direction, **options)
