"""Fused GPU kernels for the built-in functors (CuPy RawModule, compiled once).

``fused_advance`` and ``fused_neighbor_reduce`` return ``None`` when no fused
kernel applies (a user functor, a CPU graph), and the operator then takes its
general path.
"""

from __future__ import annotations


def fused_advance(graph, frontier, functor, direction, among):
    """The output frontier of a fused advance, or ``None`` if none applies."""
    return None


def fused_neighbor_reduce(graph, functor, op, vertices, direction, identity):
    """The result of a fused neighbor-reduce, or ``None`` if none applies."""
    return None
