"""The largest Kronecker graph a machine's GPUs hold together, never whole.

    python benchmarks/distributed_largest.py SCALE [--devices 2] [--roots 2] [--output FILE]

Builds ``frontier.generators.kronecker_parts(SCALE, devices=...)``: each GPU
generates the edge stream and keeps its own part, so no device and not the
host ever holds the graph or its edge list. After a BFS and a PageRank on a
small graph on the same devices (every kernel compiled), a warm-up BFS, PageRank
(NetworkX's defaults) and BFS from ``--roots`` random vertices with edges
(one timed run each), with checks that need no whole graph: the
source has depth 0, every arc of every part joins depths at most one apart
and never leads from a reached vertex to an unreached one (Graph500 checks 3
and 4), and the ranks sum to 1. Prints one JSON record (build time, times,
GTEPS, device memory per GPU, host peak) and writes it to ``--output``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

import frontier as fr
from frontier.memory import host_peak_bytes
from primitives import bfs, pagerank


def device_bytes(D) -> list[dict] | None:
    """Per GPU: bytes in use in CuPy's pool now, and the bytes the pool holds
    (it keeps freed blocks, so this is about the peak so far). None on CPUs."""
    if not D.devices[0].is_gpu:
        return None
    import cupy

    held = []
    for device in D.devices:
        with cupy.cuda.Device(device.index):
            pool = cupy.get_default_memory_pool()
            held.append({"used": int(pool.used_bytes()), "pool": int(pool.total_bytes())})
    return held


class PeakSampler:
    """The most bytes each GPU's CuPy pool had in use while the ``with``
    block ran, sampled every millisecond by a thread (an array that lives
    less than that may be missed). ``peaks`` is None on CPUs. The queries
    take the pool's lock and the interpreter's: time nothing under it."""

    def __init__(self, D):
        self.devices = [device.index for device in D.devices] if D.devices[0].is_gpu else []
        self.peaks = None

    def __enter__(self):
        import threading

        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()
        return self

    def _sample(self):
        if not self.devices:
            return
        import cupy

        peaks = [0] * len(self.devices)
        while True:
            for k, index in enumerate(self.devices):
                with cupy.cuda.Device(index):
                    peaks[k] = max(peaks[k], int(cupy.get_default_memory_pool().used_bytes()))
            self.peaks = list(peaks)
            if self.done.wait(1e-3):
                return

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
        return False


def check_levels(D, source: int, depth) -> int:
    """Graph500 checks 3 and 4 on every part's arcs; the reached vertex count."""
    if int(depth[source]) != 0:
        raise AssertionError(f"depth[{source}] = {int(depth[source])}")
    for part in D.parts:
        fr.validate.edge_levels(part.graph, depth)  # on the part's device
    return int(np.count_nonzero(depth >= 0))


def save(record: dict, path: str | None) -> None:
    """Write the record so far (a later failure keeps what was measured)."""
    if path:
        with open(path, "w") as out:
            json.dump(record, out, indent=1)


def run_pagerank(D) -> dict:
    """PageRank with NetworkX's defaults: its times and the sum of the
    ranks, or what did not fit and by how much."""
    try:
        result = pagerank(D)
    except fr.DeviceMemoryError as error:
        return {"error": str(error)}
    total = float(fr.to_numpy(result.rank).sum())
    if abs(total - 1.0) > 1e-6:
        raise AssertionError(f"PageRank sums to {total}")
    return {"ms": round(result.elapsed_s * 1e3, 1), "iterations": result.iterations,
            "ms_per_iteration": round(result.elapsed_s * 1e3 / max(result.iterations, 1), 1),
            "exchanged_bytes": result.exchanged_bytes, "rank_sum": total}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scale", type=int)
    parser.add_argument("--devices", default="2")
    parser.add_argument("--roots", type=int, default=2)
    parser.add_argument("--output")
    args = parser.parse_args()
    devices = int(args.devices) if args.devices.isdigit() else args.devices.split(",")

    # Every kernel the runs use, compiled on every device before anything is
    # timed: a first PageRank otherwise includes seconds of compilation.
    small = fr.generators.kronecker_parts(15, devices=devices)
    bfs(small, 0)
    pagerank(small)
    del small

    start = time.perf_counter()
    D = fr.generators.kronecker_parts(args.scale, devices=devices, progress=True)
    for device in D.devices:
        device.synchronize()
    build_s = time.perf_counter() - start
    record = {"graph": f"kronecker-{args.scale}-16", "vertices": D.num_vertices,
              "edges": D.num_edges, "devices": [d.describe() for d in D.devices],
              "build_s": round(build_s, 2), "part_bytes": D.storage_bytes(),
              "edge_cut": D.layout.edge_cut, "held_bytes_after_build": device_bytes(D)}
    print(json.dumps(record), flush=True)

    degree = D.degree()
    rng = np.random.default_rng(0)
    roots = rng.choice(np.flatnonzero(degree > 0), size=args.roots, replace=False).tolist()
    bfs(D, roots[0])  # warm-up: compiles kernels, sizes the pools (result dropped)
    # PageRank before the timed BFS runs: no BFS result (4.3 GB of depths
    # on the first GPU at scale 30) is held while its vertex arrays are.
    record["pagerank"] = run_pagerank(D)
    if "error" not in record["pagerank"]:
        # Again, for its peak only: the sampler's pool queries slow the run.
        with PeakSampler(D) as sampler:
            sampled = run_pagerank(D)
        record["pagerank"].update(peak_used_bytes=sampler.peaks, sampled_ms=sampled["ms"])
    record["held_bytes_after_pagerank"] = device_bytes(D)
    save(record, args.output)
    runs = []
    for root in roots:
        result = bfs(D, root)
        depth = fr.to_numpy(result.depth)
        del result.predecessor, result.depth
        reached = check_levels(D, root, depth)
        edges = int(degree[depth >= 0].sum()) // 2
        del depth
        runs.append({"root": root, "ms": round(result.elapsed_s * 1e3, 2),
                     "iterations": result.iterations, "reached": reached,
                     "gteps": edges / result.elapsed_s / 1e9,
                     "exchanged_bytes": result.exchanged_bytes})
        print(json.dumps(runs[-1]), flush=True)
    record["bfs"] = runs
    record["held_bytes_after_bfs"] = device_bytes(D)
    record["host_peak_bytes"] = host_peak_bytes()
    print(json.dumps(record), flush=True)
    save(record, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
