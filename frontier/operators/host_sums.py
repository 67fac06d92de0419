"""Neighbour-value sums on the CPU as one pass over the arcs.

``neighbor_reduce(G, SourceValue(x), "sum")`` (PageRank's pull, HITS,
eigenvector, Katz) and ``neighbor_reduce(G, DestinationValue(x), "sum",
direction="push")`` (betweenness's dependencies) sum a neighbour's value
over each vertex's edges: a sparse matrix-vector product. The general path
expands the edges, hands them to the functor in batches and reduces the
segments: four passes over the arcs in NumPy and Python work per batch
(28 ms over every vertex of a Barabasi-Albert graph of a million edges on
the development CPU). Here:

* SciPy's CSR product (4 ms there; 1.0 ms against 5.5 over 20,000 of its
  vertices), where SciPy's sparse module is loaded already or the graph
  has at least :data:`SCIPY_IMPORT_ARCS` arcs: its import costs 0.25-0.35 s
  (more than a first PageRank's whole run on the CPU), which a few products
  repay only on a large graph;
* otherwise a gather of the neighbours' values (over a list of vertices,
  their rows' arcs first) and ``np.add.reduceat`` over the rows: 10 ms
  there, the general path's sums exactly; over :data:`PIECE_MIN_ARCS` arcs
  or more, in pieces of whole rows summed by threads side by side (the
  same bits: each row is added up as in one pass). A list whose rows hold
  a third of the arcs or more (betweenness's middle levels) takes every
  row in one pass instead, and picks its own: finding and gathering its
  arcs cost more. ``nx.betweenness_centrality(G, k=16)`` on that graph,
  answered on the CPU, took 1.8-2.0 s against 3.8-4.3 s (alternating in
  one process, 2026-11-27). SciPy's product takes the same rule: every
  row's sum, then the list's, instead of copying the list's rows out
  (betweenness from 4 sources on Kronecker 18, 7.6 M arcs, one thread,
  median of 8 calls in three runs: 0.271-0.293 s against 0.281-0.389 s;
  the same sums to the bit).

SciPy's sums may differ from the general path's in the last bits (another
order of additions). The GPU's counterpart is the fused ``gather_sum``
kernel.
"""

from __future__ import annotations

import concurrent.futures
import functools
import importlib.util
import sys
import weakref

import numpy as np

from ..frontier import as_frontier
from ..ranges import concatenated_ranges, distinct_sorted
from ..split_runs import cpu_threads
from .host_levels import csr_matrix

#: Arcs from which a sum imports SciPy's sparse module where nothing has:
#: each product there is about 50 ms faster than the NumPy pass (12 ns an
#: arc on the development CPU), so a few repay the import.
SCIPY_IMPORT_ARCS = 1 << 22

#: Rows holding at least 1 / WHOLE_PASS_SHARE of the arcs are summed with
#: all the others in one pass over every arc, then picked.
WHOLE_PASS_SHARE = 3

#: Arcs a piece of a NumPy pass takes at least: a pass over more is split
#: into pieces of whole rows summed in threads side by side.
PIECE_MIN_ARCS = 1 << 17

#: graph -> {(pull, weighted): (columns, offsets, weights, matrix)}: a
#: graph's matrices, kept while its arrays are the same
_MATRICES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: graph -> {pull: (offsets, rows with arcs, their first arcs)}: the same
#: for the NumPy pass over every row
_SEGMENTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def host_neighbor_sum(graph, functor, op, vertices, direction: str, identity):
    """:func:`~frontier.neighbor_reduce`'s result for a neighbour's value
    summed over each vertex's edges on the CPU (float32 or float64 values),
    or ``None`` where the general path runs (another functor or reduction,
    or no arc at all)."""
    kind = getattr(functor, "fused", None)
    if not ((kind == "source_value" and direction == "pull")
            or (kind == "destination_value" and direction == "push")):
        return None
    values = functor.values
    if op != "sum" or identity not in (None, 0) or values.dtype not in (np.float32, np.float64) \
            or len(graph.columns) == 0:  # no edge: the general path's result type (its dtype)
        return None
    weights = graph.weights if functor.weighted else None
    # the general path's type: the values', times the weights' where weighted
    result_type = values.dtype if weights is None \
        else np.result_type(values.dtype, weights.dtype)
    pull = direction == "pull"
    offsets, columns, edge_ids = _arcs(graph, pull)
    ids = None if vertices is None else as_frontier(vertices, graph.num_vertices, graph.device).ids
    if ids is not None:
        starts = offsets[ids]
        lengths = offsets[ids + 1] - starts
        # rows holding most of the arcs: every row summed in one pass (below)
        # costs less than finding theirs (their positions and two gathers,
        # or SciPy's copy of their rows); the same sums, row by row
        if int(lengths.sum()) * WHOLE_PASS_SHARE < len(columns):
            if not lengths.any():
                return None
            if use_scipy(graph):
                return (_matrix(graph, pull, weights)[ids] @ values).astype(result_type,
                                                                           copy=False)
            arcs = concatenated_ranges(starts, lengths)
            rows = np.flatnonzero(lengths)
            # each row's first arc among ``arcs``
            firsts = (np.cumsum(lengths) - lengths)[rows]
            return _row_sums(len(ids), rows, firsts, arcs, values, columns, edge_ids,
                             weights).astype(result_type, copy=False)
    if use_scipy(graph):
        sums = _matrix(graph, pull, weights) @ values
    else:
        rows, firsts = _every_row(graph, pull, offsets)
        sums = _row_sums(graph.num_vertices, rows, firsts, None, values, columns, edge_ids,
                         weights)
    return (sums if ids is None else sums[ids]).astype(result_type, copy=False)


