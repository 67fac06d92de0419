"""A claim's levels on every part at once, with no host read inside a level
(one, the counts, for an automatic direction).

The output boundary (:mod:`.output_exchange`) makes a level of BFS on
several parts a step, then a split with a read of its counts, an
all-to-all, the merges and a collection with another read: a few dozen
host operations and two or three waits for the device per part and level,
1-2 ms of host time on a GPU, which is most of a level on parts sharing one
GPU (issue 27). Where every part is a thread of this process and the step
is a replayable claim whose copies may lag (BFS that pushes), the level
can instead be run by three kernels per part that keep every length on
the device:

1. **claim and route** (``joint_claim``, and ``joint_claim_chunks`` for
   the edges of vertices of many): a claim is decided on the part's bitmap
   of labelled vertices, and each won claim goes to this part's next queue
   if it owns the vertex, else to its owner's outbox, as the owner's slot
   with the predecessor as a caller id;
2. the parts meet once (a host barrier: each posts the event that ends its
   claims, and its last level's frontier size);
3. **merge** (``joint_merge``): each part claims the slots of the outboxes
   addressed to it that it has not labelled, which join its next queue.
   It reads its peers' outboxes where they lie (the same GPU, or a peer's
   memory over NVLink), ordered after their claims by their events.

The host reads a level's counts one level late (the device has the next
level's claims queued meanwhile), and stops when the sum of the parts'
frontiers is zero: a level past the last costs the launches of a claim over
an empty queue. Outboxes and counts are double-buffered by level parity; a
part zeroes the lengths the next level fills in its merge, which runs after
its peers' claims of the same level, and so after their merges of the level
before (the only readers of what it zeroes). Parts on the CPU (virtual
devices) run the same levels with NumPy.

An advance with an automatic direction (DOBFS) runs jointly too, where
slots are the caller's ids, whatever its copies declare
(:meth:`JointLevels.run_auto`): its rule needs a level's counts before the
level, so each level reads them once (``joint_tally``, which also sets the
frontier's bits in every part's bitmap of the level while the rule may
pull), the parts meet and sum them, and the level pushes as above or
pulls (``joint_pull``: each owned unlabelled vertex takes a parent from the
bitmap, so no copy is read and nothing is routed).

The answers are those of the output boundary: the same labels (and
directions), and a predecessor a valid parent at the level before (which
of several parents may differ, as between two GPU runs).
``tests/test_joint_levels.py`` and ``tests/test_joint_auto.py`` compare
the two on random graphs.
"""

from __future__ import annotations

import time
import weakref
from typing import NamedTuple

import numpy as np

from ..frontier import Frontier
from ..kernels.module import NULL, VARIABLE, Prepared, grid_for, kernel, pointer, resident_blocks
from ..operators.fused import flags_to_bits
from ..operators.host_pull import claim_pull
from ..operators.host_push import claim_push
from ..operators.updates import claim_positions
from ..turns import pause, resume

#: Whether parts of one process run a replayable claim's levels jointly
#: (False: the output boundary after every level; tests compare the two).
JOINT_LEVELS = True
#: A vertex of more out-edges than this is cut by ``joint_claim`` into
#: chunks of :data:`HUB_CHUNK` edges, each walked by one warp
#: (``joint_claim_chunks``); a warp walks 32 vertices of fewer together.
HUB_MIN = 32
HUB_CHUNK = 256
#: Sets of launches a part keeps, each for the addresses of a run's arrays:
#: parts that share a GPU draw their runs' blocks from one pool, in either
#: order, so a part's next run may get any of the last few runs' addresses.
KEPT_LAUNCHES = 8
#: The routes of a level's claims (``Routes`` in traversal.cu), passed by value.
_ROUTES = np.dtype([("predecessor", np.uint64), ("owner", np.uint64), ("rank", np.int32),
                    ("parts", np.int32), ("on_owner", np.uint64), ("next", np.uint64),
                    ("next_count", np.uint64), ("outbox", np.uint64),
                    ("outbox_preds", np.uint64), ("outbox_starts", np.uint64),
                    ("outbox_counts", np.uint64)], align=True)


