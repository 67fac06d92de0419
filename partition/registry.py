"""The partitioners by name, and how a ``partition=`` option becomes one."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .greedy import biased_random_partition
from .metis import metis_partition
from .simple import contiguous_partition, random_partition

Partitioner = Callable[..., np.ndarray]
"""A function ``(graph, num_parts, seed) -> owner``."""

PARTITIONERS: dict[str, Partitioner] = {
    "random": random_partition,
    "contiguous": contiguous_partition,
    "biased_random": biased_random_partition,
    "metis": metis_partition,
}

DEFAULT_PARTITIONER = "random"


def resolve_partitioner(partition: str | Partitioner | None) -> Partitioner:
    """The partitioner a ``partition=`` option names.

    Parameters
    ----------
    partition : None, str or callable
        ``None`` means ``"random"``; a name is looked up in
        :data:`PARTITIONERS`; a callable ``(graph, num_parts, seed) -> owner``
        is returned as it is.

    Returns
    -------
    callable

    Raises
    ------
    ValueError
        For a name that is not in :data:`PARTITIONERS` (or any other value
        that is neither a name nor callable).
    """
    if partition is None:
        return PARTITIONERS[DEFAULT_PARTITIONER]
    if callable(partition):
        return partition
    if not isinstance(partition, str) or partition not in PARTITIONERS:
        raise ValueError(f"unknown partition {partition!r}: expected one of "
                         f"{sorted(PARTITIONERS)} or a function (graph, num_parts, seed) -> owner")
    return PARTITIONERS[partition]


def partitioner_name(partition: str | Partitioner | None) -> str:
    """A readable name for a ``partition=`` option: the registered name of a
    built-in partitioner (given by name or as the function), else the
    function's name.

    Raises
    ------
    ValueError
        As :func:`resolve_partitioner`.
    """
    function = resolve_partitioner(partition)
    for name, known in PARTITIONERS.items():
        if function is known:
            return name
    return getattr(function, "__qualname__", None) or repr(function)
