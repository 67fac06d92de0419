"""Partitioners: assign every vertex an owner part (device).

A partitioner is a function ``(graph, num_parts, seed) -> owner`` returning
one part index in ``0 .. num_parts - 1`` per vertex; the built-in ones are
seeded, deterministic and return host int32 arrays:

``random``
    a seeded permutation dealt round-robin: part sizes differ by at most one.
``contiguous``
    ranges of consecutive ids with about equal numbers of arcs.
``biased_random``
    a greedy stream in random order that puts a vertex with its neighbours,
    within a vertex balance bound.
``metis``
    METIS through the optional ``pymetis`` (``pip install 'frontier-graph[metis]'``).

The multi-device enactor resolves its ``partition=`` option with
:func:`resolve_partitioner` and validates the owner array with
:func:`check_owner`; :func:`make_partition` also measures the result
(:class:`Partition`: part sizes, edge cut, borders, imbalance).

This package imports nothing from ``frontier`` at import time, so that the
framework can import it lazily.
"""

from __future__ import annotations

from .greedy import BALANCE_EPS, biased_random_partition
from .metis import metis_partition
from .metrics import Partition, make_partition
from .owner import check_num_parts, check_owner
from .registry import PARTITIONERS, partitioner_name, resolve_partitioner
from .simple import contiguous_partition, random_partition

__all__ = [
    "BALANCE_EPS",
    "PARTITIONERS",
    "Partition",
    "biased_random_partition",
    "check_num_parts",
    "check_owner",
    "contiguous_partition",
    "make_partition",
    "metis_partition",
    "partitioner_name",
    "random_partition",
    "resolve_partitioner",
]
