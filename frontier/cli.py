"""The ``frontier`` command line.

::

    frontier run PRIMITIVE (--graph FILE | --kronecker SCALE [--edgefactor 16])
             [--source S] [--devices K|LIST|mpi] [--partition NAME]
             [--duplication all|one_hop] [--communication selective|broadcast]
             [--workers threads|processes] [--output result.npz] [--json]
    frontier demo [--scale 20]
    frontier bench ...
    frontier warmup [--device cuda:N] [--jobs J] [--kernels-only] [--list]
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import io
import json
import sys
import time

import numpy as np

from .atomic import write_npz
from .device import is_mpi
from .enactor import WORKERS
from .memory import host_peak_bytes
from .multi.distributed import DistributedGraph


def _primitives() -> dict:
    """Public primitive functions by command-line name: those returning a
    result of arrays (not the NetworkX-shaped dicts and numbers of, e.g.,
    ``shortest_path`` or ``transitivity``), which ``--output`` can write."""
    import primitives

    return {name: getattr(primitives, name) for name in primitives.__all__
            if inspect.isfunction(getattr(primitives, name))
            and _returns_result(getattr(primitives, name))}


def _returns_result(function) -> bool:
    annotation = inspect.signature(function).return_annotation
    name = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return name.endswith("Result")


def _devices_arg(text: str | None):
    if text is None:
        return None
    if text.isdigit():
        return int(text)
    names = [part.strip() for part in text.split(",") if part.strip()]
    return names[0] if len(names) == 1 else names


def _load_graph(args, device, quiet: bool):
    import frontier as fr

    if getattr(args, "distributed", False):
        devices = _devices_arg(args.devices) if args.devices else 1
        if args.graph is not None:
            return fr.read_parts(args.graph, devices=devices, progress=not quiet)
        if args.weighted:
            raise ValueError("--distributed builds unweighted graphs only")
        return fr.generators.kronecker_parts(args.kronecker, args.edgefactor, seed=args.seed,
                                             devices=devices, progress=not quiet)
    if args.graph is not None:
        return fr.read_graph(args.graph, device=device, progress=not quiet)
    return fr.generators.kronecker(args.kronecker, args.edgefactor, seed=args.seed,
                                   weights=(1, 64) if args.weighted else None,
                                   device=device, progress=not quiet)


def _reached_edges(graph, result) -> int | None:
    """Undirected edges inside the traversed component (Graph500 TEPS numerator),
    for a host result with depths or distances; ``None`` for other primitives."""
    from .bench.measure import traversed_edges

    if hasattr(result, "depth"):
        reached = result.depth >= 0
    elif hasattr(result, "distance"):
        reached = np.isfinite(result.distance)
    else:
        return None
    if isinstance(graph, DistributedGraph):  # degrees from this process's parts
        return None if graph.mpi else traversed_edges(graph, reached, graph.degree())
    return traversed_edges(graph, graph.device.asarray(reached))


def run_command(args) -> int:
    """``frontier run``. With ``--devices mpi`` it runs on every rank of an MPI
    job: rank 0 reports, the others stay quiet, and an error on any rank
    aborts them all (docs/mpi.md)."""
    if not is_mpi(args.devices):
        return _run(args, None)
    from .multi.mpi import abort_on_error, world

    comm = world()
    with abort_on_error(comm, INPUT_ERRORS):
        return _run(args, comm)


def _run(args, comm) -> int:
    import frontier as fr

    functions = _primitives()
    if args.primitive not in functions:
        raise SystemExit(f"frontier run: unknown primitive {args.primitive!r}; "
                         f"choose from {', '.join(sorted(functions))}")
    function = functions[args.primitive]
    devices = _devices_arg(args.devices)
    if comm is None:
        first, quiet = fr.resolve_devices(devices)[0], args.quiet
    else:
        from .multi.mpi import rank_device

        first, quiet = rank_device(comm), args.quiet or comm.Get_rank() != 0
    start = time.perf_counter()
    graph = _load_graph(args, first, quiet)
    load_s = time.perf_counter() - start
    kwargs = {"devices": devices, "duplication": args.duplication,
              "communication": args.communication, "workers": args.workers}
    if args.partition is not None:
        kwargs["partition"] = args.partition
    if "source" in inspect.signature(function).parameters:
        # a node: an edge list's own id when it was relabelled on reading
        first = 0 if graph.node_labels is None else graph.node_labels[0]
        kwargs["source"] = first if args.source is None else args.source
    result = function(graph, **kwargs)
    if result is None:
        return 0  # an MPI rank other than 0: rank 0 reports
    result = result.to_numpy()
    edges = _reached_edges(graph, result)
    summary = {
        "primitive": args.primitive,
        "graph": args.graph or f"kronecker-{args.kronecker}-{args.edgefactor}",
        "vertices": graph.num_vertices,
        "edges": graph.num_edges,
        "devices": ([fr.get_device(name).describe() for name in result.devices]
                    if comm is None else result.partition["ranks"]),
        "num_devices": len(result.devices),
        "iterations": result.iterations,
        "load_s": round(load_s, 3),
        "time_ms": round(result.elapsed_s * 1e3, 3),
        "host_peak_bytes": host_peak_bytes(),
    }
    if edges is not None and result.elapsed_s > 0:
        summary["teps"] = edges / result.elapsed_s
    if result.partition is not None:
        summary["partition"] = result.partition
        summary["exchanged_bytes"] = result.exchanged_bytes
        summary["exchange_ms"] = round(result.exchange_s * 1e3, 3)
    if comm is not None:
        summary["transport"] = result.partition["transport"]
    hint = deep_run_hint(result, args.primitive)
    if hint is not None:
        summary["hint"] = hint
    if args.output:
        write_npz(args.output, result.arrays())
        summary["output"] = args.output
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key:>11}: {value}")
    return 0


#: A run on a GPU with at least this many host round trips (iterations not
#: replayed on the device), each this short, is mostly host work.
DEEP_RUN_STEPS = 256
DEEP_RUN_STEP_S = 1e-3


def deep_run_hint(result, primitive: str) -> str | None:
    """A note for the user when a run on a GPU was a long string of short
    host round trips, where the CPU can be faster (docs/benchmarks.md,
    "Small and deep graphs"); ``None`` otherwise."""
    steps = result.iterations - result.replayed_levels
    on_gpu = any(name.startswith("cuda") for name in result.devices)
    if not on_gpu or steps < DEEP_RUN_STEPS or result.elapsed_s > steps * DEEP_RUN_STEP_S:
        return None
    return (f"{steps} iterations of {result.elapsed_s / steps * 1e6:.0f} us each, mostly host "
            f"work: on a graph this deep {primitive} may run faster with --devices cpu, and "
            "bfs and sssp, whose levels run on the device, faster still "
            "(docs/benchmarks.md, 'Small and deep graphs')")


def demo_command(args) -> int:
    """Generate a Kronecker graph, run BFS from a few roots, validate and report."""
    import frontier as fr
    from primitives import bfs

    from .bench.measure import harmonic_mean

    device = fr.get_device(args.device)
    print(f"Frontier demo on {device.describe()}: Graph500 Kronecker scale {args.scale}, "
          f"edgefactor {args.edgefactor}", flush=True)
    start = time.perf_counter()
    graph = fr.generators.kronecker(args.scale, args.edgefactor, seed=args.seed, device=device,
                                    progress=True)
    print(f"built {graph} in {time.perf_counter() - start:.1f} s", flush=True)
    degree = fr.to_numpy(graph.out_degree())
    roots = np.random.default_rng(args.seed).choice(np.flatnonzero(degree), args.roots,
                                                    replace=False)
    rates = []
    for root in roots.tolist():
        result = bfs(graph, source=root)
        fr.validate.graph500_bfs(graph, root, result.depth, result.predecessor)
        edges = _reached_edges(graph, result.to_numpy())
        rates.append(edges / result.elapsed_s)
        print(f"  bfs from {root:>8}: {result.iterations:>2} levels, {edges:>10} edges, "
              f"{result.elapsed_s * 1e3:9.1f} ms, {rates[-1] / 1e6:8.1f} MTEPS, valid",
              flush=True)
    harmonic = harmonic_mean(rates)
    print(f"harmonic mean over {len(rates)} roots: {harmonic / 1e6:.1f} MTEPS")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="frontier", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run one primitive on a graph")
    run.add_argument("primitive", help="bfs, dobfs, sssp, connected_components, ...")
    source = run.add_mutually_exclusive_group(required=True)
    source.add_argument("--graph", help="graph file (.mtx, .txt/.el edge list, .gr, .npz)")
    source.add_argument("--kronecker", type=int, metavar="SCALE",
                        help="generate a Graph500 Kronecker graph of 2^SCALE vertices")
    run.add_argument("--edgefactor", type=int, default=16)
    run.add_argument("--weighted", action="store_true",
                     help="Kronecker only: integer weights 1..64")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--source", type=int, help="start node, as the graph file names it "
                     "(default: the first vertex)")
    run.add_argument("--devices", help="K devices, a comma-separated list of names, or mpi "
                     "(one device per MPI rank, under mpirun)")
    run.add_argument("--partition", help="partitioner for multi-device runs: random, "
                     "contiguous, biased_random or metis")
    run.add_argument("--duplication", choices=("all", "one_hop"),
                     help="multi-device: a slot for every vertex on every device, or only "
                     "for owned vertices and their remote neighbours (default: one_hop for "
                     "primitives that declare dense_steps, such as pagerank, else all)")
    run.add_argument("--communication", choices=("selective", "broadcast"),
                     default="selective",
                     help="multi-device: updates to the devices that hold the vertex, or to all")
    run.add_argument("--workers", choices=WORKERS, default="threads",
                     help="multi-device: one thread per device in this process, or one "
                     "process per device (docs/multi-device.md)")
    run.add_argument("--distributed", action="store_true",
                     help="each of the --devices generates (--kronecker) or reads (--graph "
                     "FILE.fgb) only its own part (random partition), so no device or host "
                     "holds the whole graph")
    run.add_argument("--output", help="write every result array to this .npz file")
    run.add_argument("--json", action="store_true", help="print a one-line JSON summary")
    run.add_argument("--quiet", action="store_true", help="no progress output")
    run.set_defaults(handler=run_command)

    demo = commands.add_parser("demo", help="Kronecker BFS demo with Graph500 validation")
    demo.add_argument("--scale", type=int, default=20)
    demo.add_argument("--edgefactor", type=int, default=16)
    demo.add_argument("--roots", type=int, default=4)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--device", help="device name (default: first GPU, else cpu)")
    demo.set_defaults(handler=demo_command)

    from .bench import add_bench_parser

    add_bench_parser(commands)

    from .info import add_convert_parser, add_info_parser

    add_info_parser(commands)
    add_convert_parser(commands)

    from .warmup import add_warmup_parser

    add_warmup_parser(commands)
    return parser


# Bad input of any command: a missing or unreadable file, malformed content, a
# bad option value, a missing optional extra, a graph too large for the device.
INPUT_ERRORS = (ValueError, OSError, NotImplementedError, ImportError, MemoryError)


def _report_error(prog: str, message: str, as_json: bool) -> int:
    """Print one line naming the problem (JSON on stdout with ``--json``); exit code 2."""
    message = " ".join(str(message).split())
    if as_json:
        print(json.dumps({"error": message, "command": prog}))
    else:
        print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``frontier`` console script.

    Returns 0 on success and 2 on bad input (unknown options, bad values,
    missing or malformed files), after one line naming the problem on
    standard error, or with ``--json`` a JSON object ``{"error": ..., "command":
    ...}`` on standard output.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    as_json = "--json" in argv
    captured = io.StringIO()
    try:
        with contextlib.redirect_stderr(captured):
            args = build_parser().parse_args(argv)
    except SystemExit as exit:
        if not exit.code:
            return 0  # --help, printed on standard output
        # argparse's last line is "PROG: error: MESSAGE" (usage lines come first)
        lines = captured.getvalue().strip().splitlines() or ["frontier: error: bad arguments"]
        prog, _, message = lines[-1].partition(": error: ")
        return _report_error(prog, message or lines[-1], as_json)
    prog = f"frontier {args.command}"
    as_json = bool(getattr(args, "json", False))
    try:
        return args.handler(args)
    except INPUT_ERRORS as error:
        return _report_error(prog, str(error), as_json)
    except SystemExit as exit:
        if not isinstance(exit.code, str):
            raise
        return _report_error(prog, exit.code.removeprefix(f"{prog}: "), as_json)


if __name__ == "__main__":
    sys.exit(main())
