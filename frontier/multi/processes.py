"""One process per device behind ``devices=K``: ``workers="processes"``.

The in-process enactor runs its ranks as threads of the caller's process,
whose host work (CuPy calls, the exchange's bookkeeping) then takes turns on
one interpreter lock. With ``workers="processes"`` rank 0 runs in the
caller's process on the first device and ranks 1..K-1 in worker processes,
one per device, started once (``spawn``) and kept for later runs on the same
devices. Each runs the same :func:`~frontier.multi.enactor.run_rank` as a
thread or an MPI rank does, through a :class:`PipeCommunicator`:

- Host collectives (reductions, the stop decision, tables of contents) go
  over a pipe between every pair of ranks, in rounds that pair the ranks up
  (``rank ^ round``), the lower rank of a pair sending first, so that large
  messages cannot deadlock.
- Arrays go GPU to GPU by NCCL (:mod:`frontier.multi.nccl`); between ranks
  that share a GPU (NCCL needs one GPU per rank) through the host; between
  virtual CPU devices, inside the pickled messages.
- Parts: the caller's process partitions the graph and builds the parts on
  the host, keeps part 0 and sends each worker its part once; the workers
  keep their placed parts until the graph's parts are released
  (``Graph.release_parts``) or the graph is freed.
- The primitive class and its parameters are pickled to the workers: the
  class must be importable by name (defined at a module's top level; a
  script that defines one needs the ``if __name__ == "__main__":`` guard).
- Failure: a rank that raises sends its error to every other rank, and a
  worker then exits; the caller gets the first failing rank's exception
  (a worker's carries its traceback as a note), and the workers are stopped
  (the next run starts new ones).
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import multiprocessing
import pickle
import sys
import time
import traceback
import warnings
import weakref
from dataclasses import dataclass

from ..device import Device, shares_a_device, to_numpy
from ..graph import Graph
from ..memory import DeviceMemoryError, release_frames
from ..result import Result
from . import nccl
from .communicator import REDUCERS, HostSwap, PostedVotes, reduce_each
from .enactor import _release_workspaces, place_checked, run_rank

#: Seconds a new worker may take to start (import NumPy, CuPy and Frontier).
START_TIMEOUT_S = 300.0
#: Seconds stopping workers waits for each to exit before killing it.
STOP_TIMEOUT_S = 10.0
#: Said once per pool whose processes share a GPU (measured on one H200,
#: 2026-11-27, docs/multi-device.md#threads-or-processes).
SHARED_GPU_WARNING = (
    "workers='processes' with several parts on one GPU: each process has its own CUDA "
    "context, which the GPU runs in turns, and arrays between them go through the host "
    "(BFS at Kronecker 24 on 2 parts was 30x slower than with workers='threads'); "
    "use workers='threads' for parts sharing a GPU")


class WorkerError(RuntimeError):
    """A worker process failed in a way the caller cannot be handed as the
    worker's own exception: it died, or its error could not be pickled."""


@dataclass
class _Abort:
    """What a failing rank sends to every other rank."""

    rank: int
    error: BaseException | None


class _PeerAborted(Exception):
    """Another rank failed and said so."""

    def __init__(self, abort: _Abort):
        super().__init__(f"rank {abort.rank} failed")
        self.abort = abort


class _PeerGone(Exception):
    """The pipe to a rank closed without a word: its process ended."""

    def __init__(self, rank: int):
        super().__init__(f"rank {rank} ended")
        self.rank = rank


def _partners(rank: int, size: int):
    """This rank's partner in each round of a pairwise exchange: ``rank ^
    round``, skipping partners past the last rank, so every round pairs each
    rank with at most one other and each pair meets once."""
    rounds = 1 << max(size - 1, 0).bit_length()
    for step in range(1, rounds):
        partner = rank ^ step
        if partner < size:
            yield partner


