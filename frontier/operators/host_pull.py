"""A fast path on the CPU: the built-in claim pulled with early exit.

Pulling ``ClaimUnvisited`` over in-edges (DOBFS's bottom-up step) only needs
one in-neighbour in the frontier per candidate. The general path offers every
in-edge; this one walks the candidates' in-edges in rounds, the k-th
in-neighbour of every candidate still unclaimed in round k, and drops a
candidate once it has a parent, as the GPU pull kernel does. On power-law
graphs most candidates find a parent in their first few in-edges. After
:data:`ROUNDS` rounds the few candidates left take their in-edges in chunks,
:data:`FIRST_CHUNK` each at first and :data:`GROWTH` times more each pass (a
round per in-edge would cost more Python than it saves; all remaining
in-edges at once would walk millions that a hub-level pull never needs: at
Kronecker 20, 2.9 M in-edges of 26 K candidates, most with a parent among
their next few dozen).

The answer equals the general path's: the same vertices are claimed with the
same label, each with a parent in the frontier (the first in in-edge order
here; the general path keeps one of them too).
"""

from __future__ import annotations

import numpy as np

from ..frontier import Frontier
from ..ranges import concatenated_ranges

# Rounds of one in-edge per candidate before the rest go in chunks.
ROUNDS = 8
# In-edges per candidate in the first chunk; each chunk after takes GROWTH times more.
FIRST_CHUNK = 16
GROWTH = 4


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
    # the claims of each round and chunk (none yet)
    found_ids, found_parents = [candidates[:0]], [in_edges.sources[:0]]
    # Each round: one in-edge per candidate, then one compress that drops
    # the candidates that found a parent or ran out of in-edges.
    candidates, position, end = _kept(position < end, candidates, position, end)
    for _ in range(ROUNDS):
        if not len(candidates):
            break
        source = in_edges.sources[position]
        found = active[source]
        found_ids.append(candidates[found])
        found_parents.append(source[found])
        position += 1
        candidates, position, end = _kept((position < end) & ~found, candidates, position, end)
    width = FIRST_CHUNK
    while len(candidates):  # the rest: chunks of in-edges per candidate, growing
        taken = np.minimum(end - position, width)
        source = in_edges.sources[concatenated_ranges(position, taken)]
        found = active[source]
        slot = np.repeat(np.arange(len(candidates)), taken)[found]
        # The first in-edge from the frontier of each candidate: reversed
        # writes, so the earliest stays.
        first = np.full(len(candidates), -1, dtype=source.dtype)
        first[slot[::-1]] = source[found][::-1]
        hit = first >= 0
        found_ids.append(candidates[hit])
        found_parents.append(first[hit])
        position += taken
        candidates, position, end = _kept((position < end) & ~hit, candidates, position, end)
        width *= GROWTH
    claimed = np.concatenate(found_ids)
    labels[claimed] = functor.value
    if functor.predecessor is not None:
        functor.predecessor[claimed] = np.concatenate(found_parents)
    mask = np.zeros(n, dtype=bool)
    mask[claimed] = True
    result = Frontier(n, graph.device, mask=mask)
    result._size = len(claimed)
    return result


def _kept(keep, *arrays):
    """``arrays`` at the positions where ``keep`` is true (one scan of ``keep``)."""
    kept = np.flatnonzero(keep)
    return tuple(array[kept] for array in arrays)
