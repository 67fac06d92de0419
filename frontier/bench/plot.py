"""Charts of benchmark records: ``frontier bench --plot out.png`` and
``python -m frontier.bench FILE... --plot out.png``.

The first panel is GTEPS (harmonic mean over roots) per implementation for
each graph and traversal, as grouped bars, on a log scale when the values
span more than two orders of magnitude. When the records hold more than one
``num_devices`` value (a missing field counts as 1), a second panel shows each
workload's speedup over its run on the fewest devices, with ideal scaling as
a dashed line. Matplotlib is the optional extra ``plot`` and is imported only
here, with the Agg backend (no display needed).
"""

from __future__ import annotations

import re
from pathlib import Path

from .workload import PRIMITIVES

#: how to get matplotlib, in the error raised without it
INSTALL_HINT = "pip install 'frontier-graph[plot]'"


def require_matplotlib():
    """The ``matplotlib`` module.

    Raises
    ------
    ImportError
        Naming the install command, when matplotlib is not installed.
    """
    try:
        import matplotlib
    except ImportError as error:
        raise ImportError(f"plotting needs matplotlib, which is not installed: "
                          f"{INSTALL_HINT}") from error
    return matplotlib


def _devices(record: dict) -> int:
    return record.get("num_devices") or 1


def _workers(record: dict) -> str:
    """How a multi-device run drove its devices (older records: threads)."""
    return record.get("workers") or "threads"


def _series(record: dict, several_devices: bool) -> str:
    """The legend entry: the implementation, with the device when it varies."""
    label = record["implementation"]
    if several_devices:
        label += f" ({(record.get('device') or '?').split(' ')[0]})"
    if _devices(record) > 1:
        label += f" x{_devices(record)}"
        if _workers(record) == "processes":
            label += " processes"
    return label


def _newest(records: list[dict], key) -> dict:
    """One record per ``key(record)``: the newest by date (the last given on a tie)."""
    chosen: dict = {}
    for record in records:
        k = key(record)
        if k not in chosen or (record.get("date") or "") >= (chosen[k].get("date") or ""):
            chosen[k] = record
    return chosen