class PipeCommunicator(PostedVotes, HostSwap):
    """A rank of a :class:`WorkerPool`: ``connections[peer]`` is the pipe to
    each other rank (``None`` at this rank), ``nccl_communicator`` this
    rank's NCCL communicator on a GPU."""

    def __init__(self, rank: int, device: Device, connections: list, nccl_communicator=None):
        self.rank = rank
        self.size = len(connections)
        self.device = device
        self.connections = connections
        self.nccl = nccl_communicator

    def swap(self, items: list) -> list:
        """Send ``items[peer]`` to each peer; what each sent here, by sender
        (``items[rank]`` at this rank). A pending :meth:`vote` goes with the
        items and is checked once every pair has met."""
        vote = self._take_vote()
        received = self._swap([(vote, item) for item in items])
        self._check_votes([posted for posted, _ in received])
        return [item for _, item in received]

    def _swap(self, items: list) -> list:
        received = [None] * self.size
        received[self.rank] = items[self.rank]
        for peer in _partners(self.rank, self.size):
            connection = self.connections[peer]
            if self.rank < peer:
                _send(connection, items[peer], peer)
                received[peer] = _receive(connection, peer)
            else:
                received[peer] = _receive(connection, peer)
                _send(connection, items[peer], peer)
        return received

    def allreduce(self, value, op: str):
        return REDUCERS[op](self.swap([value] * self.size))

    def allreduce_each(self, values: list, ops: list) -> list:
        return reduce_each(self.swap([tuple(values)] * self.size), ops)

    def barrier(self) -> None:
        self.swap([None] * self.size)

    def _alltoall(self, messages: list, swap) -> list:
        """:meth:`alltoall`, its host items crossing by ``swap``."""
        if not self.device.is_gpu:
            return swap(messages)  # NumPy arrays travel inside the pickles
        if self.nccl is not None:
            return nccl.alltoall(messages, self.rank, self.device, self.nccl, swap)
        # Ranks sharing a GPU (NCCL needs one GPU per rank): staged through the host.
        staged = swap([None if message is None else [to_numpy(array) for array in message]
                       for message in messages])
        return [None if message is None else [self.device.asarray(array) for array in message]
                for message in staged]


def _send(connection, item, peer: int) -> None:
    try:
        connection.send(item)
    except OSError:  # the peer's end closed: it failed (and may have said why)
        if connection.poll():
            _receive(connection, peer)
        raise _PeerGone(peer) from None


def _receive(connection, peer: int):
    try:
        item = connection.recv()
    except (EOFError, OSError):
        raise _PeerGone(peer) from None
    if isinstance(item, _Abort):
        raise _PeerAborted(item)
    return item


def _portable(error: BaseException, rank: int, device: Device) -> BaseException:
    """``error`` as it can travel to the caller's process: itself if it
    pickles, else a :class:`WorkerError` with its text; either way with the
    worker's traceback as a note (Python 3.11+)."""
    try:
        portable = pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 - any pickling failure: send the text
        portable = WorkerError(f"{type(error).__name__}: {error}")
    if hasattr(portable, "add_note"):
        text = "".join(traceback.format_exception(error)).rstrip()
        portable.add_note(f"raised in worker process rank {rank} ({device.name}):\n{text}")
    return portable


def _nccl_communicator(device: Device, size: int, unique_id, rank: int):
    """This rank's NCCL communicator (collective: every rank makes its own)."""
    if unique_id is None:
        return None
    import cupy
    from cupy.cuda import nccl as cupy_nccl

    with cupy.cuda.Device(device.index):
        return cupy_nccl.NcclCommunicator(size, unique_id, rank)


def _worker_main(rank: int, devices: tuple, connections: list, unique_id) -> None:
    """A worker process: take the caller's commands until told to stop."""
    device = devices[rank]
    caller = connections[0]
    try:
        if device.is_gpu:
            import cupy

            cupy.cuda.Device(device.index).use()
        caller.send(("ready",))
        communicator = PipeCommunicator(
            rank, device, connections, _nccl_communicator(device, len(devices), unique_id, rank))
        parts: dict = {}
        while True:
            command, *arguments = _receive(caller, 0)
            if command == "stop":
                return
            if command == "forget":
                for token in arguments[0]:
                    parts.pop(token, None)
            elif command == "place":
                token, part, memory_limit = arguments
                parts[token] = place_checked(part, device, memory_limit)
                caller.send(("placed",))
            elif command == "run":
                token, call = arguments
                run_rank(part=parts[token], communicator=communicator, **call)
                _release_workspaces([device])
                caller.send(("done",))
    except (_PeerAborted, _PeerGone):
        return  # the failing rank told the caller
    except BaseException as error:  # noqa: BLE001 - handed to every other rank
        abort = _Abort(rank, _portable(error, rank, device))
        for connection in connections:
            if connection is not None:
                try:
                    connection.send(abort)
                except OSError:
                    pass


