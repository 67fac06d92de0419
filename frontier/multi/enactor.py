"""The multi-device enactor: partition, place, run every part, gather.

Each rank (here a thread per device) runs :func:`run_rank`: the primitive's
unchanged loop (:func:`frontier.loop.iterate`) on its part of the graph, an
:class:`~.exchange.Exchange` after each step to keep the declared vertex data
consistent, its reductions through the communicator, and at the end the
owned slots of every part gathered on rank 0, in the caller's vertex ids. A
transport that runs ranks as processes (MPI) calls :func:`run_rank` with its
own communicator.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
import weakref
from dataclasses import dataclass, field

import numpy as np

from ..device import Device
from ..graph import Graph, index_dtype
from ..memory import (
    Budget,
    DeviceMemoryError,
    check_fits,
    device_memory_guard,
    distinct_array_bytes,
    release_frames,
)
from ..primitive import DeclarationError, checking_declarations
from ..ranges import concatenated_ranges
from ..replay import check_replay
from ..result import Result
from ..turns import Turn
from . import output_exchange, owner_refresh
from .communicator import LocalGroup
from .exchange import Exchange
from .routes import ROUTES
from .view import PartView

#: While GPU threads run, a thread waiting for the interpreter lock gets
#: it after at most this many seconds (Python's default is 5 ms, which a
#: thread back from a device synchronization may otherwise wait while its
#: GPU idles). ``None`` leaves Python's setting alone, as threads of
#: virtual CPU devices do: they only hand the lock over, and forced switches
#: every 0.2 ms made their levels 15-25% slower (benchmarks/host_cost.py).
SWITCH_INTERVAL_S: float | None = 2e-4

#: Which rank threads run their host code in turns (:mod:`frontier.turns`):
#: ``"gpu"`` those of GPUs, ``"always"``, or ``"never"``. Threads of virtual
#: CPU devices do not: NumPy's array work runs outside the interpreter lock,
#: so their ranks compute side by side on several cores.
TURNS = "gpu"


@dataclass
class PlacedPart:
    """A part's graph and routing tables on its device."""

    index: int
    graph: Graph
    owned: object
    owned_ids: object
    is_owned: object
    slot_owner: object
    #: peer -> the owned slots the peer keeps copies of, in the order of the
    #: peer's slots for them (``owned`` itself under duplication "all")
    copied_by: dict
    #: every slot's slot on its owner (None: slots are the caller's ids everywhere)
    slot_on_owner: object = None
    #: peer -> for each owned slot, the peer's slot for it, -1 where the peer
    #: keeps no copy (None: slots are the caller's ids everywhere)
    copy_slots: dict | None = None
    #: what a boundary derives from the part once and keeps with it
    derived: dict = field(default_factory=dict)

    @property
    def num_slots(self) -> int:
        return self.graph.num_vertices


def owner_dtype(num_parts: int):
    """The smallest signed integer type for part numbers ``0..num_parts-1``:
    a placed part keeps one per slot (int8 instead of the partitioner's
    int32 saves 3 bytes a vertex, 3 GiB at 2^30 slots)."""
    for dtype in (np.int8, np.int16):
        if num_parts <= np.iinfo(dtype).max + 1:
            return np.dtype(dtype)
    return np.dtype(np.int32)


def place(part, device: Device) -> PlacedPart:
    """Move a host :class:`partition.subgraph.Part` to ``device``; slot
    numbers are kept in the part's index type, part numbers in
    :func:`owner_dtype`."""
    xp = device.xp
    graph = part.graph.to(device)
    dtype = index_dtype(part.num_slots)
    is_owned = xp.zeros(part.num_slots, dtype=bool)
    owned = device.asarray(np.asarray(part.owned).astype(dtype, copy=False))
    is_owned[owned] = True
    num_parts = int(part.slot_owner.max()) + 1 if len(part.slot_owner) else 1
    slot_owner = device.asarray(part.slot_owner.astype(owner_dtype(num_parts), copy=False))
    copied_by = {}
    if part.slot_on_owner is None:  # shared ids: every peer copies every owned vertex
        return PlacedPart(part.index, graph, owned, device.asarray(part.owned_ids), is_owned,
                          slot_owner, {peer: owned for peer in part.mirrors})
    copy_slots = {}
    num_owned = len(part.owned)  # owned slots come first: 0..num_owned-1
    for peer, (local, remote) in part.mirrors.items():
        local, remote = np.asarray(local), np.asarray(remote)
        in_peer_order = local[np.argsort(remote, kind="stable")]
        copied_by[peer] = device.asarray(in_peer_order.astype(dtype, copy=False))
        there = np.full(num_owned, -1, dtype=dtype)
        there[local] = remote
        copy_slots[peer] = device.asarray(there)
    slot_on_owner = device.asarray(np.asarray(part.slot_on_owner).astype(dtype, copy=False))
    return PlacedPart(part.index, graph, owned, device.asarray(part.owned_ids), is_owned,
                      slot_owner, copied_by, slot_on_owner, copy_slots)


