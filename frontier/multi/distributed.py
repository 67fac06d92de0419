"""A graph held only as parts on its devices, each built there from an edge stream.

A :class:`~frontier.Graph` is a whole CSR on one device, and a multi-device
run splits it on the host (``partition.subgraph``). A graph that no device,
or not even the host, can hold whole is built the other way round: every
device (or MPI rank) keeps only the arcs that leave the vertices it owns,
either generating the whole edge stream in chunks (:mod:`frontier.kronecker`,
any range of edges on its own; :func:`frontier.build.csr_from_stream` with
``rows``) or reading a memory-mapped ``.fgb`` file in batches of rows. No
edge list and no whole graph exists anywhere; each device holds its part,
the partition's owner array and one chunk or batch at a time.

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
from ..device import Device, is_mpi, resolve_devices, to_numpy
from ..graph import ARC_BATCH, Graph, index_dtype
from ..kernels import compact
from ..memory import device_memory_guard
from ..progress import Progress
from .enactor import PlacedPart, owner_dtype


@dataclass(eq=False)
class DistributedGraph:
    """An unweighted graph split over devices, never held whole.

    Build one with :func:`frontier.generators.kronecker_parts` or
    :func:`frontier.read_parts` (a ``.fgb`` file), and run any
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
    #: no self loops and no parallel arcs
    simple: bool = True
    duplication: str = "all"
    #: the graph is unweighted and has no vertex labels (as a Graph's attributes)
    weights = None
    node_labels = None
    is_weighted = False

    def check_weights(self, needs: str, *, positive: bool = False) -> None:
        """No weights: nothing to check (as :meth:`Graph.check_weights`)."""

    def is_simple(self) -> bool:
        return self.simple

    def simplified(self) -> DistributedGraph:
        """``self`` when simple (as :meth:`Graph.simplified`); parts cannot be
        simplified in place, so a graph with loops or parallel arcs is a
        ValueError."""
        if not self.simple:
            raise ValueError("this distributed graph has self loops or parallel edges and "
                             "cannot be simplified as parts: read it whole with read_graph")
        return self

    def degree(self):
        """Out-degree (directed) or degree as NetworkX counts it (a self loop
        twice) of every vertex, a host int64 array (each part has its own
        vertices' rows). Not under MPI, where a process has one part."""
        if self.mpi:
            raise ValueError("under MPI each rank holds one part: degree() needs them all")
        degree = np.zeros(self.num_vertices, dtype=np.int64)
        for part in self.parts:
            owned = to_numpy(part.owned)
            each = part.graph.out_degree() if self.directed else part.graph.degree()
            degree[owned] = to_numpy(each)[owned]
        return degree

    def storage_bytes(self) -> list[int]:
        """Bytes each part's graph holds on its device."""
        return [part.graph.storage_bytes() for part in self.parts]

    def release(self) -> None:
        """Free the parts on their devices (the object is unusable after)."""
        self.parts.clear()

    def __repr__(self) -> str:
        names = ", ".join(device.name for device in self.devices)
        kind = "directed" if self.directed else "undirected"
        return (f"DistributedGraph({self.num_vertices} vertices, {self.num_edges} edges, "
                f"{kind}, parts on {names})")


def local_devices(devices) -> tuple[list[Device], object]:
    """The devices this process builds parts on, and the MPI communicator
    (``None`` unless ``devices`` is ``"mpi"``: then the rank's own device)."""
    if is_mpi(devices):
        from .mpi import MpiCommunicator, rank_device, world

        comm = world()
        communicator = MpiCommunicator(comm, rank_device(comm))
        return [communicator.device], communicator
    return resolve_devices(devices), None


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
    if stream.weights is not None:
        raise ValueError("a distributed graph is unweighted for now: leave weights=None")

    def make_part(rows, device, reporter):
        return csr_from_stream(stream, directed=False, deduplicate=True,
                               remove_self_loops=True, device=device, rows=rows,
                               progress=reporter, **chunking)

    return _distribute(make_part, stream.num_vertices, False, devices, partition_seed,
                       communicator, progress)


def read_distributed(path, devices: list[Device], *, partition_seed: int = 0,
                     communicator=None, progress: bool = False,
                     batch_arcs: int = ARC_BATCH) -> DistributedGraph:
    """Every part of a ``.fgb`` graph file, read from its memory map in row
    batches: each part keeps the arcs of its own vertices (a directed graph's
    part also the arcs into them), and no process holds the whole graph.

    ``devices``, ``partition_seed``, ``communicator`` and ``progress`` are as
    for :func:`build_distributed`; ``batch_arcs`` arcs are read at a time.

    Raises
    ------
    ValueError
        For a file that is not a valid ``.fgb`` graph, or one with weights or
        vertex labels (read those whole with :func:`frontier.read_graph`).
    """
    from pathlib import Path

    from ..binary import read_binary

    mapped = read_binary(Path(path), device="cpu")  # memory-mapped, checked
    if mapped.weights is not None or mapped.node_labels is not None:
        raise ValueError(f"{Path(path).name}: a distributed graph is unweighted and unlabelled "
                         "for now; read this file whole with read_graph")

    def make_part(rows, device, reporter):
        reporter.phase("reading rows", total=mapped.num_arcs, unit="edges")
        return _rows_of_file(mapped, to_numpy(rows), batch_arcs, reporter).to(device)

    return _distribute(make_part, mapped.num_vertices, mapped.directed, devices,
                       partition_seed, communicator, progress, num_edges=mapped.num_edges)


