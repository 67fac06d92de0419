"""A fast path on the CPU: the built-in claim pulled with early exit.

Pulling ``ClaimUnvisited`` over in-edges (DOBFS's bottom-up step) only needs
one in-neighbour in the frontier per candidate. The general path offers every
in-edge; this one walks the candidates' in-edges in rounds, the k-th
in-neighbour of every candidate still unclaimed in round k, and drops a
candidate once it has a parent, as the GPU pull kernel does. On power-law
graphs most candidates find a parent in their first few in-edges. When few
candidates remain, their remaining in-edges are expanded at once (a round per
in-edge would cost more Python than it saves).

The answer equals the general path's: the same vertices are claimed with the
same label, each with a parent in the frontier (the first in in-edge order
here; the general path keeps one of them too).
"""

from __future__ import annotations

import numpy as np

from ..frontier import Frontier
from ..ranges import concatenated_ranges

# Rounds of one in-edge per candidate before the rest are expanded at once.
ROUNDS = 8


def claim_pull(graph, frontier: Frontier, functor, among) -> Frontier:
    """The output of ``advance(graph, frontier, functor, direction="pull",
    among=among)`` for a ``ClaimUnvisited`` functor on a NumPy graph."""
    n = graph.num_vertices
    in_edges = graph.in_edges()
    labels = functor.labels
    unclaimed = labels == functor.unset
    if among is not None:
        unclaimed &= among.mask
    candidates = np.flatnonzero(unclaimed)
    position = in_edges.offsets[candidates]
    end = in_edges.offsets[candidates + 1]
    active = frontier.mask
    parent = np.full(n, -1, dtype=np.int64)
    # Each round: one in-edge per candidate, then one compress that drops
    # the candidates that found a parent or ran out of in-edges.
    keep = position < end
    for _ in range(ROUNDS):
        candidates, position, end = candidates[keep], position[keep], end[keep]
        if not len(candidates):
            break
        source = in_edges.sources[position]
        found = active[source]
        parent[candidates[found]] = source[found]
        position += 1
        keep = position < end
        keep &= ~found
    else:
        candidates, position, end = candidates[keep], position[keep], end[keep]
    if len(candidates):  # the rest: all remaining in-edges at once
        degrees = np.maximum(end - position, 0)
        owner = np.repeat(candidates, degrees)
        edge = concatenated_ranges(position, degrees)
        source = in_edges.sources[edge]
        found = active[source]
        # The first in-edge from the frontier of each vertex: reversed writes,
        # so the earliest stays.
        parent[owner[found][::-1]] = source[found][::-1]
    claimed = np.flatnonzero(parent >= 0)
    labels[claimed] = functor.value
    if functor.predecessor is not None:
        functor.predecessor[claimed] = parent[claimed]
    mask = np.zeros(n, dtype=bool)
    mask[claimed] = True
    result = Frontier(n, graph.device, mask=mask)
    result._size = len(claimed)
    return result
