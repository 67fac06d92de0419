"""A whole automatic-direction traversal in one launch (``auto_levels``).

On a graph of large degrees (a Kronecker graph's hubs), the levels kernels
of :mod:`.fused` stop at every level too large for them, and the pull phase
(``pull_levels``) is a launch of its own: a DOBFS call then costs four host
round trips or more, and at Kronecker 24 its GPU waited for the host about
40% of the call (``benchmarks/call_timeline.py``). ``auto_levels`` runs the
push levels, the pull phase and the push levels after it in one launch,
each level decided on the device by Beamer's rule with the counts and
arithmetic of :class:`frontier.AutoDirection`, with one device read at the
end (kernel comment in :file:`kernels/traversal.cu`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..frontier import Frontier
from ..kernels.edges import vertex_ids
from ..kernels.module import kernel, pointer
from ..kernels.workspace import read_counters
from . import fused

#: Levels one launch runs at most (a bit each in a word of its state).
MAX_LEVELS = 64
#: A push level sets aside a frontier vertex of more out-edges than this for
#: the whole grid, in chunks of a block's threads (a warp walks the others).
HUB_PUSH_MIN = 1024
#: A push level whose frontier has at least n / DENSE_PUSH out-edges writes
#: its output as a bitmap, then a list (appends a warp at a time would all
#: wait on one counter).
DENSE_PUSH = 8
#: Words of the kernel's state (its comment in traversal.cu).
STATE_WORDS = 20


class AutoRun(NamedTuple):
    """What one launch did: the last level's ``output`` (a list) and its
    ``counts`` (size, out-edges, in-edges), each level's direction
    (``pulled``: True for a pull), the vertices and in-edges of the
    frontiers it decided (``visited``, ``consumed``) and the rule's
    ``phase`` at the end (0 before the pull phase, 1 in it, 2 after)."""

    output: Frontier
    counts: tuple
    pulled: tuple
    visited: int
    consumed: int
    phase: int


def applies(graph, frontier: Frontier, functor) -> bool:
    """Whether :func:`auto_levels` runs this advance: a GPU graph of large
    degrees (the levels kernels' ``width`` 0; on others they run the push
    levels alone, a block a level), a frontier list and the built-in claim
    with labels the kernels claim."""
    # the graph's degrees first: a road graph's steps ask once each
    return (graph.device.is_gpu and fused._level_width(graph) == 0
            and frontier.kind == "sparse"
            and getattr(functor, "fused", None) == "claim_unvisited"
            and functor.vertex_slots is None and fused._claim_fits(functor))


def auto_levels(graph, frontier: Frontier, functor, allowed: int, phase: int, alpha: float,
                beta: float, unexplored: int) -> AutoRun | None:
    """Up to ``allowed`` levels (at most :data:`MAX_LEVELS`) from
    ``frontier``, the first claiming with ``functor.value``, each level's
    direction decided on the device by Beamer's rule from ``phase``
    (:class:`AutoRun`), ``alpha``, ``beta`` and the ``unexplored`` in-edges
    (not visited before the frontier). One launch and one device read;
    ``None`` if no level ran (an empty frontier)."""
    n = graph.num_vertices
    in_edges = graph.in_edges()
    xp = graph.xp
    words = -(-n // 32)
    ids = vertex_ids(graph, frontier.ids)
    dtype = graph.columns.dtype
    predecessor = functor.predecessor
    push_hubs = len(graph.columns) // (HUB_PUSH_MIN + 1) + 1
    pull_hubs = len(in_edges.sources) // (fused.HUB_PULL_MIN + 1) + 1
    queues = xp.empty(2 * n, dtype=dtype)
    # the kernel's other buffers in one allocation (an allocation costs
    # microseconds of host work before the launch), passed as addresses
    bits, skip, hubs, hub_starts, state, block = _carve(xp, (
        2 * words * 4, words * 4, min(n, max(push_hubs, pull_hubs)) * dtype.itemsize,
        min(n, push_hubs) * 8, STATE_WORDS * 8))
    xp.cuda.runtime.memsetAsync(int(state), 0, STATE_WORDS * 8,
                                xp.cuda.get_current_stream().ptr)
    lonely = fused.no_in_edges_bits(graph)
    function = kernel("auto_levels", *fused._claim_types(graph, predecessor))
    function((fused._resident_grid(function),), (256,), (
        graph.offsets, graph.columns, in_edges.offsets, in_edges.sources, np.int64(n), ids,
        np.int64(len(ids)), queues, bits, skip, lonely, hubs, hub_starts, state,
        functor.labels, np.int32(functor.value), pointer(predecessor),
        np.int32(min(allowed, MAX_LEVELS)), np.int32(phase), np.float64(alpha), np.float64(beta),
        np.int64(unexplored), np.int64(fused.WARP_PULL_MIN), np.int64(fused.HUB_PULL_MIN),
        np.int64(HUB_PUSH_MIN), np.int64(max(1, n // DENSE_PUSH))))
    words_read = read_counters(state, STATE_WORDS)  # the one read
    del block  # (held until the kernel is done)
    levels = int(words_read[0])
    if levels == 0:
        return None
    slot = 3 + 3 * (levels % 3)
    count = int(words_read[slot])
    start = int(words_read[18]) * n
    output = Frontier(n, graph.device, ids=queues[start:start + count], distinct=True)
    pulled = tuple(bool(int(words_read[2]) >> k & 1) for k in range(levels))
    return AutoRun(output, (count, int(words_read[slot + 1]), int(words_read[slot + 2])), pulled,
                   int(words_read[15]), int(words_read[16]), int(words_read[17]))


#: Bytes each buffer :func:`_carve` hands out starts on a multiple of.
ALIGN = 256


def _carve(xp, sizes: tuple) -> list:
    """Device addresses of buffers of ``sizes`` bytes, carved from one
    allocation, and the allocation itself last (hold it while they are in
    use)."""
    starts, end = [], 0
    for size in sizes:
        starts.append(end)
        end += -(-size // ALIGN) * ALIGN
    block = xp.empty(max(end, 1), dtype=np.uint8)
    return [np.uint64(block.data.ptr + start) for start in starts] + [block]
