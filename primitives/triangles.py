"""Triangles and clustering: ``triangles``, ``transitivity``, ``clustering``,
``average_clustering``, with NetworkX's semantics.

Each triangle is found once, from its lowest vertex in a ranking by
(neighbour count, id): the primitive walks the graph with every edge
pointing to its higher-ranked end, so a vertex's out-edges are its *later*
neighbours (few for a hub). Vertices with two later neighbours are taken as
*pivots*, ``64 * WORDS`` at a time, each with its own bit of a vertex's
``WORDS`` 64-bit words of marks:

* mark: each pivot advances over its out-edges and sets its bit in
  ``out_mark[x]`` of every later neighbour ``x`` (for a directed graph, in
  ``out_mark`` if ``p -> x`` in ``G`` and in ``in_mark`` if ``x -> p``);
* count: every marked vertex advances over its out-edges; an edge ``x -> y``
  closes a triangle with every pivot whose bit both ends carry. A summary
  word per vertex (bit ``w``: word ``w`` of its marks is nonzero) picks the
  words both ends have, so an edge reads a word or two, not ``WORDS``. The
  set bits of ``out_mark[x] & out_mark[y]`` go to their pivots, and their
  number per edge to ``x`` and ``y``.

The marks travel with a bitwise-or combiner (each word a vertex array of
its own, a column of one ``(vertices, WORDS)`` array) and the counts with
``"sum"``, so the same module runs on several devices: each device marks
from its own pivots and counts over its own vertices' edges, and only
vertex values cross between devices. A batch costs two steps: 4,096
pivots a batch make Kronecker 20's 505,675 pivots 124 batches (64 made
7,902, each some milliseconds of launches on a GPU), and fewer batches
also read fewer edges: each reads the out-edges of every vertex it marked
(Kronecker 18: 7.0e7 edges in 34 batches, 5.3e8 in 2,168 batches of 64,
pivots in id order; taken in rank order, 5.3e7 in 34 batches).
The marks take ``8 * WORDS`` bytes per vertex (8 GB at Kronecker 24).

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

#: 64-bit words of pivot bits per vertex: a batch takes up to 64 * WORDS pivots
WORDS = 64
#: rounds of :func:`_set_bits` that take the lowest bit of every value
LOWEST_BIT_ROUNDS = 3
#: values :func:`_set_bits` unpacks at once (64 uint64 shifts each: 64 MiB)
UNPACK_CHUNK = 1 << 17
#: pivots per batch (at most 64 * WORDS; tests lower it to cross batches)
PIVOTS_PER_BATCH = 64 * WORDS
#: most edges an advance hands to a functor (a few 8-byte words each)
CHUNK_EDGES = 1 << 22
#: most (edge, word) pairs :func:`_common` lists at once (a few int64 each;
#: Kronecker 22 on an H200: 15.5 s a call at 2^24, 20.6 s at 2^22, the same
#: 10.1 GB at the peak, which the pieces do not set)
PAIRS_PER_PIECE = 1 << 24


def _either(current, offer):
    """A mark's combiner: the union of pivot bits (idempotent, as required)."""
    return current | offer


@dataclass
class WedgeResult(fr.Result):
    """Per vertex: ``closed`` wedges at it (see the module docstring;
    float64, exact below 2**53) and, for a directed graph, ``transitive``."""

    closed: object
    transitive: object


def _word_names(kind: str) -> list[str]:
    return [f"{kind}_{word}" for word in range(WORDS)]