def joint_levels(exchange, communicator) -> JointLevels | None:
    """The joint levels of ``exchange``'s run (an output boundary), or
    ``None`` where they do not apply: a primitive that is not replayable,
    copies that must be current or a ``converged`` of its own, ranks that are
    not threads of this process, more than 128 parts, or GPUs that cannot
    read each other's memory. The same answer on every rank."""
    from .communicator import LocalCommunicator

    run = exchange.run
    if not (JOINT_LEVELS and type(run).replayable and not exchange.votes
            and isinstance(communicator, LocalCommunicator) and communicator.size <= 128):
        return None
    devices = communicator.group.devices
    if any(device.is_gpu for device in devices) and not _reachable(devices):
        return None
    return JointLevels(exchange)


def _reachable(devices) -> bool:
    """Whether every GPU of ``devices`` reads the others' memory (the same
    GPU, or peer access, which is then enabled)."""
    from .communicator import _enable_peer_access

    if not all(device.is_gpu for device in devices):
        return False
    import cupy

    ordinals = sorted({device.index for device in devices})
    for one in ordinals:
        for other in ordinals:
            if one != other:
                if not cupy.cuda.runtime.deviceCanAccessPeer(one, other):
                    return False
                _enable_peer_access(one, other)
    return True


class JointLevels:
    """One part's side of the joint levels (see the module docstring)."""

    def __init__(self, exchange):
        # a proxy: the boundary holds these levels, which would otherwise tie
        # its run's arrays in a reference cycle until the garbage collector's pass
        self.exchange = weakref.proxy(exchange)
        self.part = exchange.part
        self.comm = exchange.comm
        self.peers = [peer for peer in range(self.comm.size) if peer != self.comm.rank]
        self.buffers = None

    def run(self, graph, frontier: Frontier, functor, batch) -> Frontier | None:
        """Up to ``batch.allowed`` levels of the claim ``functor`` from
        ``frontier`` (this part's owned vertices), with the boundary of each;
        sets ``batch.taken`` and returns the next frontier (its sum over the
        parts prepaid for ``converged``). ``None``, on every part alike,
        where the claim is not one these kernels make, or where the
        primitive's copies must be current (they lag behind their owners
        here)."""
        if not (self.exchange.lagging and self._fits(functor)):
            return None
        return self._bound(graph, functor, lambda: self._levels(frontier, functor.value, batch))

    def run_auto(self, graph, frontier: Frontier, functor, switch, batch) -> Frontier | None:
        """:meth:`run` for an advance whose direction the rule ``switch`` (a
        :class:`frontier.AutoDirection`) chooses each level, from the level's
        counts summed over the parts: a push as :meth:`run` makes, or a pull
        in which every part's owned unlabelled vertices look for a parent in
        a bitmap of the level's frontier that every part keeps (each part
        sets its frontier's bits in all of them), not among the copies,
        which may lag. ``None`` also where slots are not the caller's ids
        (``duplication="one_hop"``). Once the rule pushes for good (after
        its pull phase, or forced), a step ends, and the next one's levels
        are queued ahead as :meth:`run`'s are: no read or meeting a level
        for the rule."""
        if graph.vertex_slots is not None or self.part.slot_on_owner is not None \
                or not self._fits(functor):
            return None
        if switch.pushes_for_good():  # no level to decide: :meth:`run`'s queued levels
            ran = self._bound(graph, functor, lambda: self._levels(frontier, functor.value, batch))
            switch.pushed(batch.taken)
            return ran
        return self._bound(graph, functor,
                           lambda: self._auto_levels(graph, frontier, functor.value, switch, batch))

    def _bound(self, graph, functor, levels):
        """``levels()`` with this part's buffers bound to ``functor``'s arrays."""
        if self.buffers is None:
            self.buffers = self._kept_buffers(graph, functor)
        self.buffers.bind(functor)
        try:
            return levels()
        finally:
            self.buffers.bind(None)  # kept with the part: not this run's arrays

    def _levels(self, frontier: Frontier, value: int, batch) -> Frontier:
        """:meth:`run`'s levels, labelled from ``value`` on."""
        levels, exchange = self.buffers, self.exchange
        levels.start(frontier.ids)
        levels.claim(0, value)
        self._meet(levels.claimed(0))
        levels.merge(0, value)
        k = 1
        while True:
            if k < batch.allowed:
                levels.claim(k, value + k)
            size, sent = levels.read(k - 1)
            exchange.sent_bytes += sent
            begin = time.perf_counter()
            total, = self._meet(levels.claimed(k) if k < batch.allowed else None, (size,))
            exchange.seconds += time.perf_counter() - begin
            if total == 0 or k == batch.allowed:
                break
            levels.merge(k, value + k)
            k += 1
        batch.taken = k
        ids = levels.queue(k, size) if total else levels.xp.zeros(0, dtype=levels.vertex)
        exchange.run.view.prepay(size, total)
        return Frontier(self.part.num_slots, frontier.device, ids=ids, distinct=True)

    def _auto_levels(self, graph, frontier: Frontier, value: int, switch, batch) -> Frontier:
        """:meth:`run_auto`'s levels, labelled from ``value`` on. A level
        reads its counts once (after the parts' merges of the level before:
        the rule needs them before it launches) and meets the other parts
        there, and after a push's claims."""
        levels, exchange = self.buffers, self.exchange
        levels.start(frontier.ids)
        levels.clear_front(0)
        levels.clear_front(1)
        # every bitmap clear before any part sets bits (the event that ends
        # level 0's claims, recorded here after the clears)
        self._meet(levels.claimed(0))

        def publishing(k: int) -> bool:  # a level that may pull reads these bits
            return k < batch.allowed and not switch.pushes_for_good()

        published = publishing(0)
        levels.tally(0, published)
        k = 0
        while True:
            size, out_edges, in_edges, sent = levels.read_tally(k)
            exchange.sent_bytes += sent + (size * 4 * len(self.peers) if published else 0)
            begin = time.perf_counter()
            totals = self._meet(levels.tallied(k), (size, out_edges, in_edges))
            exchange.seconds += time.perf_counter() - begin
            if totals[0] == 0 or k == batch.allowed or switch.pushes_for_good():
                break  # the last level, or the next step's levels are queued ahead
            label = value + k
            if switch.decide(graph, totals, summed=True) == "pull":
                levels.pull(k, label)  # owned vertices only: no offers to merge
            else:
                levels.claim(k, label)
                begin = time.perf_counter()
                self._meet(levels.claimed(k))
                exchange.seconds += time.perf_counter() - begin
            levels.clear_front(k)
            levels.merge(k, label, copy=False)
            k += 1
            published = publishing(k)
            levels.tally(k, published)
        batch.taken = k
        ids = levels.queue(k, size) if totals[0] else levels.xp.zeros(0, dtype=levels.vertex)
        exchange.run.view.prepay(size, totals[0])
        return Frontier(self.part.num_slots, frontier.device, ids=ids, distinct=True)

    def _fits(self, functor) -> bool:
        """Whether ``functor`` is the built-in claim of this primitive's
        declared arrays: int32 labels unset at -1, combined ``"earliest"``
        (a level's offers all carry its label, so the owner takes one where
        it has none), and the predecessor that follows them, or none."""
        if getattr(functor, "fused", None) != "claim_unvisited" \
                or len(self.exchange.shared) != 1:
            return False
        labels, predecessor = functor.labels, functor.predecessor
        shared, arrays = self.exchange.shared[0], self.exchange.arrays()
        follower = [arrays[name] for name in shared.followers]
        return shared.combine == "earliest" and arrays[shared.name] is labels \
            and labels.dtype == np.int32 and functor.unset == -1 \
            and (follower == [] if predecessor is None else
                 len(follower) == 1 and follower[0] is predecessor
                 and predecessor.dtype in (np.int32, np.int64))

    def _kept_buffers(self, graph, functor) -> _Buffers:
        """This part's buffers, made at its first joint run and kept with
        the part (``Graph.release_parts`` frees them): made again on every
        part if any part lacks them."""
        predecessor = functor.predecessor
        key = ("joint levels", None if predecessor is None else predecessor.dtype.str)
        kept = self.part.derived.get(key)
        if any(buffers is None for buffers in self.comm.allgather(kept)):
            kept = self.part.derived[key] = _Buffers(self, graph, functor)
        return kept

    def _meet(self, event, counts: tuple = ()) -> list[int]:
        """Post this part's ``event`` (the end of its claims, or of a
        tally, which set bits in the peers' bitmaps) and ``counts``; make
        this stream wait for the peers' events; the counts summed over the
        parts, column by column."""
        posted = self.comm.allgather((event, counts))
        self.buffers.wait_for([posted[peer][0] for peer in self.peers])
        return [sum(column) for column in zip(*(counts for _, counts in posted))]