def place_checked(part, device: Device, memory_limit: int | None) -> PlacedPart:
    """:func:`place`, after checking that the part fits ``device`` (within
    ``memory_limit``): a clear :class:`~frontier.DeviceMemoryError` instead
    of an allocation failure halfway."""
    check_fits(device, part.graph.storage_bytes(),
               f"part {part.index} of the graph ({part.num_slots} vertex slots)", memory_limit)
    with device.activate(), device_memory_guard(device, f"placing part {part.index}"):
        return place(part, device)


def enact_on_devices(primitive, graph, devices: list[Device], *, partition,
                     partition_seed: int, duplication: str, communication: str,
                     max_iterations, params: dict, memory_limit: int | None = None,
                     placed: tuple | None = None) -> Result:
    """Run ``primitive`` on ``graph`` split over ``devices``, one thread per
    device (see :func:`frontier.enact` for the options; one process per
    device is :func:`frontier.multi.processes.enact_in_processes`).
    ``placed``: the partition and parts already on the devices (a
    distributed graph's)."""
    layout, placed = placed or _placed_parts(graph, devices, partition, partition_seed,
                                             duplication, memory_limit)
    call = dict(num_vertices=graph.num_vertices, num_arcs=graph.num_arcs,
                communication=communication, max_iterations=max_iterations, params=params,
                memory_limit=memory_limit)
    start = time.perf_counter()
    result = _run_threads(primitive, devices, placed, call)
    elapsed = time.perf_counter() - start
    if result.replayed_steps and checking_declarations():  # joint levels against level by level
        check_replay(primitive, result,
                     _run_threads(primitive, devices, placed, dict(call, joint=False)))
    result.elapsed_s = elapsed
    result.devices = tuple(device.name for device in devices)
    result.partition = dict(layout.to_dict(), duplication=duplication,
                            communication=communication, workers="threads")
    return result


def _run_threads(primitive, devices: list[Device], placed: list, call: dict) -> Result:
    """:func:`run_rank` on each of ``placed`` in a thread of its own;
    rank 0's result."""
    group = LocalGroup(devices)
    outcomes: list = [None] * len(devices)
    turn = Turn() if takes_turns(devices) else None

    def work(rank: int) -> None:
        try:
            with turn.held() if turn else contextlib.nullcontext():
                outcomes[rank] = run_rank(primitive, part=placed[rank],
                                          communicator=group.endpoint(rank), **call)
        except BaseException as error:  # noqa: BLE001 - handed to the caller below
            outcomes[rank] = error
            group.abort()

    threads = [threading.Thread(target=work, args=(rank,), name=f"frontier-{device.name}")
               for rank, device in enumerate(devices)]
    with _switch_interval(SWITCH_INTERVAL_S if any(device.is_gpu for device in devices)
                          else None):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    _release_workspaces(devices)
    _raise_first_error(outcomes)
    return outcomes[0]


def takes_turns(devices: list[Device]) -> bool:
    """Whether the rank threads of ``devices`` run their host code in turns
    (:data:`TURNS`)."""
    if TURNS not in ("gpu", "always", "never"):
        raise ValueError(f"TURNS = {TURNS!r}: expected 'gpu', 'always' or 'never'")
    return TURNS == "always" or (TURNS == "gpu" and any(device.is_gpu for device in devices))


def _placed_parts(graph: Graph, devices: list[Device], partition, seed: int,
                  duplication: str, memory_limit):
    """The partition of ``graph`` over ``devices`` and its parts placed there:
    made once, then kept on the graph (``Graph.release_parts`` frees them)."""
    from partition import make_partition

    key = (tuple(device.name for device in devices), partition, seed, duplication)
    if key not in graph._parts:
        layout = make_partition(graph, len(devices), partition, seed)
        parts = _built_parts(graph, layout.owner, len(devices), duplication)
        placed = [place_checked(part, device, memory_limit)
                  for part, device in zip(parts, devices)]
        graph._parts[key] = (layout, placed)
    return graph._parts[key]


