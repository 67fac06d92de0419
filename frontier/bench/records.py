"""Benchmark records: their fields, the JSON files that hold them, and tables.

One run writes one JSON file, a list of records (one per primitive and
implementation), rewritten after every measurement so that an interrupted run
keeps what it measured. Tables for a terminal and for Markdown are made from
any set of records; ``python -m frontier.bench FILE...`` prints one (and
draws a chart with ``--plot IMAGE``, see :mod:`frontier.bench.plot`).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sys
from datetime import datetime
from pathlib import Path

from ..device import Device

#: every field of a record, in the order written
FIELDS = (
    "primitive", "implementation", "graph", "scale", "edgefactor", "vertices", "edges",
    "directed", "weighted", "graph_build_s", "host_peak_bytes", "device", "num_devices", "status",
    "reason",
    "time_ms", "gteps", "gteps_median", "times_ms", "roots", "iterations", "ms_per_iteration",
    "peak_bytes", "graph_bytes", "validation", "checked_runs", "repeat", "warmup", "date",
    "command", "versions", "exchanged_bytes", "exchanged_bytes_per_iteration", "exchange_ms",
    "edge_cut", "partition", "workers",
)
#: fields every record has a value (possibly null) for, by the harness's contract
REQUIRED_FIELDS = (
    "primitive", "implementation", "graph", "scale", "vertices", "edges", "device",
    "num_devices", "time_ms", "gteps", "peak_bytes", "graph_bytes", "date", "command",
)
_VERSIONED_MODULES = ("numpy", "scipy", "networkx", "cupy", "frontier")


def make_record(**fields) -> dict:
    """A record with every field of :data:`FIELDS`, in order, ``None`` where absent.

    Raises
    ------
    ValueError
        For a field name that is not in :data:`FIELDS`.

    Examples
    --------
    >>> record = make_record(primitive="bfs", time_ms=1.5)
    >>> record["primitive"], record["gteps"], len(record) == len(FIELDS)
    ('bfs', None, True)
    """
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        raise ValueError(f"unknown record field {unknown[0]!r}; fields are {', '.join(FIELDS)}")
    return {name: fields.get(name) for name in FIELDS}


def describe_device(device: Device) -> str:
    """The device with its model: ``cuda:0 (NVIDIA H100 80GB HBM3)`` or
    ``cpu (AMD EPYC 9554 64-Core Processor, 16 threads)``."""
    if device.is_gpu:
        return device.describe()
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        match = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.MULTILINE)
        if match:
            model = match.group(1).strip()
    return f"{device.name} ({model}, {os.cpu_count()} threads)"


def versions() -> dict:
    """Python and the versions of the array and graph libraries loaded so far."""
    found = {"python": platform.python_version()}
    for name in _VERSIONED_MODULES:
        module = sys.modules.get(name)
        if module is not None:
            found[name] = getattr(module, "__version__", None)
    return found


def _plain(value):
    """JSON has no NumPy scalars: give their Python value."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} {value!r} to a JSON record")


def record_json(record: dict) -> str:
    """One record as a line of JSON (NaN and infinity are refused: not JSON)."""
    return json.dumps(record, allow_nan=False, default=_plain)


class RecordFile:
    """The JSON file of one run: ``{date}_{device}_{graph}.json`` in ``directory``.

    :meth:`write` replaces the file's content with all records so far, so the
    file is valid JSON after every measurement.
    """

    def __init__(self, directory, date: datetime, device: Device, graph: str):
        stamp = date.strftime("%Y%m%dT%H%M%SZ")
        tag = re.sub(r"[^A-Za-z0-9.-]+", "-", f"{device.name.replace(':', '')}_{graph}")
        self.path = Path(directory) / f"{stamp}_{tag}.json"

    def write(self, records: list[dict]) -> Path:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(records, indent=1, allow_nan=False, default=_plain)
        temporary = self.path.with_suffix(".json.partial")
        temporary.write_text(text + "\n")
        temporary.replace(self.path)
        return self.path


def read_records(paths) -> list[dict]:
    """The records of the JSON files ``paths`` (each a list of records).

    Raises
    ------
    ValueError
        If a file does not hold a list of records with the required fields.
    """
    records = []
    for path in paths:
        content = json.loads(Path(path).read_text())
        if not isinstance(content, list):
            raise ValueError(f"{path}: expected a JSON list of records, got "
                             f"{type(content).__name__}")
        for record in content:
            missing = [name for name in REQUIRED_FIELDS if name not in record]
            if missing:
                raise ValueError(f"{path}: a record lacks the field {missing[0]!r}")
        records += content
    return records


