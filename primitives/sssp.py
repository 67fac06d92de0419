"""Single-source shortest paths over non-negative edge weights.

Each iteration relaxes the out-edges of the frontier,
``distance[v] = min(distance[v], distance[u] + w(u, v))``, and the vertices
whose distance went down (each once) form the next frontier; the run ends when
no distance improves. This is Gunrock's SSSP: a frontier-driven Bellman-Ford.

With ``delta`` the frontier is split near/far (Gunrock's "near-far pile", a
two-bucket delta-stepping): only vertices closer than a moving bound are
expanded; farther ones wait in a far pile until the near frontier runs dry,
then the bound moves up by ``delta`` past the closest waiting vertex. Far
vertices are often improved again before their turn, so fewer edges are
relaxed more than once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import frontier as fr


@dataclass
class SSSPResult(fr.Result):
    """``distance[v]``: length of a shortest path from the source (float64,
    ``inf`` if unreached); ``predecessor[v]``: the vertex before ``v`` on such
    a path (-1 for the source and for unreached vertices)."""

    distance: object
    predecessor: object


class SSSP(fr.Primitive):
    # A predecessor is only right together with the distance it was set with:
    # a multi-device merge must take it from the update that wins the min.
    communicate = {"distance": "min"}

    def setup(self):
        graph = self.graph
        self.source = fr.check_vertex(graph, self.params["source"])
        self.delta = _check_delta(self.params["delta"])
        _check_non_negative(graph)
        self.distance = self.vertex_array(np.inf, np.float64)
        self.predecessor = self.vertex_array(-1, fr.index_dtype(graph.num_vertices))
        self.distance[self.source] = 0.0
        if self.delta is not None:
            self.bound = self.delta
            self.far = fr.Frontier.empty(graph.num_vertices, graph.device)

    def initial_frontier(self):
        return self.frontier_of([self.source])

    def step(self, frontier, iteration):
        relax = fr.functors.RelaxMin(self.distance, self.predecessor)
        improved = fr.filter(fr.advance(self.graph, frontier, relax), unique=True)
        if self.delta is None:
            return improved
        return self.near_far(improved)

    def near_far(self, improved):
        """The improved vertices below the bound; the rest join the far pile."""
        distance = self.distance
        near = fr.filter(improved, lambda ids: distance[ids] < self.bound)
        far = fr.filter(improved, lambda ids: distance[ids] >= self.bound)
        self.far = self.frontier_of(self.xp.concatenate([self.far.ids, far.ids]))
        if near.is_empty() and not self.far.is_empty():
            # Entries now below the bound were expanded at that distance when
            # they improved; only those at or above it still wait.
            waiting = fr.filter(self.far, lambda ids: distance[ids] >= self.bound,
                                unique=True)
            if not waiting.is_empty():
                self.bound = float(distance[waiting.ids].min()) + self.delta
            near = fr.filter(waiting, lambda ids: distance[ids] < self.bound)
            self.far = fr.filter(waiting, lambda ids: distance[ids] >= self.bound)
        return near

    def result(self):
        return SSSPResult(self.distance, self.predecessor)


def _check_delta(delta) -> float | None:
    if delta is None:
        return None
    try:
        value = float(delta)
    except (TypeError, ValueError):
        raise ValueError(f"delta={delta!r} must be a number or None") from None
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"delta={delta!r} must be a finite number > 0 (or None)")
    return value


def _check_non_negative(graph: fr.Graph) -> None:
    """ValueError naming the first arc of negative weight, if there is one."""
    if graph.weights is None or graph.weights.dtype.kind == "u":
        return
    negative = graph.xp.flatnonzero(graph.weights < 0)
    if len(negative):
        arc = int(negative[0])
        tail = int(graph.xp.searchsorted(graph.offsets, arc, side="right")) - 1
        head, weight = int(graph.columns[arc]), graph.weights[arc].item()
        raise ValueError(f"edge ({tail}, {head}) has weight {weight}: "
                         "sssp needs non-negative weights")


def sssp(G: fr.Graph, source: int = 0, *, delta: float | None = None,
         **options) -> SSSPResult:
    """Shortest path lengths from ``source`` (non-negative weights).

    Parameters
    ----------
    G : frontier.Graph
        Directed or undirected; integer or floating-point weights, or none
        (every edge then has length 1). Of parallel edges the lightest counts.
    source : int
        The start vertex.
    delta : float, optional
        Width of the near/far split (see the module docstring); ``None``
        expands every improved vertex at once. Any value gives the same
        distances; it only changes how much work is done.
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Returns
    -------
    SSSPResult
        ``distance`` (float64, ``inf`` = unreached; exact for integer weights
        while path lengths stay below 2**53) and ``predecessor`` (-1 for the
        source and unreached vertices), with
        ``distance[v] == distance[p] + w(p, v)`` for ``p = predecessor[v]``
        and some edge ``p -> v``.

    Raises
    ------
    ValueError
        If ``source`` is not a vertex of ``G``, an edge has a negative weight
        (the message names it), or ``delta`` is not a positive number.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import sssp
    >>> G = fr.Graph.from_edges([0, 0, 1], [1, 2, 2], weights=[4, 1, 2],
    ...                         directed=True, device="cpu")
    >>> r = sssp(G, source=0)
    >>> r.distance.tolist(), r.predecessor.tolist()
    ([0.0, 4.0, 1.0], [-1, 0, 0])
    """
    return fr.enact(SSSP, G, source=source, delta=delta, **options)