def _unique_id(devices: tuple):
    """A new NCCL id for a pool of GPUs, else ``None`` (also where two ranks
    share a GPU, which NCCL does not allow: their arrays go through the host)."""
    if not devices[0].is_gpu or shares_a_device(list(devices)):
        return None
    from cupy.cuda import nccl as cupy_nccl

    if not cupy_nccl.available:
        raise RuntimeError("workers='processes' on GPUs moves arrays with NCCL, which this "
                           "CuPy lacks; use workers='threads'")
    return cupy_nccl.get_unique_id()


class WorkerPool:
    """Worker processes for ``devices[1:]`` (rank 0 is the caller's
    process), connected pairwise by pipes."""

    def __init__(self, devices: tuple):
        self.devices = tuple(devices)
        size = len(self.devices)
        context = multiprocessing.get_context("spawn")
        ends = [[None] * size for _ in range(size)]
        for low, high in itertools.combinations(range(size), 2):
            ends[low][high], ends[high][low] = context.Pipe(duplex=True)
        unique_id = _unique_id(self.devices)
        self.processes = [
            context.Process(target=_worker_main, args=(rank, self.devices, ends[rank], unique_id),
                            name=f"frontier-worker-{self.devices[rank].name}", daemon=True)
            for rank in range(1, size)]
        for process in self.processes:
            process.start()
        for rank in range(1, size):  # the workers' ends belong to them now
            for end in ends[rank]:
                if end is not None:
                    end.close()
        self.connections = ends[0]
        self._tokens = itertools.count()
        self._forgotten: list = []
        self.closed = False
        try:
            with self._failing_together():
                for rank in range(1, size):
                    self._expect(rank, "ready", START_TIMEOUT_S)
                self.nccl = _nccl_communicator(self.devices[0], size, unique_id, 0)
        except WorkerError as error:
            raise WorkerError(
                f"{error}; it could not start. A worker imports the main script again: a "
                "script that runs with workers='processes' needs its work under "
                "`if __name__ == \"__main__\":`") from None

    def _expect(self, rank: int, word: str, timeout: float | None = None) -> None:
        connection = self.connections[rank]
        if timeout is not None and not connection.poll(timeout):
            raise WorkerError(f"the worker process for {self.devices[rank].name} did not "
                              f"start within {timeout:g} s")
        reply = _receive(connection, rank)
        if reply != (word,):
            raise WorkerError(f"the worker process for {self.devices[rank].name} answered "
                              f"{reply!r}, expected {word!r}")

    def _send_forgotten(self) -> None:
        """Tell the workers which parts to drop (:meth:`forget`)."""
        if self._forgotten:
            forget = ("forget", self._forgotten)
            self._forgotten = []
            for connection in self.connections[1:]:
                connection.send(forget)

    def forget(self, token: int) -> None:
        """Have the workers drop the parts kept under ``token`` (at the next
        command: this may be called from a finalizer)."""
        self._forgotten.append(token)

    def place(self, parts: list, memory_limit: int | None) -> RemoteParts:
        """Send ``parts[i]`` (host parts) to worker ``i + 1`` to place on its
        device; the handle that keeps them there."""
        token = next(self._tokens)
        with self._failing_together():
            self._send_forgotten()
            for rank, part in enumerate(parts, start=1):
                self.connections[rank].send(("place", token, part, memory_limit))
            for rank in range(1, len(self.devices)):
                self._expect(rank, "placed")
        return RemoteParts(self, token)

    def run(self, remote: RemoteParts, placed, call: dict) -> Result:
        """Run :func:`run_rank` with the keyword arguments ``call`` on every
        rank: rank 0 here on ``placed``, the workers on the parts of ``remote``."""
        try:
            payload = pickle.dumps(("run", remote.token, call))
        except Exception as error:  # noqa: BLE001 - a local class, a lambda, an open file...
            raise TypeError(
                f"workers='processes' sends {call['primitive'].__name__} and its parameters to "
                f"the worker processes, which needs them picklable (a class defined at a "
                f"module's top level): {type(error).__name__}: {error}; or use "
                "workers='threads'") from error
        with self._failing_together():
            self._send_forgotten()
            for connection in self.connections[1:]:
                connection.send_bytes(payload)
            communicator = PipeCommunicator(0, self.devices[0], self.connections, self.nccl)
            result = run_rank(part=placed, communicator=communicator, **call)
            for rank in range(1, len(self.devices)):
                self._expect(rank, "done")
        return result

    @contextlib.contextmanager
    def _failing_together(self):
        """Around collective work: if any rank fails, tell the others, stop
        the pool and raise the first failure (a worker's own exception)."""
        try:
            yield
        except (_PeerAborted, _PeerGone) as error:
            failure = _failure(self, error)
            self.close()
            if isinstance(failure, DeviceMemoryError):
                release_frames(failure)
            raise failure from None
        except BaseException:  # this process failed: the workers must not wait for it
            for connection in self.connections[1:]:
                try:
                    connection.send(_Abort(0, None))
                except OSError:
                    pass
            self.close()
            error = sys.exc_info()[1]
            if isinstance(error, DeviceMemoryError):
                release_frames(error)
            raise

    def close(self) -> None:
        """Stop the workers (those that do not exit in time are killed)."""
        if self.closed:
            return
        self.closed = True
        _POOLS.pop(self.devices, None)
        for connection in self.connections[1:]:
            try:
                connection.send(("stop",))
            except OSError:
                pass
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
        for connection in self.connections[1:]:
            connection.close()


