"""A graph held only as parts on its devices, each built there from an edge stream.

A :class:`~frontier.Graph` is a whole CSR on one device, and a multi-device
run splits it on the host (``partition.subgraph``). A graph that no device,
or not even the host, can hold whole is built the other way round: every
device (or MPI rank) generates the whole edge stream in chunks
(:mod:`frontier.kronecker`, any range of edges on its own) and keeps the
arcs that leave the vertices it owns (:func:`frontier.build.csr_from_stream`
with ``rows``). No edge list and no whole graph exists anywhere; each device
holds its part, the partition's owner array and one chunk at a time.

The parts are exactly those ``partition.subgraph.build_parts`` makes from the
whole graph with the ``random`` partition and ``duplication="all"`` (every
device keeps a slot per vertex, numbered as the caller numbers vertices), so
a primitive gives the same answer on a :class:`DistributedGraph` as on the
graph built whole. Other partitioners and ``"one_hop"`` need the whole graph
and are not offered here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from ..build import csr_from_stream
from ..device import Device, to_numpy
from ..graph import ARC_BATCH
from ..memory import device_memory_guard
from ..progress import Progress
from .enactor import PlacedPart


@dataclass(eq=False)
class DistributedGraph:
    """An undirected simple graph split over devices, never held whole.

    Build one with :func:`frontier.generators.kronecker_parts`, and run any
    primitive on it as on a :class:`~frontier.Graph`: the parts are already
    placed, so ``devices=`` may be left out (or must name the same devices).

    Attributes
    ----------
    parts : list of PlacedPart
        This process's parts: every device's in one process, its own under MPI.
    devices : tuple of Device
        The devices of ``parts``.
    layout : partition.Partition
        The random partition and its measures (edge cut, border, ...).
    num_vertices, num_arcs, num_edges : int
        Of the whole graph.
    partition_seed : int
        Seed of the random partition.
    """

    parts: list
    devices: tuple
    layout: object
    num_vertices: int
    num_arcs: int
    num_edges: int
    partition_seed: int
    #: built by the ranks of an MPI job, each holding its own part
    mpi: bool = False
    directed: bool = False
    duplication: str = "all"
    #: the graph is unweighted and has no vertex labels (as a Graph's attributes)
    weights = None
    node_labels = None
    is_weighted = False

    def check_weights(self, needs: str, *, positive: bool = False) -> None:
        """No weights: nothing to check (as :meth:`Graph.check_weights`)."""

    def is_simple(self) -> bool:
        return True  # built without self loops or parallel arcs

    def simplified(self) -> DistributedGraph:
        return self

    def degree(self):
        """Degree of every vertex, a host int64 array (each part has its own
        vertices' rows). Not under MPI, where a process has one part."""
        if self.mpi:
            raise ValueError("under MPI each rank holds one part: degree() needs them all")
        degree = np.zeros(self.num_vertices, dtype=np.int64)
        for part in self.parts:
            owned = to_numpy(part.owned)
            degree[owned] = to_numpy(part.graph.out_degree())[owned]
        return degree

    def storage_bytes(self) -> list[int]:
        """Bytes each part's graph holds on its device."""
        return [part.graph.storage_bytes() for part in self.parts]

    def release(self) -> None:
        """Free the parts on their devices (the object is unusable after)."""
        self.parts.clear()

    def __repr__(self) -> str:
        names = ", ".join(device.name for device in self.devices)
        return (f"DistributedGraph({self.num_vertices} vertices, {self.num_edges} edges, "
                f"undirected, parts on {names})")


def build_distributed(stream, devices: list[Device], *, partition_seed: int = 0,
                      communicator=None, progress: bool = False,
                      **chunking) -> DistributedGraph:
    """Build every part of ``stream``'s simple undirected graph on its device.

    Parameters
    ----------
    stream
        An edge stream (:class:`frontier.kronecker.KroneckerStream`).
    devices : list of Device
        One part per device, built in a thread each. Under MPI the rank's
        own device alone, with ``communicator`` its MPI communicator.
    partition_seed : int
        Seed of the random partition.
    communicator : frontier.multi.mpi.MpiCommunicator, optional
        Under MPI: part index is the rank, and the whole graph's counts are
        summed over the ranks.
    progress : bool
        Report the first part's build phases to standard error.
    chunking
        ``chunk_edges``/``sort_arcs`` for :func:`frontier.build.csr_from_stream`.
    """
    from partition import random_partition

    if stream.weights is not None:
        raise ValueError("a distributed graph is unweighted for now: leave weights=None")
    num_parts = len(devices) if communicator is None else communicator.size
    first = 0 if communicator is None else communicator.rank
    owner = random_partition(stream, num_parts, partition_seed)
    built: list = [None] * len(devices)

    def build(slot: int) -> None:
        try:
            built[slot] = _build_part(stream, owner, first + slot, num_parts, devices[slot],
                                      Progress(f"part {first + slot}", progress and slot == 0),
                                      chunking)
        except BaseException as error:  # noqa: BLE001 - raised in the caller below
            built[slot] = error

    threads = [threading.Thread(target=build, args=(slot,), name=f"frontier-build-{slot}")
               for slot in range(len(devices))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for outcome in built:
        if isinstance(outcome, BaseException):
            raise outcome
    parts = [part for part, _ in built]
    counts = np.sum([stats for _, stats in built], axis=0)
    if communicator is not None:
        counts = np.asarray(communicator.comm.allreduce(counts))  # summed over ranks
    arcs_per_part, borders = counts[:num_parts], counts[num_parts:2 * num_parts]
    num_arcs = int(arcs_per_part.sum())  # no self loops: two arcs an edge
    layout = _layout(owner, num_parts, arcs_per_part, int(counts[-1]) // 2, borders)
    return DistributedGraph(parts, tuple(devices), layout, stream.num_vertices, num_arcs,
                            num_arcs // 2, partition_seed, mpi=communicator is not None)


def _build_part(stream, owner, index: int, num_parts: int, device: Device,
                progress: Progress, chunking: dict):
    """Part ``index`` on ``device``, and its counts: a vector of its arcs
    (at ``index``), its border size (at ``num_parts + index``) and its arcs
    to other parts (last)."""
    xp = device.xp
    with device.activate(), device_memory_guard(device, f"building part {index}"):
        slot_owner = device.asarray(owner)
        rows = slot_owner == index
        graph = csr_from_stream(stream, directed=False, deduplicate=True,
                                remove_self_loops=True, device=device, rows=rows,
                                progress=progress, **chunking)
        remote = xp.zeros(graph.num_vertices, dtype=bool)
        cut = 0
        for begin in range(0, graph.num_arcs, ARC_BATCH):
            heads = graph.columns[begin:begin + ARC_BATCH]
            crossing = slot_owner[heads] != index
            cut += int(xp.count_nonzero(crossing))
            remote[heads[crossing]] = True
        owned = xp.flatnonzero(rows)
        part = PlacedPart(index, graph, owned, owned, rows, slot_owner, None,
                          {peer: None for peer in range(num_parts) if peer != index})
        stats = np.zeros(2 * num_parts + 1, dtype=np.int64)
        stats[index] = graph.num_arcs
        stats[num_parts + index] = int(xp.count_nonzero(remote))
        stats[-1] = cut
        progress.finish(f"{graph.num_arcs} arcs")
    return part, stats


def _layout(owner, num_parts: int, owned_edges, edge_cut: int, border):
    """The random partition's measures, as :func:`partition.make_partition` gives them."""
    from partition.metrics import Partition

    owned_edges = np.asarray(owned_edges, dtype=np.int64)
    mean = owned_edges.mean() if num_parts else 0.0
    imbalance = float(owned_edges.max() / mean) if mean > 0 else 1.0
    return Partition(owner, num_parts, "random",
                     np.bincount(to_numpy(owner), minlength=num_parts).astype(np.int64),
                     owned_edges, int(edge_cut), np.asarray(border, dtype=np.int64), imbalance)


def enact_distributed(primitive, graph: DistributedGraph, *, devices, partition,
                      partition_seed: int, duplication: str, **options):
    """:func:`frontier.enact` on a distributed graph: its parts as they are,
    in this process's threads or, for a graph built under MPI, on the ranks."""
    _check_run_options(graph, devices, partition, partition_seed, duplication)
    if graph.mpi:
        from .mpi import enact_mpi

        return enact_mpi(primitive, graph, partition=partition, partition_seed=partition_seed,
                         duplication=duplication, placed=(graph.layout, graph.parts[0]),
                         **options)
    from .enactor import enact_on_devices

    return enact_on_devices(primitive, graph, list(graph.devices), partition=partition,
                            partition_seed=partition_seed, duplication=duplication,
                            placed=(graph.layout, graph.parts), **options)


def _check_run_options(graph: DistributedGraph, devices, partition, partition_seed: int,
                       duplication: str) -> None:
    """ValueError when a run asks a distributed graph for another layout than
    the one it was built with."""
    if not graph.parts:
        raise ValueError("this distributed graph was released")
    if graph.mpi and devices not in (None, "mpi"):
        raise ValueError(f"devices={devices!r}: this distributed graph lives on the MPI ranks")
    if not graph.mpi and devices is not None:
        from ..device import resolve_devices

        if tuple(resolve_devices(devices)) != graph.devices:
            raise ValueError(f"devices={devices!r}: this distributed graph lives on "
                             f"{[device.name for device in graph.devices]}")
    if partition not in (None, "random") or partition_seed != graph.partition_seed:
        raise ValueError("a distributed graph keeps the random partition it was built with "
                         f"(partition_seed={graph.partition_seed})")
    if duplication != "all":
        raise ValueError("a distributed graph is built with duplication='all'")
