"""SSSP's near/far width: time and work for several ``delta`` on one graph.

For each ``delta`` (in mean edge weights; ``inf`` turns the split off) and
each random root with edges: one untimed run to warm up, then ``--repeat``
timed runs (median), and one counted run that adds up the out-degrees of
every frontier the step expands: the relaxations, reported per stored arc.
Rates are Graph500's (edges in the reached part per second), harmonic mean
over the roots; the distances of every counted run are checked against the
edges.

    python benchmarks/sssp_delta.py --scale 24 --device cuda:0
    python benchmarks/sssp_delta.py --graph ../shared/datasets/DE.gr --device cpu
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import math

import numpy as np

import frontier as fr
from frontier.bench.checks import check_distances
from frontier.bench.harness import GraphSpec, pick_roots
from frontier.bench.measure import harmonic_mean, median, timer, traversed_edges
from frontier.bench.records import describe_device
from frontier.device import to_numpy
from primitives.sssp import SSSP


class CountingSSSP(SSSP):
    """SSSP that adds up the out-degrees of the frontiers it expands."""

    # It measures the near/far steps, which a replayed step would run on past.
    replayable = False

    def setup(self):
        super().setup()
        self.out_degree = self.graph.out_degree()
        self.relaxed = 0

    def step(self, frontier, iteration):
        self.relaxed += int(self.out_degree[frontier.ids].sum())
        return super().step(frontier, iteration)

    def result(self):
        result = super().result()
        result.relaxed = self.relaxed
        return result


def measure(graph, roots, delta, repeat, device):
    """(harmonic-mean GTEPS, median ms, relaxations per arc, iterations),
    the last two averaged over ``roots``."""
    time_call = timer(device)
    rates, times, relaxed, iterations = [], [], [], []
    for root in roots:
        call = functools.partial(fr.enact, SSSP, graph, source=root, delta=delta)
        call()
        runs = [time_call(call)[1] for _ in range(repeat)]
        counted = fr.enact(CountingSSSP, graph, source=root, delta=delta)
        check_distances(graph, root, counted.distance)
        reached = counted.distance < np.inf
        rates.append(traversed_edges(graph, reached) / (median(runs) * 1e-3) / 1e9)
        times.append(median(runs))
        relaxed.append(counted.relaxed / graph.num_arcs)
        iterations.append(counted.iterations)
    return harmonic_mean(rates), median(times), float(np.mean(relaxed)), float(np.mean(iterations))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, help="a Kronecker graph, edgefactor 16, weights 1..64")
    parser.add_argument("--grid", help="a grid ROWSxCOLS, weights 1..64")
    parser.add_argument("--graph", help="a graph file (its own weights)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--deltas", default="0.5,1,2,4,8,16,inf",
                        help="widths in mean edge weights (default %(default)s)")
    parser.add_argument("--roots", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", help="write the table here as JSON")
    args = parser.parse_args()
    if sum(x is not None for x in (args.scale, args.grid, args.graph)) != 1:
        parser.error("give exactly one of --scale, --grid, --graph")
    grid = tuple(int(x) for x in args.grid.lower().split("x")) if args.grid else None
    spec = GraphSpec(scale=args.scale, grid=grid, path=args.graph)
    device = fr.get_device(args.device)
    graph = spec.build(device, seed=0, weighted=True)
    mean_weight = float(to_numpy(graph.weights).mean()) if graph.weights is not None else 1.0
    roots = pick_roots(graph, args.roots, seed=0)
    print(f"{spec.name} on {device.name}: {graph.num_vertices:,} vertices, "
          f"{graph.num_arcs:,} arcs, mean weight {mean_weight:.3g}, roots {roots}")
    print("| delta (mean weights) | GTEPS | ms | relaxations / arc | iterations |")
    print("|---|---:|---:|---:|---:|")
    rows = []
    for text in args.deltas.split(","):
        multiple = float(text)
        delta = math.inf if math.isinf(multiple) else multiple * mean_weight
        gteps, ms, relaxed, iterations = measure(graph, roots, delta, args.repeat, device)
        rows.append({"delta_mean_weights": text, "gteps": gteps, "ms": ms,
                     "relaxations_per_arc": relaxed, "iterations": iterations})
        print(f"| {text} | {gteps:.3f} | {ms:.2f} | {relaxed:.2f} | {iterations:.1f} |",
              flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"graph": spec.name, "device": device.name,
                       "device_description": describe_device(device),
                       "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                       "roots": roots,
                       "mean_weight": mean_weight, "rows": rows}, out, indent=1)


if __name__ == "__main__":
    main()
