"""A fast path on the CPU: the built-in claim pushed over out-edges.

Pushing ``ClaimUnvisited`` (BFS's step) needs, per edge, only its
destination: the general path also builds every edge's source vertex and
list position, which the claim does not read. Here each edge's destination
is gathered once, the unvisited ones are claimed with one winner per vertex
(a ticket written and read back), and a source is looked up only for the
winners. The claims equal the general path's (tested on random graphs).
"""

from __future__ import annotations

import numpy as np

from ..frontier import Frontier


def claim_push(graph, frontier: Frontier, functor) -> Frontier | None:
    """The output of ``advance(graph, frontier, functor)`` for a
    ``ClaimUnvisited`` functor with signed int labels and ``unset=-1`` on a
    NumPy graph; ``None`` when the edges are too many for a ticket each in the
    labels' dtype (the general path then runs)."""
    n = graph.num_vertices
    ids = frontier.ids
    first = graph.offsets[ids]
    degrees = graph.offsets[ids + 1] - first
    ends = np.cumsum(degrees)
    total = int(ends[-1]) if len(ends) else 0
    if total == 0:
        return Frontier.empty(n, graph.device)
    if total >= np.iinfo(functor.labels.dtype).max - 2:
        return None
    # Edge ids of the frontier's out-edges, in list order.
    edge = np.repeat(first - (ends - degrees), degrees) + np.arange(total)
    dst = graph.columns[edge]
    labels = functor.labels
    open_edges = np.flatnonzero(labels[dst] == functor.unset)
    if not len(open_edges):
        return Frontier.empty(n, graph.device)
    target = dst[open_edges]
    # Each open edge writes a distinct ticket; the one that stays wins.
    ticket = (-2 - open_edges).astype(labels.dtype)
    labels[target] = ticket
    won = open_edges[labels[target] == ticket]
    claimed = dst[won]
    labels[claimed] = functor.value
    if functor.predecessor is not None:
        functor.predecessor[claimed] = ids[np.searchsorted(ends, won, side="right")]
    return Frontier(n, graph.device, ids=claimed, distinct=True)
