"""Triangles and clustering: ``triangles``, ``transitivity``, ``clustering``,
``average_clustering``, with NetworkX's semantics.

Everything here counts, for a vertex ``p``, the edges among its neighbours.
Vertices are taken as *pivots* 64 at a time, each with its own bit:

* mark: each pivot advances over its edges and sets its bit in
  ``out_mark[x]`` of every neighbour ``x`` (for a directed graph, in
  ``out_mark`` if ``p -> x`` and in ``in_mark`` if ``x -> p``);
* count: every marked vertex advances over its edges; an edge ``x - y``
  closes a wedge at every pivot whose bit both ends carry, so the bits of
  ``out_mark[x] & out_mark[y]``, counted column by column, are each
  pivot's closed wedges in this batch, added to ``closed[p]``.

The marks travel with a bitwise-or combiner and the counts with ``"sum"``,
so the same module runs on several devices: each device marks from its own
pivots and counts over its own vertices' edges, and only vertex values
cross between devices. A batch costs two steps; the work over a run is the
sum over pivots of their neighbours' degrees, as for wedge checking.

What is counted is NetworkX's:

* undirected ``G``: ``closed[p] = 2 x triangles through p``, ``clustering =
  closed / (d (d - 1))`` over the ``d`` distinct neighbours;
* directed ``G``: with ``S = A + A^T``, ``closed[p] = sum_jk S_pj S_jk S_kp``
  (NetworkX's directed triangles), over the undirected multigraph with an
  edge per arc whose weight records the arc's tail, so marks know the arc's
  direction; ``transitive[p]`` counts the arcs ``j -> k`` between
  successors of ``p`` (what ``nx.transitivity`` counts on a digraph).

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
        """Set the pivot's bit at each neighbour. A pivot reaches a neighbour
        along one arc per direction, so its bits are new there: adding is or."""
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
        """Closed wedges of each pivot over the edges of the marked vertices."""
        xp = self.xp
        closed = xp.zeros(BATCH, dtype=np.int64)
        transitive = xp.zeros(BATCH, dtype=np.int64)
        out_mark, in_mark = self.out_mark, self.in_mark

        def close(src, dst, edge, weight):
            out_x, out_y = out_mark[src], out_mark[dst]
            both = out_x & out_y
            closed[:] += _bit_counts(xp, both)
            if self.directed:
                in_x, in_y = in_mark[src], in_mark[dst]
                for pair in (out_x & in_y, in_x & out_y, in_x & in_y):
                    closed[:] += _bit_counts(xp, pair)
                transitive[:] += _bit_counts(xp, both[weight == self.vertex_ids()[src]])
            return xp.zeros(len(dst), dtype=bool)

        fr.advance(self.graph, frontier, close)
        fr.scatter_add(self.closed, self.slots, closed[self.bits].astype(np.float64))
        fr.scatter_add(self.transitive, self.slots, transitive[self.bits].astype(np.float64))

    def result(self):
        return WedgeResult(self.closed, self.transitive)


def _bit_counts(xp, masks):
    """How many of ``masks`` (uint64) have each of the 64 bits set."""
    bits = xp.unpackbits(xp.ascontiguousarray(masks).view(np.uint8), bitorder="little")
    return bits.reshape(-1, BATCH).sum(axis=0, dtype=np.int64)


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
    n = G.num_vertices
    if G.directed:
        # One undirected edge per arc, weighted by the arc's tail.
        graph = G.with_edges(src, dst, src.astype(np.float64), directed=False)
        degree = np.bincount(src, minlength=n) + np.bincount(dst, minlength=n)
        pairs = np.unique(np.minimum(src, dst) * max(n, 1) + np.maximum(src, dst))
        distinct = np.bincount(pairs // max(n, 1), minlength=n) + \
            np.bincount(pairs % max(n, 1), minlength=n)
    else:
        graph = simple
        degree = distinct = np.bincount(src, minlength=n)
    pivots = np.flatnonzero(distinct >= 2).tolist()  # fewer neighbours close no wedge
    run = fr.enact(ClosedWedges, graph, pivots=pivots, directed=G.directed, **options)
    closed = np.rint(fr.to_numpy(run.closed)).astype(np.int64)
    transitive = np.rint(fr.to_numpy(run.transitive)).astype(np.int64)
    return Wedges(closed, transitive if G.directed else closed, degree, degree - distinct,
                  np.bincount(src, minlength=n), run)


def _select(values: np.ndarray, G: fr.Graph, nodes, cast):
    """NetworkX's ``nodes`` convention: all (an array), one vertex (a
    number), or a container of vertices (a dict)."""
    if nodes is None:
        return values
    if isinstance(nodes, (int, np.integer)) and not isinstance(nodes, bool) \
            and 0 <= nodes < G.num_vertices:
        return cast(values[int(nodes)])
    ids = [v for v in nodes if isinstance(v, (int, np.integer)) and 0 <= v < G.num_vertices]
    return {int(v): cast(values[int(v)]) for v in ids}


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
    nodes : int or iterable of int, optional
        One vertex (its count is returned) or several (a dict).
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
    nodes : iterable of int, optional
        Average over these vertices only.
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
        values = values[[int(v) for v in nodes]]
    values = values.tolist()
    if not count_zeros:
        values = [v for v in values if abs(v) > 0]
    return sum(values) / len(values)
