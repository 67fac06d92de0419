"""Partitioners: assign every vertex an owner device.

A partitioner is a function ``(graph, num_parts, seed) -> owner`` returning
one int per vertex in ``0..num_parts-1``. The multi-device enactor uses the
owner array to build per-device sub-graphs.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def random_partition(graph, num_parts: int, seed: int = 0):
    """Each vertex goes to a uniformly random part."""
    rng = np.random.default_rng(seed)
    return graph.device.asarray(rng.integers(0, num_parts, graph.num_vertices, dtype=np.int32))


def contiguous_partition(graph, num_parts: int, seed: int = 0):
    """Vertices are cut into ``num_parts`` ranges of consecutive ids with about
    equal numbers of edges (keeps locality of a well-ordered graph)."""
    xp = graph.xp
    total = max(graph.num_arcs, 1)
    bounds = xp.arange(1, num_parts, dtype=np.int64) * total // num_parts
    starts = xp.searchsorted(graph.offsets[1:], bounds, side="right")
    # A vertex's part is the number of part starts at or before it.
    return xp.searchsorted(starts, xp.arange(graph.num_vertices), side="right").astype(np.int32)


PARTITIONERS: dict[str, Callable] = {
    "random": random_partition,
    "contiguous": contiguous_partition,
}


def resolve_partitioner(partition) -> Callable:
    """The partitioner named ``partition`` (``None`` means ``"random"``), or
    ``partition`` itself if it is callable.

    Raises ValueError for an unknown name.
    """
    if partition is None:
        return PARTITIONERS["random"]
    if callable(partition):
        return partition
    if partition not in PARTITIONERS:
        raise ValueError(f"unknown partition {partition!r}: expected one of "
                         f"{sorted(PARTITIONERS)} or a function (graph, num_parts, seed) -> owner")
    return PARTITIONERS[partition]
