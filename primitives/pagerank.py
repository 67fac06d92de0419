"""PageRank by power iteration, pulled over in-edges, with NetworkX's semantics.

Every vertex spreads its rank over its out-edges in proportion to their
weights. One iteration is one pull: each vertex sums ``x[u] * w(u, v) /
outweight(u)`` over its in-edges (a sparse matrix-vector product, the
built-in ``SourceValue`` functor reduced with ``"sum"``); the rank of the
dangling vertices (out-weight 0) is spread by the ``dangling`` distribution,
and ``1 - alpha`` teleports by the personalization vector:

    x' = alpha * (x A + sum(x[dangling]) * d) + (1 - alpha) * p

The run stops when ``sum |x' - x| < N * tol``, as ``nx.pagerank`` does.

Each vertex's pull reads its in-neighbours' ``spread`` (``x[u] /
outweight(u)``; a dangling vertex's spread is its rank, which no edge
reads, so the rank itself is not kept), which only the vertex's owner can
compute: on several
devices it is declared ``"owner"``, so copies of remote vertices are
refreshed from their owners each iteration, and the sums over all vertices
(the change, and the dangling mass the next iteration spreads) are taken
together at the end of a step, in one :meth:`~frontier.Primitive.vertex_sums`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx
import numpy as np

import frontier as fr

from .vectors import check_numbers, distribution


@dataclass
class PageRankResult(fr.Result):
    """``rank[v]``: the PageRank of vertex ``v`` (float64, sums to 1)."""

    rank: object


class PageRank(fr.Primitive):
    parameters = ("alpha", "max_iter", "tol", "weighted", "personalization", "dangling",
                  "nstart")
    communicate = {"spread": "owner"}
    dense_steps = True  # every step updates every vertex

    def setup(self):
        G, params = self.graph, self.params
        self.alpha = params["alpha"]
        self.max_iter = params["max_iter"]
        self.tol = params["tol"]
        self.weighted = params["weighted"]
        ones = self.vertex_array(1.0, np.float64)
        out_weight = fr.neighbor_reduce(
            G, fr.functors.DestinationValue(ones, weighted=self.weighted), "sum",
            direction="push")
        del ones
        self.dangling = out_weight == 0
        # No edge reads a dangling vertex's spread, so it may hold the rank:
        # then rank = spread * out_weight everywhere, and only spread is kept.
        out_weight[self.dangling] = 1.0
        self.out_weight = out_weight
        self.teleport = self.distribution(params["personalization"])
        self.dangling_weights = self.distribution(params["dangling"])
        self.spread = self.vertex_array(params["nstart"], np.float64) / out_weight
        self.change = None
        self.dangling_mass = None  # the dangling vertices' rank, summed with the change

    def distribution(self, values):
        """A per-vertex vector on the device; a uniform value as it is."""
        return values if np.isscalar(values) else self.vertex_array(values, np.float64)

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        # In place where it can be: a vertex array costs 8 bytes a vertex,
        # a sixth of the graph's own bytes at Graph500 density.
        xp, alpha = self.xp, self.alpha
        if self.dangling_mass is None:  # later steps sum it with the change
            self.dangling_mass = self.vertex_sum(xp.where(self.dangling, self.spread, 0.0))
        rank = fr.neighbor_reduce(
            self.graph, fr.functors.SourceValue(self.spread, weighted=self.weighted), "sum")
        rank *= alpha
        rank += (alpha * self.dangling_mass) * self.dangling_weights
        rank += (1 - alpha) * self.teleport
        difference = self.spread * self.out_weight  # the previous rank
        difference -= rank
        xp.abs(difference, out=difference)
        rank /= self.out_weight
        self.spread = rank  # the previous spread goes: three vertex arrays at most
        # A dangling vertex's spread is its rank (its out-weight counts as 1).
        self.change, self.dangling_mass = self.vertex_sums(
            [difference, xp.where(self.dangling, rank, 0.0)])
        return frontier

    def converged(self, frontier, iteration):
        n = self.num_vertices
        if n == 0 or (self.change is not None and float(self.change) < n * self.tol):
            return True
        if iteration >= self.max_iter:
            raise nx.PowerIterationFailedConvergence(self.max_iter)
        return False

    def result(self):
        return PageRankResult(self.spread * self.out_weight)


def pagerank(
    G: fr.Graph,
    alpha: float = 0.85,
    personalization: Mapping | None = None,
    max_iter: int = 100,
    tol: float = 1e-6,
    nstart: Mapping | None = None,
    weight: str | None = "weight",
    dangling: Mapping | None = None,
    **options,
) -> PageRankResult:
    """PageRank of every vertex, as ``networkx.pagerank`` computes it.

    An undirected graph counts each edge in both directions; parallel edges
    add their weights, as in a NetworkX multigraph.

    Parameters
    ----------
    G : frontier.Graph
    alpha : float
        Damping factor: the probability of following an edge rather than
        teleporting.
    personalization : dict, optional
        Teleport weight per vertex (missing vertices get 0), normalized to sum
        1. Default: uniform.
    max_iter : int
        Most power iterations.
    tol : float
        Stop when the L1 change of the rank vector is below ``N * tol``.
    nstart : dict, optional
        Starting rank per vertex (missing vertices get 0), normalized to sum 1.
        Default: uniform.
    weight : str or None
        As in NetworkX, edges are weighted by default: any name uses
        ``G.weights`` when the graph has them (a graph without weights
        counts every edge as 1, as NetworkX does for edges without the
        attribute); ``None`` counts every edge as 1.
    dangling : dict, optional
        Where the rank of vertices without out-weight goes (normalized to sum
        1). Default: the personalization vector.
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Dict keys are vertex ids ``0..n-1``, or the caller's nodes when ``G``
    has ``node_labels`` (built from NetworkX nodes other than exactly the
    integers ``0..n-1``, or by ``from_edges(relabel=True)``);
    ``result.to_dict("rank")`` keys the ranks the same way.

    Returns
    -------
    PageRankResult
        ``rank`` (float64, one per vertex).

    Raises
    ------
    networkx.PowerIterationFailedConvergence
        If the ranks have not converged after ``max_iter`` iterations.
    ValueError
        If a dict names a vertex that ``G`` does not have (NetworkX ignores
        such keys; a misspelt key is more likely a mistake than intended), if
        an edge used for weighting has a negative weight, or if ``alpha`` or
        ``tol`` is not a finite number (``tol >= 0``) or ``max_iter`` not an
        integer >= 0.
    ZeroDivisionError
        If the values of ``personalization``, ``nstart`` or ``dangling`` sum to 0.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import pagerank
    >>> G = fr.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True, device="cpu")
    >>> pagerank(G).rank.round(4).tolist()
    [0.3333, 0.3333, 0.3333]
    """
    check_numbers(max_iter, tol, alpha=alpha)
    weighted = weight is not None and G.is_weighted
    if weighted:
        G.check_weights("pagerank needs non-negative weights (or weight=None)")
    teleport = distribution(G, personalization, "personalization")
    dangling_weights = teleport if dangling is None else distribution(G, dangling, "dangling")
    start = distribution(G, nstart, "nstart")
    return fr.enact(PageRank, G, alpha=alpha, max_iter=max_iter, tol=tol,
                    weighted=weighted, personalization=teleport,
                    dangling=dangling_weights, nstart=start, **options)
