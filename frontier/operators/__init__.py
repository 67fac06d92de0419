"""Frontier operators: advance, filter, separate, compute, neighbor_reduce, and the
race-free update helpers that functors use."""

from .advance import advance
from .filter import compute, filter, separate
from .neighbor_reduce import neighbor_reduce
from .updates import claim, count_down, first_occurrence, scatter_add, scatter_min

__all__ = ["advance", "claim", "compute", "count_down", "filter", "first_occurrence",
           "neighbor_reduce", "scatter_add", "scatter_min", "separate"]
