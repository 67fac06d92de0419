"""Time the six primitives on one configuration and check them against saved answers.

Run it once per configuration on the same Kronecker graph (seed 0, weights
1..64): one device (``--save`` its answers), devices in one process, and
``--devices mpi`` under ``mpirun`` (``--check`` against the saved answers;
rank 0 reports). Each primitive runs ``--warmup`` times untimed, then
``--repeat`` times; a run's time is ``Result.elapsed_s`` (set-up to gathered
result, without partitioning). Lines go to ``--output`` as JSON; ``--table`` prints them::

    python benchmarks/mpi_timing.py --scale 14 --devices cpu --save ref.npz --output t.jsonl
    python benchmarks/mpi_timing.py --scale 14 --devices 2 --check ref.npz --output t.jsonl
    mpirun -n 2 python benchmarks/mpi_timing.py --scale 14 --devices mpi \\
        --check ref.npz --output t.jsonl
    python benchmarks/mpi_timing.py --table t.jsonl

Depths, distances and labels must be equal; BC and PageRank within 1e-9.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

import numpy as np

import frontier as fr
from primitives import (
    betweenness_centrality,
    bfs,
    connected_components,
    dobfs,
    pagerank,
    sssp,
)

RUNS = {
    "bfs": lambda G, src, **o: bfs(G, src, **o),
    "dobfs": lambda G, src, **o: dobfs(G, src, **o),
    "sssp": lambda G, src, **o: sssp(G, src, **o),
    "cc": lambda G, src, **o: connected_components(G, **o),
    "pagerank": lambda G, src, **o: pagerank(G, **o),
    "bc_1_source": lambda G, src, **o: betweenness_centrality(G, k=1, seed=src, **o),
}

EXACT = {"bfs": "depth", "dobfs": "depth", "sssp": "distance", "cc": "labels"}
CLOSE = {"pagerank": "rank", "bc_1_source": "centrality"}


def _devices(text: str):
    if text.isdigit():
        return int(text)
    names = text.split(",")
    return names[0] if len(names) == 1 else names


def _verdict(name: str, answer, reference) -> str:
    """``"same"``, or what differs from the saved answer."""
    if name in EXACT:
        field = EXACT[name]
        same = np.array_equal(getattr(answer, field), reference[f"{name}.{field}"])
        return "same" if same else f"DIFFERENT {field}"
    field = CLOSE[name]
    actual, expected = getattr(answer, field), reference[f"{name}.{field}"]
    if np.allclose(actual, expected, rtol=0, atol=1e-9, equal_nan=True):
        return "same"  # NaN where NetworkX has NaN too (BC with k=1 at the sampled source)
    return f"DIFFERENT {field} (max gap {float(np.nanmax(np.abs(actual - expected))):.2e})"


def measure(args) -> int:
    devices = _devices(args.devices)
    if args.switch_interval is not None:
        from frontier.multi import enactor

        enactor.SWITCH_INTERVAL_S = args.switch_interval
    if devices != "mpi":
        return _time_all(args, devices, None, fr.resolve_devices(devices)[0])
    from frontier.multi.mpi import abort_on_error, rank_device, world

    comm = world()
    with abort_on_error(comm):  # a failure on rank 0 must not leave the others waiting
        return _time_all(args, devices, comm, rank_device(comm))


def _time_all(args, devices, comm, home) -> int:
    """Time every primitive on ``devices``; 1 when an answer differs."""
    rank = 0 if comm is None else comm.Get_rank()
    graph = fr.generators.kronecker(args.scale, args.edgefactor, seed=0, weights=(1, 64),
                                    device=home)
    source = int(fr.to_numpy(graph.out_degree()).argmax())
    reference = np.load(args.check) if args.check else None
    saved, lines, failed = {}, [], False
    for name, run in RUNS.items():
        for _ in range(args.warmup):  # compilation, memory pools, code paths
            run(graph, source, devices=devices)
        results = [run(graph, source, devices=devices) for _ in range(args.repeat)]
        if rank != 0:
            continue
        answer = results[-1].to_numpy()
        field = EXACT.get(name) or CLOSE[name]
        saved[f"{name}.{field}"] = getattr(answer, field)
        partition = answer.partition or {}
        config = ("1 device" if partition == {} else
                  f"{len(answer.devices)} MPI ranks, {partition['transport']}"
                  if comm is not None else f"{len(answer.devices)} devices, 1 process")
        if args.switch_interval is not None and comm is None and partition:
            config += f", switch {args.switch_interval * 1e3:g} ms"
        line = {"primitive": name, "scale": args.scale, "config": config,
                "devices": list(answer.devices), "transport": partition.get("transport"),
                "median_ms": round(statistics.median(r.elapsed_s for r in results) * 1e3, 3),
                "num_devices": len(answer.devices), "iterations": answer.iterations,
                "exchanged_bytes": answer.exchanged_bytes,
                "exchange_ms": round(statistics.median(r.exchange_s for r in results) * 1e3, 3),
                "edge_cut": partition.get("edge_cut"),
                "answer": _verdict(name, answer, reference) if reference is not None else None}
        failed |= (line["answer"] or "same") != "same"
        lines.append(line)
        print(json.dumps(line), flush=True)
    if rank == 0 and args.save:
        np.savez(args.save, **saved)
    if rank == 0 and args.output:
        with open(args.output, "a") as handle:
            handle.writelines(json.dumps(line) + "\n" for line in lines)
    return 1 if failed else 0


def table(path: str) -> int:
    """A primitive-by-configuration table of median times (ms)."""
    with open(path) as handle:
        lines = [json.loads(text) for text in handle if text.strip()]
    configs = list(dict.fromkeys(line["config"] for line in lines))
    names = list(dict.fromkeys(line["primitive"] for line in lines))
    cell = {(line["primitive"], line["config"]): line for line in lines}
    print("| primitive | " + " | ".join(configs) + " |")
    print("|---" * (len(configs) + 1) + "|")
    for name in names:
        row = []
        for config in configs:
            line = cell.get((name, config))
            note = "" if line is None or line["answer"] in (None, "same") else \
                f" {line['answer']}"
            row.append("-" if line is None else f"{line['median_ms']:.1f}{note}")
        print(f"| {name} | " + " | ".join(row) + " |")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=14)
    parser.add_argument("--edgefactor", type=int, default=16)
    parser.add_argument("--devices", default="cpu",
                        help="a device, a count, a comma-separated list, or mpi")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs first")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (median)")
    parser.add_argument("--switch-interval", type=float, metavar="SECONDS",
                        help="Python's thread switch interval during an in-process run "
                             "(frontier.multi.enactor.SWITCH_INTERVAL_S)")
    parser.add_argument("--save", help="write the answers here (.npz)")
    parser.add_argument("--check", help="compare with the answers saved here")
    parser.add_argument("--output", help="append the JSON lines here")
    parser.add_argument("--table", metavar="JSONL", help="print the table of these lines")
    args = parser.parse_args()
    return table(args.table) if args.table else measure(args)


if __name__ == "__main__":
    sys.exit(main())
