"""Edge betweenness centrality: Brandes over a graph with a vertex on every arc.

The betweenness of an edge sums, over pairs of vertices ``(s, t)``, the
fraction of shortest ``s``-``t`` paths that use the edge. Split every arc
``u -> v`` of ``G`` at a new *midpoint* vertex ``m``: ``u -> m -> v``. The
shortest paths of this subdivided graph between ``G``'s vertices are those
of ``G`` with a midpoint inserted in each step, with the same path counts,
so the fraction of ``s``-``t`` paths through the edge ``u -> v`` is the
fraction through ``m``. The vertex betweenness of ``m``, with only ``G``'s
vertices as sources and targets, is therefore the edge betweenness of
``u -> v``: :class:`~primitives.bc.Brandes` runs unchanged except that a
path ending at a midpoint counts 0 (``target_weight``). An undirected edge
has one midpoint per direction; its value is their sum.

Weighted graphs put the arc's weight on ``u -> m`` and 0 on ``m -> v``: a
midpoint has a single in-arc, so its distance is the very sum
``distance[u] + w`` that decides whether ``u -> v`` is tight in ``G``, and
``m -> v`` is tight exactly when ``u -> v`` is.

Since the result is a vertex array of the subdivided graph, the primitive
runs on any devices like betweenness itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import frontier as fr

from .bc import Brandes, WeightedBrandes, _scale, check_weights, sample_sources


@dataclass
class EdgeBCResult(fr.Result):
    """One entry per edge of ``G`` without self loops and parallel edges
    (undirected edges once, ``src < dst``): ``src``, ``dst`` and the edge's
    ``centrality`` (float64)."""

    src: object
    dst: object
    centrality: object


class EdgeTargets:
    """Only the first ``targets`` vertices (``G``'s own) end counted paths."""

    parameters = Brandes.parameters + ("targets",)

    def target_weight(self, ids):
        return (self.vertex_ids()[ids] < self.params["targets"]).astype(np.float64)


class EdgeBrandes(EdgeTargets, Brandes):
    """Brandes over BFS levels of the subdivided graph."""


class WeightedEdgeBrandes(EdgeTargets, WeightedBrandes):
    """Brandes over the shortest-path DAG of the subdivided graph."""


def subdivided(G: fr.Graph, weighted: bool) -> fr.Graph:
    """The directed graph with arc ``a = u -> v`` of ``G`` replaced by
    ``u -> n + a -> v`` (weights ``w`` and 0 when ``weighted``), built where
    ``G`` lives from its arcs in CSR order."""
    xp = G.xp
    src, dst = G.arc_sources(), G.columns.astype(np.int64)
    n, midpoint = G.num_vertices, G.num_vertices + xp.arange(len(dst), dtype=np.int64)
    weights = None
    if weighted:
        weights = xp.concatenate([G.weights, xp.zeros_like(G.weights)])
    return G.with_edges(xp.concatenate([src, midpoint]), xp.concatenate([midpoint, dst]),
                        weights, n + len(dst), directed=True)


def reverse_arcs(G: fr.Graph):
    """For each arc ``u -> v`` of a simple undirected ``G`` (CSR order, where
    arcs are sorted by ``(u, v)``), the position of its reverse ``v -> u``:
    a binary search of the sorted keys ``u n + v``, int64 throughout
    (``n * n`` passes 2**31 from 2**16 vertices), on ``G``'s device."""
    xp, n = G.xp, G.num_vertices
    src, dst = G.arc_sources(), G.columns.astype(np.int64)
    return xp.searchsorted(src * n + dst, dst * n + src)


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
    primitive = EdgeBrandes if weight is None else WeightedEdgeBrandes
    scale = _scale(n, normalized, G.directed, True, sampled)
    run = fr.enact(primitive, subdivided(simple, weight is not None),
                   sources=range(n) if sampled is None else sampled, endpoints=False,
                   scale=scale, targets=n, **options)
    src, dst, _ = simple.edges()
    through = fr.to_numpy(run.centrality)[n:]
    if not G.directed:  # both directions of an edge: arcs u -> v and v -> u
        once = src < dst
        reverse = fr.to_numpy(reverse_arcs(simple))
        src, dst, through = src[once], dst[once], (through + through[reverse])[once]
    result = EdgeBCResult(src, dst, through)
    result.__dict__.update({name: value for name, value in run.__dict__.items()
                            if name not in ("centrality",)})
    return result
