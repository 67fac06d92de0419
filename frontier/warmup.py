"""``frontier warmup``: compile every CUDA kernel ahead of its first use.

A kernel's first use in a process compiles it (NVRTC) unless CuPy's
on-disk kernel cache holds it for this GPU's architecture, and the cache
starts empty: a fresh machine or container pays the compilations inside
its first calls (issue 33). ``frontier warmup`` pays them once, ahead, on
every GPU model it sees:

1. **compile** every kernel of :func:`registry` -- each listed
   instantiation of the ``.cu`` sources (:data:`frontier.kernels.module.
   INSTANTIATIONS`) and the generated elementwise and reduction kernels
   for the vertex and value types the package uses (the multi-device
   change test for one array of each type) -- a few at a time in threads
   (NVRTC runs outside the GIL);
2. **run** each primitive (and triangles, whose hubs reach kernels a
   small graph does not) once on a Kronecker graph of
   scale :data:`EXERCISE_SCALE`, on the GPU and (where there is a second
   GPU) on two, ``Graph.from_networkx``, and every
   NetworkX backend function once on a small graph, as
   :data:`frontier.nx_backend.call_table.CALLS` calls it (the calls
   ``benchmarks/first_call.py`` times): this compiles CuPy's own kernels
   these calls launch (arithmetic, ``where``, reductions: CuPy compiles
   those on first use too) and the generated kernels of type combinations
   step 1 does not list.

When both steps are done the command writes a stamp for the GPU's architecture
(:func:`frontier.kernels.first_use.write_stamp`): the NetworkX backend
answers a process's first calls on the CPU until it finds one
(:mod:`frontier.nx_backend.cold_start`, which runs this command in the
background for that). A kernel the cache holds is loaded, not compiled, so
a second warmup takes seconds. Without CuPy or a GPU there is nothing to compile: the command
says so and exits 0 (the CPU path compiles nothing).
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from .device import Device, gpu_count
from .kernels.first_use import cache_dir, remember_model, write_stamp
from .kernels.module import INSTANTIATIONS, compile_instantiation
from .progress import Progress

#: Vertex id types the generated kernels are built for.
_VERTEX = (np.int32, np.int64)
#: Value types of vertex arrays the multi-device kernels see.
_VALUES = (np.bool_, np.int32, np.int64, np.float32, np.float64)
#: Threads that compile at once, unless ``--jobs`` says otherwise.
DEFAULT_JOBS = min(8, os.cpu_count() or 1)


@dataclass(frozen=True)
class Kernel:
    """One kernel warmup compiles: its name, the function of the package that
    builds it (``module.function``) and a call that compiles it on the
    current GPU (or loads it from CuPy's cache)."""

    name: str
    made_by: str
    compile: Callable[[], None]


def registry() -> list[Kernel]:
    """Every kernel the package builds, as warmup compiles them: each listed
    instantiation of the ``.cu`` sources, then the generated kernels (one
    entry per type combination the package uses). ``tests/test_warmup.py``
    checks that every function of the package that builds a CuPy kernel is
    the ``made_by`` of an entry.

    Examples
    --------
    >>> kernels = registry()
    >>> kernels[0].name, kernels[0].made_by
    ('traversal.cu claim_push<int, int>', 'frontier.kernels.module._module')
    """
    kernels = [Kernel(f"{source} {expression}", "frontier.kernels.module._module",
                      functools.partial(compile_instantiation, source, expression))
               for source, expressions in INSTANTIATIONS.items() for expression in expressions]
    for ids in _VERTEX:
        kind = np.dtype(ids).name
        kernels += [
            Kernel(f"frontier_count_arcs ({kind})", "frontier.build._count_kernel",
                   functools.partial(_count_arcs, ids)),
            Kernel(f"frontier_place_arcs ({kind})", "frontier.build._place_kernel",
                   functools.partial(_place_arcs, ids, weighted=False)),
            Kernel(f"frontier_place_weighted_arcs ({kind})",
                   "frontier.build._place_weighted_kernel",
                   functools.partial(_place_arcs, ids, weighted=True)),
            Kernel(f"frontier_kronecker_edges ({kind})", "frontier.kronecker._gpu_kernel",
                   functools.partial(_kronecker_edges, ids)),
        ]
    for values in _VALUES:
        kind = np.dtype(values).name
        kernels.append(Kernel(f"frontier_masked_sum ({kind})", "frontier.kernels.masked._kernel",
                              functools.partial(_masked_sum, values)))
        for slots in _VERTEX:
            kernels.append(Kernel(f"frontier_changed_1 ({np.dtype(slots).name} slots, {kind})",
                                  "frontier.kernels.changes._kernel",
                                  functools.partial(_changed, slots, values)))
    return kernels


# what compiles each generated kernel: a launch on a few entries ------------------------

def _count_arcs(ids) -> None:
    import cupy

    from .build import _count_kernel

    _count_kernel()(cupy.zeros(1, dtype=ids), cupy.zeros(1, dtype=np.int64))


def _place_arcs(ids, weighted: bool) -> None:
    import cupy

    from .build import _place_kernel, _place_weighted_kernel

    src, dst, cursor = (cupy.zeros(1, dtype=ids), cupy.zeros(1, dtype=ids),
                        cupy.zeros(1, dtype=np.int64))
    if weighted:
        weights = cupy.zeros(1, dtype=np.int32)
        _place_weighted_kernel()(src, dst, weights, cursor, cupy.empty(1, dtype=ids),
                                 cupy.empty(1, dtype=np.int32))
    else:
        _place_kernel()(src, dst, cursor, cupy.empty(1, dtype=ids))


def _kronecker_edges(ids) -> None:
    import cupy

    from .kronecker import KroneckerStream

    # the smallest scale whose ids are of this type; one edge of it
    scale = 1 if ids is np.int32 else 31
    KroneckerStream(scale=scale, num_edges=1, seed=0).edges(cupy, 0, 1)


def _masked_sum(values) -> None:
    import cupy

    from .kernels.masked import ROW, masked_sum

    # a row and one more entry: both the row-wise and the whole-array reduction
    masked_sum(cupy.zeros(ROW + 1, dtype=values), cupy.ones(ROW + 1, dtype=bool))


def _changed(slots, values) -> None:
    import cupy

    from .kernels.changes import changed_mask

    array = cupy.zeros(1, dtype=values)
    changed_mask(cupy.zeros(1, dtype=slots), [array], [array])


# the calls that compile CuPy's own kernels --------------------------------------------

#: Kronecker scale of the graphs each primitive runs on once: large enough
#: that a BFS level lists more than BLOCK_SCAN_MAX (2^14) vertices, as on a
#: large graph (frontier.kernels.edges).
EXERCISE_SCALE = 16
#: Nodes of the NetworkX graph (Barabasi-Albert, 5 edges per new node) the
#: backend functions run on once; the functions for directed graphs on its
#: ``to_directed()``.
EXERCISE_NODES = 2000
#: Nodes of the smaller graphs (Barabasi-Albert, 3 edges per new node) every
#: backend function also runs on once. CuPy compiles a reduction (``sum``,
#: ``any``, ``count_nonzero``, ``mean``; CUB's two passes) for each block
#: size, and below 2,048 entries the block size follows the array's length
#: (32 to 512 threads), so after a warmup on the larger graphs alone the
#: first GPU calls on graphs of 40 to 800 nodes compiled 25 kernels, 1-9 s
#: a graph size (one H200, 2026-11-28, docs/networkx-backend.md). These
#: sizes put the graphs' vertex arrays (``n``) and arc arrays (about ``6 n``)
#: in every block-size class: up to 128 entries, 256, 512, 1,024 and more.
SMALL_EXERCISE_NODES = (20, 40, 60, 100, 200, 400, 800)


def exercises(device: Device) -> list[tuple[str, Callable[[], object]]]:
    """``(name, call)`` for every call warmup runs after compiling: each
    primitive on ``device`` and, if there is another device of its kind, on
    the two (the multi-device exchange's kernels), ``Graph.from_networkx``
    and every NetworkX backend function, each called as
    :data:`frontier.nx_backend.call_table.CALLS` calls it, on ``device``: on a
    graph of :data:`EXERCISE_NODES` nodes (``nx.<function>``) and on one of
    each of :data:`SMALL_EXERCISE_NODES` (``nx.<function>, <N> nodes``)."""
    import networkx as nx

    import primitives

    from .generators import kronecker
    from .graph import Graph
    from .nx_backend.call_table import CALLS, preparation

    graph = functools.cache(lambda weights=None: kronecker(EXERCISE_SCALE, 16, seed=0,
                                                           weights=weights, device=device))
    runs = []
    placements = [({}, "")]
    partner = _partner(device)
    if partner is not None:
        placements.append(({"devices": [device.name, partner.name]}, ", 2 devices"))
    for options, label in placements:
        runs += [
            (f"bfs{label}", lambda o=options: primitives.bfs(graph(), 0, **o)),
            (f"dobfs{label}", lambda o=options: primitives.dobfs(graph(), 0, **o)),
            (f"sssp{label}", lambda o=options: primitives.sssp(graph((1, 64)), 0, **o)),
            (f"connected_components{label}",
             lambda o=options: primitives.connected_components(graph(), **o)),
            (f"betweenness_centrality{label}",
             lambda o=options: primitives.betweenness_centrality(graph(), k=4, seed=0, **o)),
            (f"pagerank{label}", lambda o=options: primitives.pagerank(graph(), **o)),
            # hubs: the backend's small graph never unpacks a hub's marks
            # (a 2-D nonzero), which a first GPU call on a large graph compiled
            (f"triangles{label}", lambda o=options: primitives.triangles(graph(), **o)),
        ]
    sizes = {EXERCISE_NODES: 5, **dict.fromkeys(SMALL_EXERCISE_NODES, 3)}
    small = functools.cache(lambda nodes: nx.barabasi_albert_graph(nodes, sizes[nodes], seed=0))
    prepared = functools.cache(
        lambda prepare, nodes: small(nodes) if prepare is None else prepare(small(nodes)))

    def backend(function, nodes):
        # converting for each call (no cache): the conversion's kernels too, no warning;
        # the table's calls consume the generators some functions return
        graph = prepared(preparation(function), nodes)
        with nx.config(cache_converted_graphs=False), \
                nx.config.backends.frontier(device=device.name):
            return CALLS[function][1](nx, graph, backend="frontier")

    runs.append(("Graph.from_networkx",
                 lambda: Graph.from_networkx(small(EXERCISE_NODES), device=device)))
    runs += [(f"nx.{function}", functools.partial(backend, function, EXERCISE_NODES))
             for function in CALLS]
    runs += [(f"nx.{function}, {nodes} nodes", functools.partial(backend, function, nodes))
             for nodes in SMALL_EXERCISE_NODES for function in CALLS]
    return runs


def _partner(device: Device) -> Device | None:
    """Another device of ``device``'s kind: a second virtual CPU device, or
    another GPU if there is one."""
    if not device.is_gpu:
        return Device("cpu", device.index + 1)
    others = [index for index in range(gpu_count()) if index != device.index]
    return Device("cuda", others[0]) if others else None


# the command ---------------------------------------------------------------------------

def gpus_by_model() -> list[Device]:
    """The first GPU of each compute capability CuPy sees (kernels are
    compiled, and cached, per architecture); none without CuPy or a GPU."""
    if gpu_count() == 0:
        return []
    import cupy

    first = {}
    for index in range(gpu_count()):
        first.setdefault(cupy.cuda.Device(index).compute_capability, index)
    return [Device("cuda", index) for index in first.values()]


def warm_up(device: Device, *, jobs: int = DEFAULT_JOBS, run_calls: bool = True,
            progress: Progress | None = None) -> dict:
    """Compile every kernel of :func:`registry` for ``device``'s GPU into
    CuPy's kernel cache and, with ``run_calls``, run :func:`exercises` on it.

    Parameters
    ----------
    device : Device
        A GPU.
    jobs : int
        Kernels compiled at once, each in a thread of its own.
    run_calls : bool
        Also run each primitive and backend function once.
    progress : Progress, optional

    Returns
    -------
    dict
        ``{"device", "kernels", "calls", "compile_s", "calls_s"}``.

    Raises
    ------
    ValueError
        For a device that is not a GPU, or ``jobs`` below 1.
    """
    if not device.is_gpu:
        raise ValueError(f"frontier warmup compiles for a GPU, not {device.name!r}")
    if jobs < 1:
        raise ValueError(f"jobs={jobs!r}: expected at least 1 compiling thread")
    progress = progress or Progress("warmup")
    kernels = registry()

    def compile_on_device(kernel: Kernel) -> None:
        with device.activate():
            kernel.compile()

    start = time.perf_counter()
    progress.phase(f"compiling kernels for {device.describe()}", total=len(kernels),
                   unit="kernels")
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for done, _ in enumerate(pool.map(compile_on_device, kernels), 1):
            progress.update(done)
    compiled = time.perf_counter()
    calls = exercises(device) if run_calls else []
    if calls:
        progress.phase("running each call once", total=len(calls), unit="calls")
    with device.activate():
        for done, (_, call) in enumerate(calls, 1):
            call()
            progress.update(done)
    progress.end_phase()
    return {"device": device.describe(), "kernels": len(kernels), "calls": len(calls),
            "compile_s": round(compiled - start, 3),
            "calls_s": round(time.perf_counter() - compiled, 3)}


def gpu_identity(device: Device) -> tuple[str, str]:
    """``(compute capability, CuPy version)`` of ``device``: what a stamp is
    named by (:func:`frontier.kernels.first_use.stamp_path`)."""
    import cupy

    return cupy.cuda.Device(device.index).compute_capability, cupy.__version__


def warmup_command(args) -> int:
    """``frontier warmup``: exit status 0, also when there is no GPU (said on
    standard error); 2 for a bad ``--device`` or ``--jobs``."""
    from .device import get_device

    if args.list:
        for kernel in registry():
            print(kernel.name)
        return 0
    devices = [get_device(args.device)] if args.device else gpus_by_model()
    if not devices:
        print("frontier warmup: no CUDA GPU (CuPy is not installed, or sees none): nothing "
              "to compile; the CPU path compiles no kernels", file=sys.stderr)
        return 0
    for device in devices:
        progress = Progress(f"warmup {device.name}", enabled=not args.quiet)
        summary = warm_up(device, jobs=args.jobs, run_calls=not args.kernels_only,
                          progress=progress)
        summary["cache"] = cache_dir()
        # both steps done: the backend's first calls need not wait for this GPU model
        summary["stamp"] = None
        if not args.kernels_only:
            capability, version = gpu_identity(device)
            summary["stamp"] = write_stamp(capability, version, summary)
            remember_model(capability)  # a later test needs no cuInit
        print(f"frontier warmup: {summary['kernels']} kernels ready for {summary['device']} "
              f"in {summary['compile_s']:.1f} s, {summary['calls']} calls run in "
              f"{summary['calls_s']:.1f} s; CuPy's kernel cache: {summary['cache']}"
              + (f"; stamp: {summary['stamp']}" if summary["stamp"] else ""))
    return 0


def add_warmup_parser(commands) -> None:
    """The ``warmup`` subcommand of ``frontier``."""
    warmup = commands.add_parser(
        "warmup", help="compile every CUDA kernel into CuPy's kernel cache, ahead of first use",
        description="Compile every CUDA kernel Frontier launches into CuPy's on-disk kernel "
        "cache (CUPY_CACHE_DIR, else ~/.cupy/kernel_cache) for each GPU model present, and run "
        "each primitive and each NetworkX backend function once so that CuPy's own kernels "
        "are cached too; then stamp the cache "
        "(without the stamp the NetworkX backend answers first calls on the CPU). Run it once "
        "per machine or image; exits 0 without a GPU.")
    warmup.add_argument("--device", help="one GPU (cuda:N) instead of one of each model")
    warmup.add_argument("--jobs", type=int, default=DEFAULT_JOBS,
                        help=f"kernels compiled at once (default {DEFAULT_JOBS})")
    warmup.add_argument("--kernels-only", action="store_true",
                        help="compile the kernels, run no calls (and write no stamp)")
    warmup.add_argument("--list", action="store_true",
                        help="print the name of every kernel warmup compiles, and stop")
    warmup.add_argument("--quiet", action="store_true", help="no progress bars")
    warmup.set_defaults(handler=warmup_command)
