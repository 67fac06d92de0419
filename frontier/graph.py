"""The graph: CSR out-edges, CSC in-edges on demand, optional weights.

Vertex ids are ``0 .. num_vertices-1``; a graph whose nodes are other
values (a NetworkX graph with string nodes, an edge list with sparse ids)
keeps them in ``node_labels``, and :meth:`Graph.vertex_id` turns one into
its id. Column ids are int32 while they fit,
int64 beyond; offsets are int64. An undirected graph stores each edge in both
directions (a self loop once), so its CSR is also its CSC. Parallel edges are
kept unless ``deduplicate=True``: the graph is a multigraph, as NetworkX's
``MultiGraph``/``MultiDiGraph`` would be.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .device import Device, get_device, to_numpy
from .networkx_arcs import networkx_arcs
from .ranges import stable_argsort
from .relabel import relabel as relabel_ids
from .slots import SlotTable

INT32_MAX = np.iinfo(np.int32).max
#: Arcs a whole-graph pass over the arcs takes at a time (a few int64 each).
ARC_BATCH = 1 << 26


def check_vertex(graph_or_count, vertex, name: str = "source") -> int:
    """``vertex`` as an int, or ValueError if it is not a vertex id below the
    graph's vertex count (a :class:`Graph` or an int)."""
    count = graph_or_count if isinstance(graph_or_count, (int, np.integer)) \
        else graph_or_count.num_vertices
    if isinstance(vertex, bool) or not isinstance(vertex, (int, np.integer)):
        raise ValueError(f"{name}={vertex!r} must be an integer vertex id")
    if not 0 <= int(vertex) < count:
        raise ValueError(f"{name}={vertex} is out of range for a graph of {count} vertices")
    return int(vertex)


def index_dtype(count: int):
    """int32 when ids below ``count`` fit in it, else int64."""
    return np.int32 if count <= INT32_MAX else np.int64


@dataclass
class InEdges:
    """CSC view: for vertex ``v``, ``sources[offsets[v]:offsets[v+1]]`` are its
    in-neighbours and ``edge_ids`` the CSR ids of those edges (``None`` means the
    CSC position is the CSR id, as for undirected graphs)."""

    offsets: object
    sources: object
    edge_ids: object | None


