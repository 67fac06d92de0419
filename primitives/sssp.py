"""Single-source shortest paths over non-negative edge weights.

Each iteration relaxes the out-edges of the frontier,
``distance[v] = min(distance[v], distance[u] + w(u, v))``, and the vertices
whose distance went down (each once) form the next frontier; the run ends when
no distance improves. This is Gunrock's SSSP: a frontier-driven Bellman-Ford.

The frontier is split near/far (Gunrock's "near-far pile", a two-bucket
delta-stepping): only vertices closer than a moving bound are expanded;
farther ones wait in a far pile until the near frontier runs dry, then the
bound moves to ``delta`` past the closest waiting vertex. Far vertices are
often improved again before their turn, so fewer edges are relaxed more than
once: on road networks this cuts the relaxations from about 60 per edge to
1.3-2 (docs/primitives/sssp.md). ``delta=inf`` turns the split off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import frontier as fr

# The default delta in mean edge weights; measured on road and social graphs
# in docs/primitives/sssp.md.
DELTA_IN_MEAN_WEIGHTS = 16


@dataclass
class SSSPResult(fr.Result):
    """``distance[v]``: length of a shortest path from the source (float64,
    ``inf`` if unreached); ``predecessor[v]``: the vertex before ``v`` on such
    a path (-1 for the source and for unreached vertices)."""

    distance: object
    predecessor: object

    vertex_fields = ("predecessor",)


class SSSP(fr.Primitive):
    parameters = ("source", "delta")
    vertex_parameters = ("source",)
    # A predecessor is only right together with the distance it was set with.
    communicate = {"distance": "min", "predecessor": fr.follows("distance")}
    # A step returns every vertex it improved (near or far: the split into
    # the two piles comes at the start of the next step).
    changes_only_in_output = True
    # A copy's distance only decides whether a relaxation is offered to the
    # owner, who keeps the minimum: a stale copy costs an offer, not a wrong answer.
    copies_may_lag = True
    # The step's work is one relaxing advance, returned without repeats:
    # its levels may run on to the fixed point (the far pile then holds
    # vertices already final, which expand to nothing).
    replayable = True
    # setup fills the arrays and puts the source's distance wherever it has a slot.
    uniform_setup = True

    def setup(self):
        self.source = self.local_slots([self.params["source"]], name="source")
        self.delta = self.params["delta"]
        self.distance = self.vertex_array(np.inf, np.float64)
        self.predecessor = self.vertex_array(-1, fr.index_dtype(self.num_vertices))
        self.put(self.distance, self.source, 0.0)
        self.bound = self.delta
        self.far = self.frontier_of([])
        self.split = None  # (the frontier split, its near part, the near and far totals)

    def initial_frontier(self):
        return self.frontier_of(self.source)

    def step(self, frontier, iteration):
        relax = fr.functors.RelaxMin(self.distance, self.predecessor)
        near = self.near_far(frontier)
        return fr.filter(fr.advance(self.graph, near, relax), unique=True)

    def converged(self, frontier, iteration):
        _, near_total, far_total = self.split_near_far(frontier)
        return near_total == 0 and far_total == 0

    def split_near_far(self, improved):
        """The improved vertices below the bound, and the totals over all
        devices of those and of the far pile, which the rest join: worked
        out once per frontier, for ``converged`` and then the step (one
        meeting of the devices for both totals)."""
        if self.split is None or self.split[0] is not improved:
            near, far = fr.separate(improved, self.below_bound)
            if not far.is_empty():
                self.far = self.far.joined(far)  # no check of the ids: no device read
            self.split = (improved, near, *self.reduce_each([near.size, self.far.size]))
        return self.split[1:]

    def below_bound(self, ids):
        return self.distance[ids] < self.bound

    def near_far(self, improved):
        """The vertices to expand: the improved ones below the bound, or
        where none is anywhere, those of the far pile below the next bound."""
        near, near_total, far_total = self.split_near_far(improved)
        self.split = None
        if near_total == 0 and far_total > 0:
            distance = self.distance
            # Entries now below the bound were expanded at that distance when
            # they improved; only those at or above it still wait.
            waiting = fr.filter(self.far, lambda ids: distance[ids] >= self.bound,
                                unique=True)
            closest = distance[waiting.ids].min() if not waiting.is_empty() else np.inf
            closest = self.reduce(float(closest), "min")
            if closest < np.inf:
                self.bound = closest + self.delta
            near, self.far = fr.separate(waiting, self.below_bound)
        return near

    def result(self):
        return SSSPResult(self.distance, self.predecessor)


def _default_delta(graph: fr.Graph) -> float:
    """``DELTA_IN_MEAN_WEIGHTS`` mean edge weights (an unweighted edge weighs 1)."""
    if graph.weights is None:
        return float(DELTA_IN_MEAN_WEIGHTS)
    mean = float(graph.weights.mean()) if graph.num_arcs else 0.0
    return DELTA_IN_MEAN_WEIGHTS * mean if mean > 0 else math.inf


def _check_delta(delta) -> float:
    try:
        value = float(delta)
    except (TypeError, ValueError):
        raise ValueError(f"delta={delta!r} must be a number > 0 or None") from None
    if not value > 0:
        raise ValueError(f"delta={delta!r} must be a number > 0 or None")
    return value


def sssp(G: fr.Graph, source: int = 0, *, delta: float | None = None,
         **options) -> SSSPResult:
    """Shortest path lengths from ``source`` (non-negative weights).

    Parameters
    ----------
    G : frontier.Graph
        Directed or undirected; integer or floating-point weights, or none
        (every edge then has length 1). Of parallel edges the lightest counts.
    source : int or node
        The start vertex: a node of ``G.node_labels`` when ``G`` has them.
    delta : float, optional
        Width of the near/far split (see the module docstring). ``None``
        picks 16 times the mean edge weight; ``math.inf`` expands every
        improved vertex at once (plain frontier Bellman-Ford). Any value
        gives the same distances; it only changes how much work is done.
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
        (the message names it), or ``delta`` is not a number > 0.

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
    G.check_weights("sssp needs non-negative weights")
    delta = _default_delta(G) if delta is None else _check_delta(delta)
    return fr.enact(SSSP, G, source=source, delta=delta, **options)
