"""Several BFS levels, or a relaxation's fixed point, on the CPU in one call:
SciPy's compiled searches.

A replayed BFS step (:mod:`frontier.replay`) whose frontier is one vertex
and which has visited nothing else runs its levels in
:func:`scipy.sparse.csgraph.breadth_first_order` instead of a round of NumPy
calls per level, which costs tens of microseconds even for a level of one
vertex (a road network has hundreds of levels, a grid thousands). Where
each level ends in the search's order follows from the number of children
each vertex has in its predecessor tree (:func:`_level_ends`: a few passes
over the vertices, then a scalar step a level). Every vertex within
``batch.allowed`` levels gets the label and predecessor the step would give
it level by level (a predecessor is some neighbour one level up, as in a
level-by-level run).

A replayed relaxation (SSSP's step) from a single source, with no other
distance set and no negative weight, runs on in
:func:`scipy.sparse.csgraph.dijkstra` to the distances a level-by-level run
reaches (its least fixed point: the same sums along the same paths), in
the step's one iteration; its predecessors form a shortest-path tree.

SciPy is optional: without it both return ``None`` and the steps run level
by level (the same answers, more NumPy calls).
"""

from __future__ import annotations

import functools
import weakref

import numpy as np

from ..frontier import Frontier
from ..graph import INT32_MAX

#: graph -> (its columns, its offsets, the SciPy matrix of 1s over them), for
#: a graph's next search (the matrix's own arrays: int32 offsets at most)
_UNWEIGHTED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def claim_levels(graph, frontier: Frontier, functor, batch) -> Frontier | None:
    """Up to ``batch.allowed`` levels of a ``ClaimUnvisited`` push from a
    single source with nothing else labelled; sets ``batch.taken`` and
    returns the last level's output. ``None`` (nothing done) otherwise."""
    ids = frontier.ids
    labels = functor.labels
    csgraph = scipy_csgraph()
    if csgraph is None or len(ids) != 1 or functor.vertex_slots is not None \
            or np.count_nonzero(labels != functor.unset) != 1 or labels[ids[0]] == functor.unset:
        return None
    n = graph.num_vertices
    order, parent = csgraph.breadth_first_order(_adjacency(graph), int(ids[0]), directed=True,
                                                return_predecessors=True)
    # SciPy's int32 ids index at half the speed of intp ones (NumPy casts them each time)
    order = order.astype(np.intp)
    ends = _level_ends(order, parent, batch.allowed)
    last = len(ends) - 1  # levels claimed: all the search found, or the batch's
    reached = ends[last]  # the vertices within `last` hops
    claimed = order[1:reached]
    levels = (np.arange(1, last + 1) + (functor.value - 1)).astype(labels.dtype)
    labels[claimed] = np.repeat(levels, np.diff(ends))
    if functor.predecessor is not None and reached == len(order):
        # every vertex the search reached is claimed: one pass, no gather
        np.copyto(functor.predecessor, parent, where=parent >= 0, casting="unsafe")
    elif functor.predecessor is not None:
        functor.predecessor[claimed] = parent[claimed]
    if reached == len(order) and last < batch.allowed:  # the next level finds nothing
        batch.taken = last + 1
        return Frontier.empty(n, graph.device)
    batch.taken = batch.allowed
    return Frontier(n, graph.device, ids=order[ends[last - 1]:reached].astype(graph.columns.dtype),
                    distinct=True)