@dataclass(eq=False)
class Graph:
    """A graph in CSR form on one device.

    Build one with :meth:`from_edges`, :meth:`from_networkx`,
    :meth:`from_scipy`, :func:`frontier.read_graph` or a generator in
    :mod:`frontier.generators`; move it with :meth:`to`.

    Attributes
    ----------
    offsets : int64 array, length ``num_vertices + 1``
        Row offsets: the out-edges of ``v`` are positions
        ``offsets[v]:offsets[v+1]`` (the edge ids) of ``columns``/``weights``.
    columns : int32 or int64 array, length ``num_arcs``
        Destination of each stored arc, sorted within each row.
    weights : array or None
        One weight per arc, or ``None`` for an unweighted graph.
    directed : bool
    device : Device
    node_labels : list or None
        The caller's node of each vertex (``node_labels[i]`` is vertex
        ``i``), for graphs whose nodes are not the ids ``0 .. n-1``;
        ``None`` when vertex ``k`` is the caller's node ``k``.
    vertex_slots : SlotTable or None
        For a part of a larger graph (a multi-device run with
        ``duplication="one_hop"``), the caller's id of each vertex slot;
        ``None`` when vertex ids are the caller's.
    """

    offsets: object
    columns: object
    weights: object | None
    directed: bool
    device: Device
    num_edges: int
    node_labels: list | None = None
    _in_edges: InEdges | None = field(default=None, repr=False)
    _simple: bool | None = field(default=None, repr=False)
    vertex_slots: SlotTable | None = field(default=None, repr=False)
    #: multi-device runs keep the parts they placed, for the next run on the
    #: same devices (see release_parts)
    _parts: dict = field(default_factory=dict, repr=False)
    _max_out_degree: int | None = field(default=None, repr=False)
    #: (node_labels, {label: id}), built on the first vertex_id; rebuilt
    #: when node_labels is replaced
    _label_index: tuple | None = field(default=None, repr=False)

    # construction -----------------------------------------------------------------

    @classmethod
    def from_edges(
        cls,
        src,
        dst,
        weights=None,
        num_vertices: int | None = None,
        directed: bool = False,
        *,
        deduplicate: bool = False,
        remove_self_loops: bool = False,
        vertex_dtype=None,
        relabel: bool = False,
        device: str | Device | None = None,
    ) -> Graph:
        """Build a graph from edge endpoint arrays.

        Parameters
        ----------
        src, dst : integer arrays of equal length
            Edge ``i`` goes from ``src[i]`` to ``dst[i]``. The values are
            the vertex ids ``0 .. n-1``: ids with gaps (``0, 5, 1000``) make
            a graph whose vertices in the gaps have no edges (they are
            vertices all the same: PageRank ranks them, CC counts each as a
            component). With ``relabel=True`` they are nodes instead.
        weights : array, optional
            One finite weight per edge (integer or floating point).
        num_vertices : int, optional
            Defaults to ``max(src, dst) + 1`` (0 for no edges).
        directed : bool
            For ``False`` each edge is stored in both directions.
        deduplicate : bool
            Keep one of each set of parallel arcs (the smallest weight).
        remove_self_loops : bool
            Drop edges ``(v, v)``.
        vertex_dtype : ``numpy.int32``, ``numpy.int64`` or None
            The dtype of the stored vertex ids (``columns``). ``None`` picks
            int32 while the ids fit, int64 beyond 2**31 - 1 vertices; int64
            can be forced (int32 for too many vertices is a ValueError).
        relabel : bool
            Take the values of ``src`` and ``dst`` as nodes, any integers
            (negative, sparse, beyond int32): the graph's vertices are the
            distinct values that occur, numbered in increasing order, and
            ``node_labels`` holds them (``None`` when they are exactly
            ``0 .. n-1``). Primitives then take a source as a node, and
            ``result.to_dict(name)`` keys a result by node.
        device : str or Device, optional
            Where to build and keep the graph (default: the default device).

        Raises
        ------
        ValueError
            On mismatched lengths, non-integer ids, a negative id or one
            outside ``[0, num_vertices)`` (unless ``relabel``), a
            ``num_vertices`` with ``relabel``, or a non-finite weight.

        Examples
        --------
        >>> G = Graph.from_edges([0, 1], [1, 2], device="cpu")
        >>> G.num_vertices, G.num_edges, G.num_arcs
        (3, 2, 4)
        >>> G = Graph.from_edges([10, 7], [7, -3], relabel=True, device="cpu")
        >>> G.num_vertices, G.node_labels, G.vertex_id(10)
        (3, [-3, 7, 10], 2)
        """
        return cls._from_arcs(src, dst, weights, num_vertices, directed,
                              deduplicate=deduplicate, remove_self_loops=remove_self_loops,
                              vertex_dtype=vertex_dtype, relabel=relabel, device=device)

    @classmethod
    def _from_arcs(cls, src, dst, weights, num_vertices, directed, *,
                   both_directions: bool = False, deduplicate: bool = False,
                   remove_self_loops: bool = False, vertex_dtype=None, relabel: bool = False,
                   grouped: bool = False, device=None) -> Graph:
        """:meth:`from_edges`, where ``both_directions`` says that an
        undirected graph's edges other than self loops are there in both
        directions already (its arcs), not to be mirrored again, and
        ``grouped`` that the arcs come grouped by source (sorted by a
        merging sort, which takes such runs as they are)."""
        dev = get_device(device)
        xp = dev.xp
        src, dst = dev.asarray(src), dev.asarray(dst)
        _check_endpoints(src, dst)
        labels = None
        if relabel:
            if num_vertices is not None:
                raise ValueError("relabel=True numbers the ids that occur: leave out "
                                 f"num_vertices={num_vertices!r}")
            src, dst, num_vertices, labels = _relabelled(dev, src, dst)
        n = _infer_num_vertices(src, dst, num_vertices)
        if weights is not None:
            weights = dev.asarray(weights)
            _check_weights(xp, weights, len(src))
        if remove_self_loops:
            keep = src != dst
            src, dst = src[keep], dst[keep]
            weights = None if weights is None else weights[keep]
        loops = None  # self loops among the arcs: each is one arc, other edges two
        if not directed:
            if not deduplicate:  # they are the input's
                loops = int(xp.count_nonzero(src == dst))
            if not both_directions:
                src, dst, weights = _symmetrize(xp, src, dst, weights)
        offsets, columns, weights = _build_csr(xp, src, dst, weights, n, deduplicate,
                                               _vertex_dtype(vertex_dtype, n), grouped)
        num_arcs = len(columns)
        if directed:
            num_edges = num_arcs
        else:
            if loops is None:
                loops = int(xp.count_nonzero(columns == _row_ids(xp, offsets, 0, num_arcs)))
            num_edges = (num_arcs + loops) // 2
        graph = cls(offsets, columns, weights, bool(directed), dev, num_edges)
        graph.node_labels = labels
        if deduplicate and remove_self_loops:
            graph._simple = True
        return graph

    @classmethod
    def from_networkx(cls, graph, weight: str | None = "weight", *, device=None) -> Graph:
        """Build from a NetworkX graph (any of the four graph classes).

        Parameters
        ----------
        graph : networkx.Graph, DiGraph, MultiGraph or MultiDiGraph
        weight : str or None
            The edge attribute that holds the weight; an edge without it
            weighs 1 (NetworkX's convention). ``None`` gives an unweighted graph.
        device : str or Device, optional
            Where to build and keep the graph (default: the default device).

        Returns
        -------
        Graph
            How nodes become vertex ids:

            * nodes that are exactly the integers ``0 .. n-1`` (Python or
              NumPy ints, not bools), inserted in any order, keep their
              values: node ``k`` is vertex ``k``, and ``node_labels`` is
              ``None``;
            * any other nodes are numbered in ``graph.nodes`` order, and
              ``node_labels[i]`` is the node of vertex ``i``. Primitives
              then take their vertices (a source, the keys of PageRank's
              dicts) as nodes, and ``result.to_dict(name)`` keys a result
              by node.

            Every edge of a multigraph is an arc of its own (parallel edges
            are kept), and self loops are kept. Weights are int64 when every
            value is an integer, else float64.

        Raises
        ------
        TypeError
            If ``graph`` is not a NetworkX graph.
        ValueError
            If a weight is not finite, or is a value that NumPy cannot read
            as a number (a string such as ``"2.5"`` reads as 2.5).

        Examples
        --------
        >>> import networkx as nx
        >>> G = Graph.from_networkx(nx.DiGraph([(2, 0), (0, 1)]), device="cpu")
        >>> G.node_labels is None, G.columns.tolist()
        (True, [1, 0])
        >>> Graph.from_networkx(nx.path_graph("abc"), device="cpu").node_labels
        ['a', 'b', 'c']
        """
        labels, src, dst, weights, both_directions = networkx_arcs(graph, weight)
        G = cls._from_arcs(src, dst, weights, len(graph), graph.is_directed(),
                           both_directions=both_directions,
                           grouped=both_directions or graph.is_directed(), device=device)
        G.node_labels = labels
        return G

    @classmethod
    def from_scipy(cls, matrix, directed: bool = True, *, weighted: bool = True,
                   device=None) -> Graph:
        """Build from a SciPy sparse matrix: entry ``(i, j)`` is an edge ``i -> j``
        weighted by the stored value (``weighted=False`` drops the values).

        For ``directed=False`` the matrix must be structurally symmetric and
        each undirected edge is read once, from the upper triangle.
        """
        coo = matrix.tocoo()
        if coo.shape[0] != coo.shape[1]:
            raise ValueError(f"adjacency matrix must be square, got shape {coo.shape}")
        rows, cols, values = coo.row, coo.col, coo.data
        if not directed:
            pattern = coo.tocsr().astype(bool)
            if (pattern != pattern.T).nnz:
                raise ValueError("directed=False needs a structurally symmetric matrix")
            upper = rows <= cols
            rows, cols, values = rows[upper], cols[upper], values[upper]
        return cls.from_edges(rows, cols, values if weighted else None, coo.shape[0],
                              directed, device=device)

    # properties ----------------------------------------------------------------------

    @property
    def num_vertices(self) -> int:
        return len(self.offsets) - 1

    @property
    def num_arcs(self) -> int:
        """Stored arcs: ``num_edges`` for directed graphs, about twice that otherwise."""
        return len(self.columns)

    @property
    def xp(self):
        return self.device.xp

    @property
    def is_weighted(self) -> bool:
        return self.weights is not None

    def vertex_id(self, node, name: str = "vertex") -> int:
        """The vertex id of the caller's ``node``: its position in
        ``node_labels`` on a graph that has them, else ``node`` itself.

        Raises
        ------
        ValueError
            If ``node`` is not a node of the graph (the message names
            ``name``, e.g. ``"source"``).

        Examples
        --------
        >>> import networkx as nx
        >>> G = Graph.from_networkx(nx.path_graph(["a", "b", "c"]), device="cpu")
        >>> G.vertex_id("c")
        2
        """
        labels = self.node_labels
        if labels is None:
            return check_vertex(self, node, name)
        if self._label_index is None or self._label_index[0] is not labels:
            self._label_index = (labels, dict(zip(labels, range(len(labels)))))
        try:
            return self._label_index[1][node]
        except (KeyError, TypeError):  # TypeError: unhashable, so no label
            raise ValueError(f"{name}={node!r} is not a node of the graph: its vertices are "
                             f"named by node_labels, such as {list(labels[:3])!r}") from None

    def node(self, vertex: int):
        """The caller's node of vertex id ``vertex``: ``node_labels[vertex]``
        on a graph that has them, else ``vertex`` itself; what a primitive
        takes as a source (:meth:`vertex_id` goes the other way).

        Raises
        ------
        ValueError
            If ``vertex`` is not a vertex id of the graph.

        Examples
        --------
        >>> G = Graph.from_edges([10, 7], [7, -3], relabel=True, device="cpu")
        >>> G.node(0), Graph.from_edges([0], [1], device="cpu").node(1)
        (-3, 1)
        """
        vertex = check_vertex(self, vertex, "vertex")
        return vertex if self.node_labels is None else self.node_labels[vertex]

    def out_degree(self):
        """Out-degree of every vertex (a device array)."""
        return self.xp.diff(self.offsets)

    def max_out_degree(self) -> int:
        """The largest out-degree (0 without vertices): one reduction and
        read on first use, then cached (the fused kernels ask every level)."""
        if self._max_out_degree is None:
            self._max_out_degree = int(self.out_degree().max()) if self.num_vertices else 0
        return self._max_out_degree

    def in_degree(self):
        """In-degree of every vertex (a device array)."""
        return self.xp.diff(self.in_edges().offsets)

    def degree(self):
        """Degree as NetworkX counts it: in + out for directed graphs, a self
        loop counting twice for undirected ones."""
        if self.directed:
            return self.out_degree() + self.in_degree()
        degree = self.out_degree()
        if self._simple:
            return degree  # no self loops
        for tails, heads, _ in self.arc_batches():
            degree += self.xp.bincount(heads[heads == tails], minlength=self.num_vertices)
        return degree

    def arc_sources(self, start: int = 0, stop: int | None = None):
        """The source vertex of every stored arc (or of arcs ``start:stop``),
        aligned with ``columns`` (a device array of int64; ``columns`` holds
        the destinations)."""
        return _row_ids(self.xp, self.offsets, start, self.num_arcs if stop is None else stop)

    def arc_batches(self, size: int = ARC_BATCH):
        """Every stored arc, ``size`` at a time in CSR order: ``(tails,
        heads, weights)`` per batch (int64 sources, views of ``columns`` and
        ``weights``; ``weights`` is ``None`` on an unweighted graph). A pass
        over all arcs through it holds the temporaries of one batch only."""
        for begin in range(0, self.num_arcs, size):
            end = min(begin + size, self.num_arcs)
            yield (self.arc_sources(begin, end), self.columns[begin:end],
                   None if self.weights is None else self.weights[begin:end])

    def is_simple(self) -> bool:
        """True if the graph has no self loops and no parallel arcs (known from
        construction, or checked once on the device)."""
        if self._simple is None:
            self._simple = self._check_simple()
        return self._simple

    def _check_simple(self) -> bool:
        xp = self.xp
        rows = self.arc_sources()
        if bool(xp.any(self.columns == rows)):
            return False
        repeated = (self.columns[1:] == self.columns[:-1]) & (rows[1:] == rows[:-1])
        return not bool(xp.any(repeated))

    def with_edges(self, src, dst, weights=None, num_vertices: int | None = None,
                   directed: bool | None = None) -> Graph:
        """A new graph of the arcs ``src -> dst`` (vertex ids) built where
        this one lives (``from_edges`` on this graph's device), so that a
        primitive can derive a graph without naming a device.
        ``num_vertices`` and ``directed`` default to this graph's; with the
        same vertices, the new graph has this one's ``node_labels`` too."""
        same = num_vertices is None or num_vertices == self.num_vertices
        graph = Graph.from_edges(src, dst, weights,
                                 self.num_vertices if num_vertices is None else num_vertices,
                                 self.directed if directed is None else directed,
                                 device=self.device)
        if same:
            graph.node_labels = self.node_labels
        return graph

    def simplified(self) -> Graph:
        """This graph without self loops and parallel arcs (the lightest of a
        set of parallel arcs stays), built on the same device; ``self`` if it
        is already simple."""
        if self.is_simple():
            return self
        rows = self.arc_sources()
        keep = rows != self.columns if self.directed else rows < self.columns
        weights = None if self.weights is None else self.weights[keep]
        simple = Graph.from_edges(rows[keep], self.columns[keep], weights, self.num_vertices,
                                  self.directed, deduplicate=True,
                                  vertex_dtype=self.columns.dtype, device=self.device)
        simple.node_labels, simple._simple = self.node_labels, True
        return simple

    def in_edges(self) -> InEdges:
        """The CSC (in-edge) arrays, built on first use and cached."""
        if self._in_edges is None:
            if not self.directed:
                self._in_edges = InEdges(self.offsets, self.columns, None)
            else:
                self._in_edges = _transpose(self.xp, self.offsets, self.columns)
        return self._in_edges

    def check_weights(self, needs: str, *, positive: bool = False) -> None:
        """ValueError naming the first arc whose weight is negative (with
        ``positive``: not positive), followed by ``needs`` (what the caller
        needs, e.g. ``"sssp needs non-negative weights"``). No weights, or
        unsigned ones, pass (unsigned only when zero is allowed)."""
        weights = self.weights
        if weights is None or (weights.dtype.kind == "u" and not positive) or not len(weights):
            return
        if self.xp is not np:
            # One reduction and one read: CuPy's comparison would first write
            # a flag per arc (2.5 ms for 520 M arcs on an H200, 2026-11-24).
            # NaN weights pass, as they do the comparison below.
            lowest = self.xp.nanmin(weights) if weights.dtype.kind == "f" else weights.min()
            if not bool(lowest <= 0 if positive else lowest < 0):
                return
        bad = self.xp.flatnonzero(weights <= 0 if positive else weights < 0)
        if len(bad):
            arc = int(bad[0])
            tail, head = int(self.arc_sources()[arc]), int(self.columns[arc])
            raise ValueError(f"edge ({tail}, {head}) has weight {self.weights[arc].item()}: "
                             f"{needs}")

    def release_parts(self) -> None:
        """Free the parts of this graph that multi-device runs placed on their
        devices (they are kept so that the next run on the same devices, with
        the same partition, skips partitioning and copying)."""
        self._parts.clear()

    def storage_bytes(self) -> int:
        """Bytes held on the device by the graph's arrays (CSC included if built)."""
        arrays = [self.offsets, self.columns, self.weights]
        if self._in_edges is not None and self.directed:
            arrays += [self._in_edges.offsets, self._in_edges.sources, self._in_edges.edge_ids]
        return int(sum(_allocated_bytes(a) for a in arrays if a is not None))

    # conversion ----------------------------------------------------------------------

    def to(self, device) -> Graph:
        """This graph on ``device`` (``self`` if it is already there)."""
        dev = get_device(device)
        if dev == self.device:
            return self

        def move(array):
            return None if array is None else dev.asarray(to_numpy(array))

        in_edges = None
        if self._in_edges is not None and self.directed:
            ie = self._in_edges
            in_edges = InEdges(move(ie.offsets), move(ie.sources), move(ie.edge_ids))
        slots = None if self.vertex_slots is None else self.vertex_slots.to(dev)
        return Graph(move(self.offsets), move(self.columns), move(self.weights),
                     self.directed, dev, self.num_edges, self.node_labels, in_edges,
                     self._simple, slots)

    def edges(self):
        """Host arrays ``(src, dst, weights_or_None)`` of every stored arc."""
        offsets = to_numpy(self.offsets)
        src = np.repeat(np.arange(self.num_vertices), np.diff(offsets))
        weights = None if self.weights is None else to_numpy(self.weights)
        return src, to_numpy(self.columns), weights

    def to_networkx(self, weight: str = "weight"):
        """A NetworkX graph with the same vertices and edges.

        The class is ``DiGraph``/``Graph``, or ``MultiDiGraph``/``MultiGraph``
        when the graph has parallel edges. Weights go to the ``weight`` attribute.
        """
        import networkx as nx

        src, dst, weights = self.edges()
        if not self.directed:
            once = src <= dst
            src, dst = src[once], dst[once]
            weights = None if weights is None else weights[once]
        n = self.num_vertices
        keys = src.astype(np.int64) * max(n, 1) + dst
        multi = len(np.unique(keys)) < len(keys)
        cls = {(True, True): nx.MultiDiGraph, (True, False): nx.DiGraph,
               (False, True): nx.MultiGraph, (False, False): nx.Graph}[(self.directed, multi)]
        graph = cls()
        labels = self.node_labels or range(n)
        graph.add_nodes_from(labels)
        # Python ints, not NumPy scalars, so that edge endpoints are plain nodes.
        src, dst = src.tolist(), dst.tolist()
        if self.node_labels is not None:
            src = [labels[i] for i in src]
            dst = [labels[i] for i in dst]
        if weights is None:
            graph.add_edges_from(zip(src, dst))
        else:
            graph.add_weighted_edges_from(zip(src, dst, weights.tolist()), weight=weight)
        return graph

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        weighted = ", weighted" if self.is_weighted else ""
        return (f"Graph({self.num_vertices} vertices, {self.num_edges} edges, {kind}"
                f"{weighted}, device={self.device.name})")


