"""MPI: the multi-device enactor with one process per device, across hosts.

``devices="mpi"`` runs a primitive under ``mpirun -n K`` (or ``srun``): each
of the K processes (ranks) takes one device, builds only its own part of the
graph and runs :func:`~frontier.multi.enactor.run_rank`, the same loop,
exchange and gathering as the in-process enactor, through an
:class:`MpiCommunicator` instead of threads. Rank 0 gets the result; the
others get ``None``.

Transports (:func:`choose_transport`), named in ``Result.partition["transport"]``:

- ``"mpi-nccl"`` (GPU ranks, each on its own GPU, when CuPy has NCCL): a
  pickled ``alltoall`` carries each message's table of contents (dtype and
  shape of every array), then one NCCL group of sends and receives moves the
  arrays GPU to GPU (over NVLink between the GPUs of one host), queued on the
  current stream: no host copy and no host synchronization.
- ``"mpi-host-staging"`` (GPU ranks otherwise, or with
  ``FRONTIER_MPI_TRANSPORT=staging``) and ``"mpi-host"`` (CPU ranks): the
  arrays for each peer are packed into one byte buffer (on a GPU: packed
  there and copied to the host in one piece); the pickled ``alltoall``
  carries the tables and the buffers up to :data:`INLINE_BYTES`, larger
  buffers follow as non-blocking point-to-point messages.

Failure: an exception on any rank prints one rank-tagged line to standard
error and calls ``MPI_Abort``, which ends every rank (the launcher exits
non-zero). ``FRONTIER_MPI_TIMEOUT=SECONDS`` also aborts a rank that waits
longer than that in one collective call, for launchers that do not end the
job when a rank dies. See docs/mpi.md.
"""

from __future__ import annotations

import contextlib
import functools
import os
import socket
import sys
import threading
import time

import numpy as np

from ..device import Device, gpu_count
from ..graph import Graph
from ..result import Result
from .communicator import HostSwap
from .enactor import _release_workspaces, place_checked, run_rank

INSTALL_HINT = "pip install 'frontier-graph[mpi]'"
TIMEOUT_VARIABLE = "FRONTIER_MPI_TIMEOUT"
TRANSPORT_VARIABLE = "FRONTIER_MPI_TRANSPORT"
_ALIGN = 8  # every array of a packed message starts on an 8-byte boundary
#: Messages up to this many bytes travel inside the pickled all-to-all.
INLINE_BYTES = 1 << 16
_PAYLOAD_TAG = 7
_FORWARD_S = 0.5  # time the launcher gets to forward an error line before the abort
#: Environment variables in which launchers (Open MPI, MPICH's Hydra, Slurm's
#: PMI) give the number of processes they started.
_LAUNCHER_SIZE = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE")


def world():
    """``MPI.COMM_WORLD``, importing mpi4py (which initializes MPI).

    Raises
    ------
    ImportError
        Without mpi4py or an MPI library, naming the extra that installs both.
    RuntimeError
        When the launcher started more processes than MPI sees: ``mpirun``
        and mpi4py's library belong to different MPIs, so every process
        would run alone.
    """
    try:
        from mpi4py import MPI
    except ImportError as error:
        raise ImportError(f"devices='mpi' needs mpi4py and an MPI library ({error}); "
                          f"install them with {INSTALL_HINT}") from error
    comm = MPI.COMM_WORLD
    for variable in _LAUNCHER_SIZE:
        launched = os.environ.get(variable, "")
        if launched.isdigit() and int(launched) != comm.Get_size():
            raise RuntimeError(
                f"mpirun started {launched} processes ({variable}) but mpi4py's MPI library "
                f"({MPI.Get_library_version().splitlines()[0].strip()}) sees "
                f"{comm.Get_size()}: the mpirun on PATH belongs to another MPI; use the one "
                "of the MPI that mpi4py loads (docs/mpi.md)")
    return comm


def rank_device(comm) -> Device:
    """This rank's device: GPU ``local rank % GPU count`` when CuPy sees GPUs
    (the local rank counts the ranks on this host), else the CPU; a GPU
    becomes the process's current device. ``FRONTIER_DEVICE=cpu`` keeps
    every rank on the CPU."""
    from mpi4py import MPI

    gpus = gpu_count()
    if gpus == 0 or os.environ.get("FRONTIER_DEVICE", "").startswith("cpu"):
        return Device("cpu", 0)
    host = comm.Split_type(MPI.COMM_TYPE_SHARED, key=comm.Get_rank())
    local_rank = host.Get_rank()
    host.Free()
    device = Device("cuda", local_rank % gpus)
    import cupy

    cupy.cuda.Device(device.index).use()  # checks before the run work on this GPU too
    return device


