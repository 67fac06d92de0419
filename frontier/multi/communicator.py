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

#: How ``allreduce`` combines the ranks' values, by ``op``.
REDUCERS = {"sum": sum, "min": min, "max": max}


class Communicator(ABC):
    """One rank's end of a group of ``size`` ranks, each driving one device."""

    rank: int
    size: int
    device: Device

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


class LocalGroup:
    """The ranks of one process: one thread per device, meeting at a barrier.

    Virtual CPU devices and the GPUs of one host both use it; what crosses
    between ranks are references, copied to the receiver's device on arrival.
    :meth:`abort` releases every waiting rank with
    :class:`threading.BrokenBarrierError` (a rank failed).
    """

    def __init__(self, devices: list[Device]):
        self.devices = list(devices)
        self.size = len(self.devices)
        self._barrier = threading.Barrier(self.size)
        self._posted: list = [None] * self.size

    def endpoint(self, rank: int) -> LocalCommunicator:
        return LocalCommunicator(self, rank)

    def abort(self) -> None:
        self._barrier.abort()


class LocalCommunicator(Communicator):
    """A rank of a :class:`LocalGroup`."""

    def __init__(self, group: LocalGroup, rank: int):
        self.group = group
        self.rank = rank
        self.size = group.size
        self.device = group.devices[rank]

    def _exchange(self, item, take=list):
        """Post ``item``, apply ``take`` to every rank's posted item, and
        return its result; nobody posts again (or reuses what it posted)
        before all have taken theirs."""
        group = self.group
        group._posted[self.rank] = item
        group._barrier.wait()
        taken = take(group._posted)
        group._barrier.wait()
        return taken

    def allreduce(self, value, op: str):
        return REDUCERS[op](self._exchange(value))

    def alltoall(self, messages: list) -> list:
        # Work queued on this device must be done before another reads it.
        self.device.synchronize()

        def take(posted):
            incoming = [None if sent is None or sent[self.rank] is None
                        else [receive(array, self.device) for array in sent[self.rank]]
                        for sent in posted]
            self.device.synchronize()  # copies done before the senders go on
            return incoming

        return self._exchange(messages, take)

    def barrier(self) -> None:
        self.group._barrier.wait()
