"""Rank threads that run their host code one at a time, trading places
whenever the one running waits.

The ranks of a multi-device run in one process are threads sharing the
interpreter lock, and each CuPy call releases and retakes that lock: two
rank threads issuing calls at once hand it back and forth at every call
(a small CuPy operation cost about 30 us of host time alone and about 95 us
with two threads issuing them, ``benchmarks/op_cost.py``). A :class:`Turn`
is a lock the rank threads hold while they run host code. A rank gives it
up only where it waits -- for its device (a read of counts,
:func:`pause` around the stream's synchronization) or for the other ranks
(a collective's barrier) -- so another rank runs its host code then, and
no two issue calls at once. Every wait for another rank must give the turn
up (else that rank could never take it and arrive): the barrier of
:class:`~frontier.multi.communicator.Gates` does. The enactor's threads
take turns where their devices are GPUs (``frontier.multi.enactor.TURNS``).
"""

from __future__ import annotations

import contextlib
import threading

_local = threading.local()


class Turn:
    """The right to run host code, passed among the rank threads of one run."""

    def __init__(self):
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def held(self):
        """Hold the turn for the calling thread's whole block (a rank's
        run), giving it up at each :func:`pause`."""
        self._lock.acquire()
        _local.turn = self
        try:
            yield
        finally:
            _local.turn = None
            self._lock.release()


def pause() -> Turn | None:
    """Give up the calling thread's turn, if it holds one, before a wait;
    returns it for :func:`resume`."""
    turn = getattr(_local, "turn", None)
    if turn is not None:
        turn._lock.release()
    return turn


def resume(turn: Turn | None) -> None:
    """Take back the turn :func:`pause` gave up, after the wait."""
    if turn is not None:
        turn._lock.acquire()
