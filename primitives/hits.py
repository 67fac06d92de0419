"""HITS hubs and authorities by power iteration, with NetworkX's semantics.

A good hub points to good authorities and a good authority is pointed to by
good hubs. One iteration is two half-steps, each its own step of the loop:

    a = h A    (pull over in-edges: the authorities)
    h = A a    (push over out-edges: the hubs)

each normalized to sum 1, starting from ``nstart`` (default uniform), until
the hubs' L1 change is below ``tol``. The answer is the leading singular
vector pair of the adjacency matrix ``A``, which NetworkX computes with
ARPACK (``scipy.sparse.linalg.svds``); where that pair is unique (the
largest singular value is simple) both give the same vectors.

Each half-step reads the vector the other one wrote, at the vertices on the
far end of an edge, so on several devices both are declared ``"owner"``:
copies of remote vertices are refreshed from their owners between the two
half-steps, and every sum over vertices is a
:meth:`~frontier.Primitive.vertex_sum`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx
import numpy as np

import frontier as fr

from .power import euclidean_norm
from .vectors import check_numbers, distribution


@dataclass
class HITSResult(fr.Result):
    """``hub[v]`` and ``authority[v]`` (float64)."""

    hub: object
    authority: object


class HITS(fr.Primitive):
    parameters = ("max_iter", "tol", "weighted", "nstart", "normalized")
    communicate = {"hub": "owner", "authority": "owner"}
    dense_steps = True  # every step updates every vertex

    def setup(self):
        self.max_iter = self.params["max_iter"]
        self.tol = self.params["tol"]
        self.weighted = self.params["weighted"]
        self.hub = self.vertex_array(self.params["nstart"], np.float64)
        self.authority = self.vertex_array(0.0, np.float64)
        self.change = None
        self.hub_scale = self.authority_norm = 1.0

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        if iteration % 2 == 0:
            authority = fr.neighbor_reduce(
                self.graph, fr.functors.SourceValue(self.hub, weighted=self.weighted), "sum")
            self.authority = authority / self.total(authority)
            self.authority_norm = euclidean_norm(self, self.authority)
        else:
            hub = fr.neighbor_reduce(
                self.graph, fr.functors.DestinationValue(self.authority, weighted=self.weighted),
                "sum", direction="push")
            self.hub_scale = self.total(hub)
            hub /= self.hub_scale
            self.change = self.vertex_sum(self.xp.abs(hub - self.hub))
            self.hub = hub
        return frontier

    def total(self, values) -> float:
        """The sum of ``values`` over all vertices; NetworkXError when it is 0
        (no edge of non-zero weight leads from a vertex with a hub score)."""
        total = float(self.vertex_sum(values))
        if total == 0:
            raise nx.NetworkXError("hits is undefined here: every hub and authority score "
                                   "is 0 (no edge of non-zero weight from a vertex of nstart)")
        return total

    def converged(self, frontier, iteration):
        if self.num_vertices == 0:
            return True
        if iteration % 2:
            return False  # half-way through an iteration
        if self.change is not None and float(self.change) < self.tol:
            return True
        if iteration // 2 >= self.max_iter:
            raise nx.PowerIterationFailedConvergence(self.max_iter)
        return False

    def result(self):
        if self.params["normalized"]:
            return HITSResult(self.hub, self.authority)
        # NetworkX's unnormalized answer: the authorities as a unit singular
        # vector, the hubs A times it.
        scale = self.hub_scale / self.authority_norm
        return HITSResult(self.hub * scale, self.authority / self.authority_norm)


def hits(
    G: fr.Graph,
    max_iter: int = 100,
    tol: float = 1.0e-8,
    nstart: Mapping | None = None,
    normalized: bool = True,
    weight: str | None = "weight",
    **options,
) -> HITSResult:
    """HITS hub and authority scores of every vertex, as ``networkx.hits``
    computes them.

    Parameters
    ----------
    G : frontier.Graph
        Parallel edges add their weights, as in NetworkX's adjacency matrix.
    max_iter : int
        Most power iterations (each a pull and a push). NetworkX counts
        ARPACK restarts instead, so it may converge where this raises.
    tol : float
        Stop when the L1 change of the hub vector (normalized to sum 1) is
        below ``tol``.
    nstart : dict, optional
        Starting hub value per vertex (missing vertices get 0), normalized to
        sum 1. Default: uniform.
    normalized : bool
        Scale hubs and authorities to sum 1 each. Otherwise, as NetworkX,
        the authorities have unit Euclidean norm and the hubs are ``A``
        times them (NetworkX's sign is ARPACK's, either; this one is >= 0).
    weight : str or None
        NetworkX's ``hits`` always weights edges by their ``"weight"``
        attribute (1 where missing): by default this uses ``G.weights`` when
        the graph has them; ``None`` counts every edge as 1.
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Where the largest singular value of the adjacency matrix is not simple
    (for example two identical components), the leading singular vectors
    are not unique: this returns the one power iteration reaches from
    ``nstart``, NetworkX the one ARPACK finds.

    Returns
    -------
    HITSResult
        ``hub`` and ``authority`` (float64, one per vertex).

    Raises
    ------
    networkx.PowerIterationFailedConvergence
        If the scores have not converged after ``max_iter`` iterations
        (at once for ``max_iter=0``, as in NetworkX).
    networkx.NetworkXError
        If every score becomes 0 (no edge of non-zero weight; NetworkX's
        ARPACK raises its own error).
    ValueError
        If an edge has a negative weight, ``tol`` is not a finite number
        >= 0, ``max_iter`` not an integer >= 0, or ``nstart`` names a
        vertex ``G`` does not have.
    ZeroDivisionError
        If the values of ``nstart`` sum to 0.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import hits
    >>> G = fr.Graph.from_edges([0, 0, 1], [1, 2, 2], directed=True, device="cpu")
    >>> r = hits(G)
    >>> r.hub.round(4).tolist(), r.authority.round(4).tolist()
    ([0.618, 0.382, 0.0], [0.0, 0.382, 0.618])
    """
    check_numbers(max_iter, tol)
    weighted = weight is not None and G.is_weighted
    if weighted:
        G.check_weights("hits needs non-negative weights (or weight=None)")
    return fr.enact(HITS, G, max_iter=max_iter, tol=tol, weighted=weighted,
                    nstart=distribution(G, nstart, "nstart"), normalized=bool(normalized),
                    **options)
