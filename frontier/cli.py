"""The ``frontier`` command line.

::

    frontier run PRIMITIVE (--graph FILE | --kronecker SCALE [--edgefactor 16])
             [--source S] [--devices K|LIST] [--partition NAME]
             [--output result.npz] [--json]
    frontier demo [--scale 20]
    frontier bench ...
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time

import numpy as np


def _primitives() -> dict:
    """Public primitive functions by command-line name."""
    import primitives

    return {name: getattr(primitives, name) for name in primitives.__all__
            if inspect.isfunction(getattr(primitives, name))}


def _devices_arg(text: str | None):
    if text is None:
        return None
    if text.isdigit():
        return int(text)
    names = [part.strip() for part in text.split(",") if part.strip()]
    return names[0] if len(names) == 1 else names


def _load_graph(args, device):
    import frontier as fr

    if args.graph is not None:
        return fr.read_graph(args.graph, device=device, progress=not args.quiet)
    return fr.generators.kronecker(args.kronecker, args.edgefactor, seed=args.seed,
                                   weights=(1, 64) if args.weighted else None,
                                   device=device, progress=not args.quiet)


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
    return traversed_edges(graph, graph.device.asarray(reached))


def run_command(args) -> int:
    import frontier as fr

    functions = _primitives()
    if args.primitive not in functions:
        raise SystemExit(f"frontier run: unknown primitive {args.primitive!r}; "
                         f"choose from {', '.join(sorted(functions))}")
    function = functions[args.primitive]
    devices = _devices_arg(args.devices)
    first = fr.resolve_devices(devices)[0]
    start = time.perf_counter()
    graph = _load_graph(args, first)
    load_s = time.perf_counter() - start
    kwargs = {"devices": devices}
    if args.partition is not None:
        kwargs["partition"] = args.partition
    if "source" in inspect.signature(function).parameters:
        kwargs["source"] = args.source
    result = function(graph, **kwargs).to_numpy()
    edges = _reached_edges(graph, result)
    summary = {
        "primitive": args.primitive,
        "graph": args.graph or f"kronecker-{args.kronecker}-{args.edgefactor}",
        "vertices": graph.num_vertices,
        "edges": graph.num_edges,
        "devices": [d.describe() for d in fr.resolve_devices(devices)],
        "iterations": result.iterations,
        "load_s": round(load_s, 3),
        "time_ms": round(result.elapsed_s * 1e3, 3),
    }
    if edges is not None and result.elapsed_s > 0:
        summary["teps"] = edges / result.elapsed_s
    if args.output:
        np.savez(args.output, **result.arrays())
        summary["output"] = args.output
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key:>11}: {value}")
    return 0


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
    run.add_argument("--source", type=int, default=0)
    run.add_argument("--devices", help="K devices, or a comma-separated list of names")
    run.add_argument("--partition", help="partitioner name for multi-device runs")
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
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``frontier`` console script."""
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (ValueError, FileNotFoundError, NotImplementedError) as error:
        print(f"frontier {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
