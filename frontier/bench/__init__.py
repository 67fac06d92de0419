"""``frontier bench``: time Frontier's primitives and their peers on one graph.

::

    frontier bench (--kronecker SCALE [--edgefactor 16] | --graph FILE | --grid ROWSxCOLS)
                   [--primitives bfs,dobfs,sssp,cc,bc,pagerank] [--peers auto|none|LIST]
                   [--roots 8] [--repeat 3] [--warmup 1] [--device NAME] [--seed S]
                   [--results DIR] [--markdown FILE] [--plot IMAGE] [--json] [--quiet]

Progress goes to standard error as bars, one per step, when it is a terminal
(``--quiet`` turns them off); failures are reported there whatever it is. The
records go to a JSON file in ``--results`` (rewritten after every
measurement), as a table to standard output and, with ``--plot``, as a chart
(needs matplotlib: ``pip install 'frontier-graph[plot]'``). The exit status
is 1 when a measurement failed (a wrong answer or an exception; it is
recorded and the run goes on). See ``docs/benchmarks.md`` for what is
measured.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from datetime import datetime, timezone

from ..device import get_device
from ..progress import Progress
from .harness import GraphSpec, Settings, run_bench
from .peers import PEERS
from .plot import plot_records, require_matplotlib
from .records import (
    RecordFile,
    append_markdown,
    format_table,
    make_record,
    record_json,
    versions,
)
from .workload import DEFAULT_PRIMITIVES, PRIMITIVES, TRAVERSALS

__all__ = ["add_bench_parser", "bench_command"]


def _grid_shape(text: str) -> tuple[int, int]:
    rows, _, cols = text.lower().partition("x")
    if not (rows.isdigit() and cols.isdigit()) or int(rows) < 1 or int(cols) < 1:
        raise argparse.ArgumentTypeError(f"--grid {text!r}: expected ROWSxCOLS, e.g. 4096x4096")
    return int(rows), int(cols)


def _names(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _counts(text: str) -> tuple[int, ...]:
    """``1,2,4`` as device counts."""
    try:
        counts = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected device counts like 1,2") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected device counts of at least 1")
    return counts


def add_bench_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``bench`` command to the ``frontier`` command line's subparsers.

    Parameters
    ----------
    subparsers : the object ``ArgumentParser.add_subparsers`` returned

    Returns
    -------
    argparse.ArgumentParser
        The ``bench`` parser; its handler is :func:`bench_command`.
    """
    bench = subparsers.add_parser(
        "bench", help="time primitives and peers with Graph500 statistics",
        description="Time Frontier's primitives and their peers on one graph, Graph500 "
                    "style; see docs/benchmarks.md.")
    source = bench.add_mutually_exclusive_group(required=True)
    source.add_argument("--kronecker", type=int, metavar="SCALE",
                        help="a Graph500 Kronecker graph of 2^SCALE vertices")
    source.add_argument("--graph", metavar="FILE", help="a graph file (see frontier.read_graph)")
    source.add_argument("--grid", type=_grid_shape, metavar="ROWSxCOLS",
                        help="a road-like grid graph")
    bench.add_argument("--edgefactor", type=int, default=16,
                       help="Kronecker edges per vertex (default 16)")
    bench.add_argument("--primitives", type=_names, default=DEFAULT_PRIMITIVES,
                       metavar="LIST", help=f"comma-separated, from {','.join(PRIMITIVES)} "
                       f"(default: {','.join(DEFAULT_PRIMITIVES)})")
    bench.add_argument("--peers", default="auto", metavar="auto|none|LIST",
                       help=f"peers to time as well: auto, none, or from {','.join(PEERS)}")
    bench.add_argument("--roots", type=int, default=8,
                       help="random roots for each traversal (default 8)")
    bench.add_argument("--repeat", type=int, default=3,
                       help="timed runs per root; their median counts (default 3)")
    bench.add_argument("--warmup", type=int, default=1,
                       help="untimed runs before timing (default 1)")
    bench.add_argument("--device", help="device name (default: first GPU, else cpu)")
    bench.add_argument("--devices", type=_counts, default=(1,), metavar="LIST",
                       help="device counts to time Frontier's primitives on, e.g. 1,2: "
                       "GPUs from cuda:0 (virtual CPU devices with --device cpu); default 1")
    bench.add_argument("--shared", action="store_true",
                       help="the --devices counts are parts sharing the one --device (several "
                       "parts on one GPU: what a multi-device run costs beyond its devices)")
    bench.add_argument("--partition", default="random",
                       help="partitioner of multi-device runs (default random)")
    bench.add_argument("--duplication", choices=("all", "one_hop"),
                       help="duplication of multi-device runs (default: one_hop for the "
                       "primitives that declare dense_steps, such as pagerank, else all)")
    bench.add_argument("--workers", type=_names, default=("threads",), metavar="LIST",
                       help="how multi-device runs drive their devices: threads, processes, "
                       "or both (threads,processes: each timed; default threads)")
    bench.add_argument("--seed", type=int, default=0,
                       help="seed of the generator, the roots and BC's source (the first seed "
                            "from S whose source has at least the mean degree; default 0)")
    bench.add_argument("--results", default="benchmarks/results", metavar="DIR",
                       help="directory for the JSON records (default benchmarks/results)")
    bench.add_argument("--markdown", metavar="FILE",
                       help="append a Markdown table of this run to FILE")
    bench.add_argument("--plot", metavar="IMAGE",
                       help="draw GTEPS per implementation (and multi-device speedup) "
                            "into IMAGE, e.g. bench.png; needs the plot extra")
    bench.add_argument("--json", action="store_true",
                       help="print the records as JSON lines instead of a table")
    bench.add_argument("--quiet", action="store_true",
                       help="no progress bars (they are drawn only on a terminal anyway)")
    bench.set_defaults(handler=bench_command)
    return bench