# tables ------------------------------------------------------------------------------

_COLUMNS = ("graph", "primitive", "implementation", "device", "time ms", "GTEPS hmean",
            "GTEPS median", "peak MiB", "graph MiB", "notes")


def _number(value) -> str:
    if value is None:
        return "-"
    return f"{value:.0f}" if abs(value) >= 1e4 else f"{value:.4g}"


def _mib(value) -> str:
    return "-" if value is None else f"{value / 2**20:.1f}"


def _notes(record: dict) -> str:
    if record["status"] != "ok":
        return f"{record['status']}: {record['reason']}"
    notes = []
    if record["roots"]:
        notes.append(f"{len(record['roots'])} roots x {record['repeat']}")
    if record["validation"]:
        notes.append(f"{record['validation']} valid")
    if record["iterations"]:
        notes.append(f"{record['iterations']} iterations, "
                     f"{_number(record['ms_per_iteration'])} ms each")
    if record.get("exchanged_bytes") is not None:
        notes.append(f"{record['exchanged_bytes_per_iteration'] / 2**10:.1f} KiB exchanged "
                     f"per iteration, {_number(record['exchange_ms'])} ms exchanging, "
                     f"edge cut {record['edge_cut']}")
    return "; ".join(notes)


def _devices(record: dict) -> str:
    """The device's name, with the count of a multi-device run (``cuda:0 x2``)
    and, for one run as worker processes, ``processes``."""
    name = record["device"].split(" ")[0]
    count = record.get("num_devices") or 1
    if count == 1:
        return name
    return f"{name} x{count}" + (" processes" if record.get("workers") == "processes" else "")


def _row(record: dict) -> list[str]:
    return [record["graph"], record["primitive"], record["implementation"],
            _devices(record), _number(record["time_ms"]),
            _number(record["gteps"]), _number(record["gteps_median"]),
            _mib(record["peak_bytes"]), _mib(record["graph_bytes"]), _notes(record)]


def format_table(records: list[dict]) -> str:
    """A plain-text table of ``records``, one line each.

    Examples
    --------
    >>> print(format_table([make_record(graph="g", primitive="cc", implementation="frontier",
    ...                                 device="cpu", status="ok", time_ms=2.0)]))
    graph  primitive  implementation  device  time ms  GTEPS hmean  GTEPS median  peak MiB  graph MiB  notes
    g      cc         frontier        cpu     2        -            -             -         -
    """  # noqa: E501
    rows = [list(_COLUMNS)] + [_row(record) for record in records]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
                     for row in rows)


def markdown_report(records: list[dict]) -> str:
    """Markdown: one section per run (same date and command), each a table."""
    runs: dict[tuple, list[dict]] = {}
    for record in records:
        runs.setdefault((record["date"], record["command"]), []).append(record)
    sections = []
    for (date, command), group in runs.items():
        first = group[0]
        lines = [f"### {first['graph']} on {first['device']}, {date}", "",
                 f"{first['vertices']} vertices, {first['edges']} edges. "
                 f"Command: `{command}`", "",
                 "| " + " | ".join(_COLUMNS[1:]) + " |",
                 "|" + "---|" * 3 + "---:|" * 5 + "---|"]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in _row(record)[1:])
                  + " |" for record in group]
        sections.append("\n".join(lines))
    return "\n\n".join(sections) + "\n"


def append_markdown(path, records: list[dict]) -> None:
    """Append :func:`markdown_report` of ``records`` to the file ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as file:
        file.write("\n" + markdown_report(records))


def main(argv: list[str] | None = None) -> int:
    """``python -m frontier.bench [--markdown] [--plot IMAGE] FILE...``: print a
    table of records and optionally draw them."""
    parser = argparse.ArgumentParser(prog="python -m frontier.bench",
                                     description="Tabulate frontier bench JSON records.")
    parser.add_argument("files", nargs="+", help="JSON files written by frontier bench")
    parser.add_argument("--markdown", action="store_true", help="Markdown instead of text")
    parser.add_argument("--plot", metavar="IMAGE",
                        help="draw GTEPS per implementation and multi-device speedup into "
                             "IMAGE (needs matplotlib: pip install 'frontier-graph[plot]')")
    args = parser.parse_args(argv)
    records = read_records(args.files)
    print(markdown_report(records) if args.markdown else format_table(records))
    if args.plot:
        from .plot import plot_records

        try:
            print(f"chart in {plot_records(records, args.plot)}", file=sys.stderr)
        except (ImportError, ValueError) as error:
            print(f"python -m frontier.bench: error: {error}", file=sys.stderr)
            return 2
    return 0
