"""Run a primitive: validate the options, place the graph, loop.

:func:`enact` runs a :class:`~frontier.primitive.Primitive` on one device
itself, and on several through the multi-device enactor
(:mod:`frontier.multi`), which partitions the graph and keeps the devices'
vertex data consistent; the primitive is the same class either way.
"""

from __future__ import annotations

import os
import sys
import threading

from . import replay, split_runs
from .communicate import declarations
from .device import Device, is_mpi, resolve_devices
from .graph import Graph
from .loop import iterate
from .memory import Budget, DeviceMemoryError, check_fits, device_memory_guard, release_frames
from .memory import memory_limit as resolve_memory_limit
from .primitive import Primitive, checking_declarations
from .result import Result

DUPLICATION = ("all", "one_hop")
COMMUNICATION = ("selective", "broadcast")
WORKERS = ("threads", "processes")

# A graph on the host with fewer arcs than this runs on the CPU when the
# caller names no device (no ``devices=``, no FRONTIER_DEVICE), even where
# the default device is a GPU: there a GPU run is mostly launch and copy
# latency, 0.1-0.6 ms per iteration whatever the size. On the H200 at
# Kronecker scale 14 (425,528 arcs) BFS takes 0.87-1.46 ms, CC 1.9-2.0,
# PageRank 3.8-4.1 and SSSP 3.9-4.8 (three runs, docs/benchmarks.md; BFS was
# 2.2 ms when this bound was set, and the GPU was not timed below scale 14
# since). Frontier on the CPU (NumPy on a 2-core
# AMD EPYC, 2026-11-23; medians, ranges over runs), Kronecker scales 10..16:
#   scale (arcs)        10 (21,030)  11 (45,414)  12 (96,360)  13 (203,186)
#   BFS from the hub    0.36-0.45    0.41-0.73    0.70-1.1     1.4-2.1 ms
#   SSSP / CC / PageRank  1.5-1.9 / 1.2-1.3 / 1.7-1.8 at scale 10,
#                         2.5-3.5 / 3.3-4.6 / 5.8-6.1 at scale 11 (ms)
#   BFS at scales 14, 15, 16 (425,528 / 882,510 / 1,818,670 arcs):
#     2.8-4.0, 7.0-8.9, 15-19 ms
# The CPU wins BFS up to about scale 12 but CC and PageRank only at scale
# 10, so the bound sits there, where none should run slower than on a GPU.
SMALL_GRAPH_ARCS = 1 << 15


def check_options(primitive: type[Primitive], partition, duplication, communication,
                  workers: str = "threads") -> None:
    """Validate the multi-device options every primitive accepts."""
    from partition import resolve_partitioner

    resolve_partitioner(partition)
    if duplication not in DUPLICATION:
        raise ValueError(f"duplication={duplication!r}: expected one of {DUPLICATION}")
    if communication not in COMMUNICATION:
        raise ValueError(f"communication={communication!r}: expected one of {COMMUNICATION}")
    if workers not in WORKERS:
        raise ValueError(f"workers={workers!r}: expected one of {WORKERS}")
    declarations(primitive)


def default_duplication(primitive: type[Primitive], graph, workers: str = "threads") -> str:
    """The ``duplication`` a run takes when the caller gives none:
    ``"one_hop"`` for a primitive that declares ``dense_steps``, on a graph
    held by a GPU and driven by threads (each device then receives
    refreshes only for its own vertices' neighbours, not for every vertex:
    PageRank on 2 parts sharing an H200 at Kronecker 26 took 1.21x one
    part's time against 1.28x under ``"all"``), whose parts are built on
    that GPU; else ``"all"``, which every traversal measured ran faster
    with, and whose parts cost a host far less to build (docs/multi-device.md).
    A distributed graph's parts are built with ``"all"``."""
    if primitive.dense_steps and workers == "threads" and not _is_distributed(graph) \
            and graph.device.is_gpu:
        return "one_hop"
    return "all"


ENACTOR_OPTIONS = ("devices", "partition", "partition_seed", "duplication", "communication",
                   "workers", "max_iterations", "memory_limit")


def check_params(primitive: type[Primitive], params: dict) -> None:
    """TypeError for an option the primitive does not take, or a missing one
    (only for primitives that declare ``parameters``)."""
    if primitive.parameters is None:
        return
    unknown = sorted(set(params) - set(primitive.parameters))
    if unknown:
        raise TypeError(f"{primitive.__name__} got unknown option(s) {unknown}; it takes "
                        f"{list(primitive.parameters)} and the enactor options "
                        f"{list(ENACTOR_OPTIONS)}")
    missing = sorted(set(primitive.parameters) - set(params) - set(primitive.defaults))
    if missing:
        raise TypeError(f"{primitive.__name__} needs option(s) {missing}")


