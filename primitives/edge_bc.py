"""Edge betweenness centrality: Brandes with each arc's share of the dependencies.

The betweenness of an edge sums, over pairs of vertices ``(s, t)``, the
fraction of shortest ``s``-``t`` paths that use the edge. Brandes' backward
pass gives it directly (NetworkX's edge accumulation): for a source ``s``
and an arc ``v -> w`` on a shortest path from it, the paths through the
arc to ``w`` and beyond count ``sigma[v] (1 + delta[w]) / sigma[w]``, which
is ``sigma[v] * coefficient[w]`` in :class:`~primitives.bc.Brandes`. So
:class:`EdgeShares` adds that to a per-arc array while the backward pass
sums the same coefficients over each vertex's out-arcs, and pushes over the
source's out-arcs too (vertex betweenness needs no dependency there). An
undirected edge sums its two arcs.

The per-arc array is a result field of one entry per arc
(:attr:`frontier.Result.arc_fields`): on several devices each arc's share
is added on the device that owns its tail, whose row holds all the tail's
out-arcs, and the enactor places every part's owned rows in the whole
graph's arcs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import frontier as fr

from .bc import BCResult, Brandes, WeightedBrandes, _scale, check_weights, sample_sources


@dataclass
class EdgeBCResult(fr.Result):
    """One entry per edge of ``G`` without self loops and parallel edges
    (undirected edges once, ``src < dst``): ``src``, ``dst`` and the edge's
    ``centrality`` (float64)."""

    src: object
    dst: object
    centrality: object


@dataclass
class ArcBCResult(BCResult):
    """Brandes' vertex ``centrality`` and, per arc of the graph it ran on
    (CSR order), the arc's ``tail`` and ``head`` (vertex ids) and its
    betweenness ``arc_centrality``."""

    tail: object
    head: object
    arc_centrality: object

    arc_fields = ("tail", "head", "arc_centrality")


class EdgeShares:
    """Brandes that also adds each shortest-path arc's share of every
    source's dependencies to ``arc_centrality``."""

    def setup(self):
        super().setup()
        self.arc_centrality = self.xp.zeros(self.graph.num_arcs, np.float64)

    def successor_coefficients(self):
        coefficient = super().successor_coefficients()
        sigma, shares = self.sigma, self.arc_centrality

        def coefficient_and_share(src, dst, edge, weight):
            values = coefficient(src, dst, edge, weight)  # 0 off the shortest paths
            shares[edge] += sigma[src] * values  # a level's push meets each arc once
            return values

        return coefficient_and_share

    def accumulate(self):
        if len(self.levels) == 1:  # the source's: Brandes needs no delta there, the arcs do
            fr.neighbor_reduce(self.graph, self.successor_coefficients(), "sum",
                               vertices=self.levels[0], direction="push")
        return super().accumulate()

    def absorb(self, other):
        super().absorb(other)
        self.arc_centrality += other.arc_centrality

    def result(self):
        factor, _ = self.params["scale"]
        ids = self.vertex_ids()
        return ArcBCResult(super().result().centrality, ids[self.graph.arc_sources()],
                           ids[self.graph.columns], self.arc_centrality * factor)


class ArcBrandes(EdgeShares, Brandes):
    """Brandes over BFS levels, with the arcs' shares."""


class WeightedArcBrandes(EdgeShares, WeightedBrandes):
    """Brandes over the shortest-path DAG, with the arcs' shares."""


def _per_edge(run: ArcBCResult, num_vertices: int, directed: bool) -> tuple:
    """Host arrays ``(src, dst, centrality)``: each arc of ``run``, or for an
    undirected graph each edge once (``src < dst``) with its two arcs' sum,
    paired where the run left its arrays. The arcs come sorted by ``(tail,
    head)`` and their set is symmetric, so sorted by ``(head, tail)`` they
    are the reverses in the same order: one sort of the distinct keys
    ``head n + tail`` (int64: ``n * n`` passes 2**31 from 2**16 vertices),
    where a binary search for each reverse took 5 times as long on the CPU
    at Kronecker 16."""
    tail, head, through = run.tail, run.head, run.arc_centrality
    if not directed:
        reverse = (head.astype(np.int64) * num_vertices + tail).argsort()
        once = tail < head
        tail, head, through = tail[once], head[once], (through + through[reverse])[once]
    return fr.to_numpy(tail), fr.to_numpy(head), fr.to_numpy(through)


def edge_betweenness_centrality(
    G: fr.Graph,
    k: int | None = None,
    normalized: bool = True,
    weight: str | None = None,
    seed=None,
    **options,
) -> EdgeBCResult:
    """Betweenness centrality of every edge, as ``networkx.edge_betweenness_centrality``.

    Parameters
    ----------
    G : frontier.Graph
    k : int, optional
        Use ``k`` sources sampled as NetworkX samples them (``seed``).
    normalized : bool
        Divide by ``n (n - 1)``; otherwise undirected graphs count each
        unordered pair once.
    weight : str or None
        ``None`` counts hops; any name uses ``G.weights`` (positive).
    seed : int, random.Random, numpy Generator or None
        Randomness for sampling ``k`` sources.
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Parallel edges count once (the lightest when weighted) and self loops lie
    on no shortest path (NetworkX gives them 0), as in
    :func:`primitives.betweenness_centrality`.

    Returns
    -------
    EdgeBCResult
        ``src``, ``dst``, ``centrality`` per edge (host arrays).

    Raises
    ------
    ValueError
        As :func:`primitives.betweenness_centrality`: a ``k`` outside
        ``1..n``, a ``weight`` on a graph without weights, a weight <= 0.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import edge_betweenness_centrality
    >>> G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], device="cpu")
    >>> r = edge_betweenness_centrality(G)
    >>> list(zip(r.src.tolist(), r.dst.tolist(), r.centrality.round(4).tolist()))
    [(0, 1, 0.5), (1, 2, 0.6667), (2, 3, 0.5)]
    """
    n = G.num_vertices
    sampled = sample_sources(n, k, seed)
    if weight is not None:
        check_weights(G, weight)
    simple = G.simplified()
    weighted = weight is not None
    scale = _scale(n, normalized, G.directed, True, sampled)
    sources = range(n) if sampled is None else sampled
    run = fr.enact(WeightedArcBrandes if weighted else ArcBrandes, simple, sources=sources,
                   endpoints=False, scale=scale, **options)
    result = EdgeBCResult(*_per_edge(run, n, G.directed))
    result.__dict__.update({name: value for name, value in run.__dict__.items()
                            if name not in run.arrays()})
    return result
