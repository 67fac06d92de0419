"""METIS partitioning through the optional ``pymetis`` package.

Install it with ``pip install 'frontier-graph[metis]'``. METIS minimizes the
edge cut of the graph's underlying simple undirected graph while balancing
vertex counts (within METIS's default 3% load imbalance).
"""

from __future__ import annotations

import numpy as np

from .adjacency import simple_undirected_adjacency
from .owner import check_num_parts

INSTALL_HINT = "pip install 'frontier-graph[metis]'"


def metis_partition(graph, num_parts: int, seed: int = 0) -> np.ndarray:
    """Partition with METIS's multilevel k-way (or recursive bisection) algorithm.

    The graph is given to METIS as its undirected, loop-free, deduplicated
    adjacency; edge direction, self loops, parallel edges and weights are
    ignored. Isolated vertices are placed to balance the parts.

    Parameters
    ----------
    graph : frontier.Graph
    num_parts : int
        Number of parts (>= 1). One part gives all zeros without calling METIS.
    seed : int
        METIS's random seed (taken modulo 2**31, METIS's seed being a C int).

    Returns
    -------
    numpy.ndarray
        Host int32 owner of every vertex.

    Raises
    ------
    ImportError
        If ``pymetis`` is not installed (even for one part, so that a setup
        missing it fails on the first call); the message says how to install it.
    ValueError
        If ``num_parts`` is not a positive integer.
    """
    num_parts = check_num_parts(num_parts)
    try:
        import pymetis
    except ImportError as error:
        raise ImportError(f"the 'metis' partitioner needs pymetis: {INSTALL_HINT}",
                          name="pymetis") from error
    n = graph.num_vertices
    if num_parts == 1 or n == 0:
        return np.zeros(n, dtype=np.int32)
    offsets, neighbours = simple_undirected_adjacency(graph)
    index_dtype = pymetis.zero_copy_dtype() if hasattr(pymetis, "zero_copy_dtype") else np.int64
    offsets, neighbours = offsets.astype(index_dtype), neighbours.astype(index_dtype)
    options = pymetis.Options(seed=int(seed) % 2**31)
    if hasattr(pymetis, "CSRAdjacency"):  # pymetis >= 2025.2; xadj/adjncy is deprecated there
        result = pymetis.part_graph(num_parts, pymetis.CSRAdjacency(offsets, neighbours),
                                    options=options)
    else:
        result = pymetis.part_graph(num_parts, xadj=offsets, adjncy=neighbours,
                                    options=options)
    return np.asarray(result.vertex_part, dtype=np.int32)