def _abort(comm, message: str, code: int) -> None:
    """One rank-tagged line on standard error, then ``MPI_Abort`` of the job."""
    message = " ".join(message.split())
    print(f"frontier: MPI rank {comm.Get_rank()} of {comm.Get_size()} on "
          f"{socket.gethostname()}: {message}", file=sys.stderr, flush=True)
    # The launcher forwards the line from a pipe; aborting at once can end it
    # before it has (MPICH's Hydra loses it about one time in ten).
    time.sleep(_FORWARD_S)
    comm.Abort(code)
    os._exit(code)  # MPI_Abort may return before the launcher ends this process


@contextlib.contextmanager
def abort_on_error(comm, input_errors: tuple = ()):
    """Turn an exception on this rank into ``MPI_Abort`` of the whole job,
    after one line naming it. The exit code is 2 for ``input_errors`` and
    for ``SystemExit`` with a message, the code of any other ``SystemExit``,
    else 1.

    The other ranks may be waiting in a collective call for this one, so
    raising here would leave them waiting forever.
    """
    try:
        yield
    except BaseException as error:
        if isinstance(error, SystemExit):
            if not error.code:
                raise
            text, code = str(error.code), error.code if isinstance(error.code, int) else 2
        else:
            text = f"{type(error).__name__}: {error}"
            code = 2 if isinstance(error, input_errors) else 1
        _abort(comm, f"{text} (aborting every rank)", code)


class _Watchdog:
    """Aborts the job when one collective call lasts longer than ``seconds``."""

    def __init__(self, comm, seconds: float):
        self.comm = comm
        self.seconds = seconds
        self.verb: str | None = None
        self.since = 0.0
        threading.Thread(target=self._watch, name="frontier-mpi-watchdog", daemon=True).start()

    @contextlib.contextmanager
    def waiting(self, verb: str):
        self.since, self.verb = time.monotonic(), verb
        try:
            yield
        finally:
            self.verb = None

    def _watch(self) -> None:
        while True:
            time.sleep(min(1.0, self.seconds / 4))
            verb = self.verb
            if verb is not None and time.monotonic() - self.since > self.seconds:
                _abort(self.comm, f"{verb} waited more than {self.seconds:g} s for the other "
                       f"ranks ({TIMEOUT_VARIABLE}); a rank died or hangs: aborting", 1)


@functools.cache
def _watchdog(seconds: float) -> _Watchdog:
    """One watchdog thread per process (and timeout), shared by every run."""
    return _Watchdog(world(), seconds)


def _timeout() -> float | None:
    text = os.environ.get(TIMEOUT_VARIABLE)
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise ValueError(f"{TIMEOUT_VARIABLE}={text!r}: expected a number of seconds > 0")
    return seconds


def choose_transport(comm, device: Device) -> str:
    """How this rank's messages travel (module docstring): ``"mpi-host"`` on
    a CPU; on a GPU ``"mpi-nccl"`` when CuPy has NCCL and no two ranks of a
    host share a GPU, else ``"mpi-host-staging"``.
    ``FRONTIER_MPI_TRANSPORT=nccl`` or ``staging`` insists on one (``nccl``
    fails, saying why, where it cannot work). Collective: every rank calls it.
    """
    wanted = os.environ.get(TRANSPORT_VARIABLE, "").strip().lower()
    if wanted not in ("", "nccl", "staging"):
        raise ValueError(f"{TRANSPORT_VARIABLE}={wanted!r}: expected nccl or staging")
    placement = (socket.gethostname(), device.name) if device.is_gpu else None
    placements = comm.allgather(placement)
    if not device.is_gpu or wanted == "staging":
        return "mpi-host" if not device.is_gpu else "mpi-host-staging"
    from cupy.cuda import nccl

    shared = len(set(placements)) < len(placements)
    if nccl.available and not shared:
        return "mpi-nccl"
    if wanted == "nccl":
        why = ("two ranks share a GPU (NCCL needs one GPU per rank)" if shared else
               "CuPy was built without NCCL")
        raise RuntimeError(f"{TRANSPORT_VARIABLE}=nccl, but {why}")
    return "mpi-host-staging"