def params_by_vertex_id(primitive: type[Primitive], graph, params: dict) -> dict:
    """``params`` with each option the primitive names in
    ``vertex_parameters`` turned from the caller's node into its vertex id,
    on a graph with ``node_labels``; elsewhere nodes are the ids already
    (a :class:`~frontier.multi.distributed.DistributedGraph` has no labels).

    Raises
    ------
    ValueError
        If such an option is not a node of the graph.
    """
    if graph.node_labels is None:
        return params
    return {**params, **{name: graph.vertex_id(params[name], name)
                         for name in primitive.vertex_parameters if name in params}}


def enact(
    primitive: type[Primitive],
    graph: Graph,
    *,
    devices=None,
    partition=None,
    partition_seed: int = 0,
    duplication: str | None = None,
    communication: str = "selective",
    workers: str = "threads",
    max_iterations: int | None = None,
    memory_limit: int | str | None = None,
    **params,
) -> Result | None:
    """Run ``primitive`` on ``graph`` and return its result.

    Parameters
    ----------
    primitive : a :class:`Primitive` subclass
    graph : Graph
    devices : None, int, device name, list of names, or ``"mpi"``
        Where to run (see :func:`frontier.device.resolve_devices`): one
        device, or several for a multi-device run. ``"mpi"``: one device per
        MPI process, under ``mpirun`` or ``srun`` (docs/mpi.md). ``None``
        means the default device, except that a graph on the host with
        fewer than :data:`SMALL_GRAPH_ARCS` arcs stays on the CPU when
        FRONTIER_DEVICE is not set (see :func:`run_devices`); the result's
        ``devices`` says where it ran.
    partition : None, partitioner name or callable ``(graph, num_parts, seed) -> owner``
        How a multi-device run assigns vertices to devices (default ``"random"``).
    partition_seed : int
        Seed handed to the partitioner.
    duplication : ``"all"``, ``"one_hop"`` or None
        Whether each device keeps a slot for every vertex, or only for its
        own vertices and their remote neighbours (docs/multi-device.md).
        None: :func:`default_duplication` (``"one_hop"`` for a primitive
        that declares ``dense_steps`` on a GPU graph with threads, else
        ``"all"``).
    communication : ``"selective"`` or ``"broadcast"``
        Whether updates go only to the devices that hold the vertex, or to all.
    workers : ``"threads"`` or ``"processes"``
        How a multi-device run drives its devices: one thread each in this
        process, or this process for the first device and one worker
        process for each other (started on first use and kept; arrays move
        by NCCL between GPUs; the primitive class must be importable by
        name). Processes do not share an interpreter lock, so their host
        work runs in parallel (docs/multi-device.md).
    max_iterations : int, optional
        Stop with RuntimeError after this many iterations.
    memory_limit : int or str, optional
        Bytes each device may use (e.g. ``8_000_000_000`` or ``"8G"``;
        default: ``FRONTIER_MEMORY_LIMIT`` if set). A graph, part or
        primitive that does not fit raises :class:`~frontier.DeviceMemoryError`
        before the run (the operators' temporaries are not counted).
    **params : passed to the primitive.
        On a graph with ``node_labels``, those the primitive names in
        ``vertex_parameters`` (a source) are nodes, turned into vertex ids
        here (:func:`params_by_vertex_id`).

    Returns
    -------
    Result or None
        In the caller's vertex ids, on the (first) device it ran on, named
        in ``devices``; a multi-device run also fills ``partition``,
        ``exchanged_bytes`` and ``exchange_s``. Its ``node_labels`` are the
        graph's, so that ``to_dict`` keys it by node. Under
        ``devices="mpi"`` rank 0 gets the result and the other ranks ``None``.
    """
    if not isinstance(graph, Graph) and not _is_distributed(graph):
        raise TypeError(f"expected a frontier.Graph, got {type(graph).__name__}")
    if duplication is None:
        duplication = default_duplication(primitive, graph, workers)
    check_options(primitive, partition, duplication, communication, workers)
    check_params(primitive, params)
    limit = resolve_memory_limit(memory_limit)
    if workers == "processes" and (_is_distributed(graph) or is_mpi(devices)):
        raise ValueError("workers='processes' starts one process per device of a "
                         "frontier.Graph; devices='mpi' and distributed graphs already run "
                         "one process (or thread) per part: leave workers='threads'")
    params = params_by_vertex_id(primitive, graph, params)
    result = _run(primitive, graph, devices=devices, partition=partition,
                  partition_seed=partition_seed, duplication=duplication,
                  communication=communication, workers=workers,
                  max_iterations=max_iterations, limit=limit, params=params)
    if result is not None:
        result.node_labels = graph.node_labels
    return result