# helpers -----------------------------------------------------------------------------


def _allocated_bytes(array) -> int:
    """Bytes of the device allocation behind ``array``: a GPU array that is a
    view of a longer buffer (a graph built in chunks may keep one) counts the
    whole buffer. Host arrays count their own bytes (a memory-mapped file's
    pages are the operating system's)."""
    base = getattr(array, "base", None)
    if base is not None and not isinstance(array, np.ndarray):
        return max(int(array.nbytes), int(base.nbytes))
    return int(array.nbytes)


def _check_endpoints(src, dst) -> None:
    if src.ndim != 1 or dst.ndim != 1:
        raise ValueError(f"src and dst must be 1-D, got shapes {src.shape} and {dst.shape}")
    if len(src) != len(dst):
        raise ValueError(f"src and dst differ in length: {len(src)} != {len(dst)}")
    for name, ids in (("src", src), ("dst", dst)):
        if len(ids) and ids.dtype.kind not in "iu":
            raise ValueError(f"{name} must hold integer vertex ids, got dtype {ids.dtype}")


def _relabelled(dev: Device, src, dst):
    """``src`` and ``dst`` as the positions of their values among the
    distinct values that occur, sorted; the vertex count; and those values
    as a list (``None`` when they are ``0 .. n-1`` already)."""
    ends = [to_numpy(src), to_numpy(dst)]
    for values in ends:
        if values.dtype == np.uint64 and len(values) and values.max() > np.iinfo(np.int64).max:
            raise ValueError(f"edge endpoint {values.max()} is beyond int64: relabel=True "
                             "takes ids from -2**63 to 2**63 - 1")
    ids, n, labels = relabel_ids(np.concatenate([values.astype(np.int64) for values in ends]))
    return dev.asarray(ids[:len(src)]), dev.asarray(ids[len(src):]), n, labels


