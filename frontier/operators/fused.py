"""Fused GPU kernels for the built-in functors (CuPy RawModule, compiled once).

The operators call :func:`fused_advance` and :func:`fused_neighbor_reduce` on
a GPU graph; each returns ``None`` when no fused kernel applies (a user
functor, an unsupported dtype), and the operator takes its general path.

Buffers the kernels reuse between iterations (the visited bitmap, SSSP's
zeroed "queued" bits) live in :mod:`frontier.kernels.workspace` and are
released by the enactor at the end of each run.
"""

from __future__ import annotations

import functools
import weakref
from typing import NamedTuple

import numpy as np

from ..frontier import Frontier, as_frontier
from ..kernels import workspace
from ..kernels.edges import edges_of, vertex_ids
from ..kernels.module import NULL, grid_for, kernel, pointer, resident_blocks, supported
from ..replay import claim_batch

# A push level expanding at least n / LARGE_LEVEL edges uses a visited bitmap
# (building it reads every label once, which then pays for itself) and
# writes a dense output: no atomic whose answer a thread must wait for.
LARGE_LEVEL = 8
# ... on a graph of at least DENSE_MIN_VERTICES vertices: on a smaller one the
# dense output's extra launches (clearing the mask, the bitmap, compacting the
# mask into the next level's ids) cost more than the atomics they save. BFS
# from the hub on one H200 (benchmarks/ab.py, 2026-11-23), dense against
# queue output: 1.27x the time at Kronecker 14, 1.18-1.25x at 16, 1.04-1.06x
# at 18, 0.90x at 20.
DENSE_MIN_VERTICES = 1 << 19
# A push over at most SMALL_MAX_EDGES edges of vertices of degree at most
# SMALL_MAX_DEGREE takes one thread per vertex (no scan, one launch).
SMALL_MAX_DEGREE = 64
SMALL_MAX_EDGES = 1 << 16
# A pull candidate with at most WARP_PULL_MIN in-edges is scanned by one
# thread, with at most HUB_PULL_MIN by a warp, 32 in-edges a round; a hub
# with more has its in-edges spread over the whole grid in chunks of
# HUB_CHUNK (claim_pull_hub_chunks).
# DOBFS from the hub on one H200 (benchmarks/ab.py, 2026-11-24): warp scans
# from 32, 128 and 1024 in-edges up took 1.04x, 1.00x, 1.00x the time of no
# warp scans at Kronecker 24, 1.10x, 1.04x, 1.01x at 26 (Kronecker's
# candidates mostly find a parent in their first few in-edges).
WARP_PULL_MIN = 1024
HUB_PULL_MIN = 1 << 14
HUB_CHUNK = 2048
# A replayed BFS step (frontier.replay) runs its levels in kernels of their
# own while they are small. On a graph whose out-degrees are at most
# SMALL_MAX_DEGREE, a frontier vertex's edges go to `width` threads (the
# largest degree rounded up to a power of two); one block runs levels of up
# to LEVELS_BLOCK_ITEMS edge slots (claim_levels_block, a __syncthreads a
# level), the whole grid levels of up to LEVELS_MAX_EDGES slots and down to a
# quarter of the block's (claim_levels, a grid-wide barrier a level). On
# other graphs the grid runs levels of up to LEVELS_MAX_EDGES out-edges
# without a vertex of more than LEVELS_MAX_DEGREE (a warp walks one vertex).
# Larger levels go back to claim_push's load-balanced launches.
LEVELS_MAX_EDGES = 1 << 18
LEVELS_MAX_DEGREE = 1 << 12
LEVELS_BLOCK_ITEMS = 1 << 12
LEVELS_BLOCK_THREADS = 1024
# Blocks of claim_levels per multiprocessor: all must be resident at once
# for its grid-wide barrier (fewer also make the barrier cheaper).
LEVELS_BLOCKS_PER_SM = 2
# Words of the levels kernels' state (traversal.cu: sizes, edges and widest
# degrees of three levels, the levels run, the barrier's arrivals, in-edges
# of three levels, and what an automatic direction's rule counted).
LEVELS_STATE_WORDS = 17
# Words of pull_levels' state (traversal.cu: the levels run, the barrier's
# arrivals, three levels' sizes, out-edges and in-edges and hubs, what the
# rule counted, and the queue of the last level).
PULL_STATE_WORDS = 20

__all__ = ["fused_advance", "fused_neighbor_reduce", "release_workspaces", "scatter_extreme",
           "scatter_min"]

release_workspaces = workspace.release


