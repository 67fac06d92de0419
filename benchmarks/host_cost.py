"""Host cost per level of a multi-device run, on virtual CPU devices (issue 27).

On a deep graph whose levels do almost no work (a path: one vertex per
level), a level's time is what the loop, the boundary and the communicator
cost on the host. Each configuration runs BFS, SSSP (weights 1-9) and CC on
1, 2 and 4 parts (``cpu:0..K-1``, threads), and BFS and SSSP also on a small
Kronecker graph; it prints the time per level (the least of ``--repeat``
runs after a warm-up; the records also hold the median) and, for K parts,
the host cost per part and level beyond one part's, ``(T(K) - T(1)) / (I K)``
as in docs/multi-device.md's model.

    python benchmarks/host_cost.py --path 3000 --kronecker 10 --repeat 5

writes ``<date>_host-cost-cpu.json`` to ``--results``. ``--source DIR``
imports Frontier and the primitives from another checkout (``git archive
COMMIT | tar -x -C DIR``), to measure the code before a change in the same
way.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import statistics
import sys
from datetime import datetime, timezone
from pathlib import Path


def _workloads(fr, primitives, path_length: int, scale: int):
    """name -> (graph name, a call taking ``devices=``)."""
    bfs, sssp, cc = primitives.bfs, primitives.sssp, primitives.connected_components
    path = fr.generators.grid(1, path_length, device="cpu")
    weighted = fr.generators.grid(1, path_length, weights=(1, 9), device="cpu")
    kron = fr.generators.kronecker(scale, 16, seed=0, weights=(1, 64), device="cpu")
    return {
        ("bfs", f"path-{path_length}"): lambda **o: bfs(path, 0, **o),
        ("sssp", f"path-{path_length}"): lambda **o: sssp(weighted, 0, **o),
        ("cc", f"path-{path_length}"): lambda **o: cc(path, **o),
        ("bfs", f"kronecker-{scale}"): lambda **o: bfs(kron, 0, **o),
        ("sssp", f"kronecker-{scale}"): lambda **o: sssp(kron, 0, **o),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", type=int, default=3000, help="vertices of the path")
    parser.add_argument("--kronecker", type=int, default=10, help="scale of the Kronecker graph")
    parser.add_argument("--parts", type=lambda s: [int(x) for x in s.split(",")],
                        default=[1, 2, 4])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--source", default=None, help="a checkout to import Frontier from")
    parser.add_argument("--label", default=None, help="a name for the code measured")
    parser.add_argument("--results", default="benchmarks/results")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(args.source or Path(__file__).resolve().parents[1]).resolve()))
    import frontier as fr
    import primitives

    date = datetime.now(timezone.utc).replace(microsecond=0)
    command = shlex.join(["python", "benchmarks/host_cost.py", *(argv or sys.argv[1:])])
    records = []
    print("| primitive | graph | parts | levels | ms | us per level | host us per part, level |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for (primitive, graph), run in _workloads(fr, primitives, args.path, args.kronecker).items():
        single = None
        for parts in args.parts:
            devices = "cpu" if parts == 1 else [f"cpu:{i}" for i in range(parts)]
            run(devices=devices)  # warm-up (and the parts, built once)
            results = [run(devices=devices) for _ in range(args.repeat)]
            # the least time of the runs: other work on a shared CPU only adds to it
            ms = min(result.elapsed_s for result in results) * 1e3
            median_ms = statistics.median(result.elapsed_s for result in results) * 1e3
            levels = results[0].iterations
            single = single if parts > 1 else ms
            extra = (ms - single) / (levels * parts) * 1e3 if parts > 1 and levels else None
            record = {"primitive": primitive, "graph": graph, "num_devices": parts,
                      "devices": [devices] if parts == 1 else devices, "iterations": levels,
                      "time_ms": ms, "median_ms": median_ms,
                      "us_per_level": ms / max(levels, 1) * 1e3,
                      "host_us_per_part_level": extra, "label": args.label,
                      "repeat": args.repeat, "date": date.isoformat(), "command": command,
                      "machine": f"{platform.machine()}, {os.cpu_count()} cores",
                      "python": platform.python_version()}
            records.append(record)
            print(f"| {primitive} | {graph} | {parts} | {levels} | {ms:.1f} | "
                  f"{record['us_per_level']:.1f} | "
                  f"{'' if extra is None else f'{extra:.1f}'} |", flush=True)
    path = Path(args.results) / f"{date:%Y%m%dT%H%M%SZ}_host-cost-cpu.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, indent=1) + "\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
