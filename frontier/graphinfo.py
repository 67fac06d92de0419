"""What a graph is and what running on it costs: the numbers ``frontier info`` reports.

:func:`graph_statistics` counts vertices, edges, degrees, self loops, parallel
edges and (weakly) connected components; :func:`memory_estimate` adds up the
device memory of the graph and of each primitive's per-vertex arrays, for
one device or split over ``k``. Both work on host copies of the CSR.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .device import to_numpy
from .graph import Graph, index_dtype
from .operators.expand import DEFAULT_CHUNK_EDGES

# Bytes per expanded edge an advance holds at once (slot, position, vertex and
# edge ids, destination, mask, functor temporaries); the expansion is cut
# into batches of DEFAULT_CHUNK_EDGES edges plus one vertex's degree.
_WORKSPACE_BYTES_PER_EDGE = 56


@dataclass(frozen=True)
class PrimitiveMemory:
    """The device arrays one primitive allocates, read from its ``setup()`` and ``step()``.

    ``vertex_bytes`` and ``index_arrays`` give bytes per vertex: fixed-size
    arrays, and arrays of the graph's index dtype (ids, predecessors,
    frontiers). ``communicated`` are the bytes per vertex a multi-device run
    exchanges (its ``communicate`` arrays; -1 stands for the index dtype).
    """

    vertex_bytes: int
    index_arrays: int
    in_edges: bool = False
    simple_copy: bool = False
    communicated: tuple[int, ...] = ()


PRIMITIVES = {
    # depth int32, predecessor, input and output frontier ids
    "bfs": PrimitiveMemory(4, 3, communicated=(4, -1)),
    # BFS + unvisited flags and two dense frontier masks; pulls over in-edges
    "dobfs": PrimitiveMemory(7, 3, in_edges=True, communicated=(4, -1)),
    # distance float64, predecessor, far pile and two frontiers
    "sssp": PrimitiveMemory(8, 4, communicated=(8,)),
    # labels, the previous labels, two frontiers, the all-vertices mask; hooks pull
    "connected_components": PrimitiveMemory(1, 4, in_edges=True, communicated=(-1,)),
    # depth int32, sigma, delta, coefficient, centrality float64, the levels'
    # ids and two frontiers; runs on a copy without self loops and parallel edges
    "betweenness_centrality": PrimitiveMemory(36, 3, in_edges=True, simple_copy=True,
                                              communicated=(4, 8, 8, 8)),
    # ones, out-weight, share, rank, previous rank, incoming and three float64
    # temporaries of one step, the dangling flags; pulls over in-edges
    "pagerank": PrimitiveMemory(73, 0, in_edges=True, communicated=(8,)),
}


def _summary(values) -> dict:
    if not len(values):
        return {"min": 0, "mean": 0.0, "max": 0}
    return {"min": int(values.min()), "mean": round(float(values.mean()), 4),
            "max": int(values.max())}


def degrees(G: Graph) -> dict:
    """Host degree arrays: ``{"out": ..., "in": ...}`` for a directed graph,
    ``{"degree": ...}`` (a self loop counting twice, as in NetworkX) otherwise."""
    if G.directed:
        offsets, columns = to_numpy(G.offsets), to_numpy(G.columns)
        return {"out": np.diff(offsets),
                "in": np.bincount(columns, minlength=G.num_vertices)}
    return {"degree": to_numpy(G.degree())}


def _components(G: Graph, offsets, columns) -> np.ndarray:
    """Component label of every vertex (weakly connected for directed graphs)."""
    try:
        import scipy.sparse as sparse
        from scipy.sparse.csgraph import connected_components
    except ImportError:
        from primitives import connected_components as frontier_components

        return to_numpy(frontier_components(G.to("cpu")).labels)
    n = G.num_vertices
    matrix = sparse.csr_matrix((np.ones(len(columns), dtype=np.int8), columns, offsets),
                               shape=(n, n))
    return connected_components(matrix, directed=G.directed, connection="weak")[1]


def graph_statistics(G: Graph) -> dict:
    """Size, degrees, self loops, parallel edges and components of ``G``.

    Returns
    -------
    dict
        ``vertices``, ``edges``, ``arcs`` (stored CSR entries), ``directed``,
        ``weighted``, ``weight_dtype``; ``out_degree`` and ``in_degree``
        (directed) or ``degree`` (undirected), each ``{min, mean, max}``;
        ``self_loops`` (loop edges); ``parallel_edges`` (edges beyond the
        first between the same ordered pair, or unordered pair when
        undirected); ``components`` (weakly connected for directed graphs),
        ``largest_component``, ``singleton_components`` (a vertex alone,
        perhaps with self loops) and ``isolated_vertices`` (no edge at all,
        NetworkX's ``isolates``).

    Examples
    --------
    >>> G = Graph.from_edges([0, 0, 1, 3], [1, 1, 1, 3], num_vertices=5, device="cpu")
    >>> s = graph_statistics(G)
    >>> s["self_loops"], s["parallel_edges"], s["components"], s["isolated_vertices"]
    (2, 1, 4, 2)
    """
    n = G.num_vertices
    offsets = to_numpy(G.offsets)
    rows, columns, _ = G.edges()
    # Arcs are sorted by (row, column): repeats are neighbours in the CSR.
    once = slice(None) if G.directed else rows <= columns
    edge_rows, edge_columns = rows[once], columns[once]
    repeated = (edge_rows[1:] == edge_rows[:-1]) & (edge_columns[1:] == edge_columns[:-1])
    stats = {"vertices": n, "edges": int(G.num_edges), "arcs": len(columns),
             "directed": bool(G.directed), "weighted": G.is_weighted,
             "weight_dtype": None if G.weights is None else str(to_numpy(G.weights).dtype)}
    degree = degrees(G)
    for name, values in degree.items():
        stats["degree" if name == "degree" else f"{name}_degree"] = _summary(values)
    labels = _components(G, offsets, columns) if n else np.zeros(0, dtype=np.int64)
    sizes = np.bincount(labels) if n else np.zeros(0, dtype=np.int64)
    touched = sum(degree.values()) > 0
    stats.update(self_loops=int(np.count_nonzero(rows == columns)),
                 parallel_edges=int(np.count_nonzero(repeated)),
                 components=int(np.count_nonzero(sizes)),
                 largest_component=int(sizes.max()) if n else 0,
                 singleton_components=int(np.count_nonzero(sizes == 1)),
                 isolated_vertices=int(np.count_nonzero(~touched)))
    return stats


def _csr_bytes(vertices: float, arcs: float, index_bytes: int, weight_bytes: int) -> float:
    return 8 * (vertices + 1) + arcs * (index_bytes + weight_bytes)


def _csc_bytes(vertices: float, arcs: float, index_bytes: int, arc_index_bytes: int) -> float:
    return 8 * (vertices + 1) + arcs * (index_bytes + arc_index_bytes)


def expected_proxies(G: Graph, devices: int) -> float:
    """Expected vertices one device holds as proxies under a random partition.

    A vertex owned elsewhere (probability ``1 - 1/k``) is a proxy on a device
    when at least one of its in-neighbours is owned there, which for
    in-degree ``d`` has probability ``1 - (1 - 1/k)**d``.
    """
    if devices <= 1:
        return 0.0
    degree = degrees(G)
    in_degree = degree["in"] if G.directed else degree["degree"]
    stay = 1.0 - 1.0 / devices
    return float(stay * np.sum(1.0 - stay ** in_degree.astype(np.float64)))


def memory_estimate(G: Graph, devices: int = 1) -> dict:
    """Estimated device memory, in bytes, to hold ``G`` and run each primitive.

    Parameters
    ----------
    G : Graph
    devices : int
        Split over this many devices: each holds ``n / k`` owned vertices plus
        :func:`expected_proxies` border vertices, ``arcs / k`` arcs, an id
        table per local vertex (global id and owner) and send/receive buffers
        for the primitive's communicated arrays over its proxies.

    Returns
    -------
    dict
        ``devices``; ``graph_bytes`` (CSR and weights, one device);
        ``per_device`` with ``owned``, ``proxies``, ``arcs`` and
        ``graph_bytes``; ``primitives``: per name, ``total_bytes`` (one
        device: graph, in-edge CSC if it pulls on a directed graph, a simple
        copy for betweenness, per-vertex arrays and the advance workspace)
        and ``per_device_bytes``. Estimates, not measurements: temporaries
        of user functors and allocator slack come on top.
    """
    if isinstance(devices, bool) or not isinstance(devices, int) or devices < 1:
        raise ValueError(f"devices={devices!r}: expected an integer >= 1")
    n, arcs = G.num_vertices, G.num_arcs
    index_bytes = np.dtype(index_dtype(n)).itemsize
    arc_index_bytes = np.dtype(index_dtype(arcs)).itemsize
    weight_bytes = 0 if G.weights is None else to_numpy(G.weights[:0]).dtype.itemsize
    max_degree = int(to_numpy(G.out_degree()).max()) if n else 0
    owned, proxies = n / devices, expected_proxies(G, devices)
    local, local_arcs = owned + proxies, arcs / devices
    graph_bytes = _csr_bytes(n, arcs, index_bytes, weight_bytes)
    local_graph = _csr_bytes(local, local_arcs, index_bytes, weight_bytes)
    estimate = {"devices": devices, "graph_bytes": int(graph_bytes),
                "per_device": {"owned": round(owned), "proxies": round(proxies),
                               "arcs": round(local_arcs), "graph_bytes": int(local_graph)},
                "primitives": {}}
    for name, need in PRIMITIVES.items():
        per_vertex = need.vertex_bytes + need.index_arrays * index_bytes

        def total(vertices, edges, graph, tables, border, need=need, per_vertex=per_vertex):
            extra = graph if need.simple_copy else 0
            if need.in_edges and G.directed:
                extra += _csc_bytes(vertices, edges, index_bytes, arc_index_bytes)
            workspace = _WORKSPACE_BYTES_PER_EDGE * min(edges, DEFAULT_CHUNK_EDGES + max_degree)
            sent = sum(index_bytes if size < 0 else size for size in need.communicated)
            buffers = 2 * border * (sent + index_bytes)
            return int(graph + extra + vertices * (per_vertex + tables) + workspace + buffers)

        estimate["primitives"][name] = {
            "total_bytes": total(n, arcs, graph_bytes, 0, 0),
            "per_device_bytes": total(local, local_arcs, local_graph,
                                      0 if devices == 1 else index_bytes + 4, proxies),
        }
    return estimate