def fused_advance(graph, frontier: Frontier, functor, direction: str, among, active=None,
                  skip=None):
    """The output frontier of a fused advance, or ``None`` if none applies.

    ``active``: the frontier's bitmap, when the caller has it (a pull reads
    the frontier that way); ``skip``: a bitmap of vertices a pull passes by
    without reading their labels (:func:`pull_skip_bits`).

    Built-in functors name their kernel in ``fused``. The kernels store a
    predecessor as a slot, which the advance translates to the caller's id
    on a part of a larger graph; ``HookRoots`` on such a part (``vertex_slots``
    set), whose labels are caller ids, hooks with ``hook_slots``, which
    looks each label up in the part's slot table.
    """
    kind = getattr(functor, "fused", None)
    if kind is None or (kind == "hook_roots"
                        and not slot_kernels_fit(getattr(functor, "vertex_slots", None))):
        return None
    if kind == "claim_unvisited":
        if not _claim_fits(functor):
            return None
        if direction == "pull":
            return _claim_pull(graph, frontier, functor, among, active, skip)
        batch = claim_batch()
        levels = None if batch is None else _claim_levels(graph, frontier, functor, batch)
        return levels if levels is not None else _claim_push(graph, frontier, functor)
    if kind == "hook_roots":
        if functor.labels.dtype not in (np.int32, np.int64):
            return None
        return _hook(graph, frontier, functor, direction, among)
    if kind == "relax_min" and direction == "push":
        if functor.distance.dtype not in (np.float32, np.float64) or not _weights_fit(graph) \
                or not _index_array(functor.predecessor):
            return None
        batch = claim_batch()
        levels = None if batch is None else _relax_levels(graph, frontier, functor, batch)
        return levels if levels is not None else _relax_push(graph, frontier, functor)
    return None


def _claim_fits(functor) -> bool:
    return functor.labels.dtype == np.int32 and functor.unset == -1 \
        and _index_array(functor.predecessor)


def _index_array(predecessor) -> bool:
    """A predecessor array the kernels can write (or none)."""
    return predecessor is None or predecessor.dtype in (np.int32, np.int64)


def _weights_fit(graph) -> bool:
    return graph.weights is None or supported(graph.weights.dtype)


def _output(graph, size: int):
    """Output id buffer for ``size`` edges and its device-side length counter.

    The buffer holds at most one entry per vertex, not per edge: every kernel
    appending to it appends a vertex at most once (a won claim, a set
    ``queued`` bit), so no fused advance needs the general path's per-edge
    budget (``FRONTIER_EDGE_BUDGET``). The only other buffer that grows with
    the edges is the tile table of :class:`~frontier.kernels.edges.EdgeList`,
    8 bytes per 1024 edges."""
    return (graph.xp.empty(min(size, graph.num_vertices), dtype=graph.columns.dtype),
            workspace.counter())


def _claimed(graph, out, out_count) -> Frontier:
    """The ids a claiming kernel appended to ``out`` (each once), after one
    read of their count."""
    return Frontier(graph.num_vertices, graph.device,
                    ids=out[:workspace.read_counter(out_count)], distinct=True)


def _bits_unless(values, unset):
    """A bitmap of ``values != unset`` (a visited set from BFS labels, a
    frontier from its mask), rebuilt every call (so it can never be stale)
    into a reused buffer."""
    n = len(values)
    bits = workspace.bits(n)
    flags_to_bits(values, unset, NULL, bits)
    return bits


