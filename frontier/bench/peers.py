"""Peers: other implementations timed in the same run as Frontier.

* ``cusparse-spmv`` (GPU): level-synchronous BFS as repeated sparse
  matrix-vector products, ``y = A^T x`` through cuSPARSE, with
  ``next = (y > 0) & unvisited``.
* ``cupy-frontier`` (GPU): a frontier BFS in plain whole-array CuPy: expand
  the frontier's out-edges with ``searchsorted``, keep unvisited
  destinations, ``unique`` them.
* ``scipy-csgraph`` (CPU): :mod:`scipy.sparse.csgraph` BFS, Dijkstra,
  connected components and strongly connected components.
* ``networkx`` (CPU): NetworkX, on graphs of at most 2^16 vertices, for
  every primitive (those of issue 32 in :mod:`frontier.bench.analytics`).

Every representation a peer needs (a sparse matrix, a NetworkX graph, a host
copy) is built once per graph, outside the timed region. BFS peers are
validated like Frontier's BFS (Graph500 tree checks) and SSSP peers like its
SSSP; NetworkX's paths as Frontier's; the other peers are timed only.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

import frontier as fr

from ..device import array_namespace
from ..graph import INT32_MAX, Graph
from ..operators.host_levels import scipy_csgraph
from .analytics import networkx_analytics
from .checks import check_distances, depth_from_parent, parent_from_depth
from .workload import ANALYTICS, Outcome, Workload, pagerank_options

GPU_PEERS = ("cusparse-spmv", "cupy-frontier")
PEERS = GPU_PEERS + ("scipy-csgraph", "networkx")
#: primitive groups each peer implements (DOBFS is compared with the BFS peers)
COVERS = {
    # For whole-graph primitives the cuSPARSE peer times one product y = A^T x,
    # the yardstick of the PageRank-iteration, CC and BC targets, and of an
    # iteration of the spectral ranks.
    "cusparse-spmv": ("bfs", "pagerank", "cc", "bc", "hits", "eigenvector", "katz"),
    "cupy-frontier": ("bfs",),
    "scipy-csgraph": ("bfs", "sssp", "cc", "scc"),
    "networkx": ("bfs", "sssp", "cc", "bc", "pagerank", *ANALYTICS),
}
NETWORKX_MAX_VERTICES = 2**16
#: ``--peers auto`` leaves SciPy out above this size; naming it runs it anyway
SCIPY_AUTO_MAX_VERTICES = 2**20


def spmv_bfs(matrix_t, source: int):
    """BFS depths by sparse matrix-vector products (the cuSPARSE peer).

    Parameters
    ----------
    matrix_t : SciPy or CuPy CSR matrix
        The transposed adjacency matrix: row ``v`` holds the in-neighbours of
        ``v`` (for an undirected graph, the adjacency matrix itself).
    source : int

    Returns
    -------
    int32 array
        Depth of every vertex, -1 for unreached.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> A = sp.csr_matrix(([1.0, 1.0], ([0, 1], [1, 2])), shape=(3, 3))
    >>> spmv_bfs(A.T.tocsr(), 0).tolist()
    [0, 1, 2]
    """
    xp = array_namespace(matrix_t.indptr)
    n = matrix_t.shape[0]
    depth = xp.full(n, -1, dtype=np.int32)
    depth[source] = 0
    if matrix_t.nnz == 0:  # nothing to multiply; cuSPARSE has mishandled empty matrices
        return depth
    frontier = xp.zeros(n, dtype=matrix_t.dtype)
    frontier[source] = 1
    level = 0
    while True:
        level += 1
        discovered = (matrix_t @ frontier > 0) & (depth < 0)
        if not bool(discovered.any()):
            return depth
        depth[discovered] = level
        frontier = discovered.astype(matrix_t.dtype)


def frontier_bfs(offsets, columns, source: int):
    """BFS depths and predecessors with whole-array operations (the plain-CuPy peer).

    Each level lists the out-edges of the frontier (``searchsorted`` over the
    cumulative out-degrees maps each edge slot to its frontier vertex), keeps
    the unvisited destinations and ``unique``-s them; the first edge to each
    new vertex gives its predecessor.

    Parameters
    ----------
    offsets, columns : CSR arrays (NumPy or CuPy)
    source : int

    Returns
    -------
    (depth, predecessor)
        int32 depths (-1 unreached) and int64 predecessors (-1 for the source
        and unreached vertices).

    Examples
    --------
    >>> import numpy as np
    >>> depth, parent = frontier_bfs(np.array([0, 1, 2, 2]), np.array([1, 2]), 0)
    >>> depth.tolist(), parent.tolist()
    ([0, 1, 2], [-1, 0, 1])
    """
    xp = array_namespace(offsets)
    n = len(offsets) - 1
    depth = xp.full(n, -1, dtype=np.int32)
    parent = xp.full(n, -1, dtype=np.int64)
    depth[source] = 0
    frontier = xp.asarray([source], dtype=np.int64)
    level = 0
    while len(frontier):
        level += 1
        first_arc = offsets[frontier]
        out_degree = offsets[frontier + 1] - first_arc
        ends = xp.cumsum(out_degree)
        total = int(ends[-1])
        if total == 0:
            break
        slot = xp.arange(total, dtype=np.int64)
        owner = xp.searchsorted(ends, slot, side="right")
        arc = first_arc[owner] + slot - (ends[owner] - out_degree[owner])
        neighbor = columns[arc]
        fresh = depth[neighbor] < 0
        neighbor, owner = neighbor[fresh], owner[fresh]
        neighbor, first = xp.unique(neighbor, return_index=True)
        depth[neighbor] = level
        parent[neighbor] = frontier[owner[first]]
        frontier = neighbor.astype(np.int64)
    return depth, parent


class PeerInputs:
    """The representations of one graph that peers read, each built on first
    use and kept (so never inside a timed region)."""

    def __init__(self, graph: Graph):
        self.graph = graph

    @functools.cached_property
    def host(self) -> Graph:
        """The graph on the CPU."""
        return self.graph.to("cpu")

    @functools.cached_property
    def scipy_matrix(self):
        """SciPy CSR adjacency matrix of the stored arcs, one entry per
        (source, destination): csgraph would add up parallel arcs, so only
        the lightest of each set is kept (the graph stores it first)."""
        import scipy.sparse as sp

        src, dst, weights = self.host.edges()
        first = np.ones(len(src), dtype=bool)
        first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
        values = np.ones(int(first.sum())) if weights is None \
            else weights[first].astype(np.float64)
        n = self.graph.num_vertices
        return sp.csr_matrix((values, (src[first], dst[first])), shape=(n, n))

    @functools.cached_property
    def networkx(self):
        """The graph in NetworkX with vertex ids as nodes (never the file's
        labels: roots and results are vertex ids)."""
        return dataclasses.replace(self.host, node_labels=None).to_networkx()

    @functools.cached_property
    def transposed_matrix(self):
        """CSR of the transposed adjacency matrix (row ``v`` holds the
        in-neighbours of ``v``) on the graph's device: CuPy's, backed by
        cuSPARSE, on a GPU (with the int32 indices it takes), SciPy's on the CPU.

        Raises ValueError when the arcs do not fit int32 indices."""
        if self.graph.num_arcs > INT32_MAX:
            raise ValueError(f"{self.graph} has {self.graph.num_arcs} arcs: too many for "
                             "int32 sparse-matrix indices")
        if self.graph.device.is_gpu:
            import cupyx.scipy.sparse as sparse
        else:
            import scipy.sparse as sparse
        xp = self.graph.xp
        in_edges = self.graph.in_edges()
        n = self.graph.num_vertices
        ones = xp.ones(len(in_edges.sources), dtype=np.float32)
        return sparse.csr_matrix((ones, in_edges.sources.astype(np.int32, copy=False),
                                  in_edges.offsets.astype(np.int32)), shape=(n, n))


def select_peers(spec: str) -> tuple[list[str], bool]:
    """Parse ``--peers``: ``auto``, ``none`` or a comma-separated list of names.

    Returns
    -------
    (names, explicit)
        ``explicit`` is False for ``auto``, which also applies size limits.

    Raises
    ------
    ValueError
        For a name that is not a peer.

    Examples
    --------
    >>> select_peers("networkx,scipy-csgraph")
    (['networkx', 'scipy-csgraph'], True)
    """
    if spec == "auto":
        return list(PEERS), False
    if spec == "none":
        return [], True
    names = [name.strip() for name in spec.split(",") if name.strip()]
    unknown = [name for name in names if name not in PEERS]
    if unknown:
        raise ValueError(f"unknown peer {unknown[0]!r}: choose from auto, none or "
                         f"{', '.join(PEERS)}")
    return names, True


def covering(group: str, names: list[str]) -> list[str]:
    """The peers among ``names`` that implement primitive group ``group``
    (a primitive's command-line name; ``bfs`` for ``dobfs``)."""
    return [name for name in names if group in COVERS[name]]


def skip_reason(name: str, graph: Graph, explicit: bool) -> str | None:
    """Why peer ``name`` is not timed on ``graph``, or ``None`` to time it.

    GPU peers need a graph on a GPU; cuSPARSE (through CuPy) needs int32
    indices; SciPy needs to be installed; NetworkX runs up to 2^16
    vertices; ``--peers auto`` (``explicit`` false) also leaves SciPy out
    above 2^20 vertices.
    """
    n = graph.num_vertices
    if name in GPU_PEERS and not graph.device.is_gpu:
        return f"needs a CUDA device; this run is on {graph.device.name}"
    if name == "cusparse-spmv" and graph.num_arcs > INT32_MAX:
        return f"CuPy's cuSPARSE CSR needs int32 indices; the graph has {graph.num_arcs} arcs"
    if name == "networkx" and n > NETWORKX_MAX_VERTICES:
        return f"NetworkX is timed up to 2^16 vertices only; the graph has {n}"
    if name == "scipy-csgraph" and scipy_csgraph() is None:
        return "SciPy is not installed (python -m pip install scipy)"
    if name == "scipy-csgraph" and not explicit and n > SCIPY_AUTO_MAX_VERTICES:
        return (f"--peers auto times SciPy up to 2^20 vertices only (the graph has {n}); "
                "name scipy-csgraph in --peers to time it")
    return None


def peer_workload(name: str, group: str, inputs: PeerInputs, seed: int) -> Workload:
    """The workload of peer ``name`` for primitive group ``group`` on
    ``inputs.graph``, building the representation it reads (not timed).

    ``seed`` picks NetworkX's sampled betweenness source, as it picks
    Frontier's.
    """
    return _BUILDERS[name](group, inputs, seed)


# one builder per peer ----------------------------------------------------------------


def _graph500_outcome(graph: Graph, root: int, depth, parent) -> Outcome:
    fr.validate.graph500_bfs(graph, root, depth, parent)
    return Outcome(reached=depth >= 0)


def _cusparse(group: str, inputs: PeerInputs, seed: int) -> Workload:
    graph, matrix_t = inputs.graph, inputs.transposed_matrix
    nbytes = int(matrix_t.data.nbytes + matrix_t.indices.nbytes + matrix_t.indptr.nbytes)
    if group != "bfs":
        x = graph.xp.random.default_rng(seed).random(graph.num_vertices)

        def check_product(y, _):
            expected = fr.neighbor_reduce(graph, fr.functors.SourceValue(x), "sum")
            if not bool(graph.xp.allclose(y, expected, rtol=1e-9, atol=1e-12)):
                raise AssertionError("cuSPARSE A^T x differs from Frontier's neighbor_reduce")
            return Outcome(iterations=1)

        return Workload(group, "cusparse-spmv", graph, graph.device, lambda _: matrix_t @ x,
                        check_product, False, lambda: nbytes, "A^T x")

    def inspect(depth, root):
        return _graph500_outcome(graph, root, depth, parent_from_depth(graph, depth))

    return Workload(group, "cusparse-spmv", graph, graph.device,
                    lambda root: spmv_bfs(matrix_t, root), inspect, True, lambda: nbytes,
                    "graph500")


def _cupy_frontier(group: str, inputs: PeerInputs, seed: int) -> Workload:
    graph = inputs.graph

    def inspect(output, root):
        return _graph500_outcome(graph, root, *output)

    return Workload(group, "cupy-frontier", graph, graph.device,
                    lambda root: frontier_bfs(graph.offsets, graph.columns, root), inspect,
                    True, lambda: int(graph.offsets.nbytes + graph.columns.nbytes),
                    "graph500")


def _scipy(group: str, inputs: PeerInputs, seed: int) -> Workload:
    from scipy.sparse import csgraph

    host, matrix = inputs.host, inputs.scipy_matrix
    nbytes = int(matrix.data.nbytes + matrix.indices.nbytes + matrix.indptr.nbytes)
    if group == "bfs":
        def run(root):
            return csgraph.breadth_first_order(matrix, root, directed=True,
                                               return_predecessors=True)

        def inspect(output, root):
            parent = np.where(output[1] < 0, -1, output[1])
            return _graph500_outcome(host, root, depth_from_parent(parent, root), parent)

        return Workload(group, "scipy-csgraph", host, host.device, run, inspect, True,
                        lambda: nbytes, "graph500")
    if group == "sssp":
        def inspect_distances(distance, root):
            check_distances(host, root, distance)
            return Outcome(reached=np.isfinite(distance))

        return Workload(group, "scipy-csgraph", host, host.device,
                        lambda root: csgraph.dijkstra(matrix, directed=True, indices=root),
                        inspect_distances, True, lambda: nbytes, "distances")
    connection = "strong" if group == "scc" else "weak"
    return Workload(group, "scipy-csgraph", host, host.device,
                    lambda _: csgraph.connected_components(matrix, directed=True,
                                                           connection=connection),
                    lambda output, _: Outcome(), False, lambda: nbytes)


def _networkx(group: str, inputs: PeerInputs, seed: int) -> Workload:
    import networkx as nx

    if group in ANALYTICS:
        return networkx_analytics(group, inputs, seed)
    host, g = inputs.host, inputs.networkx

    def as_array(lengths: dict, fill):
        values = np.full(host.num_vertices, fill, dtype=np.float64)
        values[list(lengths)] = list(lengths.values())
        return values

    if group == "bfs":
        def inspect(lengths, root):
            depth = as_array(lengths, -1).astype(np.int32)
            return _graph500_outcome(host, root, depth, parent_from_depth(host, depth))

        return Workload(group, "networkx", host, host.device,
                        lambda root: nx.single_source_shortest_path_length(g, root), inspect,
                        True, lambda: None, "graph500")
    if group == "sssp":
        def inspect_distances(lengths, root):
            distance = as_array(lengths, np.inf)
            check_distances(host, root, distance)
            return Outcome(reached=np.isfinite(distance))

        return Workload(group, "networkx", host, host.device,
                        lambda root: nx.single_source_dijkstra_path_length(g, root),
                        inspect_distances, True, lambda: None, "distances")
    components = nx.weakly_connected_components if host.directed else nx.connected_components
    calls = {
        "cc": lambda _: list(components(g)),
        "bc": lambda _: nx.betweenness_centrality(g, k=1, seed=seed),
        "pagerank": lambda _: nx.pagerank(g, **pagerank_options(host.num_vertices)),
    }
    return Workload(group, "networkx", host, host.device, calls[group],
                    lambda output, _: Outcome(), False, lambda: None)


_BUILDERS = {"cusparse-spmv": _cusparse, "cupy-frontier": _cupy_frontier,
             "scipy-csgraph": _scipy, "networkx": _networkx}