class ClosedWedges(fr.Primitive):
    """Closed wedges of an undirected graph (its edges pointing up the ranking)."""

    parameters = ("pivots",)
    directed = False
    # each word of the marks is a column of a (vertices, WORDS) array, shared
    # between devices as a vertex array of its own; a summary word per vertex
    # has bit w set where word w of its marks is nonzero
    communicate = {**{name: _either for name in _word_names("out_mark")},
                   "out_summary": _either, "closed": "sum", "transitive": "sum"}

    def setup(self):
        self.pivots = np.asarray(self.params["pivots"], dtype=np.int64)  # host ids
        self.width = min(PIVOTS_PER_BATCH, 64 * WORDS)
        self.out_marks = self.marks("out_mark")
        self.out_summary = self.vertex_array(0, np.uint64)
        if self.directed:
            self.in_marks = self.marks("in_mark")
            self.in_summary = self.vertex_array(0, np.uint64)
        self.closed = self.vertex_array(0.0, np.float64)
        self.transitive = self.vertex_array(0.0, np.float64)
        self.bit = self.vertex_array(-1, np.int64)  # local: pivot bit of each slot
        self.batch, self.marking = 0, True

    def marks(self, kind: str):
        """A (vertices, WORDS) uint64 array of pivot bits, its columns named
        ``kind_0 ..`` as vertex arrays."""
        marks = self.xp.zeros((self.graph.num_vertices, WORDS), dtype=np.uint64)  # per slot
        for word, name in enumerate(_word_names(kind)):
            setattr(self, name, marks[:, word])
        return marks

    def kinds(self):
        """``(marks, summary)`` of each direction of ``G`` marked."""
        if self.directed:
            return [(self.out_marks, self.out_summary), (self.in_marks, self.in_summary)]
        return [(self.out_marks, self.out_summary)]

    def initial_frontier(self):
        return self.begin_batch()

    def converged(self, frontier, iteration):
        return self.marking and self.batch * self.width >= len(self.pivots)

    def begin_batch(self):
        """Give this batch's pivots their bits; they are the frontier."""
        xp = self.xp
        ids = xp.asarray(self.pivots[self.batch * self.width:(self.batch + 1) * self.width],
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
            marked = fr.filter(fr.advance(self.graph, pivots, self.mark,
                                          chunk_edges=CHUNK_EDGES), unique=True)
            for marks, summary in self.kinds():  # of the rows this device wrote
                summary[marked.ids] = _summary(self.xp, marks[marked.ids])
            return marked
        self.count(frontier)
        for marks, summary in self.kinds():  # owners reset; copies follow at the boundary
            marks[frontier.ids] = 0
            summary[frontier.ids] = 0
        self.bit[self.slots] = -1
        self.batch, self.marking = self.batch + 1, True
        return self.begin_batch()

    def mark(self, src, dst, edge, weight):
        """Set the pivot's bit at each later neighbour. A pivot reaches a
        neighbour along one arc per direction of ``G``, so its bits are new
        there: adding is or."""
        xp = self.xp
        bit = self.bit[src]
        bits = xp.left_shift(xp.uint64(1), (bit % 64).astype(np.uint64))
        at = dst.astype(np.int64) * WORDS + bit // 64  # (vertex, word) in the flat marks
        if self.directed:
            out = weight == self.vertex_ids()[src]  # the arc src -> dst of G
            fr.scatter_add(self.out_marks.reshape(-1), at[out], bits[out])
            fr.scatter_add(self.in_marks.reshape(-1), at[~out], bits[~out])
        else:
            fr.scatter_add(self.out_marks.reshape(-1), at, bits)
        return xp.ones(len(dst), dtype=bool)

    def count(self, frontier):
        """Triangles of each pivot over the (later) edges of the marked vertices."""
        xp, ids = self.xp, self.vertex_ids()
        # uint64: the counts a GPU's atomic add takes
        closed = xp.zeros(64 * WORDS, dtype=np.uint64)
        transitive = xp.zeros(64 * WORDS, dtype=np.uint64)
        out = (self.out_marks, self.out_summary)
        into = (self.in_marks, self.in_summary) if self.directed else None

        def close(src, dst, edge, weight):
            if not self.directed:
                self.add(closed, self.closed, [src, dst], [_common(xp, src, dst, out, out)])
                return xp.zeros(len(dst), dtype=bool)
            # S_px S_py (bit by bit): the triangle's weight S_px S_py S_xy,
            # one parallel edge x - y at a time.
            both_out = _common(xp, src, dst, out, out)
            both_in = _common(xp, src, dst, into, into)
            self.add(closed, self.closed, [src, dst],
                     [both_out, _common(xp, src, dst, out, into),
                      _common(xp, src, dst, into, out), both_in])
            forward = weight == ids[src]  # the arc's tail and head in G
            tail, head = xp.where(forward, src, dst), xp.where(forward, dst, src)
            # out & out and in & in are symmetric in an edge's ends: the
            # arc's (tail, head) finds what (src, dst) found
            self.add(transitive, None, [], [both_out])
            self.add(None, self.transitive, [tail],
                     [_common(xp, tail, head, into, out), both_in])
            return xp.zeros(len(dst), dtype=bool)

        fr.advance(self.graph, frontier, close, chunk_edges=CHUNK_EDGES)
        fr.scatter_add(self.closed, self.slots, closed[self.bits].astype(np.float64))
        fr.scatter_add(self.transitive, self.slots, transitive[self.bits].astype(np.float64))

    def add(self, per_pivot, per_vertex, vertices, found):
        """Add the set bits of each ``(edge, word, mask)`` piece of each
        list in ``found`` (from :func:`_common`) to ``per_pivot`` (by bit)
        and to ``per_vertex`` at each of ``vertices`` (by edge), a piece at
        a time: a chunk of edges closes tens of millions of triangles, and
        only a piece's are ever listed (for ``per_pivot``); the vertices
        get each mask's popcount."""
        xp = self.xp
        one = xp.asarray(1, dtype=np.uint64)  # on a GPU a copy to the device: once a call
        for edge, word, mask in (piece for pieces in found for piece in pieces):
            if not len(edge):
                continue
            if per_pivot is not None:
                # an atomic add, not bincount: that checks its input with a
                # reduction, whose kernel CuPy compiles for each size class
                # below 2,048 (seconds at a first GPU call), and reads its max
                value, bit = _set_bits(xp, mask)
                xp.add.at(per_pivot, word[value] * 64 + bit, one)
            if per_vertex is not None:  # as much work as the edges found, not the vertices
                closed = _popcount(xp, mask).astype(np.float64)
                for ends in vertices:
                    xp.add.at(per_vertex, ends[edge], closed)

    def result(self):
        return WedgeResult(self.closed, self.transitive)


class DirectedClosedWedges(ClosedWedges):
    """Closed wedges of a directed graph: marks for both directions of ``G``."""

    directed = True
    communicate = {**ClosedWedges.communicate, "in_summary": _either,
                   **{name: _either for name in _word_names("in_mark")}}


def _summary(xp, rows):
    """Bit ``w`` set where word ``w`` of each of ``rows`` ((vertices, WORDS)
    uint64) is nonzero: a sum of distinct powers of two, so an or."""
    powers = xp.left_shift(xp.uint64(1), xp.arange(WORDS, dtype=np.uint64))
    return ((rows != 0) * powers).sum(axis=1, dtype=np.uint64)


def _common(xp, x, y, at_x, at_y) -> list:
    """The nonzero ``marks_x[x] & marks_y[y]`` words of edges ``x -> y``
    (``at_x``, ``at_y``: ``(marks, summary)``): pieces ``(edge, word,
    mask)``, one entry per word that both ends' summaries have, which is a
    word or two of the ``WORDS`` for most edges (so no edge reads whole
    rows). Between hubs, which most batches mark in every word, an edge
    has dozens: the words are listed :data:`PAIRS_PER_PIECE` at a time,
    so that a chunk of edges never holds them all."""
    (marks_x, summary_x), (marks_y, summary_y) = at_x, at_y
    both = summary_x[x] & summary_y[y]
    edge = xp.flatnonzero(both)
    both = both[edge]
    pieces = []
    for start, stop in _pieces(xp, xp.cumsum(_popcount(xp, both)), PAIRS_PER_PIECE):
        pair, word = _set_bits(xp, both[start:stop])
        ends = edge[start:stop][pair]
        mask = marks_x.reshape(-1)[x[ends].astype(np.int64) * WORDS + word] & \
            marks_y.reshape(-1)[y[ends].astype(np.int64) * WORDS + word]
        closing = xp.flatnonzero(mask)
        pieces.append((ends[closing], word[closing], mask[closing]))
    return pieces


def _pieces(xp, ends, budget: int) -> list[tuple[int, int]]:
    """Ranges ``(start, stop)`` of positions whose counts (``ends``: their
    running sum) add up to about ``budget`` or less each (a position above
    it alone); one read of the total, one more if there are several."""
    total = int(ends[-1]) if len(ends) else 0
    if total <= budget:
        return [(0, len(ends))] if total else []
    cuts = fr.to_numpy(xp.searchsorted(ends, xp.arange(budget, total, budget), side="right"))
    bounds = [0, *sorted(set(cuts.tolist()) - {0, len(ends)}), len(ends)]
    return list(zip(bounds[:-1], bounds[1:]))


def _popcount(xp, values):
    """The set bits of each uint64 value, as int64 (SWAR: no table, no loop)."""
    v = values - ((values >> np.uint64(1)) & np.uint64(0x5555555555555555))
    v = (v & np.uint64(0x3333333333333333)) + ((v >> np.uint64(2)) & np.uint64(0x3333333333333333))
    v = (v + (v >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((v * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


def _set_bits(xp, values):
    """Every set bit of ``values`` (nonzero uint64): the index of its value
    and its position (0-63), in no particular order. The lowest bit of every
    value at a time for :data:`LOWEST_BIT_ROUNDS` rounds (the summaries two
    ends share hold one or two words for most edges), then the values still
    nonzero (between hubs, dozens) unpacked into their 64 bits at once,
    :data:`UNPACK_CHUNK` values at a time: a few launches per call, not one
    round per bit of the fullest value."""
    index = xp.arange(len(values), dtype=np.int64)
    indices, positions = [index[:0]], [index[:0]]
    for _ in range(LOWEST_BIT_ROUNDS):
        if not len(values):
            break
        lowest = values & (~values + np.uint64(1))
        indices.append(index)
        # log2 of a power of two, rounded: CUDA's log2(8.0) is not exactly 3
        positions.append(xp.rint(xp.log2(lowest.astype(np.float64))).astype(np.int64))
        values = values ^ lowest
        left = xp.flatnonzero(values)
        values, index = values[left], index[left]
    shifts = xp.arange(64, dtype=np.uint64)
    for start in range(0, len(values), UNPACK_CHUNK):
        chunk = values[start:start + UNPACK_CHUNK]
        row, position = xp.nonzero((chunk[:, None] >> shifts) & np.uint64(1))
        indices.append(index[start:start + UNPACK_CHUNK][row])
        positions.append(position.astype(np.int64))
    return xp.concatenate(indices), xp.concatenate(positions)


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
    """Count closed wedges at every vertex (one run of :class:`ClosedWedges`).
    The ranking and the graph of edges pointing up it are made where ``G``
    lives (whole-array work over its arcs)."""
    simple = G.simplified()
    xp, n = G.xp, G.num_vertices
    width = max(n, 1)
    src, dst = simple.arc_sources(), simple.columns.astype(np.int64)
    if G.directed:  # distinct unordered pairs, u < v
        pairs = xp.sort(xp.minimum(src, dst) * width + xp.maximum(src, dst))
        if len(pairs):
            pairs = pairs[xp.concatenate([xp.ones(1, dtype=bool), pairs[1:] != pairs[:-1]])]
    else:  # each edge once already, as its arc u -> v with u < v
        up = src < dst
        pairs = src[up] * width + dst[up]
    low, high = pairs // width, pairs % width
    distinct = _count(xp, low, n) + _count(xp, high, n)
    # Rank by (neighbours, id) and point every edge to the higher rank: a
    # triangle is found once, from its lowest vertex, which needs two later
    # neighbours to be a pivot.
    rank = xp.empty(n, dtype=np.int64)
    if n:
        ids = xp.arange(n)
        rank[xp.lexsort(xp.stack([ids, distinct]))] = ids
    first = xp.where(rank[low] < rank[high], low, high)
    # Pivots in rank order: pivots of a batch share more of their later
    # neighbours, so a batch marks fewer vertices and counts over fewer
    # edges (Kronecker 20: 5.4e8 edges read against 7.9e8 in id order).
    pivots = xp.flatnonzero(_count(xp, first, n) >= 2)
    pivots = fr.to_numpy(pivots[xp.argsort(rank[pivots])])
    out_degree = _count(xp, src, n)
    if G.directed:
        # One edge per arc, weighted by the arc's tail in G.
        up = rank[src] < rank[dst]
        graph = G.with_edges(xp.where(up, src, dst), xp.where(up, dst, src),
                             src.astype(np.float64))
        degree = out_degree + _count(xp, dst, n)
    else:
        graph = G.with_edges(first, low + high - first, directed=True)
        degree = distinct
    run = fr.enact(DirectedClosedWedges if G.directed else ClosedWedges, graph,
                   pivots=pivots, **options)
    # Both orders of each pair of neighbours, as NetworkX counts.
    closed = 2 * np.rint(fr.to_numpy(run.closed)).astype(np.int64)
    transitive = np.rint(fr.to_numpy(run.transitive)).astype(np.int64)
    distinct = fr.to_numpy(distinct)  # undirected: the degree, read back once
    degree = fr.to_numpy(degree) if G.directed else distinct
    return Wedges(closed, transitive if G.directed else closed, degree, degree - distinct,
                  fr.to_numpy(out_degree), run)


def _count(xp, values, n: int):
    """``bincount(values, minlength=n)`` (CuPy's needs a value)."""
    return xp.bincount(values, minlength=n) if len(values) else xp.zeros(n, dtype=np.int64)


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