def _level_ends(order, parent, levels: int) -> list[int]:
    """``ends[k]``: how many vertices of a breadth-first ``order`` (from
    ``order[0]``, with the search's ``parent`` of each vertex, negative for
    none) lie within ``k`` hops, for ``k`` up to ``levels`` or the deepest.
    A search takes its queue in order and appends each vertex's children as
    it takes it, so the children of the first ``j`` vertices fill the
    positions ``1`` to their count, and level ``k + 1`` ends where the
    children of the vertices within ``k`` hops do: a count of children per
    vertex, its running sum along the order, then a scalar step per level
    (about 50 ns; pointer jumping, a pass over the vertices per doubling
    of the depth, wins only where almost every level is one vertex)."""
    n, reached = len(parent), len(order)
    tree = parent.astype(np.intp)
    tree[tree < 0] = n  # the source and the unreached: counted apart
    children = np.bincount(tree, minlength=n + 1)
    after = np.empty(reached + 1, dtype=np.intp)  # after[j]: 1 + children of order[:j]
    after[0] = 1
    np.take(children, order, out=after[1:])
    np.cumsum(after, out=after)
    step = memoryview(after)  # its items are Python ints, read faster than by after.item
    ends = [1]
    end, append = 1, ends.append
    for _ in range(levels):
        if end == reached:
            break
        end = step[end]
        append(end)
    return ends


def relax_to_fixed_point(graph, frontier: Frontier, functor, batch) -> Frontier | None:
    """A ``RelaxMin`` push from a single source at distance 0 with no other
    distance set (float64), run on to its fixed point by SciPy's Dijkstra;
    sets ``batch.ran_on`` and returns the (empty) frontier that follows. ``None`` (nothing done) for
    any other start, a part of a graph, a negative weight or no SciPy."""
    ids = frontier.unique().ids
    distance = functor.distance
    csgraph = scipy_csgraph()
    if csgraph is None or len(ids) != 1 or functor.vertex_slots is not None \
            or distance.dtype != np.float64:
        return None
    source = int(ids[0])  # at 0, so that the sums are a level-by-level run's
    if distance[source] != 0 or np.count_nonzero(np.isfinite(distance)) != 1:
        return None
    weights = graph.weights
    if weights is not None and len(weights) and weights.min() < 0:
        return None
    n = graph.num_vertices
    # explicit zeros stay edges of weight 0, parallel arcs offer each weight
    # Dijkstra reads the values: contiguous ones where the graph has no weights
    values = np.ones(graph.num_arcs) if weights is None else weights
    found, parent = csgraph.dijkstra(_adjacency(graph, values), directed=True, indices=source,
                             return_predecessors=True)
    reached = np.isfinite(found)
    reached[source] = False
    distance[reached] = found[reached]
    if functor.predecessor is not None:
        functor.predecessor[reached] = parent[reached]
    batch.ran_on = True
    return Frontier.empty(n, graph.device)


@functools.cache
def scipy_csgraph():
    """:mod:`scipy.sparse.csgraph`, or ``None`` where SciPy is not installed."""
    try:
        import scipy.sparse.csgraph as csgraph
    except ImportError:
        return None
    return csgraph


def _adjacency(graph, weights=None):
    """The graph's arcs as a SciPy CSR matrix over its own columns: ``weights``
    as float64, or, for a search that reads no values (BFS), 1 on every arc
    (one value read through a zero stride; that matrix is kept for the
    graph's next search while its arrays stay the same). The offsets take
    the columns' dtype where the arcs fit it (int32), so that SciPy's
    csgraph copies neither; it writes to none of them."""
    columns, offsets = graph.columns, graph.offsets
    if weights is None:
        kept = _UNWEIGHTED.get(graph)
        if kept is not None and kept[0] is columns and kept[1] is offsets:
            return kept[2]
    matrix = csr_matrix(graph.num_vertices, offsets, columns,
                        None if weights is None else weights.astype(np.float64, copy=False))
    if weights is None:
        _UNWEIGHTED[graph] = (columns, offsets, matrix)
    return matrix


def csr_matrix(n: int, offsets, columns, data=None):
    """A SciPy CSR matrix over ``n`` vertices of the arcs ``offsets`` /
    ``columns`` with the entries ``data`` (None: 1 on every arc, one value
    read through a zero stride). The offsets take the columns' dtype where
    the arcs fit it (int32), so that SciPy copies neither."""
    from scipy.sparse import csr_array

    if data is None:
        data = np.broadcast_to(np.float64(1), columns.shape)
    index = columns.dtype if len(columns) <= INT32_MAX else offsets.dtype
    return csr_array((data, columns, offsets.astype(index, copy=False)), shape=(n, n))
