"""The ``frontier info`` and ``frontier convert`` commands.

::

    frontier info (FILE | --kronecker SCALE [--edgefactor 16]) [--devices K]
                  [--plot degrees.png] [--json]
    frontier convert IN OUT [--directed | --undirected] [--json]

``info`` prints the size, degree statistics, self loops, parallel edges and
connected components of a graph and the device memory a run needs
(:mod:`frontier.graphinfo`); ``convert`` reads any graph file and writes it
in the format of OUT's name, atomically. Both take the CSV options of
:func:`frontier.read_graph` (``--columns``, ``--header``, ``--delimiter``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from .atomic import atomic_write
from .generators import kronecker
from .graphinfo import degrees, graph_statistics, memory_estimate
from .io import graph_format, read_graph, write_graph

PLOT_HINT = "pip install 'frontier-graph[plot]'"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value}")
    return value


def _scale(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer 1..40, got {text!r}") from None
    if not 1 <= value <= 40:
        raise argparse.ArgumentTypeError(f"expected an integer 1..40, got {value}")
    return value


def _columns(text: str) -> tuple:
    """``a,b[,c]``: names, or indices where a part is all digits."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (2, 3) or not all(parts):
        raise argparse.ArgumentTypeError(
            f"expected SOURCE,TARGET[,WEIGHT] (names or indices), got {text!r}")
    return tuple(int(part) if part.isdigit() else part for part in parts)


def _add_read_options(parser: argparse.ArgumentParser) -> None:
    direction = parser.add_mutually_exclusive_group()
    direction.add_argument("--directed", dest="directed", action="store_const", const=True,
                           help="read the file as a directed graph")
    direction.add_argument("--undirected", dest="directed", action="store_const",
                           const=False, help="read every entry as an undirected edge")
    csv = parser.add_argument_group("CSV input")
    csv.add_argument("--columns", type=_columns, metavar="SOURCE,TARGET[,WEIGHT]",
                     help="columns by name or index (default: first two, third as weight "
                          "when there are exactly three)")
    header = csv.add_mutually_exclusive_group()
    header.add_argument("--header", dest="header", action="store_const", const=True,
                        help="the first line names the columns (default: detect)")
    header.add_argument("--no-header", dest="header", action="store_const", const=False)
    csv.add_argument("--delimiter", help="field separator (default ',')")
    parser.add_argument("--json", action="store_true", help="print one line of JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress output")


def _read(args, path: str):
    options = {}
    if args.columns is not None:
        options["columns"] = args.columns
    if args.header is not None:
        options["header"] = args.header
    if args.delimiter is not None:
        options["delimiter"] = args.delimiter
    return read_graph(path, directed=args.directed, device="cpu", progress=not args.quiet,
                      **options)


# info --------------------------------------------------------------------------------


def add_info_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``frontier info`` to the command line's subparsers; returns its parser."""
    info = subparsers.add_parser(
        "info", help="size, degrees, components and memory needs of a graph",
        description="Describe a graph: vertices, edges, degree statistics, self loops, "
                    "parallel edges, connected components, and the device memory each "
                    "primitive needs (docs/io-and-generators.md).")
    source = info.add_mutually_exclusive_group(required=True)
    source.add_argument("graph", nargs="?", metavar="FILE", help="a graph file")
    source.add_argument("--kronecker", type=_scale, metavar="SCALE",
                        help="a Graph500 Kronecker graph of 2^SCALE vertices")
    info.add_argument("--edgefactor", type=_positive, default=16,
                      help="Kronecker edges per vertex (default 16)")
    info.add_argument("--seed", type=int, default=0, help="Kronecker seed (default 0)")
    info.add_argument("--devices", type=_positive, default=1, metavar="K",
                      help="estimate the memory per device for K devices (default 1)")
    info.add_argument("--plot", metavar="PNG", help="draw the degree distribution "
                      f"(log-log) to this image file; needs matplotlib ({PLOT_HINT})")
    _add_read_options(info)
    info.set_defaults(handler=info_command)
    return info


def _size(nbytes: float) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= scale:
            return f"{nbytes / scale:.2f} {unit}"
    return f"{int(nbytes)} B"


def _text_report(report: dict) -> str:
    lines = [f"{'graph':>22}: {report['graph']}"]
    for key in ("vertices", "edges", "arcs", "directed", "weighted", "weight_dtype"):
        lines.append(f"{key:>22}: {report[key]}")
    for key in ("degree", "out_degree", "in_degree"):
        if key in report:
            stats = report[key]
            lines.append(f"{key.replace('_', ' '):>22}: min {stats['min']}, "
                         f"mean {stats['mean']}, max {stats['max']}")
    for key in ("self_loops", "parallel_edges", "components", "largest_component",
                "singleton_components", "isolated_vertices"):
        lines.append(f"{key.replace('_', ' '):>22}: {report[key]}")
    memory = report["memory"]
    lines.append(f"{'graph storage':>22}: {_size(memory['graph_bytes'])}")
    devices = memory["devices"]
    if devices > 1:
        local = memory["per_device"]
        lines.append(f"{'per device':>22}: {local['owned']} owned + {local['proxies']} "
                     f"proxy vertices, {local['arcs']} arcs ({devices} devices, "
                     "random partition)")
    lines.append(f"{'memory estimate':>22}: one device" +
                 (f" | each of {devices}" if devices > 1 else ""))
    for name, need in memory["primitives"].items():
        line = f"{name:>22}: {_size(need['total_bytes'])}"
        if devices > 1:
            line += f" | {_size(need['per_device_bytes'])}"
        lines.append(line)
    if "plot" in report:
        lines.append(f"{'plot':>22}: {report['plot']}")
    return "\n".join(lines)