def flags_to_bits(values, unset, also, bits) -> None:
    """``bits`` = a bitmap of ``values != unset``, or'd with the bitmap
    ``also`` unless it is :data:`NULL` (``flags_to_bits``)."""
    n = len(values)
    kernel("flags_to_bits", values.dtype)((grid_for(-(-n // 32)),), (256,), (
        values, values.dtype.type(unset), np.int64(n), np.bool_(values.data.ptr % 16 == 0),
        also, bits))


def tally(graph, frontier: Frontier, visited=None, degrees: bool = True):
    """``((size, out-edges, in-edges), bits)`` of ``frontier`` in one kernel
    and one device read (``tally_ids`` or ``tally_mask``), which also sets
    its size; ``bits`` is a new bitmap of a dense frontier (the form a pull
    reads it in), ``None`` for ids. The frontier's bits are added to
    ``visited`` (a bitmap), if given; without ``degrees`` the edge counts
    are 0 (not read)."""
    n = graph.num_vertices
    counts = workspace.counter(3)
    bits = None
    if frontier.kind == "dense":
        words = -(-n // 32)
        bits = graph.xp.empty(words, dtype=np.uint32)
        mask = frontier.mask
        if n:
            kernel("tally_mask")((grid_for(words),), (256,), (
                graph.offsets, graph.in_edges().offsets, mask, np.int64(n),
                np.bool_(mask.data.ptr % 16 == 0), np.bool_(degrees), bits, pointer(visited),
                counts))
    else:
        _tally_ids(graph, frontier.ids, None, degrees, visited, counts)
    size, out_edges, in_edges = workspace.read_counters(counts, 3)
    if frontier.kind == "dense":
        frontier._size = size
    return (size, out_edges, in_edges), bits


def _tally_ids(graph, ids, counted, degrees, visited, counts) -> None:
    """Launch ``tally_ids`` over ``ids`` (its length on the device at
    ``counted``, if given: ``ids`` is then the whole queue)."""
    if len(ids):
        kernel("tally_ids", ids.dtype)((grid_for(len(ids)),), (256,), (
            graph.offsets, graph.in_edges().offsets, ids, np.int64(len(ids)),
            pointer(counted), np.bool_(degrees), pointer(visited), counts))


def claim_push_tallied(graph, frontier: Frontier, functor, out_edges: int, visited,
                       degrees: bool):
    """A push of the built-in claim whose frontier's out-edges are known
    (``out_edges``, from its counts), with the output counted as
    :func:`tally` counts it, in one device read in all (the edge count is
    not read, and the queue's length comes with the counts). A queue's
    degrees are always counted (they cost its length); ``degrees`` is for a
    dense output. Returns
    ``(output, counts)``, or ``None`` where this does not apply (labels the
    kernels cannot claim, a part of a graph)."""
    if not _claim_fits(functor) or functor.vertex_slots is not None:
        return None
    n = graph.num_vertices
    ids = vertex_ids(graph, frontier.ids)
    edges = edges_of(graph, ids, total=out_edges)
    predecessor = functor.predecessor
    types = _claim_types(graph, predecessor)
    if _large_level(graph, edges.total):
        output = _claim_push_dense(graph, edges, functor, types)
        return output, tally(graph, output, visited, degrees)
    words = workspace.counter(4)  # the queue's length, then the three counts
    out = graph.xp.empty(min(edges.total, n), dtype=graph.columns.dtype)
    edges.launch("claim_push", types, functor.labels, np.int32(functor.value),
                 pointer(predecessor), out, words)
    _tally_ids(graph, out, words, True, visited, np.uint64(int(words) + 8))
    length, size, out_edges, in_edges = workspace.read_counters(words, 4)
    output = Frontier(n, graph.device, ids=out[:length], distinct=True)
    return output, ((size, out_edges, in_edges), None)


#: Per graph, the bitmap of its vertices without in-edges (pull_skip_bits),
#: kept while the graph lives: n / 8 bytes, made once.
_no_in_edges = weakref.WeakKeyDictionary()


def pull_skip_bits(graph, labels):
    """A new bitmap of the vertices a pull need not look at: the labelled
    ones (``labels != -1``, int32 labels) and those without in-edges."""
    words = -(-len(labels) // 32)
    bits = graph.xp.empty(words, dtype=np.uint32)
    if words:
        flags_to_bits(labels, -1, no_in_edges_bits(graph), bits)
    return bits


def no_in_edges_bits(graph):
    """The bitmap of ``graph``'s vertices without in-edges, made at the
    first call and kept while the graph lives."""
    lonely = _no_in_edges.get(graph)
    if lonely is None:
        n = graph.num_vertices
        lonely = _no_in_edges[graph] = graph.xp.empty(-(-n // 32), dtype=np.uint32)
        if n:
            kernel("no_in_edges_bits")((grid_for(n),), (256,), (
                graph.in_edges().offsets, np.int64(n), lonely))
    return lonely


def _claim_types(graph, predecessor) -> tuple:
    """The claim kernels' template types: vertex ids, predecessors (the ids'
    type when there are none: the kernel gets a null pointer)."""
    return graph.columns.dtype, graph.columns.dtype if predecessor is None else predecessor.dtype


def _claim_push(graph, frontier: Frontier, functor) -> Frontier:
    ids = frontier.ids
    max_degree = graph.max_out_degree()
    if max_degree <= SMALL_MAX_DEGREE and len(ids) * max_degree <= SMALL_MAX_EDGES:
        return _claim_push_small(graph, vertex_ids(graph, ids), functor, max_degree)
    edges = edges_of(graph, ids)
    predecessor = functor.predecessor
    types = _claim_types(graph, predecessor)
    if _large_level(graph, edges.total):
        return _claim_push_dense(graph, edges, functor, types)
    out, out_count = _output(graph, edges.total)
    edges.launch("claim_push", types, functor.labels, np.int32(functor.value),
                 pointer(predecessor), out, out_count)
    return _claimed(graph, out, out_count)


def _large_level(graph, edges: int) -> bool:
    """Whether a push over ``edges`` edges claims into a dense output."""
    n = graph.num_vertices
    return edges > 0 and edges * LARGE_LEVEL >= n and n >= DENSE_MIN_VERTICES


def _claim_push_dense(graph, edges, functor, types) -> Frontier:
    """A large level's push: a visited bitmap (L2-resident) and a dense output."""
    out = graph.xp.zeros(graph.num_vertices, dtype=bool)
    edges.launch("claim_push_dense", types, _bits_unless(functor.labels, np.int32(-1)),
                 functor.labels, np.int32(functor.value), pointer(functor.predecessor), out)
    return Frontier(graph.num_vertices, graph.device, mask=out)


def _claim_push_small(graph, ids, functor, max_degree: int) -> Frontier:
    """One thread per frontier vertex, no degree scan: one launch per level."""
    count = len(ids)
    out, out_count = _output(graph, count * max_degree)
    predecessor = functor.predecessor
    if count:
        kernel("claim_push_small", *_claim_types(graph, predecessor))(
            (grid_for(count),), (256,),
            (graph.offsets, graph.columns, ids, np.int64(count), np.int32(max_degree),
             functor.labels, np.int32(functor.value), pointer(predecessor), out, out_count))
    return _claimed(graph, out, out_count)


def _claim_levels(graph, frontier: Frontier, functor, batch) -> Frontier | None:
    """Up to ``batch.allowed`` BFS levels in the levels kernels (level ``k``
    claims with ``functor.value + k``), one read of their counts per kernel
    launched; sets ``batch.taken`` and returns the last level's output.
    ``None`` (nothing done) if the first level is too large for them."""
    ran = _run_claim_levels(graph, frontier, functor, batch)
    return None if ran is None else ran.output


class LevelsRun(NamedTuple):
    """What the levels kernels did in a batch: the last level's ``output``
    and its ``counts`` (size, out-edges, in-edges; edges only where
    counted), and of the levels decided on the device (all but the first
    one), their vertices (``visited``) and in-edges (``consumed``)."""

    output: Frontier
    counts: tuple
    visited: int
    consumed: int


def claim_levels_auto(graph, frontier: Frontier, functor, batch, alpha: float,
                      unexplored: int, out_edges: int | None) -> LevelsRun | None:
    """Push levels of an automatic direction in the levels kernels: the
    frontier's level (decided by the host), then each level for which
    Beamer's rule still pushes (``alpha`` and ``unexplored``, the in-edges
    not visited yet, as :class:`frontier.AutoDirection` keeps them), decided
    on the device; a negative ``alpha``: every level pushes (the rule
    pushes for good). ``out_edges``: the frontier's, where known, which
    spares a launch for a frontier too large, and leaves a frontier of
    large degrees (a hub: a warp would walk its edges alone) to the
    load-balanced push. ``None`` where nothing ran (labels the kernels
    cannot claim, a part of a larger graph, a first level too large)."""
    if not _claim_fits(functor):
        return None
    if out_edges is not None and _level_width(graph) == 0 and (
            out_edges > LEVELS_MAX_EDGES or out_edges > SMALL_MAX_DEGREE * frontier.size):
        return None
    return _run_claim_levels(graph, frontier, functor, batch, alpha, unexplored)


def _run_claim_levels(graph, frontier: Frontier, functor, batch, alpha: float = -1.0,
                      unexplored: int = 0) -> LevelsRun | None:
    """The loop of :func:`_claim_levels` and :func:`claim_levels_auto`:
    levels kernels launched one after the other while they run levels (the
    one-block kernel while the frontier is small, the grid's while it is
    larger), each launch's counts read once."""
    ids = frontier.ids
    count = len(ids)
    width = _level_width(graph)
    grid_upper = LEVELS_MAX_EDGES // max(width, 1)
    if functor.vertex_slots is not None or not 0 < count <= grid_upper:
        return None
    block_upper = LEVELS_BLOCK_ITEMS // width if width else 0
    predecessor = functor.predecessor
    types = _claim_types(graph, predecessor)
    queues = _level_queues(graph, graph.columns.dtype)
    in_offsets = graph.in_edges().offsets if graph.directed and alpha >= 0 else None
    current, holder, done = vertex_ids(graph, ids), 1, 0  # holder: the queue of `current`
    counts, visited, consumed = None, 0, 0
    while done < batch.allowed and count:
        # the input's queue goes second: the first level writes the other
        state = graph.xp.zeros(LEVELS_STATE_WORDS, dtype=np.uint64)
        arguments = (graph.offsets, graph.columns, current, np.int64(count), queues[1 - holder],
                     queues[holder], state, functor.labels, np.int32(functor.value + done),
                     pointer(predecessor), np.int32(batch.allowed - done), np.int32(width))
        rule = (np.float64(alpha), np.int64(unexplored - consumed), np.int32(done > 0),
                pointer(in_offsets))
        if count <= block_upper:
            kernel("claim_levels_block", *types)((1,), (LEVELS_BLOCK_THREADS,),
                                                 arguments + (np.uint64(block_upper),) + rule)
        else:
            function = kernel("claim_levels", *types)
            function((_levels_grid(function),), (256,), arguments + (
                np.uint64(block_upper // 4), np.uint64(grid_upper),
                np.uint64(LEVELS_MAX_DEGREE)) + rule)
        words = state.get()
        levels = int(words[9])
        slot = levels % 3
        count = int(words[slot])
        counts = (count, int(words[3 + slot]), int(words[11 + slot]))
        visited += int(words[14])
        consumed += int(words[15])
        if levels:
            done += levels
            holder = holder if levels % 2 == 0 else 1 - holder  # odd levels write the second
            current = queues[holder][:count]
        if levels == 0 or words[16]:  # nothing more runs here, or the rule pulls next
            break
    if done == 0:
        return None
    batch.taken = done
    output = Frontier(graph.num_vertices, graph.device, ids=current, distinct=True)
    return LevelsRun(output, counts, visited, consumed)


def pull_levels(graph, frontier: Frontier, functor, batch, beta: float,
                frontier_bits=None) -> LevelsRun | None:
    """Pull levels of an automatic direction in one launch of
    ``pull_levels``: the frontier's level (the host decided to pull it),
    then each level for which Beamer's rule still pulls (its output has at
    least ``n / beta`` vertices), up to ``batch.allowed``; one device read.
    Sets ``batch.taken``; the levels past the first are decided on the
    device (their frontiers' vertices and in-edges in the result). The
    output is a list where the rule stopped the launch (``pull_levels_queue``
    writes it, launched right after: the next level pushes from it), else a
    mask. ``frontier_bits``: the frontier's bitmap, where its counts made
    one (a dense frontier's): the launch starts from a copy of it, and the
    mask is never made a list. ``None`` where this does not apply (labels
    the kernels cannot claim, a part of a larger graph)."""
    if not _claim_fits(functor) or functor.vertex_slots is not None:
        return None
    n = graph.num_vertices
    in_edges = graph.in_edges()
    predecessor = functor.predecessor
    types = _claim_types(graph, predecessor)
    xp = graph.xp
    bitmap_words = -(-n // 32)
    if frontier_bits is None:  # the kernel sets the bits of the ids
        ids = vertex_ids(graph, frontier.ids)
        bits = xp.zeros(2 * bitmap_words, dtype=np.uint32)
    else:  # level 0 reads the copy; it writes every word of the second half
        ids = None
        bits = xp.empty(2 * bitmap_words, dtype=np.uint32)
        bits[:bitmap_words] = frontier_bits
    skip = pull_skip_bits(graph, functor.labels)
    masks = xp.empty(2 * n, dtype=bool)
    hubs = xp.empty(min(n, len(in_edges.sources) // (HUB_PULL_MIN + 1)) + 1,
                    dtype=graph.columns.dtype)
    # a level the rule stops at has fewer than n / beta vertices
    queue = xp.empty(n if beta <= 1 else min(n, int(n / beta) + 1), dtype=graph.columns.dtype)
    state = xp.zeros(PULL_STATE_WORDS, dtype=np.uint64)
    function = kernel("pull_levels", *types)
    function((_resident_grid(function),), (256,), (
        graph.offsets, in_edges.offsets, in_edges.sources, np.int64(n), pointer(ids),
        np.int64(0 if ids is None else len(ids)),
        bits, skip, masks, hubs, state, functor.labels, np.int32(functor.value),
        pointer(predecessor), np.int32(batch.allowed), np.float64(beta),
        np.int64(WARP_PULL_MIN), np.int64(HUB_PULL_MIN)))
    kernel("pull_levels_queue", graph.columns.dtype)((grid_for(bitmap_words),), (256,), (
        bits, np.int64(n), state, queue, np.int64(len(queue))))
    words = state.get()  # the one read
    levels = int(words[0])
    if levels == 0:
        return None
    last = 3 + 3 * ((levels - 1) % 3)
    count = int(words[last])
    batch.taken = levels
    if words[19]:  # the rule stopped the launch: the last level as a list
        output = Frontier(n, graph.device, ids=queue[:count], distinct=True)
    else:
        start = ((levels - 1) & 1) * n
        output = Frontier(n, graph.device, mask=masks[start:start + n])
        output._size = count  # as tally sets a dense frontier's
    return LevelsRun(output, (count, int(words[last + 1]), int(words[last + 2])),
                     int(words[15]), int(words[16]))


def _level_queues(graph, dtype):
    """The two queues the levels kernels alternate between: a level's output
    has at most LEVELS_MAX_EDGES entries, and at most one per vertex."""
    return graph.xp.empty((2, min(LEVELS_MAX_EDGES, graph.num_vertices)), dtype=dtype)


def _levels_run(state) -> tuple[int, int]:
    """The levels a levels kernel ran and the size of its last output, from
    its ``state`` (one read)."""
    counts = state.get()
    levels = int(counts[9])
    return levels, int(counts[levels % 3])


def _level_width(graph) -> int:
    """Threads per frontier vertex in the levels kernels: the largest
    out-degree rounded up to a power of two, or 0 (a warp per vertex) above
    SMALL_MAX_DEGREE."""
    degree = graph.max_out_degree()
    return 0 if degree > SMALL_MAX_DEGREE else 1 << max(0, degree - 1).bit_length()


def _relax_levels(graph, frontier: Frontier, functor, batch) -> Frontier | None:
    """Up to ``batch.allowed`` levels of frontier Bellman-Ford (each relaxes
    the last level's improved vertices) in ``relax_levels``, one read per
    launch, while a level has at most LEVELS_MAX_EDGES edge slots; sets
    ``batch.taken`` and returns the last level's improved vertices. ``None``
    (nothing done) on a graph of large degrees or a level too large."""
    width = _level_width(graph)
    if not width or functor.vertex_slots is not None:
        return None
    ids = frontier.unique().ids
    count, upper = len(ids), LEVELS_MAX_EDGES // width
    if not 0 < count <= upper:
        return None
    weights, predecessor = graph.weights, functor.predecessor
    distance = functor.distance
    types = (graph.columns.dtype, np.float64 if weights is None else weights.dtype,
             distance.dtype, graph.columns.dtype if predecessor is None else predecessor.dtype)
    queues = _level_queues(graph, graph.columns.dtype)
    starts = _level_queues(graph, distance.dtype)  # the distances a level starts from
    stamps = workspace.stamps(graph.num_vertices)
    state = graph.xp.zeros(LEVELS_STATE_WORDS, dtype=np.uint64)
    ids = vertex_ids(graph, ids)
    function = kernel("relax_levels", *types)
    function((_levels_grid(function),), (256,), (
        graph.offsets, graph.columns, pointer(weights), ids, distance[ids], np.int64(count),
        queues[0], queues[1], starts[0], starts[1], state, distance, stamps.array,
        np.int32(stamps.last), pointer(predecessor), np.int32(batch.allowed), np.int32(width),
        np.uint64(upper)))
    levels, count = _levels_run(state)
    stamps.last += levels
    if levels == 0:
        return None
    batch.taken = levels
    return Frontier(graph.num_vertices, graph.device, ids=queues[(levels - 1) % 2][:count],
                    distinct=True)


@functools.cache
def _resident_grid(function) -> int:
    """Blocks of 256 threads of ``function`` that the GPU holds at once, by
    the driver's occupancy count (every one of them must be resident for a
    grid-wide barrier; a scan over every vertex wants them all); where the
    driver cannot say, :func:`_levels_grid`'s."""
    import cupy

    try:
        per_sm = cupy.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(
            function.kernel.ptr, 256, 0)
    except (AttributeError, cupy.cuda.driver.CUDADriverError):
        return _levels_grid(function)
    return max(1, per_sm) * cupy.cuda.Device().attributes["MultiProcessorCount"]


@functools.cache
def _levels_grid(function) -> int:
    """Blocks of 256 threads for ``claim_levels``: LEVELS_BLOCKS_PER_SM per
    multiprocessor, fewer if its registers do not let that many reside."""
    import cupy

    registers = max(1, function.attributes["num_regs"])
    per_sm = max(1, min(LEVELS_BLOCKS_PER_SM, 65536 // (256 * registers)))
    return per_sm * cupy.cuda.Device().attributes["MultiProcessorCount"]


def _claim_pull(graph, frontier: Frontier, functor, among, active=None,
                skip=None) -> Frontier:
    """Pull: one kernel over the candidates, then a one-block scan of the
    chunks of in-edges of the hubs it set aside and one kernel over those
    chunks, each reading the hub count on the device: no device read here;
    the output's size is counted when it is first asked for, by the
    compaction that makes its ids (or the direction rule's tally).
    ``active``: the frontier's bitmap, if known; ``skip``: vertices to pass
    by, if known."""
    n = graph.num_vertices
    in_edges = graph.in_edges()
    among_mask = None if among is None else as_frontier(among, n, graph.device).mask
    out = graph.xp.zeros(n, dtype=bool)
    predecessor = functor.predecessor
    types = _claim_types(graph, predecessor)
    if n == 0:
        return Frontier(n, graph.device, mask=out)
    if active is None:
        active = _bits_unless(frontier.mask, np.bool_(False))
    # at most one hub per HUB_PULL_MIN + 1 arcs
    hubs = graph.xp.empty(min(n, len(in_edges.sources) // (HUB_PULL_MIN + 1)) + 1,
                          dtype=graph.columns.dtype)
    hub_count = workspace.counter()
    kernel("claim_pull", *types)((grid_for(n),), (256,), (
        in_edges.offsets, in_edges.sources, np.int64(n), pointer(among_mask), pointer(skip),
        active, np.int64(WARP_PULL_MIN), np.int64(HUB_PULL_MIN), functor.labels,
        np.int32(functor.value), pointer(predecessor), out, hubs, hub_count))
    chunk_ends = graph.xp.empty(len(hubs), dtype=np.int64)
    kernel("degree_scan", graph.columns.dtype)((1,), (256,), (
        in_edges.offsets, hubs, np.int64(len(hubs)), hub_count, np.int64(HUB_CHUNK),
        chunk_ends))
    kernel("claim_pull_hub_chunks", *types)((resident_blocks(),), (256,), (
        in_edges.offsets, in_edges.sources, hubs, hub_count, chunk_ends, np.int64(HUB_CHUNK),
        active, functor.labels, np.int32(functor.value), pointer(predecessor), out))
    return Frontier(n, graph.device, mask=out)


def _relax_push(graph, frontier: Frontier, functor) -> Frontier:
    """Relax the frontier's out-edges: float32 or float64 distances and
    weights of any sign (the atomic minimum handles both signs). Two passes:
    relax and queue the improved vertices, then (with a predecessor array)
    give each one a frontier vertex whose offer is its new distance."""
    ids = vertex_ids(graph, frontier.unique().ids)
    weights = graph.weights
    types = (graph.columns.dtype, np.float64 if weights is None else weights.dtype,
             functor.distance.dtype)
    queued = workspace.scratch_bits(graph.num_vertices)
    max_degree = graph.max_out_degree()
    if max_degree <= SMALL_MAX_DEGREE and len(ids) * max_degree <= SMALL_MAX_EDGES:
        if len(ids) == 0:
            return Frontier.empty(graph.num_vertices, graph.device)
        # One thread per frontier vertex, no degree scan (a road network's levels).
        grid = (grid_for(len(ids)),)
        start = functor.distance[ids]  # the offers' distances, fixed for the step
        out, out_count = _output(graph, len(ids) * max_degree)
        kernel("relax_push_small", *types)(
            grid, (256,), (graph.offsets, graph.columns, ids, np.int64(len(ids)),
                           np.int32(max_degree), pointer(weights), start, functor.distance,
                           queued, out, out_count))

        def predecessors(predecessor):
            kernel("relax_predecessor_small", *types, predecessor.dtype)(
                grid, (256,), (graph.offsets, graph.columns, ids, np.int64(len(ids)),
                               pointer(weights), start, functor.distance, queued, predecessor))
    else:
        edges = edges_of(graph, ids)
        if edges.total == 0:
            return Frontier.empty(graph.num_vertices, graph.device)
        start = functor.distance[edges.vertices]
        out, out_count = _output(graph, edges.total)
        edges.launch("relax_push", types, pointer(weights), start, functor.distance, queued,
                     out, out_count)

        def predecessors(predecessor):
            edges.launch("relax_predecessor", types + (predecessor.dtype,), pointer(weights),
                         start, functor.distance, queued, predecessor)
    out = out[:workspace.read_counter(out_count)]
    if len(out):
        if functor.predecessor is not None:
            predecessors(functor.predecessor)
        kernel("clear_bits", graph.columns.dtype)((grid_for(len(out)),), (256,),
                                                  (out, np.int64(len(out)), queued))
    return Frontier(graph.num_vertices, graph.device, ids=out, distinct=True)


def _hook(graph, frontier: Frontier, functor, direction: str, among) -> Frontier:
    """Hook over the out-edges of the frontier (push), or over the in-edges of
    ``among`` whose source is in the frontier (pull)."""
    n = graph.num_vertices
    if direction == "push":
        edges, active = edges_of(graph, _ids_or_all(frontier)), None
    else:
        candidates = None if among is None else as_frontier(among, n, graph.device)
        edges = edges_of(graph, _ids_or_all(candidates), incoming=True)
        active = None if _is_everyone(frontier) else frontier.mask
    types, table = (graph.columns.dtype, functor.labels.dtype), functor.vertex_slots
    if table is None:
        edges.launch("hook", types, pointer(active), functor.labels)
    else:
        edges.launch("hook_slots", types, pointer(active), functor.labels,
                     *_slot_table_arguments(table))
    return Frontier.empty(n, graph.device)


#: ``HookRoots`` and ``PointToRoots`` on a part whose labels are caller ids
#: (a slot table: ``duplication="one_hop"``) run ``hook_slots`` and
#: ``point_to_roots_slots``; False: their general paths (tests compare).
SLOT_KERNELS = True


def slot_kernels_fit(table) -> bool:
    """Whether the kernels of connected components take a part with slot
    table ``table`` (``None``: a whole graph, or a part under ``"all"``):
    int64 caller ids, and :data:`SLOT_KERNELS` on."""
    return table is None or (SLOT_KERNELS and table.ids.dtype == np.int64)


def _slot_table_arguments(table) -> tuple:
    """A slot table as the kernels take it: its ids, owned count and length."""
    return table.ids, np.int64(table.num_owned), np.int64(len(table.ids))


def _is_everyone(frontier: Frontier | None) -> bool:
    """True for ``None`` or a dense frontier created holding every vertex."""
    return frontier is None or (frontier.kind == "dense" and frontier.size == frontier.num_vertices)


def _ids_or_all(frontier: Frontier | None):
    """The frontier's ids, or ``None`` (every vertex, no id list) if it holds all."""
    return None if _is_everyone(frontier) else frontier.ids


def point_to_roots(frontier: Frontier, labels, table=None) -> None:
    """:class:`~frontier.functors.PointToRoots` on a GPU: one thread per
    vertex follows its labels up to the root and stores it (one launch).
    ``table``: the part's slot table, where labels are caller ids."""
    ids = None if _is_everyone(frontier) else frontier.ids.astype(labels.dtype, copy=False)
    count = frontier.num_vertices if ids is None else len(ids)
    if not count:
        return
    arguments = (pointer(ids), np.int64(count), labels)
    if table is None:
        kernel("point_to_roots", labels.dtype)((grid_for(count),), (256,), arguments)
    else:
        kernel("point_to_roots_slots", labels.dtype)((grid_for(count),), (256,),
                                                      arguments + _slot_table_arguments(table))


def fused_neighbor_reduce(graph, functor, op, vertices, direction, identity):
    """The result of a fused neighbor-reduce, or ``None`` if none applies.

    Summing the neighbour's value -- ``SourceValue`` over in-edges or
    ``DestinationValue`` over out-edges -- is a sparse matrix-vector product,
    run by the edge-parallel ``gather_sum`` kernel (no value array per edge:
    ones are implicit for an unweighted product).
    """
    kind = getattr(functor, "fused", None)
    neighbour_value = ((kind == "source_value" and direction == "pull")
                       or (kind == "destination_value" and direction == "push"))
    values = getattr(functor, "values", None)
    if not (neighbour_value and op == "sum" and identity in (None, 0)
            and values.dtype in (np.float32, np.float64) and _weights_fit(graph)):
        return None
    n = graph.num_vertices
    ids = None if vertices is None else \
        vertex_ids(graph, as_frontier(vertices, n, graph.device).ids)
    edges = edges_of(graph, ids, incoming=direction == "pull")
    out = graph.xp.zeros(edges.count, dtype=values.dtype)
    weights = graph.weights if functor.weighted else None
    edge_ids = graph.in_edges().edge_ids if direction == "pull" else None
    types = (graph.columns.dtype,
             graph.columns.dtype if edge_ids is None else edge_ids.dtype,
             np.float64 if weights is None else weights.dtype, values.dtype)
    edges.launch("gather_sum", types, pointer(edge_ids), pointer(weights), values, out)
    return out


def scatter_min(values, ids, candidates) -> None:
    """Exact ``values[ids] = min(values[ids], candidates)`` on a GPU, repeats
    in ``ids`` included (int32, int64, float32 or float64 values)."""
    scatter_extreme(values, ids, candidates, larger=False)


def count_down(counts, ids, where, to: int):
    """:func:`frontier.operators.updates.count_down` on a GPU (int32 or int64
    counts): one atomic decrement per entry, whose old value says whether it
    reached ``to`` (no sort)."""
    import cupy

    count = len(ids)
    reached = cupy.empty(count, dtype=bool)
    if count:
        kernel("count_down", counts.dtype, source="scatter.cu")(
            (grid_for(count),), (256,),
            (counts, ids.astype(np.int64, copy=False), pointer(where), np.int64(count),
             counts.dtype.type(to), reached))
    return reached


def scatter_extreme(values, ids, candidates, larger: bool) -> None:
    """:func:`scatter_min`, or with ``larger`` its maximum counterpart."""
    count = len(ids)
    if count:
        kernel("scatter_extreme", values.dtype, larger, source="scatter.cu")(
            (grid_for(count),), (256,),
            (values, ids.astype(np.int64, copy=False), candidates.astype(values.dtype, copy=False),
             np.int64(count)))
