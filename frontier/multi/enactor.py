"""The multi-device enactor: partition, place, run every part, assemble.

Each device runs the primitive's unchanged loop (:func:`frontier.loop.iterate`)
on its part of the graph, in its own thread; an :class:`~.exchange.Exchange`
after each step keeps the declared vertex data consistent, and the
primitive's reductions meet in the communicator. The result is assembled
from the owned slots of every part, in the caller's vertex ids, on the first
device.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from ..device import Device
from ..graph import Graph
from ..memory import device_memory_guard
from ..result import Result
from .communicator import LocalGroup, receive
from .exchange import Exchange
from .routes import ROUTES
from .view import PartView


@dataclass
class PlacedPart:
    """A part's graph and routing tables on its device."""

    index: int
    graph: Graph
    owned: object
    owned_ids: object
    is_owned: object
    slot_owner: object
    slot_on_owner: object | None
    mirrors: dict

    @property
    def num_slots(self) -> int:
        return self.graph.num_vertices


def place(part, device: Device) -> PlacedPart:
    """Move a host :class:`partition.subgraph.Part` to ``device``."""
    xp = device.xp
    graph = part.graph.to(device)
    is_owned = xp.zeros(part.num_slots, dtype=bool)
    owned = device.asarray(part.owned)
    is_owned[owned] = True
    on_owner = None if part.slot_on_owner is None else device.asarray(part.slot_on_owner)
    mirrors = {peer: (device.asarray(local), device.asarray(remote))
               for peer, (local, remote) in part.mirrors.items()}
    return PlacedPart(part.index, graph, owned, device.asarray(part.owned_ids), is_owned,
                      device.asarray(part.slot_owner), on_owner, mirrors)


def enact_on_devices(primitive, graph: Graph, devices: list[Device], *, partition,
                     partition_seed: int, duplication: str, communication: str,
                     max_iterations, params: dict) -> Result:
    """Run ``primitive`` on ``graph`` split over ``devices`` (see
    :func:`frontier.enact` for the options)."""
    from partition import make_partition
    from partition.subgraph import build_parts

    count = len(devices)
    layout = make_partition(graph, count, partition, partition_seed)
    parts = build_parts(graph, layout.owner, count, duplication)
    placed = []
    for part, device in zip(parts, devices):
        with device.activate(), device_memory_guard(device, f"placing part {part.index}"):
            placed.append(place(part, device))
    group = LocalGroup(devices)
    outcomes: list = [None] * count

    def work(rank: int) -> None:
        device = devices[rank]
        try:
            with device.activate(), \
                    device_memory_guard(device, f"running {primitive.__name__}"):
                outcomes[rank] = _run_part(primitive, placed[rank], group.endpoint(rank),
                                           graph, communication, max_iterations, params)
        except BaseException as error:  # noqa: BLE001 - handed to the caller below
            outcomes[rank] = error
            group.abort()

    start = time.perf_counter()
    threads = [threading.Thread(target=work, args=(rank,), name=f"frontier-{device.name}")
               for rank, device in enumerate(devices)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    _release_workspaces(devices)
    _raise_first_error(outcomes)
    result = _assemble(outcomes, placed, devices[0], graph.num_vertices)
    result.elapsed_s = elapsed
    result.devices = tuple(device.name for device in devices)
    result.partition = layout.to_dict()
    result.partition["duplication"] = duplication
    result.partition["communication"] = communication
    return result


def _run_part(primitive, part: PlacedPart, communicator, graph: Graph, communication: str,
              max_iterations, params: dict):
    from ..loop import iterate

    run = primitive(part.graph, **params)
    run.view = PartView(part, communicator, graph.num_vertices, graph.num_arcs)
    peers = [peer for peer in range(communicator.size) if peer != communicator.rank]
    exchange = Exchange(run, part, communicator, ROUTES[communication](part, peers))
    result = iterate(run, max_iterations, exchange)
    return result, exchange


def _raise_first_error(outcomes: list) -> None:
    """Re-raise the error of a failed rank (not the broken barriers it caused)."""
    errors = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
    for error in errors:
        if not isinstance(error, threading.BrokenBarrierError):
            raise error
    if errors:
        raise errors[0]


def _assemble(outcomes: list, placed: list[PlacedPart], home: Device,
              num_vertices: int) -> Result:
    """One result in the caller's ids on ``home`` from every part's owned slots."""
    results = [result for result, _ in outcomes]
    assembled = results[0]
    for name, first in assembled.arrays().items():
        whole = home.xp.empty(num_vertices, dtype=first.dtype)
        for result, part in zip(results, placed):
            values = result.arrays()[name]
            if getattr(values, "shape", None) != (part.num_slots,):
                raise TypeError(
                    f"{type(result).__name__}.{name} must be a vertex array of "
                    f"{part.num_slots} entries on each device, got "
                    f"{getattr(values, 'shape', type(values).__name__)}")
            whole[receive(part.owned_ids, home)] = receive(values[part.owned], home)
        setattr(assembled, name, whole)
    assembled.setup_s = max(result.setup_s for result in results)
    assembled.exchanged_bytes = sum(exchange.sent_bytes for _, exchange in outcomes)
    assembled.exchange_s = sum(exchange.seconds for _, exchange in outcomes)
    return assembled


def _release_workspaces(devices: list[Device]) -> None:
    if any(device.is_gpu for device in devices):
        from ..kernels import release_workspaces

        release_workspaces()
