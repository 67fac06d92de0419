"""Time the six primitives on one GPU and on several, on one Kronecker graph.

A first look at multi-GPU scaling with the multi-device enactor (not the
tuned fast path): each primitive runs once to warm up, then ``--repeat``
times per configuration; a run's time is ``Result.elapsed_s`` (wall time
from set-up to the synchronized result). Prints one line per configuration
and writes them as JSON lines with ``--output``.

    python benchmarks/multi_gpu_timing.py --scale 22 --gpus 2 [--output t.jsonl]
"""

from __future__ import annotations

import argparse
import json
import statistics

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=20)
    parser.add_argument("--gpus", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--output")
    args = parser.parse_args()
    G = fr.generators.kronecker(args.scale, 16, seed=0, weights=(1, 64), device="cuda:0",
                                progress=False)
    source = int(fr.to_numpy(G.out_degree()).argmax())
    configs = [("cuda:0", "all")] + [
        ([f"cuda:{i}" for i in range(args.gpus)], duplication)
        for duplication in ("all", "one_hop")]
    lines = []
    for name, run in RUNS.items():
        for devices, duplication in configs:
            options = {"devices": devices, "duplication": duplication}
            run(G, source, **options)  # warm-up: compilation, pools, partition code paths
            results = [run(G, source, **options) for _ in range(args.repeat)]
            line = {
                "primitive": name, "scale": args.scale,
                "num_devices": len(results[0].devices), "duplication": duplication,
                "median_s": statistics.median(r.elapsed_s for r in results),
                "iterations": results[0].iterations,
                "exchanged_bytes": results[0].exchanged_bytes,
                "exchange_s": statistics.median(r.exchange_s for r in results),
                "edge_cut": (results[0].partition or {}).get("edge_cut"),
            }
            lines.append(line)
            print(json.dumps(line), flush=True)
    if args.output:
        with open(args.output, "w") as handle:
            handle.writelines(json.dumps(line) + "\n" for line in lines)


if __name__ == "__main__":
    main()