def _command(args, spec: GraphSpec, device_name: str) -> str:
    """The command that repeats this measurement, every setting spelled out."""
    if spec.scale is not None:
        parts = ["--kronecker", str(spec.scale), "--edgefactor", str(spec.edgefactor)]
    elif spec.grid is not None:
        parts = ["--grid", f"{spec.grid[0]}x{spec.grid[1]}"]
    else:
        parts = ["--graph", spec.path]
    parts += ["--primitives", ",".join(args.primitives), "--peers", args.peers,
              "--roots", str(args.roots), "--repeat", str(args.repeat),
              "--warmup", str(args.warmup), "--device", device_name, "--seed", str(args.seed),
              "--devices", ",".join(map(str, args.devices)), "--partition", args.partition,
              "--workers", ",".join(args.workers)]
    if args.duplication is not None:
        parts += ["--duplication", args.duplication]
    if args.shared:
        parts.append("--shared")
    return shlex.join(["frontier", "bench", *parts])


def bench_command(args) -> int:
    """Run ``frontier bench`` for parsed arguments; 0 if every measurement
    succeeded, 1 if one failed (it is recorded with its error), 2 if ``--plot``
    is asked for without matplotlib (checked before anything is timed).

    Raises
    ------
    ValueError
        For ``--plot`` without a traversal among ``--primitives`` (nothing to draw).
    """
    if args.plot:
        try:
            require_matplotlib()
        except ImportError as error:
            print(f"frontier bench: error: {error}", file=sys.stderr)
            return 2
        if not set(args.primitives) & set(TRAVERSALS):
            raise ValueError(f"--plot draws GTEPS, which only {', '.join(TRAVERSALS)} report; "
                             f"--primitives {','.join(args.primitives)} has none of them")
    spec = GraphSpec(scale=args.kronecker, edgefactor=args.edgefactor, grid=args.grid,
                     path=args.graph)
    settings = Settings(args.primitives, args.peers, args.roots, args.repeat, args.warmup,
                        args.seed, args.devices, args.partition, args.duplication,
                        args.workers, args.shared)
    device = get_device(args.device)
    date = datetime.now(timezone.utc).replace(microsecond=0)
    run_fields = {"date": date.isoformat(), "command": _command(args, spec, device.name),
                  "repeat": settings.repeat, "warmup": settings.warmup}
    sink = RecordFile(args.results, date, device, spec.name)
    progress = Progress(f"bench {spec.name}", enabled=not args.quiet)
    records: list[dict] = []

    def emit(fields: dict) -> None:
        records.append(make_record(**fields, **run_fields, versions=versions()))
        sink.write(records)

    with device.activate():
        ok = run_bench(spec, settings, device, emit, progress)
    summary = f"{len(records)} records in {sink.path}"
    progress.finish(summary)
    if not progress.shown:  # where the records are is not progress: always say it
        print(f"frontier bench: {summary}", file=sys.stderr)
    if args.json:
        for record in records:
            print(record_json(record))
    else:
        print(format_table(records))
    if args.markdown:
        append_markdown(args.markdown, records)
    if args.plot:
        print(f"frontier bench: chart in {plot_records(records, args.plot)}", file=sys.stderr)
    return 0 if ok else 1