def _rows_of_file(mapped: Graph, rows, batch_arcs: int, reporter: Progress) -> Graph:
    """The host CSR of the arcs a part keeps (leaving its vertices, or, for a
    directed graph, entering them), over all vertices, in two passes over
    the mapped file: count, then fill."""
    n = mapped.num_vertices

    def batches():
        done = 0
        for tails, heads, _ in mapped.arc_batches(batch_arcs):
            keep = rows[tails]
            if mapped.directed:
                keep |= rows[heads]
            yield tails[keep], heads[keep]
            done += len(heads)
            reporter.update(done)

    degree = np.zeros(n, dtype=np.int64)
    for tails, _ in batches():
        degree += np.bincount(tails, minlength=n)
    part_offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degree, out=part_offsets[1:])
    columns = np.empty(int(part_offsets[-1]), dtype=mapped.columns.dtype)
    written = loops = 0
    for tails, heads in batches():  # arcs come in CSR order: rows stay sorted
        columns[written:written + len(heads)] = heads
        written += len(heads)
        loops += int(np.count_nonzero(tails == heads))
    num_arcs = len(columns)
    num_edges = num_arcs if mapped.directed else (num_arcs + loops) // 2
    return Graph(part_offsets, columns, None, mapped.directed, Device("cpu", 0), num_edges)


def _distribute(make_part, num_vertices: int, directed: bool, devices: list[Device],
                partition_seed: int, communicator, progress: bool,
                num_edges: int | None = None) -> DistributedGraph:
    """Partition ``num_vertices`` at random and build each local part with
    ``make_part(owned mask on the device, device, progress) -> Graph``
    in a thread per device; sum the parts' counts (over the ranks under MPI)."""
    from partition import random_partition

    num_parts = len(devices) if communicator is None else communicator.size
    first = 0 if communicator is None else communicator.rank
    owner = random_partition(_Vertices(num_vertices), num_parts, partition_seed)
    compact_owner = owner.astype(owner_dtype(num_parts), copy=False)  # once, for every device
    built: list = [None] * len(devices)

    def build(slot: int) -> None:
        index, device = first + slot, devices[slot]
        reporter = Progress(f"part {index}", progress and slot == 0)
        try:
            with device.activate(), device_memory_guard(device, f"building part {index}"):
                slot_owner = device.asarray(compact_owner)
                rows = slot_owner == index
                graph = make_part(rows, device, reporter)
                built[slot] = _placed(graph, slot_owner, rows, index, num_parts)
            reporter.finish(f"{graph.num_arcs} arcs")
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
    owned_arcs, borders = counts[:num_parts], counts[num_parts:2 * num_parts]
    crossing, loops, repeats = (int(value) for value in counts[2 * num_parts:])
    num_arcs = int(owned_arcs.sum())
    if num_edges is None:
        num_edges = num_arcs if directed else (num_arcs + loops) // 2
    layout = _layout(owner, num_parts, owned_arcs, crossing if directed else crossing // 2,
                     borders)
    return DistributedGraph(parts, tuple(devices), layout, num_vertices, num_arcs, num_edges,
                            partition_seed, mpi=communicator is not None, directed=directed,
                            simple=loops == 0 and repeats == 0)


@dataclass(frozen=True)
class _Vertices:
    """What the random partitioner reads of a graph: its vertex count."""

    num_vertices: int


def _placed(graph: Graph, slot_owner, rows, index: int, num_parts: int):
    """Part ``index`` placed, and its counts: a vector of its vertices' out-arcs
    (at ``index``), its border size (at ``num_parts + index``), its crossing
    out-arcs, self loops and repeated arcs (the last three)."""
    xp = graph.xp
    degree = graph.out_degree()
    owned_arcs = int(degree[rows].sum())
    remote = (degree > 0) & ~rows  # tails of the arcs into owned vertices (directed)
    crossing = loops = repeats = 0
    last = None  # the previous batch's last arc, for a repeat across batches
    for tails, heads, _ in graph.arc_batches():
        repeats += int(xp.count_nonzero((tails[1:] == tails[:-1]) & (heads[1:] == heads[:-1])))
        if last is not None:
            repeats += int(bool((tails[0] == last[0]) & (heads[0] == last[1])))
        last = tails[-1], heads[-1]
        out = slot_owner[heads] != index
        crossing += int(xp.count_nonzero(out & rows[tails]))
        remote[heads[out]] = True
        loops += int(xp.count_nonzero(tails == heads))
    owned = compact.flatnonzero(rows, index_dtype(graph.num_vertices))
    part = PlacedPart(index, graph, owned, owned, rows, slot_owner,
                      {peer: owned for peer in range(num_parts) if peer != index})
    stats = np.zeros(2 * num_parts + 3, dtype=np.int64)
    stats[index] = owned_arcs
    stats[num_parts + index] = int(xp.count_nonzero(remote))
    stats[-3:] = crossing, loops, repeats
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
    if graph.mpi and not (devices is None or is_mpi(devices)):
        raise ValueError(f"devices={devices!r}: this distributed graph lives on the MPI ranks")
    if not graph.mpi and devices is not None:
        if tuple(resolve_devices(devices)) != graph.devices:
            raise ValueError(f"devices={devices!r}: this distributed graph lives on "
                             f"{[device.name for device in graph.devices]}")
    if partition not in (None, "random") or partition_seed != graph.partition_seed:
        raise ValueError("a distributed graph keeps the random partition it was built with "
                         f"(partition_seed={graph.partition_seed})")
    if duplication != "all":
        raise ValueError("a distributed graph is built with duplication='all'")