def _infer_num_vertices(src, dst, num_vertices) -> int:
    if len(src):
        low = int(min(src.min(), dst.min()))
        high = int(max(src.max(), dst.max()))
        if low < 0:
            raise ValueError(f"edge endpoint {low} is negative: vertex ids start at 0 "
                             "(relabel=True takes any integers as nodes)")
    else:
        high = -1
    if num_vertices is None:
        return high + 1
    num_vertices = int(num_vertices)
    if num_vertices < 0:
        raise ValueError(f"num_vertices={num_vertices} is negative")
    if high >= num_vertices:
        raise ValueError(
            f"edge endpoint {high} is out of range for num_vertices={num_vertices}")
    return num_vertices


def _check_weights(xp, weights, num_edges: int) -> None:
    if weights.shape != (num_edges,):
        raise ValueError(f"weights has shape {weights.shape}, expected ({num_edges},)")
    if weights.dtype.kind not in "iuf":
        raise ValueError(f"weights must be integer or floating point, got dtype {weights.dtype}")
    if weights.dtype.kind == "f" and num_edges:
        bad = xp.flatnonzero(~xp.isfinite(weights))
        if len(bad):
            i = int(bad[0])
            raise ValueError(f"weight of edge {i} is {float(weights[i])}: weights must be finite")


