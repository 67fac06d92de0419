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

_REDUCE = {"sum": sum, "min": min, "max": max}


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
    """``array`` on ``device``: the same array if it is there already, else
    a device-to-device (peer) copy."""
    if not device.is_gpu:
        return array
    import cupy

    if isinstance(array, np.ndarray):
        with cupy.cuda.Device(device.index):
            return cupy.asarray(array)
    source = array.device.id
    if source == device.index:
        return array
    with cupy.cuda.Device(device.index):
        copy = cupy.empty(array.shape, dtype=array.dtype)
    if array.nbytes:
        cupy.cuda.runtime.memcpyPeer(copy.data.ptr, device.index, array.data.ptr, source,
                                     array.nbytes)
    return copy


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

    def _exchange(self, item) -> list:
        """Post ``item`` and return every rank's posted item."""
        group = self.group
        group._posted[self.rank] = item
        group._barrier.wait()
        items = list(group._posted)
        group._barrier.wait()  # nobody posts again before all have read
        return items

    def allreduce(self, value, op: str):
        return _REDUCE[op](self._exchange(value))

    def alltoall(self, messages: list) -> list:
        # Work queued on this device must be done before another reads it.
        self.device.synchronize()
        posted = self._exchange(messages)
        return [None if sent is None or sent[self.rank] is None
                else [receive(array, self.device) for array in sent[self.rank]]
                for sent in posted]

    def barrier(self) -> None:
        self.group._barrier.wait()