def _row_sums(size, rows, firsts, arcs, values, columns, edge_ids, weights):
    """Each row's sum of its arcs' neighbour values (times weights), in an
    array of ``size`` rows: the rows with arcs are ``rows`` (ascending) and
    begin at ``firsts`` among the arcs ``arcs`` (None: all, in order).

    Over :data:`PIECE_MIN_ARCS` arcs or more, pieces of whole rows are
    summed in threads side by side (:func:`~frontier.split_runs.cpu_threads`
    of them at most): NumPy's gathers and ``reduceat`` give up the
    interpreter lock, and each row is added up as in one pass, so its sum
    has the same bits."""
    total = len(columns) if arcs is None else len(arcs)
    dtype = values.dtype if weights is None else np.result_type(values.dtype, weights.dtype)
    sums = np.zeros(size, dtype=dtype)

    def add_up(first_row: int, end_row: int) -> None:
        begin = int(firsts[first_row])
        end = int(firsts[end_row]) if end_row < len(firsts) else total
        chosen = slice(begin, end) if arcs is None else arcs[begin:end]
        gathered = np.take(values, columns[chosen])
        if weights is not None:
            gathered = gathered * weights[chosen if edge_ids is None else edge_ids[chosen]]
        # each segment ends where the next row with arcs begins
        sums[rows[first_row:end_row]] = np.add.reduceat(gathered,
                                                        firsts[first_row:end_row] - begin)

    count = min(cpu_threads(), total // PIECE_MIN_ARCS)
    if count < 2:
        add_up(0, len(firsts))
        return sums
    # the rows where each piece begins: about total / count arcs apart
    bounds = distinct_sorted(np.searchsorted(firsts, np.arange(count) * (total / count)))
    bounds = bounds[bounds < len(firsts)]  # past the last row: no piece
    ends = [*bounds[1:].tolist(), len(firsts)]
    for future in [_pool().submit(add_up, begin, end)
                   for begin, end in zip(bounds.tolist(), ends)]:
        future.result()
    return sums


@functools.cache
def _pool() -> concurrent.futures.ThreadPoolExecutor:
    """The threads that sum pieces of rows side by side, one per
    :func:`~frontier.split_runs.cpu_threads` (kept for the process: a sum
    takes milliseconds, starting threads about 0.1 ms each)."""
    return concurrent.futures.ThreadPoolExecutor(cpu_threads(), "frontier-sum")


def _every_row(graph, pull: bool, offsets):
    """The rows of ``offsets`` (the graph's in-edges with ``pull``) that
    have arcs, and their first arcs: kept while the graph keeps its arrays,
    since a betweenness run sums over every row at most of its levels."""
    kept = _SEGMENTS.setdefault(graph, {})
    found = kept.get(pull)
    if found is None or found[0] is not offsets:
        rows = np.flatnonzero(np.diff(offsets))
        found = kept[pull] = (offsets, rows, offsets[rows])
    return found[1], found[2]


def use_scipy(graph) -> bool:
    """Whether sums on ``graph`` take SciPy's product: SciPy is installed
    and its sparse module loaded, or the graph has at least
    :data:`SCIPY_IMPORT_ARCS` arcs."""
    return _scipy_installed() and ("scipy.sparse" in sys.modules
                                   or len(graph.columns) >= SCIPY_IMPORT_ARCS)


@functools.cache
def _scipy_installed() -> bool:
    return importlib.util.find_spec("scipy") is not None


def _arcs(graph, pull: bool):
    """``(offsets, columns, edge ids)`` of the graph's in-edges (``pull``)
    or out-edges (edge ids None: the arcs' own order)."""
    if pull:
        in_edges = graph.in_edges()
        return in_edges.offsets, in_edges.sources, in_edges.edge_ids
    return graph.offsets, graph.columns, None


def _matrix(graph, pull: bool, weights):
    """The graph's out-edges (``pull``: its in-edges) as a SciPy CSR matrix
    whose entries are ``weights`` as float64 (their in-edge order for a
    pull), or 1 through a zero stride; kept for the graph's next sums."""
    offsets, columns, edge_ids = _arcs(graph, pull)
    kept = _MATRICES.setdefault(graph, {})
    found = kept.get((pull, weights is not None))
    if found is not None and found[0] is columns and found[1] is offsets and found[2] is weights:
        return found[3]
    data = None if weights is None else \
        (weights if edge_ids is None else weights[edge_ids]).astype(np.float64, copy=False)
    matrix = csr_matrix(graph.num_vertices, offsets, columns, data)
    kept[(pull, weights is not None)] = (columns, offsets, weights, matrix)
    return matrix
