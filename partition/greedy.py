"""Biased random partitioning: a seeded greedy stream that keeps neighbours together.

Vertices are visited in a seeded random order; each goes to the part that
already holds most of its neighbours (in- and out-neighbours, self loops
ignored), among the parts with room left, ties going to the lighter part.
This is Gunrock's biased random partitioner, made vectorized: vertices are
placed in batches, each batch seeing the owners of every vertex placed
before it. A batch is at most a sixteenth of the vertices already placed, so
a vertex misses few of the decisions it could have seen.

Balance is by vertex count: on graphs of skewed degrees, neighbours of hubs
gather with them and the parts' edge counts can differ by more (see
:attr:`partition.Partition.imbalance`).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .adjacency import gather_neighbours, neighbour_lists
from .owner import check_num_parts

BALANCE_EPS = 0.1
"""Allowed vertex imbalance: no part holds more than ``ceil((1 + eps) * n / k)``."""

_MAX_BATCH = 1 << 14
# Caps the batch's (vertex, part) neighbour-count table.
_MAX_BATCH_CELLS = 1 << 20


def max_part_size(num_vertices: int, num_parts: int, eps: float = BALANCE_EPS) -> int:
    """The most vertices one part may hold: ``ceil((1 + eps) * n / k)``.

    ``eps`` is taken as the decimal it prints as (0.1 is one tenth), so that
    the bound has no rounding error: 10 vertices in 1 part allow 11, not 12.
    """
    return math.ceil((1 + Fraction(repr(float(eps)))) * num_vertices / num_parts)


def biased_random_partition(graph, num_parts: int, seed: int = 0, *,
                            eps: float = BALANCE_EPS) -> np.ndarray:
    """Greedy streaming partition that puts a vertex with its neighbours.

    Parameters
    ----------
    graph : frontier.Graph
    num_parts : int
        Number of parts (>= 1).
    seed : int
        Seed of the visiting order.
    eps : float
        Balance slack (finite, >= 0): no part gets more than
        ``max_part_size(n, num_parts, eps)`` vertices.

    Returns
    -------
    numpy.ndarray
        Host int32 owner of every vertex.

    Raises
    ------
    ValueError
        If ``num_parts`` is not a positive integer or ``eps`` is negative or infinite.
    """
    num_parts = check_num_parts(num_parts)
    if not (isinstance(eps, (int, float)) and 0 <= eps < math.inf):
        raise ValueError(f"eps={eps!r} must be a finite non-negative number")
    n = graph.num_vertices
    if num_parts == 1:
        return np.zeros(n, dtype=np.int32)
    adjacency = neighbour_lists(graph)
    owner = np.full(n, -1, dtype=np.int32)
    load = np.zeros(num_parts, dtype=np.int64)
    capacity = max_part_size(n, num_parts, eps)
    order = np.random.default_rng(seed).permutation(n)
    max_batch = max(1, min(_MAX_BATCH, _MAX_BATCH_CELLS // num_parts))
    start = 0
    while start < n:
        batch = order[start:start + min(max(1, start // 16), max_batch)]
        owner[batch] = _place(batch, owner, load, capacity, adjacency)
        load += np.bincount(owner[batch], minlength=num_parts)
        start += len(batch)
    return owner


def _place(batch, owner, load, capacity, adjacency) -> np.ndarray:
    """Parts for the vertices of ``batch``, given the owners placed so far
    (-1 for unplaced) and the parts' loads."""
    k, b = len(load), len(batch)
    counts = np.zeros(b * k, dtype=np.int64)
    for offsets, neighbours in adjacency:
        rows, adjacent = gather_neighbours(offsets, neighbours, batch)
        parts = owner[adjacent]
        # Unplaced neighbours (self loops among them: the batch is unplaced) do not vote.
        placed = parts >= 0
        counts += np.bincount(rows[placed] * k + parts[placed], minlength=b * k)
    counts = counts.reshape(b, k)
    # Tie-break score: k - 1 for the lightest part, 0 for the heaviest. Vertices
    # with no placed neighbour rotate it, so that they are dealt round-robin
    # over the parts from the lightest, not all sent to the lightest.
    lightness = np.empty(k, dtype=np.int64)
    lightness[np.argsort(load, kind="stable")] = np.arange(k - 1, -1, -1)
    uninformed = ~counts.any(axis=1)
    shift = np.zeros(b, dtype=np.int64)
    shift[uninformed] = np.arange(np.count_nonzero(uninformed))
    score = counts * k + (lightness[None, :] + shift[:, None]) % k

    room = capacity - load
    choice = np.empty(b, dtype=np.int32)
    pending = np.arange(b)
    # Each round places every vertex whose best part has room for it (earlier
    # batch positions first); a rejected vertex's part is then full, so this
    # ends within k rounds, and room never runs out since capacity * k >= n.
    while len(pending):
        pending_score = score[pending]
        pending_score[:, room <= 0] = -1
        best = pending_score.argmax(axis=1)
        by_part = np.argsort(best, kind="stable")
        first_of_part = np.searchsorted(best[by_part], np.arange(k))
        rank = np.empty(len(best), dtype=np.int64)
        rank[by_part] = np.arange(len(best)) - first_of_part[best[by_part]]
        accepted = rank < room[best]
        choice[pending[accepted]] = best[accepted]
        room -= np.bincount(best[accepted], minlength=k)
        pending = pending[~accepted]
    return choice
