"""Several BFS levels, or a relaxation's fixed point, on the CPU in one call:
SciPy's compiled searches.

A replayed BFS step (:mod:`frontier.replay`) whose frontier is one vertex
and which has visited nothing else runs its levels in
:func:`scipy.sparse.csgraph.breadth_first_order` instead of a round of NumPy
calls per level, which costs tens of microseconds even for a level of one
vertex (a road network has hundreds of levels, a grid thousands). The hops
from the source follow from the search's predecessors by pointer jumping
(a pass per doubling of the depth). Every vertex within ``batch.allowed``
levels gets the label and predecessor the step would give it level by level
(a predecessor is some neighbour one level up, as in a level-by-level run).

A replayed relaxation (SSSP's step) from a single source, with no other
distance set and no negative weight, runs on in
:func:`scipy.sparse.csgraph.dijkstra` to the distances a level-by-level run
reaches (its least fixed point: the same sums along the same paths), in
the step's one iteration; its predecessors form a shortest-path tree.
"""

from __future__ import annotations

import numpy as np

from ..frontier import Frontier

# Levels per reached vertex up to which _hops finds the levels' ends by
# binary search (about a microsecond each) rather than by pointer jumping
# (a few nanoseconds a vertex, times the doublings of the depth): DE's 457
# levels over 49,109 vertices took 0.48 ms against 1.26 ms (CI machine).
SEARCHED_LEVELS = 1 / 64


def claim_levels(graph, frontier: Frontier, functor, batch) -> Frontier | None:
    """Up to ``batch.allowed`` levels of a ``ClaimUnvisited`` push from a
    single source with nothing else labelled; sets ``batch.taken`` and
    returns the last level's output. ``None`` (nothing done) otherwise."""
    ids = frontier.ids
    labels = functor.labels
    if len(ids) != 1 or functor.vertex_slots is not None \
            or np.count_nonzero(labels != functor.unset) != 1 or labels[ids[0]] == functor.unset:
        return None
    from scipy.sparse.csgraph import breadth_first_order

    n = graph.num_vertices
    order, parent = breadth_first_order(_adjacency(graph), int(ids[0]), directed=True,
                                        return_predecessors=True)
    hops = _hops(order, parent)
    deepest = int(hops[-1])  # the search lists vertices by hops
    last = min(deepest, batch.allowed)
    reached = np.searchsorted(hops, last, side="right")  # those within `last` hops
    claimed = order[1:reached]
    labels[claimed] = hops[1:reached] + (functor.value - 1)
    if functor.predecessor is not None and reached == len(order):
        # every vertex the search reached is claimed: one pass, no gather
        np.copyto(functor.predecessor, parent, where=parent >= 0, casting="unsafe")
    elif functor.predecessor is not None:
        functor.predecessor[claimed] = parent[claimed]
    if deepest < batch.allowed:  # the level after the deepest finds nothing
        batch.taken = deepest + 1
        return Frontier.empty(n, graph.device)
    batch.taken = batch.allowed
    first = np.searchsorted(hops, last, side="left")
    return Frontier(n, graph.device, ids=order[first:reached].astype(graph.columns.dtype),
                    distinct=True)


def _hops(order, parent):
    """Hops from the source ``order[0]`` of each vertex of a breadth-first
    ``order``. A search takes its queue in order, so the positions of the
    vertices' parents never decrease along it: level ``k + 1`` is the run
    of vertices whose parent lies in level ``k``, and one binary search
    finds where it ends. That is a Python step per level, so a graph with
    more than :data:`SEARCHED_LEVELS` per vertex listed (a path) turns to
    pointer jumping over all of them instead (a pass per doubling)."""
    reached = len(order)
    position = np.empty(len(parent), dtype=np.intp)
    position[order] = np.arange(reached)
    up = np.empty(reached, dtype=np.intp)
    up[0] = -1
    np.take(position, parent[order[1:]], out=up[1:])
    ends, search = [1], up.searchsorted
    budget = 64 + int(reached * SEARCHED_LEVELS)
    while ends[-1] < reached and len(ends) < budget:
        ends.append(int(search(ends[-1])))
    if ends[-1] == reached:
        return np.repeat(np.arange(len(ends), dtype=np.int32), np.diff(ends, prepend=0))
    up[0] = 0
    hops = np.ones(reached, dtype=np.int32)
    hops[0] = 0
    while up[-1] != 0:  # the last vertex has the deepest ancestor
        hops += np.take(hops, up)  # the hops to up, then on to up's up
        up = np.take(up, up)
    return hops


def relax_to_fixed_point(graph, frontier: Frontier, functor, batch) -> Frontier | None:
    """A ``RelaxMin`` push from a single source at distance 0 with no other
    distance set (float64), run on to its fixed point by SciPy's Dijkstra;
    sets ``batch.ran_on`` and returns the (empty) frontier that follows. ``None`` (nothing done) for
    any other start, a part of a graph or a negative weight."""
    ids = frontier.unique().ids
    distance = functor.distance
    if len(ids) != 1 or functor.vertex_slots is not None or distance.dtype != np.float64:
        return None
    source = int(ids[0])  # at 0, so that the sums are a level-by-level run's
    if distance[source] != 0 or np.count_nonzero(np.isfinite(distance)) != 1:
        return None
    weights = graph.weights
    if weights is not None and len(weights) and weights.min() < 0:
        return None
    from scipy.sparse.csgraph import dijkstra

    n = graph.num_vertices
    # explicit zeros stay edges of weight 0, parallel arcs offer each weight
    found, parent = dijkstra(_adjacency(graph, weights), directed=True, indices=source,
                             return_predecessors=True)
    reached = np.isfinite(found)
    reached[source] = False
    distance[reached] = found[reached]
    if functor.predecessor is not None:
        functor.predecessor[reached] = parent[reached]
    batch.ran_on = True
    return Frontier.empty(n, graph.device)


def _adjacency(graph, weights=None):
    """The graph's arcs as a SciPy CSR matrix over its own offsets and
    columns: ``weights`` as float64, or 1 on every arc."""
    from scipy.sparse import csr_array

    n = graph.num_vertices
    data = np.ones(len(graph.columns)) if weights is None else weights.astype(np.float64)
    return csr_array((data, graph.columns, graph.offsets), shape=(n, n))