def _symmetrize(xp, src, dst, weights):
    """Add the reverse of every non-loop edge."""
    not_loop = src != dst
    src, dst = xp.concatenate([src, dst[not_loop]]), xp.concatenate([dst, src[not_loop]])
    if weights is not None:
        weights = xp.concatenate([weights, weights[not_loop]])
    return src, dst, weights


def _row_ids(xp, offsets, start: int, stop: int):
    """The source vertex (row) of arcs ``start .. stop-1``, from the row
    offsets (int64; relative to the first row of ``offsets``). On the host,
    each row of that range repeated by its arcs there: one pass, where a
    binary search per arc (the GPU's way, in parallel) takes ten times
    longer on a CPU."""
    if xp is not np:
        return xp.searchsorted(offsets[1:], xp.arange(start, stop, dtype=np.int64), side="right")
    first = max(int(np.searchsorted(offsets, start, side="right")) - 1, 0)
    last = max(int(np.searchsorted(offsets, stop, side="left")), first)
    lengths = np.diff(np.clip(offsets[first:last + 1], start, stop))
    return np.repeat(np.arange(first, first + len(lengths), dtype=np.int64), lengths)


def _vertex_dtype(dtype, n: int):
    """The vertex id dtype asked for (None: the narrowest that fits)."""
    if dtype is None:
        return index_dtype(n)
    dtype = np.dtype(dtype)
    if dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise ValueError(f"vertex_dtype={dtype}: expected int32 or int64")
    if dtype == np.int32 and n > INT32_MAX:
        raise ValueError(f"vertex_dtype=int32 cannot hold ids of {n} vertices")
    return dtype


