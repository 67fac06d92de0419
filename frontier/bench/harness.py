"""The benchmark run: build the graph, pick roots, time every primitive and
its peers, and turn each measurement into a record.

Per workload: ``warmup`` untimed runs (kernel compilation, memory-pool
growth), then ``repeat`` timed runs from each root (one set for whole-graph
primitives) whose median is the root's time, then one untimed run under the
memory counter. Every output, warm-up and memory runs included, is checked
outside the timed region: BFS by Graph500 validation, SSSP against the edges,
the primitives of issue 32 as :mod:`frontier.bench.analytics` says.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import frontier as fr

from ..device import Device, to_numpy
from ..enactor import WORKERS
from ..graph import Graph
from ..memory import host_peak_bytes
from ..progress import Progress
from .analytics import frontier_analytics
from .checks import check_distances
from .measure import harmonic_mean, median, peak_device_bytes, timer, traversed_edges
from .peers import (
    GPU_PEERS,
    PeerInputs,
    covering,
    peer_workload,
    select_peers,
    skip_reason,
)
from .workload import (
    ANALYTICS,
    DEFAULT_PRIMITIVES,
    DIRECTED,
    PRIMITIVES,
    ROOTED,
    SAMPLED,
    UNDIRECTED_ONLY,
    WEIGHTED,
    Outcome,
    Workload,
    multi_device_fields,
    pagerank_options,
)

#: Graph500 SSSP weights for generated graphs
SSSP_WEIGHTS = (1, 64)


@dataclass(frozen=True)
class GraphSpec:
    """Where the benchmark graph comes from: exactly one of a Kronecker
    ``scale``, a ``grid`` shape ``(rows, cols)`` or a file ``path``."""

    scale: int | None = None
    edgefactor: int = 16
    grid: tuple[int, int] | None = None
    path: str | None = None

    @property
    def name(self) -> str:
        """``kronecker-22-16``, ``grid-4096x4096`` or the file name."""
        if self.scale is not None:
            return f"kronecker-{self.scale}-{self.edgefactor}"
        if self.grid is not None:
            return f"grid-{self.grid[0]}x{self.grid[1]}"
        return self.path.replace("\\", "/").rsplit("/", 1)[-1]

    def build(self, device: Device, seed: int, weighted: bool, directed: bool = False) -> Graph:
        """The graph on ``device``; generated graphs get Graph500 SSSP weights
        (uniform in 1..64) when ``weighted``, files keep their own. A
        ``directed`` Kronecker graph keeps the arcs of the same edge stream as
        drawn (:func:`frontier.generators.rmat` with Graph500's quadrant
        probabilities); grids and files stay as they are."""
        weights = SSSP_WEIGHTS if weighted else None
        if self.scale is not None and directed:
            from ..kronecker import GRAPH500_A, GRAPH500_B, GRAPH500_C

            return fr.generators.rmat(self.scale, self.edgefactor, a=GRAPH500_A, b=GRAPH500_B,
                                      c=GRAPH500_C, seed=seed, directed=True, weights=weights,
                                      device=device)
        if self.scale is not None:
            return fr.generators.kronecker(self.scale, self.edgefactor, seed=seed,
                                           weights=weights, device=device)
        if self.grid is not None:
            return fr.generators.grid(*self.grid, weights=weights, seed=seed, device=device)
        return fr.read_graph(self.path, device=device)


@dataclass(frozen=True)
class Settings:
    """What to time and how often (see ``frontier bench --help``)."""

    primitives: tuple[str, ...] = DEFAULT_PRIMITIVES
    peers: str = "auto"
    roots: int = 8
    repeat: int = 3
    warmup: int = 1
    seed: int = 0
    #: device counts to time Frontier's primitives on (peers run once)
    devices: tuple[int, ...] = (1,)
    partition: str = "random"
    #: None: each primitive's default (:func:`frontier.enactor.default_duplication`)
    duplication: str | None = None
    #: how runs on several devices drive them: ``"threads"``, ``"processes"``
    workers: tuple[str, ...] = ("threads",)
    #: the device counts are parts sharing the one ``--device`` (one GPU)
    shared: bool = False

    def __post_init__(self):
        if not self.devices or any(count < 1 for count in self.devices):
            raise ValueError(f"devices={self.devices}: need device counts of at least 1")
        unknown = [p for p in self.primitives if p not in PRIMITIVES]
        if unknown:
            raise ValueError(f"unknown primitive {unknown[0]!r}: choose from "
                             f"{', '.join(PRIMITIVES)}")
        for name in ("roots", "repeat"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}={getattr(self, name)}: need at least 1")
        if self.warmup < 0:
            raise ValueError(f"warmup={self.warmup}: cannot be negative")
        select_peers(self.peers)
        if not self.workers or any(w not in WORKERS for w in self.workers):
            raise ValueError(f"workers={self.workers}: choose from {', '.join(WORKERS)}")


def pick_roots(graph: Graph, count: int, seed: int) -> list[int]:
    """``count`` distinct random vertices with out-edges (all of them if fewer).

    Raises
    ------
    ValueError
        If no vertex has an out-edge.

    Examples
    --------
    >>> import frontier as fr
    >>> G = fr.Graph.from_edges([0, 2], [2, 3], num_vertices=5, device="cpu")
    >>> sorted(pick_roots(G, 8, seed=0))
    [0, 2, 3]
    """
    candidates = np.flatnonzero(to_numpy(graph.out_degree()) > 0)
    if len(candidates) == 0:
        raise ValueError(f"{graph} has no edges: there is no root to traverse from")
    chosen = np.random.default_rng(seed).choice(candidates, min(count, len(candidates)),
                                                replace=False)
    return [int(v) for v in chosen]


def bc_seed(graph: Graph, seed: int) -> int:
    """The first seed from ``seed`` on whose one sampled betweenness source
    (drawn as NetworkX draws it) has at least the mean out-degree: in a
    Kronecker graph such a vertex lies in the giant component, so a
    one-source BC does a whole traversal (about half of a Kronecker graph's
    vertices are isolated). Frontier and its peers use the same seed.

    Examples
    --------
    >>> import frontier as fr
    >>> G = fr.Graph.from_edges([0, 0, 0], [1, 2, 3], num_vertices=40, device="cpu")
    >>> bc_seed(G, 0)
    2
    """
    from networkx.utils import create_py_random_state

    degree = to_numpy(graph.out_degree())
    if graph.num_vertices == 0 or not degree.any():
        return seed
    wanted = degree.mean()
    for candidate in range(seed, seed + 10_000):
        (source,) = create_py_random_state(candidate).sample(range(graph.num_vertices), 1)
        if degree[source] >= wanted:
            return candidate
    return seed


def device_set(device: Device, count: int, shared: bool = False) -> list[Device] | Device:
    """``device`` for one device; ``count`` GPUs from ``cuda:0`` (or virtual CPU
    devices) for several, or ``count`` parts on ``device`` itself (``shared``)."""
    if count == 1:
        return device
    if shared:
        return [device] * count
    if device.is_gpu and fr.device.gpu_count() < count:
        raise ValueError(f"--devices asks for {count} GPUs; this machine has "
                         f"{fr.device.gpu_count()}")
    return [Device(device.kind, index) for index in range(count)]


def frontier_workload(primitive: str, graph: Graph, seed: int,
                      settings: Settings | None = None, count: int = 1,
                      workers: str = "threads", inputs: PeerInputs | None = None) -> Workload:
    """The Frontier primitive ``primitive`` (a command-line name) as a
    workload, on ``count`` devices driven by ``workers`` (the settings give
    partition and duplication). ``inputs`` holds the graph's representations
    the checks of the primitives of issue 32 read (built here if not given)."""
    import primitives

    settings = settings or Settings()
    # the bench's --device, not the default device (which is a GPU whenever CuPy sees one)
    options = {"devices": device_set(graph.device, count, settings.shared)}
    if count > 1:
        options.update(partition=settings.partition, duplication=settings.duplication,
                       workers=workers)
    function = functools.partial(getattr(primitives, PRIMITIVES[primitive]), **options)
    if primitive in ANALYTICS:
        return frontier_analytics(primitive, function, inputs or PeerInputs(graph), seed)
    storage = graph.storage_bytes

    def run_from(root):  # a vertex id; the primitive takes the node
        return function(graph, source=graph.node(root))

    if primitive in ("bfs", "dobfs"):
        def inspect_tree(result, root):
            fr.validate.graph500_bfs(graph, root, result.depth, result.predecessor)
            return Outcome(reached=result.depth >= 0, iterations=result.iterations,
                           setup_ms=result.setup_s * 1e3, extra=multi_device_fields(result))

        return Workload(primitive, "frontier", graph, graph.device,
                        run_from, inspect_tree, True,
                        storage, "graph500")
    if primitive == "sssp":
        def inspect_distances(result, root):
            check_distances(graph, root, result.distance)
            return Outcome(reached=graph.xp.isfinite(result.distance),
                           iterations=result.iterations, setup_ms=result.setup_s * 1e3,
                           extra=multi_device_fields(result))

        return Workload(primitive, "frontier", graph, graph.device,
                        run_from, inspect_distances, True,
                        storage, "distances")
    options = {"bc": {"k": 1, "seed": seed},
               "pagerank": pagerank_options(graph.num_vertices)}.get(primitive, {})
    return Workload(primitive, "frontier", graph, graph.device,
                    lambda _: function(graph, **options),
                    lambda result, _: Outcome(iterations=result.iterations,
                                              setup_ms=result.setup_s * 1e3,
                                              extra=multi_device_fields(result)),
                    False, storage)


def measure(work: Workload, roots: list[int], settings: Settings, progress: Progress) -> dict:
    """Time one workload; the measured fields of its record.

    ``progress`` gets a bar of the workload's runs and a line per root.

    Returns
    -------
    dict
        ``time_ms`` (median over roots of each root's median), ``gteps``
        (harmonic mean over roots of traversed edges / time, in 1e9/s) and
        ``gteps_median`` for traversals, ``times_ms`` per root, ``roots``,
        ``iterations`` (of the last root) and ``ms_per_iteration`` (median over
        roots of the loop time, set-up excluded, per iteration) where the
        implementation reports iterations,
        ``peak_bytes``, ``graph_bytes``, ``validation`` and ``checked_runs``.
    """
    sources = roots if work.rooted else [None]
    progress.phase(f"{work.primitive} {work.implementation}",
                   total=settings.warmup + len(sources) * settings.repeat + 1, unit="runs")
    clock = timer(work.device)
    degree = None
    if work.rooted:
        degree = work.graph.out_degree() if work.graph.directed else work.graph.degree()
    checked = 0
    for _ in range(settings.warmup):
        work.inspect(work.run(sources[0]), sources[0])
        checked += 1
        progress.update(checked)
    times_ms, rates, per_iteration, iterations = [], [], [], None
    for source in sources:
        runs = []
        for _ in range(settings.repeat):
            output, ms = clock(functools.partial(work.run, source))
            outcome = work.inspect(output, source)
            del output
            checked += 1
            progress.update(checked)
            runs.append(ms)
        times_ms.append(median(runs))
        iterations = outcome.iterations
        if iterations:
            # the loop's share of the call: set-up (allocation, graph checks) excluded
            per_iteration.append((times_ms[-1] - outcome.setup_ms) / iterations)
        line = f"{work.primitive} {work.implementation}"
        if source is not None:
            line += f" root {source}"
        line += f": {times_ms[-1]:.3f} ms"
        if outcome.reached is not None:
            edges = traversed_edges(work.graph, outcome.reached, degree)
            rates.append(edges / (times_ms[-1] / 1e3))
            line += f", {edges} edges, {rates[-1] / 1e9:.4f} GTEPS"
        progress.write(line + (f", {work.validation} valid" if work.validation else ""))
    output, peak = peak_device_bytes(work.device, functools.partial(work.run, sources[0]))
    work.inspect(output, sources[0])
    checked += 1
    time_ms = median(times_ms)
    return {
        "time_ms": time_ms,
        "gteps": harmonic_mean(rates) / 1e9 if rates else None,
        "gteps_median": median(rates) / 1e9 if rates else None,
        "times_ms": times_ms,
        "roots": roots if work.rooted else None,
        "iterations": iterations,
        "ms_per_iteration": median(per_iteration) if per_iteration else None,
        "peak_bytes": peak,
        "graph_bytes": work.graph_bytes(),
        "validation": work.validation,
        "checked_runs": checked,
        **outcome.extra,
    }


def run_bench(spec: GraphSpec, settings: Settings, device: Device,
              emit: Callable[[dict], None], progress: Progress) -> bool:
    """Run the benchmark; ``emit`` receives each record as soon as it exists.

    Each record holds the graph fields (``graph``, ``scale``, ``edgefactor``,
    ``vertices``, ``edges``, ``directed``, ``weighted``, ``graph_build_s``),
    ``primitive``, ``implementation``, ``device``, ``num_devices``, ``workers``
    (on several devices: ``threads`` or ``processes``),
    ``status`` (``ok``, ``skipped`` or ``failed``, with ``reason``) and the
    fields of :func:`measure` (``None`` unless ``ok``).

    Returns
    -------
    bool
        True when no measurement failed. A failure (a wrong answer, an
        exception) is recorded and reported, and the run goes on.
    """
    from .records import describe_device

    peer_names, explicit = select_peers(settings.peers)
    graphs: dict[tuple[bool, bool], tuple[Graph, float, PeerInputs]] = {}

    def key_of(primitive: str) -> tuple[bool, bool]:
        """(weighted, directed) of the graph ``primitive`` runs on: a file keeps
        its own weights and directions, a grid its directions."""
        return (primitive in WEIGHTED and spec.path is None,
                primitive in DIRECTED and spec.scale is not None)

    def graph_for(key: tuple[bool, bool]) -> tuple[Graph, float, PeerInputs]:
        if key not in graphs:
            kind = " with weights" * key[0] + " directed" * key[1]
            progress.phase(f"building {spec.name}{kind}")
            start = progress.elapsed()
            graph = spec.build(device, settings.seed, *key)
            device.synchronize()
            graphs[key] = (graph, progress.elapsed() - start, PeerInputs(graph))
            progress.end_phase()
            progress.write(f"built {graph}")
        return graphs[key]

    def record(work_graph: Graph, build_s: float, primitive: str, implementation: str,
               on: Device, **fields) -> dict:
        return {"primitive": primitive, "implementation": implementation, "graph": spec.name,
                "scale": spec.scale, "edgefactor": spec.edgefactor if spec.scale else None,
                "vertices": work_graph.num_vertices, "edges": work_graph.num_edges,
                "directed": work_graph.directed, "weighted": work_graph.is_weighted,
                "graph_build_s": round(build_s, 3), "host_peak_bytes": host_peak_bytes(),
                "device": describe_device(on),
                **{"num_devices": 1, **fields}}

    def timed(build: Callable[[], Workload], graph: Graph, build_s: float, primitive: str,
              implementation: str, on: Device, count: int = 1,
              workers: str | None = None) -> bool:
        try:
            work = build()
            fields = {"status": "ok", "reason": None, **measure(work, roots, settings, progress)}
        except Exception as error:  # recorded, reported, and the run's exit status says so
            progress.error(f"{primitive} {implementation} FAILED:\n{traceback.format_exc()}")
            emit(record(graph, build_s, primitive, implementation, on, status="failed",
                        reason=f"{type(error).__name__}: {error}", num_devices=count,
                        workers=workers))
            return False
        emit(record(work.graph, build_s, primitive, implementation, work.device, **fields,
                    num_devices=count, workers=workers))
        return True

    graph, _, _ = graph_for((False, False))
    roots = []
    if any(primitive in ROOTED for primitive in settings.primitives):
        roots = pick_roots(graph, settings.roots, settings.seed)
        progress.write(f"roots {roots}")
    seeds = {}
    if any(primitive in SAMPLED for primitive in settings.primitives):
        seeds = dict.fromkeys(SAMPLED, bc_seed(graph, settings.seed))
        progress.write(f"betweenness source seed {seeds['bc']}")
    ok, peered = True, set()
    for index, primitive in enumerate(settings.primitives):
        graph, build_s, inputs = graph_for(key_of(primitive))
        group = "bfs" if primitive == "dobfs" else primitive
        implementations = ["frontier"] + [name for name in covering(group, peer_names)
                                          if group not in peered]
        if primitive in UNDIRECTED_ONLY and graph.directed:
            reason = f"{primitive} is defined on undirected graphs only; {spec.name} is directed"
            progress.write(f"{primitive} skipped: {reason}")
            for name in implementations:
                emit(record(graph, build_s, group, name, device, status="skipped",
                            reason=reason))
            peered.add(group)
            continue
        for count in settings.devices:
            for workers in settings.workers if count > 1 else (None,):
                ok &= timed(functools.partial(frontier_workload, primitive, graph,
                                              seeds.get(primitive, settings.seed), settings,
                                              count, workers or "threads", inputs),
                            graph, build_s, primitive, "frontier", device, count, workers)
        for name in implementations[1:]:
            reason = skip_reason(name, graph, explicit)
            if reason:
                progress.write(f"{group} {name} skipped: {reason}")
                emit(record(graph, build_s, group, name, device, status="skipped",
                            reason=reason))
                continue
            on = device if name in GPU_PEERS else fr.get_device("cpu")
            ok &= timed(functools.partial(peer_workload, name, group, inputs,
                                          seeds.get(group, settings.seed)),
                        graph, build_s, group, name, on)
        peered.add(group)
        # free a weighted or directed copy unless the next primitive runs on it
        following = settings.primitives[index + 1:index + 2]
        keep = {(False, False), *map(key_of, following)}
        for key in [key for key in graphs if key not in keep]:
            graphs.pop(key)
    for graph, _, _ in graphs.values():
        graph.release_parts()
    return ok