#: NCCL communicators by (MPI communicator handle, GPU): made once per process
_NCCL: dict = {}


def _nccl_communicator(comm, device: Device):
    """This rank's NCCL communicator over ``comm``'s ranks (collective the
    first time: rank 0 makes the id, MPI broadcasts it)."""
    key = (comm.py2f(), device.index)
    if key not in _NCCL:
        import cupy
        from cupy.cuda import nccl

        unique_id = comm.bcast(nccl.get_unique_id() if comm.Get_rank() == 0 else None, root=0)
        with cupy.cuda.Device(device.index):
            _NCCL[key] = nccl.NcclCommunicator(comm.Get_size(), unique_id, comm.Get_rank())
    return _NCCL[key]


class MpiCommunicator(HostSwap):
    """This process's rank of ``comm`` (an mpi4py communicator; :func:`enact_mpi`
    uses ``MPI.COMM_WORLD``), driving ``device``. With ``timeout`` seconds, a
    collective call that lasts longer aborts the job. Collective: every rank
    makes its communicator at the same time."""

    def __init__(self, comm, device: Device, timeout: float | None = None):
        self.comm = comm
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()
        self.device = device
        self.transport = choose_transport(comm, device)
        self._watchdog = None if timeout is None else _watchdog(timeout)

    def _waiting(self, verb: str):
        return contextlib.nullcontext() if self._watchdog is None else \
            self._watchdog.waiting(verb)

    def allreduce(self, value, op: str):
        from mpi4py import MPI

        with self._waiting("allreduce"):
            return self.comm.allreduce(value, op={"sum": MPI.SUM, "min": MPI.MIN,
                                                  "max": MPI.MAX}[op])

    def barrier(self) -> None:
        with self._waiting("barrier"):
            self.comm.Barrier()

    def swap(self, items: list) -> list:
        """MPI's pickled all-to-all."""
        return self.comm.alltoall(items)

    def _alltoall(self, messages: list, exchange) -> list:
        """:meth:`alltoall`, its host items crossing by ``exchange`` (MPI's
        pickled all-to-all, :meth:`swap`)."""
        if self.transport == "mpi-nccl":
            return self._alltoall_nccl(messages, exchange)
        return self._alltoall_packed(messages, exchange)

    def _alltoall_nccl(self, messages: list, exchange) -> list:
        """Tables of contents by MPI, then every array by NCCL
        (:func:`frontier.multi.nccl.alltoall`)."""
        from . import nccl

        def exchange_contents(posted: list) -> list:
            with self._waiting("alltoall"):
                return exchange(posted)

        return nccl.alltoall(messages, self.rank, self.device,
                             _nccl_communicator(self.comm, self.device), exchange_contents)

    def _alltoall_packed(self, messages: list, exchange) -> list:
        """Each message travels as one packed host byte buffer: inside the
        pickled all-to-all when it is small, else by a non-blocking send
        after it."""
        from mpi4py import MPI

        packed = [None if message is None else self._pack(message) for message in messages]
        posted = [None if item is None else
                  (item[0], item[1] if len(item[1]) <= INLINE_BYTES else len(item[1]))
                  for item in packed]
        with self._waiting("alltoall"):
            incoming = exchange(posted)
            requests = [self.comm.Isend(item[1], dest=peer, tag=_PAYLOAD_TAG)
                        for peer, item in enumerate(packed)
                        if item is not None and len(item[1]) > INLINE_BYTES]
            buffers = []
            for peer, item in enumerate(incoming):
                buffer = item[1] if item is not None else None
                if isinstance(buffer, int):
                    buffer = np.empty(buffer, dtype=np.uint8)
                    requests.append(self.comm.Irecv(buffer, source=peer, tag=_PAYLOAD_TAG))
                buffers.append(buffer)
            MPI.Request.Waitall(requests)
        return [None if item is None else self._unpack(item[0], buffer)
                for item, buffer in zip(incoming, buffers)]

    def _pack(self, message: list) -> tuple[list, np.ndarray]:
        """A message's table of contents ``(dtype, shape, offset, bytes)`` and
        its arrays packed into one host byte buffer (on a GPU: packed there
        and copied to the host in one piece)."""
        device, xp = self.device, self.device.xp
        arrays = [xp.ascontiguousarray(device.asarray(array)) for array in message]
        contents, position = [], 0
        for array in arrays:
            contents.append((array.dtype.str, array.shape, position, array.nbytes))
            position += -(-array.nbytes // _ALIGN) * _ALIGN
        buffer = xp.empty(position, dtype=np.uint8)
        for array, (_, _, at, size) in zip(arrays, contents):
            buffer[at:at + size] = array.reshape(-1).view(np.uint8)
        return contents, buffer if xp is np else buffer.get()

    def _unpack(self, contents: list, buffer: np.ndarray) -> list:
        """The arrays of a received message: views into its buffer, moved to
        this rank's device in one piece."""
        buffer = self.device.asarray(buffer)
        return [buffer[at:at + size].view(np.dtype(dtype)).reshape(shape)
                for dtype, shape, at, size in contents]


def _check_same_graph(communicator: MpiCommunicator, graph: Graph) -> None:
    """Every rank must have loaded the same graph: compare a fingerprint."""
    columns = graph.columns
    fingerprint = (graph.num_vertices, graph.num_arcs, bool(graph.directed),
                   int(columns.sum(dtype=np.int64)) if len(columns) else 0,
                   graph.weights is not None)
    first = communicator.comm.bcast(fingerprint, root=0)
    differs = communicator.allreduce(int(fingerprint != first), "sum")
    if differs:
        raise ValueError(f"devices='mpi': {differs} rank(s) loaded a different graph than rank "
                         f"0 (vertices, arcs, directed, column sum, weighted = {first}); every "
                         "rank must load or generate the same graph")


def enact_mpi(primitive, graph, *, partition, partition_seed: int, duplication: str,
              communication: str, max_iterations, params: dict,
              memory_limit: int | None = None, placed: tuple | None = None) -> Result | None:
    """Run ``primitive`` with one device per MPI rank (see
    :func:`frontier.enact` for the options): every rank passes the same
    ``graph`` and builds only its own part of it, or, with ``placed``, has
    its part already (a distributed graph's partition and this rank's part).

    Returns the result on rank 0, ``None`` on the other ranks. An exception
    on any rank aborts the whole job (:func:`abort_on_error`).
    """
    comm = world()
    with abort_on_error(comm):
        device = rank_device(comm)
        communicator = MpiCommunicator(comm, device, _timeout())
        layout, placed = placed or _placed_part(graph, communicator, partition,
                                                partition_seed, duplication, memory_limit)
        ranks = comm.gather(f"{socket.gethostname()}: {device.describe()}", root=0)
        names = comm.gather(device.name, root=0)
        communicator.barrier()
        start = time.perf_counter()
        result = run_rank(primitive, graph.num_vertices, graph.num_arcs, placed, communicator,
                          communication, max_iterations, params, memory_limit)
        elapsed = time.perf_counter() - start
        _release_workspaces([device])
    if result is None:
        return None
    result.elapsed_s = elapsed
    result.devices = tuple(names)
    result.partition = dict(layout.to_dict(), duplication=duplication,
                            communication=communication, transport=communicator.transport,
                            ranks=ranks)
    return result


def _placed_part(graph: Graph, communicator: MpiCommunicator, partition, seed: int,
                 duplication: str, memory_limit):
    """The partition (on rank 0; ``None`` elsewhere) and this rank's part,
    placed on its device: made once, then kept on the graph as the in-process
    enactor keeps its parts (``Graph.release_parts`` frees them)."""
    from partition import make_partition
    from partition.subgraph import build_parts

    rank, size, device = communicator.rank, communicator.size, communicator.device
    key = ("mpi", size, rank, device.name, partition, seed, duplication)
    if key not in graph._parts:
        _check_same_graph(communicator, graph)
        layout = make_partition(graph, size, partition, seed) if rank == 0 else None
        owner = layout.owner if rank == 0 else np.empty(graph.num_vertices, dtype=np.int32)
        communicator.comm.Bcast(owner, root=0)  # a partitioner may differ across hosts
        (part,) = build_parts(graph, owner, size, duplication, only=rank)
        graph._parts[key] = (layout, place_checked(part, device, memory_limit))
    return graph._parts[key]