def info_command(args) -> int:
    """Run ``frontier info`` for parsed arguments."""
    if args.plot:
        require_matplotlib()  # before the work, not after
    start = time.perf_counter()
    if args.graph is not None:
        G = _read(args, args.graph)
        name = args.graph
    else:
        G = kronecker(args.kronecker, args.edgefactor, seed=args.seed, device="cpu",
                      progress=not args.quiet)
        name = f"kronecker-{args.kronecker}-{args.edgefactor}"
    load_s = time.perf_counter() - start
    report = {"graph": name, **graph_statistics(G),
              "memory": memory_estimate(G, args.devices), "load_s": round(load_s, 3)}
    if args.plot:
        report["plot"] = str(plot_degrees(G, args.plot, title=Path(name).name))
    print(json.dumps(report) if args.json else _text_report(report))
    return 0


def require_matplotlib():
    """The ``matplotlib`` module, or ImportError naming the ``plot`` extra."""
    try:
        import matplotlib
    except ImportError as error:
        raise ImportError("drawing needs matplotlib, which is not installed; it is the "
                          f"optional extra 'plot': {PLOT_HINT}") from error
    return matplotlib


def plot_degrees(G, path, title: str = "") -> Path:
    """Draw the degree distribution of ``G`` (vertices per degree, log-log) to ``path``.

    The image format comes from the file name (``.png``, ``.svg``, ``.pdf``);
    the file is written atomically with matplotlib's Agg renderer (no display
    needed). Vertices of degree 0 cannot appear on log axes and are left out.

    Raises
    ------
    ImportError
        Naming the ``plot`` extra, when matplotlib is not installed.
    """
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    path = Path(path)
    figure = Figure(figsize=(6, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for name, values in degrees(G).items():
        counts = np.bincount(values)
        shown = np.flatnonzero(counts[1:]) + 1
        label = {"degree": "degree", "out": "out-degree", "in": "in-degree"}[name]
        axes.loglog(shown, counts[shown], "o", markersize=3, alpha=0.7, label=label)
    axes.set_xlabel("degree")
    axes.set_ylabel("vertices")
    axes.set_title(f"{title}: {G.num_vertices} vertices, {G.num_edges} edges")
    axes.legend()
    file_format = path.suffix.lstrip(".").lower() or "png"
    with atomic_write(path) as file:
        figure.savefig(file, format=file_format)
    return path


# convert -----------------------------------------------------------------------------


def add_convert_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``frontier convert`` to the command line's subparsers; returns its parser."""
    convert = subparsers.add_parser(
        "convert", help="convert a graph file to another format",
        description="Read IN (any format read_graph reads) and write OUT in the format of "
                    "its name (.fgb, .npz, .mtx, .gr, .csv, .txt/.el/.edges/.tsv, text "
                    "formats optionally .gz). OUT is written atomically.")
    convert.add_argument("input", metavar="IN")
    convert.add_argument("output", metavar="OUT")
    _add_read_options(convert)
    convert.set_defaults(handler=convert_command)
    return convert


def convert_command(args) -> int:
    """Run ``frontier convert`` for parsed arguments."""
    kind = graph_format(args.output)
    if kind is None:
        raise ValueError(f"cannot tell the output format from the name {args.output!r}: "
                         "use .fgb, .npz, .mtx, .gr, .csv or .txt/.el/.edges/.tsv")
    start = time.perf_counter()
    G = _read(args, args.input)
    read_s = time.perf_counter() - start
    write_graph(G, args.output)
    write_s = time.perf_counter() - start - read_s
    if G.node_labels is not None and kind in ("mtx", "dimacs"):
        print(f"frontier convert: note: {args.output} numbers the vertices 1..n; the "
              "original node labels are not kept", file=sys.stderr)
    summary = {"input": args.input, "output": args.output, "format": kind,
               "vertices": G.num_vertices, "edges": G.num_edges, "directed": G.directed,
               "weighted": G.is_weighted, "read_s": round(read_s, 3),
               "write_s": round(write_s, 3)}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"wrote {args.output}: {G} in {read_s:.2f} s + {write_s:.2f} s")
    return 0


__all__ = ["add_convert_parser", "add_info_parser", "convert_command", "info_command",
           "plot_degrees", "require_matplotlib"]