def _is_distributed(graph) -> bool:
    """Whether ``graph`` is a :class:`~frontier.multi.distributed.DistributedGraph`,
    without importing that module (and the multi-device package) for a
    plain graph: an instance means its module is loaded."""
    module = sys.modules.get("frontier.multi.distributed")
    return module is not None and isinstance(graph, module.DistributedGraph)


def _run(primitive, graph, *, devices, partition, partition_seed, duplication,
         communication, workers, max_iterations, limit, params) -> Result | None:
    """:func:`enact`'s run once its options are checked: on a distributed
    graph, under MPI, on several devices or on one."""
    if _is_distributed(graph):
        from .multi.distributed import enact_distributed

        return enact_distributed(primitive, graph, devices=devices, partition=partition,
                                 partition_seed=partition_seed, duplication=duplication,
                                 communication=communication, max_iterations=max_iterations,
                                 memory_limit=limit, params=params)
    if is_mpi(devices):
        from .multi.mpi import enact_mpi

        return enact_mpi(primitive, graph, partition=partition, partition_seed=partition_seed,
                         duplication=duplication, communication=communication,
                         max_iterations=max_iterations, memory_limit=limit, params=params)
    targets = run_devices(graph, devices)
    if len(targets) > 1:
        if workers == "processes":
            from .multi.processes import enact_in_processes as enact_on_devices
        else:
            from .multi import enact_on_devices

        return enact_on_devices(primitive, graph, targets, partition=partition,
                                partition_seed=partition_seed, duplication=duplication,
                                communication=communication, max_iterations=max_iterations,
                                memory_limit=limit, params=params)
    device = targets[0]
    if graph.device != device:
        check_fits(device, graph.storage_bytes(), "the graph", limit)
    try:
        with device.activate(), device_memory_guard(device, f"running {primitive.__name__}"):
            try:
                result = _iterate_on(device, primitive, graph.to(device), params,
                                     max_iterations, limit)
            finally:
                if device.is_gpu:
                    from .operators.fused import release_workspaces

                    release_workspaces()
    except DeviceMemoryError as error:  # from the budget, or CuPy's turned into one
        release_frames(error)
        raise
    result.devices = (device.name,)
    return result


def _iterate_on(device, primitive, graph, params, max_iterations, limit) -> Result:
    """A run on one device, where a ``replayable`` primitive's steps may run
    several levels at once (:mod:`frontier.replay`; rerun level by level
    and compared when declarations are checked), and one that declares
    ``independent_items`` may run in pieces on the CPU's cores
    (:mod:`frontier.split_runs`; rerun whole and compared likewise)."""
    split = split_runs.pieces(primitive, graph, params, max_iterations, limit)
    if split:
        result = split_runs.run_in_pieces(primitive, graph, params, split)
        if checking_declarations():
            split_runs.check_pieces(primitive, result, iterate(primitive(graph, **params), None))
        return result
    result = iterate(primitive(graph, **params), max_iterations, budget=Budget(device, limit),
                     replay=primitive.replayable)
    if result.replayed_steps and checking_declarations():
        plain = iterate(primitive(graph, **params), max_iterations)
        replay.check_replay(primitive, result, plain)
    return result


def run_devices(graph: Graph, devices) -> list[Device]:
    """The devices a run of ``graph`` with ``devices=`` uses:
    :func:`~frontier.device.resolve_devices`, except that with ``devices``
    ``None`` and FRONTIER_DEVICE unset, a graph on a CPU device with fewer
    than :data:`SMALL_GRAPH_ARCS` arcs stays there rather than being copied
    to the default GPU, which would be slower; and within
    :func:`on_graph_devices`, a graph stays on its own device whatever it is."""
    if devices is None and getattr(_placement, "on_graph_device", False):
        return [graph.device]
    targets = resolve_devices(devices)
    if devices is None and not os.environ.get("FRONTIER_DEVICE") and targets[0].is_gpu \
            and not graph.device.is_gpu and graph.num_arcs < SMALL_GRAPH_ARCS:
        return [graph.device]
    return targets


_placement = threading.local()


class on_graph_devices:
    """Within this block (in this thread), ``enact(devices=None)`` runs on
    the graph's own device, never copying it to the default one: for a
    caller that builds each graph where it means to run it (the NetworkX
    backend, whose configured device or cold-start choice may be the CPU on a
    machine whose default device is a GPU). A class rather than a
    generator: the backend enters it around every item of a generator's
    answer, 200,000 times for ``bfs_edges`` on a graph of 200,000 nodes,
    where a generator-based context manager cost 3 us a time."""

    __slots__ = ("_before",)

    def __enter__(self) -> None:
        self._before = getattr(_placement, "on_graph_device", False)
        _placement.on_graph_device = True

    def __exit__(self, *exc_info) -> None:
        _placement.on_graph_device = self._before
