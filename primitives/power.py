"""The shape shared by eigenvector and Katz centrality: one vector ``x``,
updated each iteration from a pull over in-edges (``sum x[u] * w(u, v)``,
a sparse matrix-vector product), until its L1 change is below ``N * tol``.

Each vertex's pull reads its in-neighbours' ``x``, so on several devices
``x`` is declared ``"owner"`` (copies of remote vertices are refreshed from
their owners before each step) and every sum over vertices is a
:meth:`~frontier.Primitive.vertex_sum`.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

import frontier as fr


def euclidean_norm(primitive: fr.Primitive, values) -> float:
    """``||values||_2`` over all vertices, scaled by the largest magnitude
    first so that it neither underflows nor overflows (as ``math.hypot``,
    which NetworkX uses). Any slot's value serves as the scale: the norm
    does not depend on it."""
    xp = primitive.xp
    local = float(xp.abs(values).max()) if values.size else 0.0
    scale = float(primitive.reduce(local, "max"))
    if scale == 0 or not np.isfinite(scale):
        return scale
    return scale * float(primitive.vertex_sum((values / scale) ** 2)) ** 0.5


class PowerIteration(fr.Primitive):
    """Base class: set ``self.x`` in ``setup`` (after calling this one) and
    ``self.change`` in each ``step``."""

    communicate = {"x": "owner"}
    dense_steps = True  # every step updates every vertex

    def setup(self):
        self.max_iter = self.params["max_iter"]
        self.tol = self.params["tol"]
        self.weighted = self.params["weighted"]
        self.change = None

    def initial_frontier(self):
        return self.all_vertices()

    def pull(self, values):
        """``sum values[u] * w(u, v)`` over the in-edges of every vertex ``v``."""
        return fr.neighbor_reduce(
            self.graph, fr.functors.SourceValue(values, weighted=self.weighted), "sum")

    def l1_change(self, new, old):
        """``sum |new - old|`` over all vertices."""
        return self.vertex_sum(self.xp.abs(new - old))

    def converged(self, frontier, iteration):
        if self.num_vertices == 0:
            return True
        if self.change is not None and float(self.change) < self.num_vertices * self.tol:
            return True
        if iteration >= self.max_iter:
            raise nx.PowerIterationFailedConvergence(self.max_iter)
        return False
