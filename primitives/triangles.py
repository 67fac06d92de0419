"""Triangles and clustering: ``triangles``, ``transitivity``, ``clustering``,
``average_clustering``, with NetworkX's semantics.

Each triangle is found once, from its lowest vertex in a ranking by
(neighbour count, id): the primitive walks the graph with every edge
pointing to its higher-ranked end, so a vertex's out-edges are its *later*
neighbours (few for a hub). Vertices with two later neighbours are taken as
*pivots*, 64 at a time, each with its own bit:

* mark: each pivot advances over its out-edges and sets its bit in
  ``out_mark[x]`` of every later neighbour ``x`` (for a directed graph, in
  ``out_mark`` if ``p -> x`` in ``G`` and in ``in_mark`` if ``x -> p``);
* count: every marked vertex advances over its out-edges; an edge ``x -> y``
  closes a triangle with every pivot whose bit both ends carry. The bits of
  ``out_mark[x] & out_mark[y]``, counted column by column, go to the
  pivots, and their number per edge to ``x`` and ``y``.

The marks travel with a bitwise-or combiner and the counts with ``"sum"``,
so the same module runs on several devices: each device marks from its own
pivots and counts over its own vertices' edges, and only vertex values
cross between devices. A batch costs two steps.

What is counted is NetworkX's:

* undirected ``G``: ``closed[v]`` triangles through ``v``; NetworkX's
  clustering is ``2 closed / (d (d - 1))`` over the ``d`` distinct neighbours;
* directed ``G``: with ``S = A + A^T``, NetworkX's directed triangles at
  ``p`` are ``sum_jk S_pj S_jk S_kp``, twice the sum over triangles through
  ``p`` of ``S_pj S_jk S_kp``; a triangle's product is the same at its three
  vertices, and ``S_px S_py`` is ``(out + in)`` of both ends, bit by bit,
  taken once per parallel edge ``x - y`` (one edge per arc of ``G``, whose
  weight records the arc's tail). ``transitive[p]`` counts the arcs
  ``j -> k`` between successors of ``p`` (what ``nx.transitivity`` counts
  on a digraph): at the pivot from ``out`` marks, at the tail of an arc
  from the pivot's side through ``in`` marks.

Self loops are ignored and parallel edges count once, as in NetworkX.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

import frontier as fr

BATCH = 64  # pivots per batch: one bit each of a uint64 mark


def _either(current, offer):
    """A mark's combiner: the union of pivot bits (idempotent, as required)."""
    return current | offer


@dataclass
class WedgeResult(fr.Result):
    """Per vertex: ``closed`` wedges at it (see the module docstring;
    float64, exact below 2**53) and, for a directed graph, ``transitive``."""

    closed: object
    transitive: object


