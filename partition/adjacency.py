"""Host adjacency views of a graph for the partitioners.

Partitioners run on the host: their result is a host owner array, and the
greedy and METIS partitioners are sequential at heart.
"""

from __future__ import annotations

import numpy as np

from frontier.device import array_namespace


def neighbour_lists(graph) -> list[tuple[np.ndarray, np.ndarray]]:
    """Host CSR pairs ``(offsets, neighbours)`` whose union, per vertex, lists
    its out- and in-neighbours (with multiplicity, self loops included).

    An undirected graph's CSR already holds both directions, so it is the one
    pair; a directed graph adds its CSC (built and cached by the graph).
    """
    from frontier.device import to_numpy

    lists = [(to_numpy(graph.offsets), to_numpy(graph.columns))]
    if graph.directed:
        in_edges = graph.in_edges()
        lists.append((to_numpy(in_edges.offsets), to_numpy(in_edges.sources)))
    return lists


def gather_neighbours(offsets: np.ndarray, neighbours: np.ndarray,
                      vertices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The CSR rows of ``vertices``, flattened: ``(row, neighbour)`` where
    ``row`` indexes ``vertices``."""
    from frontier.ranges import concatenated_ranges

    starts = offsets[vertices]
    lengths = offsets[vertices + 1] - starts
    rows = np.repeat(np.arange(len(vertices)), lengths)
    return rows, neighbours[concatenated_ranges(starts, lengths)]


def simple_undirected_adjacency(graph) -> tuple[np.ndarray, np.ndarray]:
    """Host CSR ``(offsets, neighbours)`` of the graph's underlying simple
    undirected graph: both directions of every edge, no self loops, no
    repeated neighbours (what METIS expects).
    """
    n = graph.num_vertices
    src, dst, _ = graph.edges()
    dst = dst.astype(np.int64)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    if graph.directed:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    # One int64 key per arc; unique sorts by source, then destination.
    keys = sorted_distinct(src * max(n, 1) + dst)
    simple_offsets = np.searchsorted(keys, np.arange(n + 1, dtype=np.int64) * max(n, 1))
    return simple_offsets.astype(np.int64), keys % max(n, 1)


def sorted_distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted: ``np.unique`` by a sort, which is several
    times faster than the hashing ``np.unique`` of NumPy 2 on large arrays
    (NumPy or CuPy arrays)."""
    xp = array_namespace(values)
    values = xp.sort(values)
    first = xp.ones(len(values), dtype=bool)
    first[1:] = values[1:] != values[:-1]
    return values[first]