def _built_parts(graph: Graph, owner, count: int, duplication: str) -> list:
    """The parts of ``graph``: built on its GPU where it is on one (a sort of
    every arc there takes a fraction of a second where the host's takes
    minutes), on the host where it is not or where the GPU lacks the memory
    for the build's temporaries (said on the ``frontier`` logger)."""
    from partition.subgraph import build_parts

    if graph.device.is_gpu:
        try:
            with graph.device.activate(), \
                    device_memory_guard(graph.device, "building the parts on the graph's GPU"):
                return build_parts(graph, owner, count, duplication, on_device=True)
        except DeviceMemoryError as error:
            logging.getLogger("frontier").info("%s; building them on the host instead", error)
    return build_parts(graph, owner, count, duplication)


def run_rank(primitive, num_vertices: int, num_arcs: int, part: PlacedPart, communicator,
             communication: str, max_iterations, params: dict,
             memory_limit: int | None = None, joint: bool = True) -> Result | None:
    """One rank's whole run: the primitive's loop on its part with an
    exchange after every step, then the result gathered on rank 0 (returned
    there; the other ranks return ``None``). ``joint``: whether a claim's
    levels may run with the peers' (:mod:`.joint_levels`; False: a
    boundary after each level)."""
    from ..loop import iterate

    device = communicator.device
    with device.activate(), own_stream(device, part.derived), \
            device_memory_guard(device, f"running {primitive.__name__}"):
        run = primitive(part.graph, **params)
        run.view = PartView(part, communicator, num_vertices, num_arcs)
        exchange = boundary_class(primitive, communication)(
            run, part, communicator, ROUTES[communication])
        run.view.refilled = weakref.WeakMethod(exchange.refilled)
        if not joint:
            exchange.joint = None
        result = iterate(run, max_iterations, exchange, Budget(device, memory_limit))
        result.part_bytes = part_bytes(part, run, exchange)
        return gather_result(result, part, communicator, num_vertices, exchange, num_arcs)


def boundary_class(primitive: type, communication: str) -> type:
    """The boundary ``primitive``'s run keeps its declared arrays with: from
    the output frontier (:mod:`.output_exchange`), every copy refreshed
    (:mod:`.owner_refresh`), or by comparing snapshots (:mod:`.exchange`)."""
    if output_exchange.applies(primitive, communication):
        return output_exchange.OutputExchange
    if owner_refresh.applies(primitive):
        return owner_refresh.OwnerRefresh
    return Exchange


def part_bytes(part: PlacedPart, run, exchange) -> int:
    """Bytes a part holds on its device at the end of a run: its graph, its
    slot tables, the primitive's arrays and the boundary's (routing lists,
    snapshots, marks, the joint levels' queues and outboxes). The
    operators' temporaries, freed within a step, are not counted."""
    holders = [part, run, exchange, *exchange.lists.values()]
    if getattr(exchange, "snapshot", None):
        holders.append(exchange.snapshot)
    if exchange.joint is not None and exchange.joint.buffers is not None:
        holders.append(exchange.joint.buffers)  # queues, outboxes
    return part.graph.storage_bytes() + distinct_array_bytes(*holders)


@contextlib.contextmanager
def own_stream(device: Device, kept: dict):
    """On a GPU, a part's own stream as the current one (the thread's), so
    that parts sharing a GPU queue their work independently; a no-op on the
    CPU. The stream is made at the part's first run and kept in ``kept``
    (the part's :attr:`PlacedPart.derived`) for the next:
    CuPy's memory pool reuses a freed block only on the stream it was
    allocated on, so a new stream per run paid the device allocator for
    every array of the run and left the last run's blocks idle in the pool."""
    if not device.is_gpu:
        yield
        return
    import cupy

    stream = kept.get("stream")
    if stream is None:
        stream = kept["stream"] = cupy.cuda.Stream(non_blocking=True)
    with stream:
        yield
    stream.synchronize()


@contextlib.contextmanager
def _switch_interval(seconds: float | None):
    """Python's thread switch interval set to ``seconds`` for a while."""
    before = sys.getswitchinterval()
    if seconds is not None:
        sys.setswitchinterval(seconds)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _raise_first_error(outcomes: list) -> None:
    """Re-raise the error of a failed rank (not the broken barriers it caused).
    If a rank ran out of memory, every rank's frames are released first
    (:func:`frontier.memory.release_frames`)."""
    errors = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
    if any(isinstance(error, DeviceMemoryError) for error in errors):
        for error in errors:
            release_frames(error)
    for error in errors:
        if not isinstance(error, threading.BrokenBarrierError):
            raise error
    if errors:
        raise errors[0]


