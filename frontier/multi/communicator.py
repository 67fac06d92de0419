"""Communicators: the few collective verbs the multi-device enactor speaks.

Modelled on mpi4py's vocabulary (``allreduce``, an ``Alltoallv`` over
arrays, ``barrier``): one rank per device, every rank calls each verb in the
same order. The enactor only ever talks to this interface, so a transport
(threads in one process here, MPI across processes) slots in without
touching it.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod

import numpy as np

from ..device import Device
from ..turns import pause, resume

#: How ``allreduce`` combines the ranks' values, by ``op``.
REDUCERS = {"sum": sum, "min": min, "max": max}

#: GPU ranks of a :class:`LocalGroup` order an all-to-all's copies by CUDA
#: events (a receiver's stream waits for the sender's work, a sender's for
#: its receivers' copies) instead of synchronizing each device from the
#: host twice; no thread then waits for its GPU, nor for the interpreter
#: lock afterwards. False: the host synchronizations.
ORDER_BY_EVENTS = True


class Communicator(ABC):
    """One rank's end of a group of ``size`` ranks, each driving one device."""

    rank: int
    size: int
    device: Device
    #: whether every rank is a thread of this process (so reads one environment)
    one_process: bool = False

    @abstractmethod
    def allreduce(self, value, op: str):
        """``value`` (a Python scalar) combined over all ranks with ``"sum"``,
        ``"min"`` or ``"max"``; every rank gets the same result."""

    @abstractmethod
    def alltoall(self, messages: list) -> list:
        """Personalized all-to-all: ``messages[j]`` is a list of arrays for
        rank ``j`` (``None`` to send nothing). Returns ``incoming[j]``, the
        list rank ``j`` sent here, with its arrays on this rank's device
        (``None`` where nothing came)."""

    @abstractmethod
    def barrier(self) -> None:
        """Wait until every rank has arrived."""

    def alltoall_and_sum(self, messages: list, value) -> tuple:
        """``(alltoall(messages), allreduce(value, "sum"))``, in one
        collective where the transport can post both at once."""
        return self.alltoall(messages), self.allreduce(value, "sum")

    def allreduce_each(self, values: list, ops: list) -> list:
        """``allreduce(value, op)`` of each pair of ``values`` and ``ops``,
        in one collective where the transport can post them together."""
        return [self.allreduce(value, op) for value, op in zip(values, ops)]

    def agreed(self, flag: bool) -> bool:
        """``flag``, the same on every rank: as read where the ranks are
        threads of one process, else true if it is on any rank (one
        allreduce). For a setting read from the environment, which worker
        processes may have read at another time."""
        return flag if self.one_process else bool(self.allreduce(int(flag), "max"))

    def vote(self, stop: bool, disagreement) -> bool:
        """``stop``, this rank's decision to end the run, checked to be every
        rank's: if only ``k`` of the ranks would stop, every rank raises
        ``disagreement(k)`` (an exception), here by one allreduce now.
        A transport may check at its next collective instead, as long as no
        rank can wait for ever on one that went another way."""
        votes = self.allreduce(int(stop), "sum")
        if 0 < votes < self.size:
            raise disagreement(votes)
        return votes == self.size


class HostSwap(Communicator):
    """A transport whose all-to-all crosses the host in one swap of picklable
    items, one per rank (the messages themselves, or their tables of
    contents beside arrays that travel another way), so that
    :meth:`alltoall_and_sum` posts its value with those items and costs no
    meeting of its own. A subclass gives :meth:`swap` and :meth:`_alltoall`,
    its own way of moving the arrays."""

    @abstractmethod
    def swap(self, items: list) -> list:
        """Send ``items[peer]`` to each peer; what each sent here, by sender."""

    @abstractmethod
    def _alltoall(self, messages: list, swap) -> list:
        """:meth:`alltoall`, its host items crossing by ``swap`` (:meth:`swap`,
        or one that carries more with the items)."""

    def alltoall(self, messages: list) -> list:
        return self._alltoall(messages, self.swap)

    def alltoall_and_sum(self, messages: list, value) -> tuple:
        sums: list = []

        def swap_summing(items: list) -> list:
            received = self.swap([(item, value) for item in items])
            sums.append(sum(count for _, count in received))
            return [item for item, _ in received]

        return self._alltoall(messages, swap_summing), sums[0]


