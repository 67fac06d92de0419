"""Katz centrality by power iteration, with NetworkX's semantics.

Every vertex gets ``beta`` plus ``alpha`` times the centrality of its
in-neighbours (its neighbours, undirected):

    x' = alpha * x A + beta

starting from ``nstart`` (default 0), until ``sum |x' - x| < N * tol``;
with ``normalized`` the answer is scaled to unit Euclidean norm. The series
converges when ``alpha`` is below ``1 / lambda_max`` of the adjacency
matrix. See :mod:`primitives.power` for the loop and for what several
devices need.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx
import numpy as np

import frontier as fr

from .power import PowerIteration, euclidean_norm
from .vectors import check_numbers, vertex_values


@dataclass
class KatzResult(fr.Result):
    """``centrality[v]``: the Katz centrality of ``v`` (float64)."""

    centrality: object


class KatzCentrality(PowerIteration):
    parameters = ("alpha", "beta", "max_iter", "tol", "weighted", "nstart", "normalized")

    def setup(self):
        super().setup()
        self.alpha = self.params["alpha"]
        beta = self.params["beta"]
        self.beta = beta if np.isscalar(beta) else self.vertex_array(beta, np.float64)
        self.x = self.vertex_array(self.params["nstart"], np.float64)

    def step(self, frontier, iteration):
        y = self.pull(self.x)
        y *= self.alpha
        y += self.beta
        self.change = self.l1_change(y, self.x)
        self.x = y
        return frontier

    def result(self):
        if not self.params["normalized"]:
            return KatzResult(self.x)
        norm = euclidean_norm(self, self.x)
        # As NetworkX: times the norm's reciprocal (inf for a subnormal
        # norm), 1 for a zero norm.
        return KatzResult(self.x * (1.0 / norm if norm else 1.0))


def katz_centrality(
    G: fr.Graph,
    alpha: float = 0.1,
    beta: float | Mapping = 1.0,
    max_iter: int = 1000,
    tol: float = 1.0e-6,
    nstart: Mapping | None = None,
    normalized: bool = True,
    weight: str | None = None,
    **options,
) -> KatzResult:
    """Katz centrality of every vertex, as ``networkx.katz_centrality``
    computes it.

    Parameters
    ----------
    G : frontier.Graph
        A directed graph uses in-edges. Parallel edges add their weights
        (NetworkX refuses multigraphs).
    alpha : float
        Attenuation factor; below ``1 / lambda_max`` for the series to converge.
    beta : float or dict
        Weight given to every vertex, or a dict with a value for every vertex.
    max_iter : int
        Most iterations.
    tol : float
        Stop when the L1 change of the vector is below ``N * tol``.
    nstart : dict, optional
        Starting value per vertex (missing vertices get 0; not normalized).
        Default: all 0.
    normalized : bool
        Scale the answer to unit Euclidean norm (left as is when it is 0).
    weight : str or None
        ``None`` (NetworkX's default) counts every edge as 1; any name uses
        ``G.weights`` when the graph has them.
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Dict keys are vertex ids ``0..n-1``, or the original nodes of a graph
    built from NetworkX with labels (``G.node_labels``).

    Returns
    -------
    KatzResult
        ``centrality`` (float64, one per vertex; empty for an empty graph).

    Raises
    ------
    networkx.NetworkXError
        If ``beta`` is a dict without a value for every vertex.
    networkx.PowerIterationFailedConvergence
        If the vector has not converged after ``max_iter`` iterations.
    ValueError
        If ``alpha`` or a scalar ``beta`` is not a finite number, ``tol`` not
        a finite number >= 0, ``max_iter`` not an integer >= 0, or a dict
        names a vertex ``G`` does not have.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import katz_centrality
    >>> G = fr.Graph.from_edges([0, 1], [1, 2], directed=True, device="cpu")
    >>> katz_centrality(G, normalized=False).centrality.round(4).tolist()
    [1.0, 1.1, 1.11]
    """
    if isinstance(beta, Mapping):
        try:
            beta = vertex_values(G, beta, "beta", complete=True)
        except ValueError as error:
            raise nx.NetworkXError(f"beta dictionary must have a value for every node: "
                                   f"{error}") from error
        check_numbers(max_iter, tol, alpha=alpha)
    else:
        check_numbers(max_iter, tol, alpha=alpha, beta=beta)
        beta = float(beta)
    start = 0.0 if nstart is None else vertex_values(G, nstart, "nstart")
    return fr.enact(KatzCentrality, G, alpha=alpha, beta=beta, max_iter=max_iter, tol=tol,
                    weighted=weight is not None and G.is_weighted, nstart=start,
                    normalized=bool(normalized), **options)