class ClosedWedges(fr.Primitive):
    parameters = ("pivots", "directed")
    communicate = {"out_mark": _either, "in_mark": _either, "closed": "sum",
                   "transitive": "sum"}

    def setup(self):
        self.pivots = list(self.params["pivots"])
        self.directed = self.params["directed"]
        self.out_mark = self.vertex_array(0, np.uint64)
        self.in_mark = self.vertex_array(0, np.uint64)
        self.closed = self.vertex_array(0.0, np.float64)
        self.transitive = self.vertex_array(0.0, np.float64)
        self.bit = self.vertex_array(-1, np.int64)  # local: pivot bit of each slot
        self.batch, self.marking = 0, True

    def initial_frontier(self):
        return self.begin_batch()

    def converged(self, frontier, iteration):
        return self.marking and self.batch * BATCH >= len(self.pivots)

    def begin_batch(self):
        """Give this batch's pivots their bits; they are the frontier."""
        xp = self.xp
        ids = xp.asarray(self.pivots[self.batch * BATCH:(self.batch + 1) * BATCH],
                         dtype=np.int64)
        slots = self.slot_of(ids)
        here = slots >= 0
        self.slots = slots[here]
        self.bits = xp.arange(len(ids), dtype=np.int64)[here]
        self.bit[self.slots] = self.bits
        return self.frontier_of(self.slots)

    def step(self, frontier, iteration):
        if self.marking:
            self.marking = False
            # Only the pivots: on several devices the frontier also holds
            # vertices whose counts other devices' offers changed.
            pivots = fr.filter(frontier, lambda ids: self.bit[ids] >= 0)
            return fr.filter(fr.advance(self.graph, pivots, self.mark), unique=True)
        self.count(frontier)
        self.out_mark[frontier.ids] = 0  # owners reset; copies follow at the boundary
        self.in_mark[frontier.ids] = 0
        self.bit[self.slots] = -1
        self.batch, self.marking = self.batch + 1, True
        return self.begin_batch()

    def mark(self, src, dst, edge, weight):
        """Set the pivot's bit at each later neighbour. A pivot reaches a
        neighbour along one arc per direction of ``G``, so its bits are new
        there: adding is or."""
        xp = self.xp
        bits = xp.left_shift(xp.uint64(1), self.bit[src].astype(np.uint64))
        if self.directed:
            out = weight == self.vertex_ids()[src]  # the arc src -> dst of G
            fr.scatter_add(self.out_mark, dst[out], bits[out])
            fr.scatter_add(self.in_mark, dst[~out], bits[~out])
        else:
            fr.scatter_add(self.out_mark, dst, bits)
        return xp.ones(len(dst), dtype=bool)

    def count(self, frontier):
        """Triangles of each pivot over the (later) edges of the marked vertices."""
        xp = self.xp
        closed = xp.zeros(BATCH, dtype=np.int64)
        transitive = xp.zeros(BATCH, dtype=np.int64)
        out_mark, in_mark, ids = self.out_mark, self.in_mark, self.vertex_ids()

        def close(src, dst, edge, weight):
            out_x, out_y = out_mark[src], out_mark[dst]
            if not self.directed:
                self.add(closed, self.closed, [src, dst], [out_x & out_y])
                return xp.zeros(len(dst), dtype=bool)
            in_x, in_y = in_mark[src], in_mark[dst]
            # S_px S_py (bit by bit): the triangle's weight S_px S_py S_xy,
            # one parallel edge x - y at a time.
            self.add(closed, self.closed, [src, dst],
                     [out_x & out_y, out_x & in_y, in_x & out_y, in_x & in_y])
            forward = weight == ids[src]  # the arc's tail and head in G
            tail, head = xp.where(forward, src, dst), xp.where(forward, dst, src)
            out_t, out_h, in_t, in_h = (out_mark[tail], out_mark[head], in_mark[tail],
                                        in_mark[head])
            self.add(transitive, None, [], [out_t & out_h])
            self.add(None, self.transitive, [tail], [in_t & out_h, in_t & in_h])
            return xp.zeros(len(dst), dtype=bool)

        fr.advance(self.graph, frontier, close)
        fr.scatter_add(self.closed, self.slots, closed[self.bits].astype(np.float64))
        fr.scatter_add(self.transitive, self.slots, transitive[self.bits].astype(np.float64))

    def add(self, per_pivot, per_vertex, vertices, masks):
        """Add the set bits of ``masks`` (uint64 per edge) to ``per_pivot``
        (by bit) and to ``per_vertex`` at each of ``vertices`` (by edge)."""
        # Most edges close nothing in a batch: unpack only those that do.
        closing = self.xp.flatnonzero(sum((mask != 0).astype(np.int8) for mask in masks))
        bits = sum(_bits(self.xp, mask[closing]) for mask in masks)
        if per_pivot is not None:
            per_pivot += bits.sum(axis=0, dtype=np.int64)
        if per_vertex is not None:
            per_edge = bits.sum(axis=1, dtype=np.int64).astype(np.float64)
            for ends in vertices:
                fr.scatter_add(per_vertex, ends[closing], per_edge)

    def result(self):
        return WedgeResult(self.closed, self.transitive)


def _bits(xp, masks):
    """The 64 bits of each of ``masks`` (uint64): an (edges, 64) uint8 array."""
    bits = xp.unpackbits(xp.ascontiguousarray(masks).view(np.uint8), bitorder="little")
    return bits.reshape(-1, BATCH)


@dataclass
class Wedges:
    """A run's per-vertex counts and degrees, on the host."""

    closed: np.ndarray      # see ClosedWedges
    transitive: np.ndarray  # directed only: arcs among successors
    degree: np.ndarray      # distinct neighbours; directed: in + out
    reciprocal: np.ndarray  # directed: neighbours both ways
    out_degree: np.ndarray  # distinct successors (directed transitivity)
    run: WedgeResult        # the run's own result (its statistics)


def wedges(G: fr.Graph, **options) -> Wedges:
    """Count closed wedges at every vertex (one run of :class:`ClosedWedges`)."""
    simple = G.simplified()
    src, dst, _ = simple.edges()
    n, width = G.num_vertices, max(G.num_vertices, 1)
    pairs = np.unique(np.minimum(src, dst) * width + np.maximum(src, dst))  # distinct, u < v
    low, high = pairs // width, pairs % width
    distinct = np.bincount(low, minlength=n) + np.bincount(high, minlength=n)
    # Rank by (neighbours, id) and point every edge to the higher rank: a
    # triangle is found once, from its lowest vertex, which needs two later
    # neighbours to be a pivot.
    rank = np.empty(n, dtype=np.int64)
    rank[np.lexsort((np.arange(n), distinct))] = np.arange(n)
    first = np.where(rank[low] < rank[high], low, high)
    pivots = np.flatnonzero(np.bincount(first, minlength=n) >= 2).tolist()
    if G.directed:
        # One edge per arc, weighted by the arc's tail in G.
        up = rank[src] < rank[dst]
        graph = G.with_edges(np.where(up, src, dst), np.where(up, dst, src),
                             src.astype(np.float64))
        degree = np.bincount(src, minlength=n) + np.bincount(dst, minlength=n)
    else:
        graph = G.with_edges(first, low + high - first, directed=True)
        degree = distinct
    run = fr.enact(ClosedWedges, graph, pivots=pivots, directed=G.directed, **options)
    # Both orders of each pair of neighbours, as NetworkX counts.
    closed = 2 * np.rint(fr.to_numpy(run.closed)).astype(np.int64)
    transitive = np.rint(fr.to_numpy(run.transitive)).astype(np.int64)
    return Wedges(closed, transitive if G.directed else closed, degree, degree - distinct,
                  np.bincount(src, minlength=n), run)