def _natural(text: str) -> list:
    """Sort key that puts ``kronecker-8`` before ``kronecker-16``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def _gteps_panel(ax, records: list[dict]) -> None:
    from matplotlib.patches import Patch

    several = len({(r.get("device") or "?").split(" ")[0] for r in records}) > 1
    chosen = _newest(records, lambda r: (r["graph"], r["primitive"], _series(r, several)))
    order = {name: i for i, name in enumerate(PRIMITIVES)}
    groups = sorted({(g, p) for g, p, _ in chosen},
                    key=lambda gp: (_natural(gp[0]), order.get(gp[1], len(order)), gp[1]))
    # an implementation's bars side by side, fewest devices first
    first_seen = list(dict.fromkeys(r["implementation"] for r in chosen.values()))
    series = sorted({(r["implementation"], _devices(r), s) for (*_, s), r in chosen.items()},
                    key=lambda item: (first_seen.index(item[0]), item[1], item[2]))
    series = [name for *_, name in series]
    colour = {name: f"C{i % 10}" for i, name in enumerate(series)}
    crowded = max(sum((*group, name) in chosen for name in series) for group in groups) > 2
    for j, group in enumerate(groups):
        present = [name for name in series if (*group, name) in chosen]
        width = 0.8 / max(len(present), 2)
        for i, name in enumerate(present):
            bars = ax.bar(j + (i - (len(present) - 1) / 2) * width,
                          chosen[(*group, name)]["gteps"], width, color=colour[name])
            ax.bar_label(bars, fmt="%.3g", fontsize=7, padding=2,
                         rotation=90 if crowded else 0)
        if j and group[0] != groups[j - 1][0]:
            ax.axvline(j - 0.5, color="0.6", linewidth=0.8)
    # two rows of labels: the primitive under each group, the graph under its groups
    ax.set_xticks(range(len(groups)), [primitive for _, primitive in groups])
    graphs = list(dict.fromkeys(graph for graph, _ in groups))
    centres = [sum(j for j, (g, _) in enumerate(groups) if g == graph) /
               sum(g == graph for g, _ in groups) for graph in graphs]
    graph_axis = ax.secondary_xaxis("bottom")
    graph_axis.set_xticks(centres, graphs, fontweight="bold")
    graph_axis.tick_params(axis="x", length=0, pad=16)
    values = [r["gteps"] for r in chosen.values()]
    if max(values) / min(values) > 100:
        ax.set_yscale("log")
    ax.set_ylabel("GTEPS (harmonic mean over roots)")
    ax.set_title("Traversal rate by implementation (higher is better)")
    ax.legend(handles=[Patch(color=colour[name], label=name) for name in series], fontsize=8,
              loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=min(len(series), 4),
              frameon=False)
    ax.grid(axis="y", alpha=0.3)
    ax.margins(y=0.2)


def _scaling(records: list[dict]) -> dict[tuple, dict[int, float]]:
    """``{(graph, primitive, implementation, workers): {num_devices: time_ms}}``
    for the workloads timed on more than one number of devices (newest record
    each); a one-device time starts the line of every way of driving several."""
    timed = [r for r in records if r.get("time_ms")]
    chosen = _newest(timed, lambda r: (r["graph"], r["primitive"], r["implementation"],
                                       _devices(r), _workers(r)))
    lines: dict[tuple, dict[int, float]] = {}
    for (graph, primitive, implementation, devices, workers), record in chosen.items():
        lines.setdefault((graph, primitive, implementation, workers), {})[devices] = \
            record["time_ms"]
    for (graph, primitive, implementation, _), times in lines.items():
        one = lines.get((graph, primitive, implementation, "threads"), {}).get(1)
        if one is not None:
            times.setdefault(1, one)
    return {key: times for key, times in lines.items() if len(times) > 1}


def _speedup_panel(ax, records: list[dict]) -> None:
    lines = _scaling(records)
    # one colour per workload; worker processes dotted beside the threads' solid line
    palette = require_matplotlib().rcParams["axes.prop_cycle"].by_key()["color"]
    colours: dict = {}
    for (graph, primitive, implementation, workers), times in lines.items():
        devices = sorted(times)
        workload = (graph, primitive, implementation)
        colours.setdefault(workload, palette[len(colours) % len(palette)])
        processes = workers == "processes"
        ax.plot(devices, [times[devices[0]] / times[k] for k in devices],
                marker="s" if processes else "o", linestyle=":" if processes else "-",
                color=colours[workload],
                label=f"{primitive} {implementation}{' (processes)' if processes else ''}, "
                      f"{graph}")
    counts = sorted({k for times in lines.values() for k in times})
    ax.plot(counts, [k / counts[0] for k in counts], "k--", linewidth=1, label="ideal")
    ax.set_xscale("log", base=2)
    ax.set_xticks(counts, [str(k) for k in counts])
    ax.set_xlabel("number of devices")
    ax.set_ylabel("speedup (time on fewest devices / time)")
    ax.set_title("Multi-device scaling (higher is better)")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=2,
              frameon=False)
    ax.grid(alpha=0.3)


def plot_records(records: list[dict], path) -> Path:
    """Draw the benchmark chart of ``records`` into the image file ``path``.

    Parameters
    ----------
    records : list of dict
        Benchmark records (see :mod:`frontier.bench.records`); only those with
        status ``ok`` are drawn.
    path : str or Path
        The image to write; its suffix picks the format (``.png``, ``.svg``, ``.pdf``).

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    ImportError
        When matplotlib is missing (install the ``plot`` extra).
    ValueError
        When no record has GTEPS (only BFS, DOBFS and SSSP report it) and
        there is no multi-device timing to draw.

    Examples
    --------
    >>> from frontier.bench.records import read_records          # doctest: +SKIP
    >>> plot_records(read_records(["run.json"]), "run.png")      # doctest: +SKIP
    PosixPath('run.png')
    """
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ok = [r for r in records if r.get("status", "ok") == "ok"]
    rated = [r for r in ok if r.get("gteps")]
    scaling = bool(_scaling(ok))
    if not rated and not scaling:
        raise ValueError("nothing to plot: no record has GTEPS (bfs, dobfs and sssp report "
                         "it) and no workload was timed on several numbers of devices")
    panels = [panel for panel, wanted in ((_gteps_panel, rated), (_speedup_panel, scaling))
              if wanted]
    groups = len({(r["graph"], r["primitive"]) for r in rated})
    figure = Figure(figsize=(max(6.0, 1.2 * groups + 3) + 6.0 * (len(panels) - 1), 5),
                    layout="constrained")
    FigureCanvasAgg(figure)
    for ax, panel in zip(figure.subplots(1, len(panels), squeeze=False)[0], panels):
        panel(ax, rated if panel is _gteps_panel else ok)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    return path