def receive(array, device: Device):
    """``array`` as a copy on ``device``, queued on its current stream
    (device to device, over NVLink where the GPUs can reach each other's
    memory). The caller synchronizes before the source may change.

    A GPU array is copied even when it is on ``device`` already: it then
    comes from another part sharing the GPU, allocated on that part's
    stream, and the sender's memory pool may hand the memory out again
    while this stream still reads it. (Host arrays of virtual devices are
    passed as they are.)"""
    if not device.is_gpu:
        return array
    import cupy

    if isinstance(array, np.ndarray):
        with cupy.cuda.Device(device.index):
            return cupy.asarray(array)
    source = array.device.id
    if source != device.index:
        _enable_peer_access(device.index, source)
    with cupy.cuda.Device(device.index):
        copy = cupy.empty(array.shape, dtype=array.dtype)
        if array.nbytes:
            copy.data.copy_from_device_async(array.data, array.nbytes)
    return copy


def check_votes(votes: list, disagreement) -> None:
    """Raise ``disagreement(k)`` if the ranks' posted votes (1: stop, 0: go
    on, None: no stop check since the last collective) differ, ``k`` ranks
    voting to stop. For transports that post a rank's vote with its next
    collective (:meth:`Communicator.vote`)."""
    if len(set(votes)) > 1:
        stopping = sum(vote for vote in votes if vote is not None)
        if disagreement is None:  # this rank made no stop check: out of step
            raise RuntimeError(f"the devices' stop checks are out of step ({stopping} of "
                               f"{len(votes)} ranks would stop)")
        raise disagreement(stopping)


class PostedVotes:
    """For a transport that posts a rank's stop vote with its next collective
    (every rank has one after its stop check: the gather at the end, or the
    next step's), so that checking costs no meeting of its own; ranks that
    decided differently all raise ``disagreement(k)`` there."""

    _vote = None  # 0 or 1, to post with the next collective
    _disagreement = None

    def vote(self, stop: bool, disagreement) -> bool:
        """``stop``; the votes are compared at the next collective."""
        self._vote, self._disagreement = int(stop), disagreement
        return stop

    def _take_vote(self):
        """The pending vote to post (``None``: no stop check since the last
        collective), now posted."""
        vote, self._vote = self._vote, None
        return vote

    def _check_votes(self, votes: list) -> None:
        """:func:`check_votes` of every rank's posted vote. The vote's
        ``disagreement`` (a boundary's bound method) is let go: kept, it
        would tie the run's arrays to the communicator in a reference cycle,
        held until the garbage collector's next pass."""
        disagreement, self._disagreement = self._disagreement, None
        check_votes(votes, disagreement)


def reduce_each(posted: list, ops: list) -> list:
    """Each position of the ranks' ``posted`` tuples combined by its op."""
    return [REDUCERS[op](column) for op, column in zip(ops, zip(*posted))]


def _event(stream):
    """A CUDA event recorded on ``stream`` now."""
    import cupy

    event = cupy.cuda.Event(block=False, disable_timing=True)
    event.record(stream)
    return event


_peers_enabled: set = set()


def _enable_peer_access(device: int, peer: int) -> None:
    """Let ``device`` read ``peer``'s memory directly, once per pair (copies
    without it are staged through the host)."""
    if (device, peer) in _peers_enabled:
        return
    import cupy

    runtime = cupy.cuda.runtime
    if runtime.deviceCanAccessPeer(device, peer):
        with cupy.cuda.Device(device):
            try:
                runtime.deviceEnablePeerAccess(peer)
            except runtime.CUDARuntimeError as error:  # enabled already (e.g. by CuPy)
                if "PeerAccessAlreadyEnabled" not in str(error):
                    raise
    _peers_enabled.add((device, peer))


class Gates:
    """A reusable barrier for ranks ``0..size-1`` of one process.

    The last rank to arrive opens one gate (a lock held shut) per waiting
    rank; a waiting rank blocks on its own gate. Per wait that is one short
    lock for the count and one blocking acquire, where
    :class:`threading.Barrier` takes a condition and allocates a lock per
    waiter: on a 2-core CPU a collective of two threads took 100 us with it.
    :meth:`abort` opens every gate; any wait then raises
    :class:`threading.BrokenBarrierError`.
    """

    def __init__(self, size: int):
        self.size = size
        self.broken = False
        self._count = 0
        self._lock = threading.Lock()
        self._gates = [threading.Lock() for _ in range(size)]
        for gate in self._gates:
            gate.acquire()

    def wait(self, rank: int) -> None:
        """Block rank ``rank`` until every rank has called ``wait`` (giving
        up the rank's :class:`~frontier.turns.Turn` meanwhile, if it holds one)."""
        if self.broken:
            raise threading.BrokenBarrierError
        with self._lock:
            self._count += 1
            last = self._count == self.size
            if last:
                self._count = 0
        if last:
            for other, gate in enumerate(self._gates):
                if other != rank:
                    self._open(gate)
        else:
            turn = pause()
            try:
                self._gates[rank].acquire()
            finally:
                resume(turn)
        if self.broken:
            raise threading.BrokenBarrierError

    def abort(self) -> None:
        """Release every waiting rank with :class:`threading.BrokenBarrierError`."""
        self.broken = True
        for gate in self._gates:
            self._open(gate)

    def _open(self, gate) -> None:
        try:
            gate.release()
        except RuntimeError:  # opened already: only by abort()
            if not self.broken:
                raise