def gather_result(result: Result, part: PlacedPart, communicator, num_vertices: int,
                  exchange: Exchange, num_arcs: int) -> Result | None:
    """The result of the whole graph, in the caller's ids, on rank 0: every
    rank sends its owned slots' values there, and for the result's
    ``arc_fields`` the values of its owned vertices' out-arcs
    (:func:`_owned_arcs`), which rank 0 places at the whole graph's arcs."""
    arrays = result.arrays()
    for name, values in arrays.items():
        size = part.graph.num_arcs if name in result.arc_fields else part.num_slots
        if getattr(values, "shape", None) != (size,):
            kind = "an arc" if name in result.arc_fields else "a vertex"
            raise TypeError(
                f"{type(result).__name__}.{name} must be {kind} array of {size} entries on "
                f"each device, got {getattr(values, 'shape', type(values).__name__)}")
    sent_bytes, seconds, setup_s, largest_part, fewest, most = communicator.allreduce_each(
        [exchange.sent_bytes, exchange.seconds, result.setup_s,
         getattr(result, "part_bytes", 0), exchange.refills, exchange.refills],
        ["sum", "sum", "max", "max", "min", "max"])
    if fewest != most:
        raise DeclarationError(
            f"{type(exchange.run).__name__} refilled its arrays {fewest} to {most} times on "
            "different devices: Primitive.refill must run on every device alike")
    vertex_names = [name for name in arrays if name not in result.arc_fields]
    # Where rank 0's slots are the caller's ids (duplication "all"), its own
    # arrays are the whole ones, right at its owned vertices: the peers'
    # owned entries are written over the rest, and rank 0 sends itself nothing.
    in_place = communicator.rank == 0 and part.graph.vertex_slots is None \
        and part.num_slots == num_vertices and not result.arc_fields
    message = None if in_place else \
        [part.owned_ids] + [arrays[name][part.owned] for name in vertex_names]
    if result.arc_fields:
        arcs, lengths = _owned_arcs(part)
        message += [lengths] + [arrays[name][arcs] for name in result.arc_fields]
    incoming = communicator.alltoall([message if rank == 0 else None
                                      for rank in range(communicator.size)])
    if communicator.rank != 0:
        return None
    xp = communicator.device.xp
    received = [message for message in incoming if message is not None]
    for index, name in enumerate(vertex_names):
        whole = arrays[name] if in_place else xp.empty(num_vertices, dtype=arrays[name].dtype)
        for message in received:
            whole[message[0]] = message[1 + index]
        setattr(result, name, whole)
    if result.arc_fields:
        first = 1 + len(vertex_names)  # the rows' lengths, then the arc fields
        places = _arc_places(xp, [(message[0], message[first]) for message in received],
                             num_vertices, num_arcs)
        for index, name in enumerate(result.arc_fields):
            whole = xp.empty(num_arcs, dtype=arrays[name].dtype)
            for at, message in zip(places, received):
                whole[at] = message[first + 1 + index]
            setattr(result, name, whole)
    result.setup_s = setup_s
    result.part_bytes = largest_part
    result.exchanged_bytes = sent_bytes
    result.exchange_s = seconds
    return result


def _owned_arcs(part: PlacedPart):
    """The part's arcs that leave its owned vertices (each of the graph's
    arcs is one such arc of exactly one part: an owned vertex's row holds
    all its out-arcs), in the caller's CSR order -- owned vertices by
    increasing id, each row by increasing head id -- and the rows' lengths."""
    graph, xp = part.graph, part.graph.xp
    starts = graph.offsets[part.owned]
    lengths = graph.offsets[part.owned + 1] - starts
    arcs = concatenated_ranges(starts, lengths)
    slots = graph.vertex_slots
    if slots is not None:  # one_hop: a row is ordered by head slot, the caller's by head id
        rows = xp.repeat(xp.arange(len(lengths)), lengths)
        arcs = arcs[xp.lexsort(xp.stack([slots.ids[graph.columns[arcs]], rows]))]
    return arcs, lengths


def _arc_places(xp, rows: list, num_vertices: int, num_arcs: int) -> list:
    """Where each rank's owned arcs (:func:`_owned_arcs`) lie among the
    whole graph's ``num_arcs`` arcs, from each rank's ``(owned ids, their
    rows' lengths)``."""
    degree = xp.zeros(num_vertices, dtype=np.int64)
    for owned_ids, lengths in rows:
        degree[owned_ids] = lengths
    if int(degree.sum()) != num_arcs:
        raise RuntimeError(f"the parts' owned rows hold {int(degree.sum())} arcs, not the "
                           f"graph's {num_arcs}")
    offsets = xp.cumsum(degree) - degree
    return [concatenated_ranges(offsets[owned_ids], lengths) for owned_ids, lengths in rows]


def _release_workspaces(devices: list[Device]) -> None:
    if any(device.is_gpu for device in devices):
        from ..operators.fused import release_workspaces

        release_workspaces()
