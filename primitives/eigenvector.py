"""Eigenvector centrality by power iteration, with NetworkX's semantics.

NetworkX iterates with ``A + I`` (the identity keeps bipartite graphs from
oscillating) on the left eigenvector, so a vertex gains from its
in-neighbours (its neighbours, undirected):

    y = x + x A,   x' = y / ||y||_2

starting from ``nstart`` normalized to sum 1 (default uniform), until
``sum |x' - x| < N * tol``. See :mod:`primitives.power` for the loop and
for what several devices need.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx
import numpy as np

import frontier as fr

from .power import PowerIteration, euclidean_norm
from .vectors import check_numbers, distribution, vertex_values


@dataclass
class EigenvectorResult(fr.Result):
    """``centrality[v]``: the eigenvector centrality of ``v`` (float64, unit
    Euclidean norm)."""

    centrality: object


class EigenvectorCentrality(PowerIteration):
    parameters = ("max_iter", "tol", "weighted", "nstart")

    def setup(self):
        super().setup()
        self.x = self.vertex_array(self.params["nstart"], np.float64)

    def step(self, frontier, iteration):
        y = self.pull(self.x)
        y += self.x
        norm = euclidean_norm(self, y)
        y /= norm or 1.0  # NetworkX takes 1 for a zero norm, too
        self.change = self.l1_change(y, self.x)
        self.x = y
        return frontier

    def result(self):
        return EigenvectorResult(self.x)


def eigenvector_centrality(
    G: fr.Graph,
    max_iter: int = 100,
    tol: float = 1.0e-6,
    nstart: Mapping | None = None,
    weight: str | None = None,
    **options,
) -> EigenvectorResult:
    """Eigenvector centrality of every vertex, as
    ``networkx.eigenvector_centrality`` computes it.

    Parameters
    ----------
    G : frontier.Graph
        A directed graph uses in-edges (left eigenvector). Parallel edges add
        their weights (NetworkX refuses multigraphs).
    max_iter : int
        Most power iterations.
    tol : float
        Stop when the L1 change of the vector is below ``N * tol``.
    nstart : dict, optional
        Starting value per vertex (missing vertices get 0), normalized to sum
        1. Default: all ones.
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
    EigenvectorResult
        ``centrality`` (float64, one per vertex).

    Raises
    ------
    networkx.NetworkXPointlessConcept
        If ``G`` has no vertices.
    networkx.NetworkXError
        If every value of ``nstart`` is 0.
    ZeroDivisionError
        If the values of ``nstart`` sum to 0 (NetworkX divides by the sum).
    networkx.PowerIterationFailedConvergence
        If the vector has not converged after ``max_iter`` iterations.
    ValueError
        If ``tol`` is not a finite number >= 0, ``max_iter`` not an integer
        >= 0, or ``nstart`` names a vertex ``G`` does not have.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import eigenvector_centrality
    >>> G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    >>> eigenvector_centrality(G).centrality.round(4).tolist()
    [0.5, 0.7071, 0.5]
    """
    check_numbers(max_iter, tol)
    if G.num_vertices == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    if nstart is not None and not (vertex_values(G, nstart, "nstart") != 0).any():
        raise nx.NetworkXError("initial vector cannot have all zero values")
    return fr.enact(EigenvectorCentrality, G, max_iter=max_iter, tol=tol,
                    weighted=weight is not None and G.is_weighted,
                    nstart=distribution(G, nstart, "nstart"), **options)
