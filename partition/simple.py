"""Partitioners that ignore the edges' endpoints: balanced random and contiguous."""

from __future__ import annotations

import numpy as np

from .owner import check_num_parts


def random_partition(graph, num_parts: int, seed: int = 0) -> np.ndarray:
    """Deal the vertices, in a seeded random order, round-robin to the parts.

    Part sizes differ by at most one vertex.

    Parameters
    ----------
    graph : frontier.Graph
    num_parts : int
        Number of parts (>= 1).
    seed : int
        Seed of the random order.

    Returns
    -------
    numpy.ndarray
        Host int32 owner of every vertex.

    Raises
    ------
    ValueError
        If ``num_parts`` is not a positive integer.
    """
    num_parts = check_num_parts(num_parts)
    n = graph.num_vertices
    owner = np.empty(n, dtype=np.int32)
    owner[np.random.default_rng(seed).permutation(n)] = np.arange(n) % num_parts
    return owner


def contiguous_partition(graph, num_parts: int, seed: int = 0) -> np.ndarray:
    """Cut the vertex ids into ``num_parts`` ranges with about equal numbers of arcs.

    Keeps the locality of a well-ordered graph (a grid, a road network in
    id order). Each part's stored arcs are within one vertex's out-degree of
    an equal share.

    Parameters
    ----------
    graph : frontier.Graph
    num_parts : int
        Number of parts (>= 1).
    seed : int
        Unused: the cut is deterministic.

    Returns
    -------
    numpy.ndarray
        Host int32 owner of every vertex, non-decreasing in the vertex id.

    Raises
    ------
    ValueError
        If ``num_parts`` is not a positive integer.
    """
    from frontier.device import to_numpy

    num_parts = check_num_parts(num_parts)
    offsets = to_numpy(graph.offsets)
    total = max(int(offsets[-1]), 1)
    bounds = np.arange(1, num_parts, dtype=np.int64) * total // num_parts
    starts = np.searchsorted(offsets[1:], bounds, side="right")
    # A vertex's part is the number of part starts at or before it.
    owner = np.searchsorted(starts, np.arange(graph.num_vertices), side="right")
    return owner.astype(np.int32)