def sorted_arc_keys(xp, key, weights, deduplicate: bool, grouped: bool = False):
    """Arc keys (``row * width + column``) in increasing order, and the
    permutation that sorted them (``None`` without weights: unweighted keys
    are sorted in place). Among equal keys the lightest weight comes first
    (a stable key sort after a weight sort), and ``deduplicate`` keeps only
    that first one of each run. ``grouped``: the keys come in runs by
    source, which a stable (merging) sort takes as they are, several times
    faster than NumPy's default quicksort."""
    order = None
    if weights is not None:
        order = stable_argsort(key)
        sorted_key = key[order]
        if len(key) > 1 and bool((sorted_key[1:] == sorted_key[:-1]).any()):
            # Parallel arcs: sort by weight first, so that the stable key
            # sort puts the lightest of each run first.
            order = xp.argsort(weights, kind="stable")
            order = order[stable_argsort(key[order])]
            sorted_key = key[order]
        key = sorted_key
    else:
        key.sort(kind="stable" if grouped else None)
    if deduplicate and len(key):
        first = xp.concatenate([xp.ones(1, dtype=bool), key[1:] != key[:-1]])
        key = key[first]
        order = None if order is None else order[first]
    return key, order


def _build_csr(xp, src, dst, weights, n: int, deduplicate: bool, vertex_dtype,
               grouped: bool = False):
    """Sort arcs by (source, destination) and compress the sources.

    Each arc is one int64 key ``src * n + dst``; an unweighted graph sorts the
    keys in place (no permutation array). The row offsets are the running
    sum of the row counts on the host without ``deduplicate``, else found by
    binary search in the sorted keys rather than by materialising row ids.
    Weights that are all equal (a NetworkX graph whose edges lack the
    attribute, read with its default) sort as no weights do: the keys in
    place, no permutation.
    """
    width = max(n, 1)
    src = src.astype(np.int64, copy=False)
    key = src * width + dst
    # Without deduplication a row holds all its arcs: on the host, count
    # them (one pass) rather than search the sorted keys for each row's
    # first (a GPU searches in parallel; CuPy's bincount needs n > 0).
    counts = np.bincount(src, minlength=n) if xp is np and not deduplicate else None
    del src, dst
    uniform = weights is not None and len(weights) > 0 and bool(weights.min() == weights.max())
    key, order = sorted_arc_keys(xp, key, None if uniform else weights, deduplicate, grouped)
    if counts is None:
        offsets = xp.searchsorted(key, xp.arange(n + 1, dtype=np.int64) * width)
    else:
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
    columns = (key % width).astype(vertex_dtype)
    if uniform:
        sorted_weights = xp.empty(len(columns), dtype=weights.dtype)
        sorted_weights[...] = weights[0]  # a device scalar on a GPU: nothing read back
    else:
        sorted_weights = None if order is None else weights[order]
    return offsets.astype(np.int64), columns, sorted_weights


def _transpose(xp, offsets, columns) -> InEdges:
    """CSC of a CSR: in-neighbours of each vertex and the CSR id of each in-edge."""
    n = len(offsets) - 1
    num_arcs = len(columns)
    rows = _row_ids(xp, offsets, 0, num_arcs).astype(columns.dtype)
    order = stable_argsort(columns)
    counts = xp.bincount(columns, minlength=n) if num_arcs else xp.zeros(n, dtype=np.int64)
    in_offsets = xp.zeros(n + 1, dtype=np.int64)
    xp.cumsum(counts, out=in_offsets[1:])
    return InEdges(in_offsets, rows[order], order.astype(index_dtype(num_arcs)))