def _address(array) -> int:
    """A device array's address, 0 for ``None``."""
    return 0 if array is None else array.data.ptr


class _Claim(NamedTuple):
    """A level's claim, as :func:`~frontier.operators.host_push.claim_push`
    reads a ``ClaimUnvisited``."""

    labels: object
    value: int
    predecessor: object
    unset: int = -1


def _chunks(part, graph) -> int:
    """The chunks of :data:`HUB_CHUNK` edges of a part's owned vertices of
    more than :data:`HUB_MIN` (each is in one level's queue): counted once
    per part and kept with it."""
    chunks = part.derived.get("joint levels chunks")
    if chunks is None:
        degrees = graph.offsets[part.owned + 1] - graph.offsets[part.owned]
        chunks = part.derived["joint levels chunks"] = \
            int((-(-degrees[degrees > HUB_MIN] // HUB_CHUNK)).sum())
    return chunks


class _Buffers:
    """A part's queues, outboxes and counts for the joint levels of its
    runs, and the launches (or NumPy passes) of a level on them."""

    def __init__(self, joint: JointLevels, graph, functor):
        part, comm = joint.part, joint.comm
        xp = graph.xp
        self.gpu = xp is not np
        self.xp = xp
        self.graph = graph
        self.rank, self.parts = comm.rank, comm.size
        self.peers = joint.peers
        self.vertex = graph.columns.dtype
        self.labels = self.predecessor = None  # a run's, while it runs (bind)
        self.launches = None  # on a GPU, the run's launches by parity (bind)
        pred_type = None if functor.predecessor is None else functor.predecessor.dtype
        table = functor.vertex_slots
        origin = self.vertex if pred_type is None else pred_type
        self.slot_ids = None if table is None else table.ids.astype(origin, copy=False)
        self.owner = part.slot_owner.astype(np.int8, copy=False)
        # an automatic direction's pulls: the owned slots (and the graph's
        # in-edges, which a directed graph builds at their first use)
        self.owned = part.owned.astype(self.vertex, copy=False)
        self.is_owned = part.is_owned
        self._pull_candidates = None  # the owned slots with in-edges (pull_candidates)
        self.on_owner = None if part.slot_on_owner is None \
            else part.slot_on_owner.astype(self.vertex, copy=False)
        owned = len(part.owned)
        self.queues = xp.empty((2, max(owned, 1)), dtype=self.vertex)
        # each peer's outbox: the slots here it owns, the selective route's offer list
        lists = joint.exchange.lists
        room = [len(lists[peer].offers_out) if peer in lists else 0
                for peer in range(self.parts)]
        chunks = _chunks(part, graph)
        starts = np.concatenate([[0], np.cumsum(room)])
        self.room, self.starts = room, starts
        self.outbox_starts = xp.asarray(starts[:-1].astype(np.int64))
        self.outbox = xp.empty((2, max(int(starts[-1]), 1)), dtype=self.vertex)
        self.outbox_preds = None if pred_type is None \
            else xp.empty((2, max(int(starts[-1]), 1)), dtype=pred_type)
        self.entry_bytes = self.vertex.itemsize + (0 if pred_type is None else pred_type.itemsize)
        # the lengths (traversal.cu), then a level's out-edges and in-edges (joint_tally)
        self.counts = xp.zeros(5 + 2 * self.parts, dtype=np.uint64)
        self.sums = 3 + 2 * self.parts
        # an automatic direction's bitmaps of a level's frontier, by level
        # parity (every part sets its frontier's bits in all); masks on the CPU
        self.fronts = xp.zeros((2, -(-part.num_slots // 32)), dtype=np.uint32) if self.gpu \
            else np.zeros((2, part.num_slots), dtype=bool)
        self.chunk_sources = xp.empty(max(chunks, 1), dtype=self.vertex)
        self.chunk_firsts = xp.empty(max(chunks, 1), dtype=np.int64)
        self.grid = resident_blocks() if self.gpu else 0
        self.seen = xp.empty(-(-part.num_slots // 32), dtype=np.uint32) if self.gpu else None
        # every part's buffers, for the merges that read its peers'
        posted = comm.allgather(self)
        self.inboxes = [self._inbox_table(posted, parity) for parity in (0, 1)]
        self.front_table = [self._front_table(posted, parity) for parity in (0, 1)]
        self._prepared = {}  # the arrays' addresses -> their launches, the newest last (bind)
        if self.gpu:
            self._pinned()

    def bind(self, functor) -> None:
        """Run the claim ``functor`` (its labels and predecessors) on the
        current stream; ``None``: let go of the last one's arrays and stream."""
        self.labels = None if functor is None else functor.labels
        self.predecessor = None if functor is None else functor.predecessor
        if not self.gpu:
            return
        import cupy

        self.stream = None if functor is None else cupy.cuda.get_current_stream()
        self.launches = None
        if functor is not None:  # the pool often hands a run one of the last runs' blocks
            key = (self.labels.data.ptr, _address(self.predecessor))
            self.launches = self._prepared.pop(key, None) or [{}, {}]
            self._prepared[key] = self.launches
            if len(self._prepared) > KEPT_LAUNCHES:
                del self._prepared[next(iter(self._prepared))]

    def _launches(self, parity: int, names=("claim", "chunks", "merge")) -> dict:
        """The launches ``names`` of a level of ``parity`` on the bound
        run's arrays, each with the level's label (a tally: the parts it
        sets bits for) as its variable argument: prepared at their first
        use on these arrays, and kept for the next run that gets the same
        addresses, without a reference to them (``Prepared(keep=False)``:
        a run holds its arrays while it launches)."""
        made = self.launches[parity]
        if all(name in made for name in names):
            return made
        made.update(self._prepare(parity, names))
        return made

    def _prepare(self, parity: int, names) -> dict:
        """:meth:`_launches`' launches ``names``, packed."""
        types = self._types()
        counts = self.counts.data.ptr
        routes = np.void((_address(self.predecessor), self.owner.data.ptr, self.rank, self.parts,
                          _address(self.on_owner), self.queues[1 - parity].data.ptr,
                          counts + 8 * (1 - parity), self.outbox[parity].data.ptr,
                          _address(None if self.outbox_preds is None
                                   else self.outbox_preds[parity]),
                          self.outbox_starts.data.ptr, counts + 8 * (3 + parity * self.parts)),
                         dtype=_ROUTES)
        graph, listed = self.graph, np.uint64(counts + 16)
        claim = [self.seen, self.labels, VARIABLE]
        slots, preds, lengths = self.inboxes[parity]
        most = max(self.room) if self.room else 0
        # keep=False: every array below is this part's buffers', its graph's or
        # the bound run's (held while it runs); one made here would dangle
        makers = {
            "claim": lambda: Prepared(kernel("joint_claim", *types), self.grid, [
                graph.offsets, graph.columns, self.queues[parity], np.uint64(counts + 8 * parity),
                *claim, pointer(self.slot_ids), routes, np.int64(HUB_MIN), np.int64(HUB_CHUNK),
                self.chunk_sources, self.chunk_firsts, listed], keep=False),
            "chunks": lambda: Prepared(kernel("joint_claim_chunks", *types), self.grid, [
                graph.offsets, graph.columns, self.chunk_sources, self.chunk_firsts, listed,
                np.int64(HUB_CHUNK), *claim, pointer(self.slot_ids), routes], keep=False),
            "merge": lambda: Prepared(kernel("joint_merge", *types), grid_for(max(most, 1)), [
                slots, preds, lengths, np.int32(len(self.peers)), *claim,
                pointer(self.predecessor), self.queues[1 - parity], self.counts,
                np.int32(parity), np.int32(self.parts)], keep=False),
            # an automatic direction's: the level's counts (and bits), its pull
            "tally": lambda: Prepared(kernel("joint_tally", self.vertex), self.grid, [
                graph.offsets, graph.in_edges().offsets, self.queues[parity],
                np.uint64(counts + 8 * parity), np.uint64(counts + 8 * self.sums),
                self.front_table[parity], VARIABLE], keep=False),
            "pull": lambda: Prepared(kernel("joint_pull", *types), self.grid, [
                graph.in_edges().offsets, graph.in_edges().sources, self.pull_candidates(),
                np.int64(len(self.pull_candidates())), self.fronts[parity], *claim,
                pointer(self.predecessor), self.queues[1 - parity],
                np.uint64(counts + 8 * (1 - parity))], keep=False),
        }
        return {name: makers[name]() for name in names}

    def pull_candidates(self):
        """The owned slots that a pull may claim: those with in-edges (a
        Kronecker graph leaves about 40% of its vertices without edges,
        which every pull level would otherwise look up), made at the first
        pull and kept with the buffers."""
        if self._pull_candidates is None:
            in_offsets = self.graph.in_edges().offsets
            owned = self.owned
            self._pull_candidates = owned[in_offsets[owned + 1] > in_offsets[owned]]
        return self._pull_candidates

    def _launch(self, name: str, parity: int, label: int) -> None:
        """Launch ``name`` of a level of ``parity`` (:meth:`_launches`) at ``label``."""
        self._launches(parity, (name,))[name](self.stream, label)

    def _front_table(self, posted: list, parity: int):
        """Every part's bitmap of ``parity`` (:attr:`fronts`): on a GPU
        their addresses (a device array of one word per part); on the CPU
        the masks."""
        if not self.gpu:
            return [there.fronts[parity] for there in posted]
        return self.xp.asarray(np.array([there.fronts[parity].data.ptr for there in posted],
                                        dtype=np.uint64))

    def _inbox_table(self, posted: list, parity: int):
        """Each peer's outbox for this part at ``parity``: on a GPU the
        addresses of the slots, predecessors and length (three device
        arrays of one word per peer); on the CPU the peers' buffers."""
        if not self.gpu:
            return [(posted[peer], parity) for peer in self.peers]
        slots, preds, lengths = [], [], []
        for peer in self.peers:
            there = posted[peer]
            start = int(there.starts[self.rank])
            slots.append(there.outbox[parity].data.ptr + start * there.outbox.itemsize)
            preds.append(0 if there.outbox_preds is None else
                         there.outbox_preds[parity].data.ptr + start * there.outbox_preds.itemsize)
            lengths.append(there.counts.data.ptr + 8 * (3 + parity * self.parts + self.rank))
        return tuple(self.xp.asarray(np.array(words, dtype=np.uint64))
                     for words in (slots, preds, lengths))

    def _pinned(self) -> None:
        import cupy
        import cupyx

        self.stream = cupy.cuda.get_current_stream()
        self.host = cupyx.empty_pinned((2, len(self.counts)), dtype=np.uint64)
        self.events = [[cupy.cuda.Event(block=False, disable_timing=True) for _ in range(2)]
                       for _ in range(2)]  # [claimed, recorded][parity]

    # a level's steps ----------------------------------------------------------------

    def start(self, ids) -> None:
        """Queue 0 holds ``ids``; every length is zero but its; on a GPU,
        ``seen`` marks the labelled vertices."""
        count = len(ids)
        self.queues[0, :count] = ids
        if not self.gpu:
            self.counts[:] = 0
            self.counts[0] = count
            return
        import cupy

        # through the pinned buffer, which no copy back fills before this run's
        # first merge (or tally)
        words = self.host[0]
        words[:] = 0
        words[0] = count
        runtime = cupy.cuda.runtime
        runtime.memcpyAsync(self.counts.data.ptr, words.ctypes.data, self.counts.nbytes,
                            runtime.memcpyHostToDevice, self.stream.ptr)
        flags_to_bits(self.labels, -1, NULL, self.seen)

    def claim(self, k: int, label: int) -> None:
        """Level ``k``'s claims from queue ``k % 2``, routed."""
        parity = k % 2
        if not self.gpu:
            return self._host_claim(parity, label)
        self._launch("claim", parity, label)
        self._launch("chunks", parity, label)

    def claimed(self, k: int):
        """An event that ends level ``k``'s claims (``None`` on the CPU)."""
        if not self.gpu:
            return None
        event = self.events[0][k % 2]
        event.record(self.stream)
        return event

    def wait_for(self, events: list) -> None:
        """This part's stream waits for its peers' claims."""
        for event in events:
            if event is not None:
                self.stream.wait_event(event)

    def merge(self, k: int, label: int, copy: bool = True) -> None:
        """Level ``k``'s offers from the peers, merged; its counts copied
        to the host (read by :meth:`read`) unless not ``copy``."""
        parity = k % 2
        if not self.gpu:
            return self._host_merge(parity, label)
        import cupy

        self._launch("merge", parity, label)
        if not copy:
            return
        runtime = cupy.cuda.runtime
        runtime.memcpyAsync(self.host[parity].ctypes.data, self.counts.data.ptr,
                            self.counts.nbytes, runtime.memcpyDeviceToHost, self.stream.ptr)
        self.events[1][parity].record(self.stream)

    def read(self, k: int) -> tuple[int, int]:
        """Level ``k``'s next frontier size here and the bytes it offered."""
        parity = k % 2
        words = self._copied(parity)
        return int(words[1 - parity]), self._offered(words, parity)

    def _offered(self, words, parity: int) -> int:
        """The bytes the outboxes of ``parity`` hold, by the lengths in the
        copied counts ``words``."""
        lengths = words[3 + parity * self.parts:3 + (parity + 1) * self.parts]
        return int(lengths.sum()) * self.entry_bytes

    def _copied(self, parity: int):
        """The counts last copied to the host at ``parity``, once the copy
        is done (on the CPU: the counts recorded)."""
        if not self.gpu:
            return self.recorded
        turn = pause()  # another rank's host code runs meanwhile
        try:
            self.events[1][parity].synchronize()
        finally:
            resume(turn)
        return self.host[parity]

    # an automatic direction's levels (JointLevels.run_auto) -------------------------

    def clear_front(self, k: int) -> None:
        """Clear this part's bitmap of parity ``k % 2`` (after level ``k``'s
        claims, which read it; before the level that sets it again)."""
        front = self.fronts[k % 2]
        if not self.gpu:
            front[:] = False
            return
        import cupy

        cupy.cuda.runtime.memsetAsync(front.data.ptr, 0, front.nbytes, self.stream.ptr)

    def tally(self, k: int, publish: bool) -> None:
        """Count level ``k``'s frontier (queue ``k % 2``: its size, out-edges
        and in-edges) for :meth:`read_tally`; with ``publish``, set its bits
        in every part's bitmap of parity ``k % 2``."""
        parity = k % 2
        if not self.gpu:
            graph = self.graph
            ids = self.queues[parity, :int(self.counts[parity])]
            in_offsets = graph.in_edges().offsets
            self.recorded = self.counts.copy()
            self.recorded[self.sums] = int((graph.offsets[ids + 1] - graph.offsets[ids]).sum())
            self.recorded[self.sums + 1] = int((in_offsets[ids + 1] - in_offsets[ids]).sum())
            if publish:
                for front in self.front_table[parity]:
                    front[ids] = True
            return
        import cupy

        runtime, counts = cupy.cuda.runtime, self.counts.data.ptr
        runtime.memsetAsync(counts + 8 * self.sums, 0, 16, self.stream.ptr)
        self._launch("tally", parity, self.parts if publish else 0)
        runtime.memcpyAsync(self.host[parity].ctypes.data, counts, self.counts.nbytes,
                            runtime.memcpyDeviceToHost, self.stream.ptr)
        self.events[1][parity].record(self.stream)

    def tallied(self, k: int):
        """The event that ends level ``k``'s :meth:`tally` (``None`` on the CPU)."""
        return self.events[1][k % 2] if self.gpu else None

    def read_tally(self, k: int) -> tuple[int, int, int, int]:
        """Level ``k``'s frontier here (size, out-edges, in-edges) and the
        bytes offered by the level before."""
        parity = k % 2
        words = self._copied(parity)
        # the outboxes of level k - 1 (empty before level 0)
        return (int(words[parity]), int(words[self.sums]), int(words[self.sums + 1]),
                self._offered(words, 1 - parity))

    def pull(self, k: int, label: int) -> None:
        """Level ``k`` as a pull: this part's owned unlabelled vertices
        claimed from a parent in the bitmap of parity ``k % 2``, appended
        to the next queue."""
        parity = k % 2
        if not self.gpu:
            claim = _Claim(self.labels, label, self.predecessor)
            n, device = self.graph.num_vertices, self.graph.device
            found = claim_pull(self.graph, Frontier(n, device, mask=self.fronts[parity]), claim,
                               Frontier(n, device, mask=self.is_owned))
            self._append(1 - parity, found.ids)
            return
        self._launch("pull", parity, label)

    def _types(self) -> tuple:
        """The kernels' vertex and predecessor types for the bound run."""
        return self.vertex, self.vertex if self.predecessor is None else self.predecessor.dtype

    def queue(self, k: int, size: int):
        """A copy of the ``size`` vertices of queue ``k % 2``."""
        return self.queues[k % 2, :size].copy()

    # the same on the CPU ------------------------------------------------------------

    def _host_claim(self, parity: int, label: int) -> None:
        counts, n = self.counts, self.graph.num_vertices
        ids = self.queues[parity, :int(counts[parity])]
        claim = _Claim(self.labels, label, self.predecessor)
        dst = claim_push(self.graph, Frontier(n, self.graph.device, ids=ids), claim).ids
        origin = None
        if self.predecessor is not None:  # written as slots: as caller ids
            origin = self.predecessor[dst]
            if self.slot_ids is not None:
                origin = self.predecessor[dst] = self.slot_ids[origin]
        owners = self.owner[dst]
        self._append(1 - parity, dst[owners == self.rank])
        for peer in self.peers:
            mine = owners == peer
            slots = dst[mine] if self.on_owner is None else self.on_owner[dst[mine]]
            at = int(self.starts[peer]) + int(counts[3 + parity * self.parts + peer])
            self.outbox[parity, at:at + len(slots)] = slots
            if origin is not None:
                self.outbox_preds[parity, at:at + len(slots)] = origin[mine]
            counts[3 + parity * self.parts + peer] += len(slots)

    def _host_merge(self, parity: int, label: int) -> None:
        counts = self.counts
        counts[parity] = counts[2] = 0
        counts[3 + (1 - parity) * self.parts:3 + (2 - parity) * self.parts] = 0
        for there, _ in self.inboxes[parity]:
            start = int(there.starts[self.rank])
            end = start + int(there.counts[3 + parity * self.parts + self.rank])
            offered = there.outbox[parity, start:end]
            won = claim_positions(self.labels, offered)
            slots = offered[won]
            self.labels[slots] = label
            if self.predecessor is not None:
                self.predecessor[slots] = there.outbox_preds[parity, start:end][won]
            self._append(1 - parity, slots)
        self.recorded = counts.copy()

    def _append(self, queue: int, slots) -> None:
        at = int(self.counts[queue])
        self.queues[queue, at:at + len(slots)] = slots
        self.counts[queue] += len(slots)