def _select(values: np.ndarray, G: fr.Graph, nodes, cast):
    """NetworkX's ``nodes`` convention: all (an array), one node (a number),
    or a container of nodes (a dict by node; others are skipped). Nodes are
    the graph's (``G.node_labels``, else vertex ids)."""
    if nodes is None:
        return values
    vertex = _vertex(G, nodes)
    if vertex is not None:
        return cast(values[vertex])
    try:
        chosen = [(node, _vertex(G, node)) for node in nodes]
    except TypeError:
        raise nx.NetworkXError("nbunch is not a node or a sequence of nodes.") from None
    return {node: cast(values[v]) for node, v in chosen if v is not None}


def _vertex(G: fr.Graph, node) -> int | None:
    """The vertex id of ``node``, or None if it is not a node of ``G``."""
    try:
        return G.vertex_id(node)
    except ValueError:
        return None


def _check_undirected(G: fr.Graph) -> None:
    if G.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")


def _check_unweighted(weight) -> None:
    if weight is not None:
        raise NotImplementedError(f"weight={weight!r}: weighted clustering (geometric "
                                  "means of edge weights) is not implemented; use weight=None")


def triangles(G: fr.Graph, nodes=None, **options):
    """The number of triangles through each vertex, as ``networkx.triangles``.

    Parameters
    ----------
    G : frontier.Graph
        Undirected. Self loops are ignored; parallel edges count once.
    nodes : node or iterable of nodes, optional
        One node (its count is returned) or several (a dict by node). Nodes
        are ``G.node_labels`` on a labelled graph, else vertex ids.
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Returns
    -------
    numpy.ndarray, int or dict
        int64 counts of every vertex; or as selected by ``nodes``.

    Raises
    ------
    networkx.NetworkXNotImplemented
        If ``G`` is directed (as NetworkX).

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import triangles
    >>> G = fr.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], device="cpu")
    >>> triangles(G).tolist()
    [1, 1, 1, 0]
    """
    _check_undirected(G)
    return _select(wedges(G, **options).closed // 2, G, nodes, int)


def transitivity(G: fr.Graph, **options) -> float:
    """``3 x triangles / connected triads``, as ``networkx.transitivity``
    (``0`` without triangles). On a directed graph it is NetworkX's count
    over successors: arcs between successors of a vertex, over ordered
    pairs of its successors."""
    w = wedges(G, **options)
    closed = int(w.transitive.sum())
    if closed == 0:
        return 0
    d = w.out_degree if G.directed else w.degree
    return closed / int((d * (d - 1)).sum())


def clustering_coefficients(G: fr.Graph, **options) -> np.ndarray:
    """The clustering coefficient of every vertex (float64), as
    ``networkx.clustering(G)`` with ``weight=None``."""
    w = wedges(G, **options)
    if G.directed:
        pairs = 2 * (w.degree * (w.degree - 1) - 2 * w.reciprocal)
    else:
        pairs = w.degree * (w.degree - 1)
    coefficient = np.zeros(G.num_vertices)
    nonzero = w.closed > 0
    coefficient[nonzero] = w.closed[nonzero] / pairs[nonzero]
    return coefficient


def clustering(G: fr.Graph, nodes=None, weight=None, **options):
    """Clustering coefficients, as ``networkx.clustering``: the fraction of
    pairs of neighbours that are adjacent (directed: Fagiolo's count of
    directed triangles over possible ones).

    Returns an array for every vertex, a float for one vertex ``nodes``, or
    a dict for several. ``weight`` must be None: weighted clustering raises
    ``NotImplementedError``.
    """
    _check_unweighted(weight)
    return _select(clustering_coefficients(G, **options), G, nodes, float)


def average_clustering(G: fr.Graph, nodes=None, weight=None, count_zeros=True,
                       **options) -> float:
    """The mean clustering coefficient, as ``networkx.average_clustering``.

    Parameters
    ----------
    G : frontier.Graph
        Directed or undirected.
    nodes : iterable of nodes, optional
        Average over these nodes only.
    weight : None
        Weighted clustering is not implemented (``NotImplementedError``).
    count_zeros : bool
        If False, vertices with coefficient 0 are left out of the mean.
    **options
        Enactor options (see :func:`frontier.enact`).

    Raises
    ------
    ZeroDivisionError
        If no vertex is averaged (as NetworkX).

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import average_clustering
    >>> G = fr.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], device="cpu")
    >>> round(average_clustering(G), 4)
    0.5833
    """
    _check_unweighted(weight)
    values = clustering_coefficients(G, **options)
    if nodes is not None:
        values = values[[G.vertex_id(v, "nodes") for v in nodes]]
    values = values.tolist()
    if not count_zeros:
        values = [v for v in values if abs(v) > 0]
    return sum(values) / len(values)
