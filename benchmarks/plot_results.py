"""The two charts of docs/benchmarks.md, drawn from the records it cites.

    PYTHONPATH=. python benchmarks/plot_results.py [OUTDIR]     # default: docs/images

* ``one-gpu-kronecker.png``: GTEPS against the Kronecker scale on one H200,
  Frontier's BFS, DOBFS and SSSP beside the GPU peers of the same runs;
* ``two-gpus-kronecker-26.png``: two H200s against one at Kronecker 26, per
  primitive, with the second GPU driven by a thread, a worker process or an
  MPI rank over NCCL.

The record files are named below, so a chart changes only when this script
does; after a new measurement, name its records here and on the page. Needs
matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from frontier.bench.plot import require_matplotlib
from frontier.bench.records import read_records

RESULTS = Path(__file__).resolve().parent / "results"

#: one H200, 2026-11-24: Kronecker 14, 22, 24 and 26 (26 with its GPU peers)
ONE_GPU = ["20261124T193225Z_cuda0-kronecker-14-16.json",
           "20261124T193131Z_cuda0-kronecker-22-16.json",
           "20261124T193138Z_cuda0-kronecker-24-16.json",
           "20261124T193730Z_cuda0-kronecker-26-16.json"]

#: two H200s, Kronecker 26: ``frontier bench --devices 1,2 --workers threads,processes``
TWO_GPUS = ["20261124T070604Z_cuda0-kronecker-26-16.json",   # BFS, DOBFS, PageRank
            "20261124T071137Z_cuda0-kronecker-26-16.json",   # SSSP
            "20261124T072107Z_cuda0-kronecker-26-16.json"]   # CC, BC
#: two H200s, Kronecker 26: ``benchmarks/run_mpi_gpu.sh`` (one GPU, then two ranks)
MPI = "20261123T0705Z_mpi_gpu_timing-kronecker-26-merge.jsonl"

#: (primitive, implementation) drawn in the first chart, with their labels
LINES = {("bfs", "frontier"): "Frontier BFS",
         ("dobfs", "frontier"): "Frontier DOBFS",
         ("sssp", "frontier"): "Frontier SSSP (weights 1..64)",
         ("bfs", "cusparse-spmv"): "BFS as cuSPARSE SpMVs",
         ("bfs", "cupy-frontier"): "BFS in whole-array CuPy"}
#: the primitives of the second chart, in its order, with their labels
PRIMITIVES = {"bfs": "BFS", "dobfs": "DOBFS", "sssp": "SSSP", "cc": "CC", "bc": "BC",
              "pagerank": "PageRank"}


def one_gpu_series(records: list[dict]) -> dict[str, list[tuple[int, float]]]:
    """``{label: [(scale, gteps), ...]}`` of the one-GPU records, by scale."""
    series: dict[str, list[tuple[int, float]]] = {label: [] for label in LINES.values()}
    for record in records:
        label = LINES.get((record["primitive"], record["implementation"]))
        if label and record["status"] == "ok":
            series[label].append((record["scale"], record["gteps"]))
    return {label: sorted(points) for label, points in series.items() if points}


def speedups(bench: list[dict], mpi: list[dict]) -> dict[str, dict[str, float]]:
    """``{model: {primitive: one GPU's time / two GPUs' time}}``.

    ``bench`` are ``frontier bench`` records (a primitive's one-GPU record is
    taken from the same file as its two-GPU one); ``mpi`` the lines of a
    ``mpi_timing.py`` record.
    """
    models: dict[str, dict[str, float]] = {"threads": {}, "worker processes": {},
                                           "MPI ranks, NCCL": {}}
    one = {(r["_file"], r["primitive"]): r["time_ms"] for r in bench
           if r["status"] == "ok" and r.get("num_devices", 1) == 1}
    for r in bench:
        if r["status"] == "ok" and r.get("num_devices", 1) == 2:
            model = "worker processes" if r.get("workers") == "processes" else "threads"
            models[model][r["primitive"]] = one[r["_file"], r["primitive"]] / r["time_ms"]
    single = {r["primitive"]: r["median_ms"] for r in mpi if r["config"] == "1 device"}
    for r in mpi:
        if r["config"] == "2 MPI ranks, mpi-nccl":
            primitive = "bc" if r["primitive"] == "bc_1_source" else r["primitive"]
            models["MPI ranks, NCCL"][primitive] = single[r["primitive"]] / r["median_ms"]
    return models


def draw_one_gpu(series, path: Path) -> None:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4.2), layout="constrained")
    ax = figure.add_subplot()
    for label, points in series.items():
        scales, gteps = zip(*points)
        style = "-o" if label.startswith("Frontier") else "--s"
        ax.plot(scales, gteps, style, label=label)
    ax.set_yscale("log")
    ax.set_xlabel("Kronecker scale (2^scale vertices, edge factor 16)")
    ax.set_ylabel("GTEPS (harmonic mean over 8 roots)")
    ax.set_title("One NVIDIA H200, 2026-11-24")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    figure.savefig(path, dpi=110)


def draw_two_gpus(models, path: Path) -> None:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4.2), layout="constrained")
    ax = figure.add_subplot()
    width = 0.8 / len(models)
    for i, (model, ratios) in enumerate(models.items()):
        xs = [p + (i - (len(models) - 1) / 2) * width for p in range(len(PRIMITIVES))]
        ax.bar(xs, [ratios.get(p, 0.0) for p in PRIMITIVES], width, label=model)
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(PRIMITIVES)), list(PRIMITIVES.values()))
    ax.set_ylabel("speed-up of two GPUs over one")
    ax.set_title("Kronecker 26, two NVIDIA H200s (dashed: as fast as one GPU)")
    ax.legend(fontsize="small")
    figure.savefig(path, dpi=110)


def main(argv: list[str]) -> int:
    require_matplotlib()
    out = Path(argv[0]) if argv else Path("docs/images")
    out.mkdir(parents=True, exist_ok=True)
    draw_one_gpu(one_gpu_series(read_records(RESULTS / name for name in ONE_GPU)),
                 out / "one-gpu-kronecker.png")
    bench = []
    for name in TWO_GPUS:
        bench += [dict(record, _file=name) for record in read_records([RESULTS / name])]
    mpi = [json.loads(line) for line in (RESULTS / MPI).read_text().splitlines() if line]
    draw_two_gpus(speedups(bench, mpi), out / "two-gpus-kronecker-26.png")
    print(f"wrote {out / 'one-gpu-kronecker.png'} and {out / 'two-gpus-kronecker-26.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