class LocalGroup:
    """The ranks of one process: one thread per device, meeting at a barrier.

    Virtual CPU devices and the GPUs of one host both use it; what crosses
    between ranks are references, copied to the receiver's device on arrival.
    :meth:`abort` releases every waiting rank with
    :class:`threading.BrokenBarrierError` (a rank failed).

    A collective posts each rank's item in one of two boards, alternating,
    and meets once: a rank writes a board again two collectives later, after
    every rank has passed the meeting in between, so after it had read.
    """

    def __init__(self, devices: list[Device]):
        self.devices = list(devices)
        self.size = len(self.devices)
        self._barrier = Gates(self.size)
        self._boards: tuple = ([None] * self.size, [None] * self.size)

    def endpoint(self, rank: int) -> LocalCommunicator:
        return LocalCommunicator(self, rank)

    def abort(self) -> None:
        self._barrier.abort()


class LocalCommunicator(PostedVotes, Communicator):
    """A rank of a :class:`LocalGroup`."""

    one_process = True

    def __init__(self, group: LocalGroup, rank: int):
        self.group = group
        self.rank = rank
        self.size = group.size
        self.device = group.devices[rank]
        self._board = 0  # the board of this rank's next collective

    def _exchange(self, item, take=list, settle: bool = False):
        """Post ``item``, apply ``take`` to every rank's posted item, and
        return its result. ``settle``: meet once more after taking (the
        senders wait until every receiver's copies are done). A pending
        :meth:`vote` goes with the item and is checked first."""
        group = self.group
        board = group._boards[self._board]
        self._board ^= 1
        board[self.rank] = (self._take_vote(), item)
        group._barrier.wait(self.rank)
        self._check_votes([posted for posted, _ in board])
        taken = take([posted for _, posted in board])
        if settle:
            group._barrier.wait(self.rank)
        return taken

    def allreduce(self, value, op: str):
        return REDUCERS[op](self._exchange(value))

    def alltoall(self, messages: list) -> list:
        return self._alltoall(messages, 0)[0]

    def allreduce_each(self, values: list, ops: list) -> list:
        return reduce_each(self._exchange(tuple(values)), ops)

    def allgather(self, item) -> list:
        """Every rank's ``item``, by rank (references: the ranks share a
        process)."""
        return self._exchange(item)

    def alltoall_and_sum(self, messages: list, value) -> tuple:
        return self._alltoall(messages, value)

    def _alltoall(self, messages: list, value) -> tuple:
        """The messages sent here, and ``value`` summed over the ranks,
        posted together."""
        device = self.device
        if not device.is_gpu:  # virtual CPU devices pass references: nothing to wait for
            return self._exchange((messages, value), lambda posted: (
                [None if sent is None else sent[self.rank] for sent, _ in posted],
                sum(count for _, count in posted)))
        if not ORDER_BY_EVENTS:
            return self._alltoall_synchronized(messages, value)
        import cupy

        # The messages are complete where this stream's work so far is done.
        stream = cupy.cuda.get_current_stream()
        ready = _event(stream)

        def take(posted):
            incoming = []
            for sent, made, _ in posted:
                if sent is None or sent[self.rank] is None:
                    incoming.append(None)
                    continue
                if made is not ready:
                    stream.wait_event(made)  # the sender's work, not the host, is waited for
                incoming.append([receive(array, device) for array in sent[self.rank]])
            return incoming, sum(count for _, _, count in posted)

        taken = self._exchange((messages, ready, value), take)
        # A sender's stream goes on once its receivers' copies are done, so
        # that it neither writes nor reuses what they still read.
        copied = _event(stream)
        for peer, event in enumerate(self._exchange(copied)):
            if peer != self.rank and messages[peer] is not None:
                stream.wait_event(event)
        return taken

    def _alltoall_synchronized(self, messages: list, value) -> tuple:
        """:meth:`_alltoall` on GPUs with host synchronizations: the device
        before posting, the copies before the senders go on."""
        device = self.device
        device.synchronize()

        def take(posted):
            incoming = [None if sent is None or sent[self.rank] is None
                        else [receive(array, device) for array in sent[self.rank]]
                        for sent, _ in posted]
            device.synchronize()
            return incoming, sum(count for _, count in posted)

        return self._exchange((messages, value), take, settle=True)

    def barrier(self) -> None:
        self.group._barrier.wait(self.rank)
