"""Check BFS on a graph built part by part over several GPUs, fast paths on and off.

    python benchmarks/check_multi_bfs.py SCALE [--devices 2] [--roots 3] [--skip NAME,...]
        [--then-pagerank]

Builds ``kronecker_parts(SCALE)`` as distributed_largest.py does, then runs
BFS from ``--roots`` random roots with every tuning switch at its default and
with each switched off in turn (pinned reads, the one-block degree scan, the
dense claim output), and checks every run with Graph500 checks 3 and 4 on
every part and against the first run's depths. ``--then-pagerank`` runs
PageRank afterwards (noting whether it fitted) and BFS with the defaults
again, to see whether a failed run leaves anything behind. Prints a line per run; exit
status 1 if any check failed. For hunting a wrong answer that only shows at
scale, where no single device holds the graph for a reference run.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from ab import applied
from distributed_largest import check_levels

import frontier as fr
from frontier.kernels import edges, workspace
from frontier.operators import fused
from primitives import bfs, pagerank

SWITCHES = {
    "defaults": [],
    "no pinned reads": [(workspace, "PINNED_READS", False)],
    "no block scan": [(edges, "BLOCK_SCAN_MAX", 0)],
    "no dense output": [(fused, "DENSE_MIN_VERTICES", 1 << 62)],
}


def run(D, root: int, settings) -> tuple[np.ndarray, str]:
    with applied(settings):
        result = bfs(D, root)
    depth = fr.to_numpy(result.depth)
    del result
    try:
        check_levels(D, root, depth)
    except (AssertionError, fr.validate.BFSValidationError) as error:
        return depth, f"FAILED: {error}"
    return depth, "checks 3 and 4 passed"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scale", type=int)
    parser.add_argument("--devices", default="2")
    parser.add_argument("--roots", type=int, default=3)
    parser.add_argument("--skip", default="", help="switches to leave out, comma-separated")
    parser.add_argument("--then-pagerank", action="store_true")
    args = parser.parse_args()
    switches = {label: settings for label, settings in SWITCHES.items()
                if label not in args.skip.split(",")}
    devices = int(args.devices) if args.devices.isdigit() else args.devices.split(",")
    D = fr.generators.kronecker_parts(args.scale, devices=devices)
    degree = D.degree()
    roots = np.random.default_rng(0).choice(np.flatnonzero(degree > 0), size=args.roots,
                                            replace=False).tolist()
    failed = False
    for root in roots:
        reference = None
        for label, settings in switches.items():
            depth, verdict = run(D, root, settings)
            if reference is None:
                reference = depth
            elif not np.array_equal(depth, reference):
                differing = np.count_nonzero(depth != reference)
                verdict += f"; depths differ from the defaults' at {differing} vertices"
            failed |= "FAILED" in verdict or "differ" in verdict
            reached = np.count_nonzero(depth >= 0)
            print(f"root {root:>11} {label:16} {reached:>11} reached  {verdict}", flush=True)
        if root == roots[0]:
            first = reference
    if args.then_pagerank:
        try:
            ranks = pagerank(D)
            print(f"PageRank: {ranks.iterations} iterations, ranks sum to "
                  f"{float(fr.to_numpy(ranks.rank).sum()):.9f}", flush=True)
            del ranks
        except fr.DeviceMemoryError as error:
            print(f"PageRank did not fit: {error}", flush=True)
        depth, verdict = run(D, roots[0], [])
        if not np.array_equal(depth, first):
            verdict += "; depths differ from the first run's"
        failed |= "FAILED" in verdict or "differ" in verdict
        print(f"root {roots[0]:>11} after PageRank   {verdict}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
