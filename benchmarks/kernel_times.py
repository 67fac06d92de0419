"""Where does a primitive's device time go, kernel by kernel, and how much of
its wall time is host work?

``run`` mode runs one primitive call after a warm-up, between
``cudaProfilerStart`` and ``cudaProfilerStop``, so that Nsight Compute
started with ``--profile-from-start off`` times only that call's kernels; it
also prints the call's wall time (median of 5, synchronized, outside the
profiled range; but Nsight Compute slows the whole process, SSSP on 2
shared parts at Kronecker 24 printed 108 ms under it against 66-70 without:
time walls without it).
``table`` mode reads the CSV Nsight Compute wrote and prints each kernel's
launches and total microseconds, most time first, and the sum.

    ncu --profile-from-start off --clock-control none \\
        --metrics gpu__time_duration.sum --csv --log-file dobfs.csv \\
        python benchmarks/kernel_times.py run 24 dobfs
    python benchmarks/kernel_times.py table dobfs.csv

``SCALE`` is a Kronecker scale, ``grid`` (4096 x 4096), ``path`` (1 x
20000) or a graph file; the root is the hub (Kronecker) or vertex 0.
"""

from __future__ import annotations

import collections
import csv
import os
import statistics
import sys
import time

from primitive_calls import CALLS, MORE_CALLS

import frontier as fr

ALL_CALLS = {**CALLS, **MORE_CALLS}


def graph_and_root(scale: str, name: str):
    weights = (1, 64) if name.split("-")[0] == "sssp" else None
    if os.path.exists(scale):  # a graph file, from vertex 0
        return fr.read_graph(scale).to("cuda:0"), 0
    if scale == "grid":
        return fr.generators.grid(4096, 4096, weights=weights, device="cuda:0"), 0
    if scale == "path":
        return fr.generators.grid(1, 20_000, weights=weights, device="cuda:0"), 0
    G = fr.generators.kronecker(int(scale), 16, seed=0, weights=weights, device="cuda:0")
    return G, int(fr.to_numpy(G.out_degree()).argmax())


def run(scale: str, name: str) -> None:
    import cupy

    G, root = graph_and_root(scale, name)
    device = fr.get_device("cuda:0")
    walls = []
    for _ in range(6):  # the first is the warm-up
        device.synchronize()
        start = time.perf_counter()
        result = ALL_CALLS[name](G, root)
        device.synchronize()
        walls.append(time.perf_counter() - start)
    print(f"{name} on {G} from {root}: {result.iterations} iterations, wall "
          f"{statistics.median(walls[1:]) * 1e3:.3f} ms (median of 5)")
    cupy.cuda.profiler.start()
    ALL_CALLS[name](G, root)
    device.synchronize()
    cupy.cuda.profiler.stop()


def table(path: str) -> None:
    total = collections.defaultdict(float)
    launches = collections.Counter()
    with open(path) as handle:
        lines = [line for line in handle if line.startswith('"')]
    for row in csv.DictReader(lines):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        unit = row.get("Metric Unit", "nsecond")
        value = float(row["Metric Value"].replace(",", ""))
        scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3,
                 "msecond": 1e3}[unit]
        kernel = row["Kernel Name"].split("(")[0][:70]
        total[kernel] += value * scale
        launches[kernel] += 1
    print(f"{'us':>10} {'launches':>9}  kernel")
    for kernel, us in sorted(total.items(), key=lambda item: -item[1]):
        print(f"{us:10.1f} {launches[kernel]:9d}  {kernel}")
    print(f"{sum(total.values()):10.1f} {sum(launches.values()):9d}  all kernels")


if __name__ == "__main__":
    if sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3])
    else:
        table(sys.argv[2])
