"""Checks and per-vertex vectors shared by the power-iteration primitives
(PageRank, HITS, eigenvector and Katz centrality).

Dict arguments (``nstart``, ``personalization``, ...) are keyed by vertex id
``0..n-1``, or by the original node when the graph was built from NetworkX
with labels (``G.node_labels``); they become host vectors here, which the
primitive moves to its device(s) with ``vertex_array``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

import frontier as fr


def check_numbers(max_iter, tol, **numbers) -> None:
    """ValueError unless every keyword value is a finite number, ``tol`` a
    number >= 0 and ``max_iter`` an integer >= 0."""
    for name, value in (*numbers.items(), ("tol", tol)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) \
                or not np.isfinite(value):
            raise ValueError(f"{name}={value!r} must be a finite number")
    if tol < 0:
        raise ValueError(f"tol={tol!r} must be >= 0")
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 0:
        raise ValueError(f"max_iter={max_iter!r} must be an integer >= 0")


def vertex_values(G: fr.Graph, values: Mapping, name: str, *, complete: bool = False):
    """``values`` (a dict keyed by vertex) as a float64 host vector, 0 where
    a vertex is missing (``complete``: ValueError naming a missing vertex)."""
    if not isinstance(values, Mapping):
        raise TypeError(f"{name} must be a dict keyed by vertex, got {type(values).__name__}")
    n = G.num_vertices
    index = None if G.node_labels is None else \
        {label: i for i, label in enumerate(G.node_labels)}
    vector = np.zeros(n)
    given = np.zeros(n, bool)
    for key, value in values.items():
        vertex = _vertex_of(key, index, n, name)
        vector[vertex] = value
        given[vertex] = True
    if complete and not given.all():
        missing = int(np.flatnonzero(~given)[0])
        label = missing if G.node_labels is None else G.node_labels[missing]
        raise ValueError(f"{name} must have a value for every vertex; {label!r} has none")
    return vector


def distribution(G: fr.Graph, values: Mapping | None, name: str):
    """``values`` as a host vector normalized to sum 1; for ``None`` the
    uniform value ``1/n`` (the primitive fills it in on the device)."""
    if values is None:
        return 1.0 / max(G.num_vertices, 1)
    vector = vertex_values(G, values, name)
    total = vector.sum()
    if G.num_vertices and total == 0:
        raise ZeroDivisionError(f"{name} values sum to 0: at least one must be non-zero")
    vector /= total
    return vector


def _vertex_of(key, index: dict | None, n: int, name: str) -> int:
    if index is not None:
        if key not in index:
            raise ValueError(f"{name} names {key!r}, which is not a vertex label of the graph")
        return index[key]
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key < n:
        raise ValueError(f"{name} names {key!r}, which is not a vertex id in 0..{n - 1}")
    return int(key)