def _failure(pool: WorkerPool, error: Exception) -> BaseException:
    """The exception to give the caller for another rank's failure."""
    if isinstance(error, _PeerAborted) and error.abort.error is not None:
        return error.abort.error
    rank = error.rank if isinstance(error, _PeerGone) else error.abort.rank
    process = pool.processes[rank - 1]
    process.join(1.0)
    return WorkerError(f"the worker process for {pool.devices[rank].name} ended "
                       f"(exit code {process.exitcode})")


class RemoteParts:
    """The parts a pool's workers keep for one graph and partition. When
    this handle is freed (``Graph.release_parts``, or the graph itself), the
    workers drop them."""

    def __init__(self, pool: WorkerPool, token: int):
        self.pool = pool
        self.token = token
        weakref.finalize(self, pool.forget, token)


_POOLS: dict = {}


def pool_for(devices: list[Device]) -> WorkerPool:
    """The running pool for ``devices``, started if there is none."""
    key = tuple(devices)
    pool = _POOLS.get(key)
    if pool is None or pool.closed:
        if devices[0].is_gpu and shares_a_device(devices):
            warnings.warn(SHARED_GPU_WARNING, RuntimeWarning, stacklevel=2)
        pool = _POOLS[key] = WorkerPool(key)
    return pool


@atexit.register
def _stop_pools() -> None:
    for pool in list(_POOLS.values()):
        pool.close()


def enact_in_processes(primitive, graph: Graph, devices: list[Device], *, partition,
                       partition_seed: int, duplication: str, communication: str,
                       max_iterations, params: dict,
                       memory_limit: int | None = None) -> Result:
    """Run ``primitive`` on ``graph`` split over ``devices``, rank 0 in this
    process and one worker process per other device (module docstring; see
    :func:`frontier.enact` for the options)."""
    pool = pool_for(devices)
    layout, placed, remote = _placed_parts(graph, pool, partition, partition_seed,
                                           duplication, memory_limit)
    call = {"primitive": primitive, "num_vertices": graph.num_vertices,
            "num_arcs": graph.num_arcs, "communication": communication,
            "max_iterations": max_iterations, "params": params, "memory_limit": memory_limit}
    start = time.perf_counter()
    try:
        result = pool.run(remote, placed, call)
    finally:
        _release_workspaces(devices[:1])
    result.elapsed_s = time.perf_counter() - start
    result.devices = tuple(device.name for device in devices)
    result.partition = dict(layout.to_dict(), duplication=duplication,
                            communication=communication, workers="processes")
    return result


def _placed_parts(graph: Graph, pool: WorkerPool, partition, seed: int, duplication: str,
                  memory_limit):
    """The partition, part 0 placed here and the workers' handle on theirs:
    made once per pool, then kept on the graph."""
    from partition import make_partition
    from partition.subgraph import build_parts

    key = ("processes", tuple(device.name for device in pool.devices), partition, seed,
           duplication)
    entry = graph._parts.get(key)
    if entry is None or entry[2].pool is not pool:  # new, or its pool failed since
        graph._parts.pop(key, None)
        layout = make_partition(graph, len(pool.devices), partition, seed)
        parts = build_parts(graph, layout.owner, len(pool.devices), duplication)
        placed = place_checked(parts[0], pool.devices[0], memory_limit)
        graph._parts[key] = (layout, placed, pool.place(parts[1:], memory_limit))
    return graph._parts[key]
