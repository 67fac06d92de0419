"""Several parts sharing one device: what a multi-device run costs beyond
dividing the work (issue 27).

For each Kronecker scale, primitive, part count and duplication, one call is
timed on 1 part and on K parts that all live on ``--device``, with two
boundaries, in the same process and alternating:

- ``output``: the boundary that works from the step's output frontier, which
  BFS, DOBFS, SSSP, CC and (unweighted) BC take since they declare
  ``changes_only_in_output``;
- ``snapshot``: the boundary before it (the same primitive with the
  declaration off): every shared slot compared with a snapshot each step.

SSSP and BFS (which only pushes) also declare ``copies_may_lag``, so their
output boundary sends offers only; ``refresh`` times it with the refreshes
it sent before that declaration. BFS's and DOBFS's levels run jointly on the parts
(``joint``, :mod:`frontier.multi.joint_levels`: each level's boundary on the
device; DOBFS's pulls read a bitmap of the level's frontier that every part
sets); their ``output`` is then the output boundary after every level.
PageRank declares ``dense_steps`` with an ``"owner"`` array, so its
boundary sends every copy its owner's value without comparing
(``dense``, :mod:`frontier.multi.owner_refresh`); its ``snapshot`` is the
same primitive with ``dense_steps`` off.
``--boundaries`` keeps some of these (the one-part run is always made: the
ratios need it).
Each record holds the median time over roots (each root's median of
``--repeat`` runs after a warm-up; CUDA events), the bytes exchanged per
call, the iterations, the device memory pool's size after the runs (the
parts included: the pool's free blocks are released before each
configuration; parts are built once per part count and graph), the most
bytes one part held (``part_bytes``: its graph, slot tables and the
primitive's and the boundary's arrays; not the operators' temporaries), and for BFS
and SSSP a lower bound on the bytes: the pairs (part, vertex) where a vertex
reached from a part's own vertices is owned by another part, times the bytes
of one entry (a 4-byte id plus the declared values).

    python benchmarks/shared_parts.py --kronecker 24 --parts 2,4 --device cuda:0

prints a Markdown table and writes the records to ``--results``
(``<date>_shared-parts-kronecker-<scale>.json``). On virtual CPU devices
(``--device cpu``) it runs as a smoke test. With ``--spread`` the K parts go
on K devices instead (``cuda:0`` to ``cuda:K-1``, or K virtual CPU devices),
the same comparisons between GPUs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import shlex
import statistics
import sys
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import frontier as fr  # noqa: E402
import frontier.multi.communicator as communicator  # noqa: E402
from frontier.bench.harness import Settings, bc_seed, frontier_workload, pick_roots  # noqa: E402
from frontier.bench.measure import timer  # noqa: E402
from frontier.bench.records import describe_device, versions  # noqa: E402
from frontier.bench.workload import SAMPLED  # noqa: E402
from frontier.multi import joint_levels  # noqa: E402

#: the primitive classes whose declaration the snapshot boundary turns off
DECLARING = {"bfs": ("primitives.bfs", "BFS"), "dobfs": ("primitives.dobfs", "DOBFS"),
             "sssp": ("primitives.sssp", "SSSP"), "cc": ("primitives.cc", "ConnectedComponents"),
             "bc": ("primitives.bc", "Brandes")}
PRIMITIVES = ("bfs", "dobfs", "sssp", "cc", "bc", "pagerank")
#: the primitive classes whose ``dense_steps`` the snapshot boundary turns off
DENSE = {"pagerank": ("primitives.pagerank", "PageRank")}
#: the primitives whose step is a claim, the only step joint levels run
#: (SSSP's relaxations keep the output boundary with joint levels on);
#: DOBFS's pulls too (``JointLevels.run_auto``)
CLAIMING = ("bfs", "dobfs")


def declaring_class(primitive: str, classes: dict = DECLARING):
    module, name = classes[primitive]
    return getattr(importlib.import_module(module), name)


def boundaries(primitive: str, parts: int) -> list[str]:
    if parts == 1:
        return ["none"]
    if primitive in DENSE:
        return ["dense", "snapshot"]
    if primitive not in DECLARING:
        return ["snapshot"]
    declared = declaring_class(primitive)
    lagging = declared.copies_may_lag
    joint = ["joint"] if primitive in CLAIMING and declared.replayable else []
    return [*joint, "output", *(["refresh"] if lagging else []), "snapshot"]


def run_config(graph, primitive: str, parts: int, duplication: str, boundary: str,
               roots: list[int], repeat: int, seed: int, spread: bool = False) -> dict:
    """Time one configuration; its record's measured fields."""
    device = graph.device
    settings = Settings(primitives=(primitive,), duplication=duplication, shared=not spread)
    # betweenness's one source drawn in the giant component, as `frontier bench` draws it
    # (seed itself drew an isolated vertex at Kronecker 24: a run of two empty steps)
    work = frontier_workload(primitive, graph, bc_seed(graph, seed) if primitive in SAMPLED
                             else seed, settings, parts)
    sources = roots if work.rooted else [None]
    pool = device.xp.get_default_memory_pool() if device.is_gpu else None
    if pool is not None:
        pool.free_all_blocks()
    declared = declaring_class(primitive) if primitive in DECLARING else None
    # the class's own declaration, put back afterwards: a bool, or a property
    # (BFS's, on its direction), which is truthy on the class
    lagging = declared is not None and declared.copies_may_lag
    if declared is not None:
        declared.changes_only_in_output = boundary != "snapshot"
        declared.copies_may_lag = lagging and boundary in ("joint", "output")
    dense = declaring_class(primitive, DENSE) if primitive in DENSE else None
    if dense is not None:
        dense.dense_steps = boundary != "snapshot"
    joint_levels.JOINT_LEVELS = boundary in ("joint", "none")
    try:
        clock = timer(device)
        result = work.run(sources[0])  # warm-up: builds and places the parts
        work.inspect(result, sources[0])
        times, sent, iterations, bounded = [], [], [], []
        for source in sources:
            runs = [clock(lambda source=source: work.run(source)) for _ in range(repeat)]
            times.append(statistics.median(ms for _, ms in runs))
            result = runs[-1][0]
            work.inspect(result, source)
            sent.append(getattr(result, "exchanged_bytes", 0) or 0)
            iterations.append(result.iterations)
            if parts > 1 and primitive in ("bfs", "sssp"):
                bounded.append(result)
        # the pool as the runs left it, before the bound's temporaries join it
        pool_bytes = None if pool is None else int(pool.total_bytes())
        bound = [lower_bound_bytes(graph, kept, primitive) for kept in bounded]
    finally:
        if declared is not None:
            declared.changes_only_in_output = True
            declared.copies_may_lag = lagging
        if dense is not None:
            dense.dense_steps = True
        joint_levels.JOINT_LEVELS = True
    return {"time_ms": statistics.median(times), "times_ms": times,
            "exchanged_bytes": statistics.median(sent), "iterations": iterations[-1],
            "bound_bytes": statistics.median(bound) if bound else None,
            "pool_bytes": pool_bytes,
            "part_bytes": getattr(result, "part_bytes", None),
            "devices": list(result.devices)}


def lower_bound_bytes(graph, result, primitive: str) -> int:
    """Pairs (part, vertex) with the vertex reached over an arc from a
    reached vertex of the part and owned by another part, times the bytes
    one entry needs (a 4-byte id and the declared values)."""
    xp = graph.xp
    (layout, _), = [value for key, value in graph._parts.items()]
    owner = graph.device.asarray(layout.owner)
    if primitive == "bfs":
        reached, entry = result.depth >= 0, 4 + result.depth.itemsize
    else:
        reached, entry = xp.isfinite(result.distance), 4 + result.distance.itemsize
    entry += result.predecessor.itemsize
    seen = [xp.zeros(graph.num_vertices, dtype=bool) for _ in range(int(owner.max()) + 1)]
    for tails, heads, _ in graph.arc_batches():
        crossing = reached[tails] & (owner[tails] != owner[heads])
        for part, marks in enumerate(seen):
            marks[heads[crossing & (owner[tails] == part)]] = True
    return entry * sum(int(xp.count_nonzero(marks)) for marks in seen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kronecker", type=lambda s: [int(x) for x in s.split(",")],
                        default=[24])
    parser.add_argument("--parts", type=lambda s: [int(x) for x in s.split(",")],
                        default=[2, 4])
    parser.add_argument("--duplication", default="all,one_hop")
    parser.add_argument("--primitives", default=",".join(PRIMITIVES))
    parser.add_argument("--device", default=None)
    parser.add_argument("--roots", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--results", default="benchmarks/results")
    parser.add_argument("--boundaries", default="joint,output,refresh,dense,snapshot",
                        help="the multi-part boundaries to time (of joint, output, refresh, "
                             "dense, snapshot)")
    parser.add_argument("--spread", action="store_true",
                        help="each part on a device of its own (cuda:0, cuda:1, ...) instead "
                             "of all on --device")
    parser.add_argument("--host-syncs", action="store_true",
                        help="order the parts' all-to-all copies by host synchronizations "
                             "instead of CUDA events (communicator.ORDER_BY_EVENTS = False)")
    args = parser.parse_args(argv)
    communicator.ORDER_BY_EVENTS = not args.host_syncs
    device = fr.get_device(args.device)
    date = datetime.now(timezone.utc).replace(microsecond=0)
    command = shlex.join(["python", "benchmarks/shared_parts.py", *(argv or sys.argv[1:])])
    print("| scale | primitive | dup | parts | boundary | ms | x 1 part | MB sent | "
          "bound MB | pool GiB | part MB | iterations |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for scale in args.kronecker:
        primitives = args.primitives.split(",")
        plain = fr.generators.kronecker(scale=scale, seed=args.seed, device=device)
        # the weighted graph (SSSP's) only where SSSP runs: it is another graph's memory
        weighted = fr.generators.kronecker(scale=scale, seed=args.seed, weights=(1, 64),
                                           device=device) if "sssp" in primitives else None
        roots = pick_roots(plain, args.roots, args.seed)
        path = Path(args.results) / f"{date:%Y%m%dT%H%M%SZ}_shared-parts-kronecker-{scale}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        records, single = [], {}

        # parts outermost, so that every primitive on a graph reuses its parts
        for parts, duplication in [(1, None), *((p, d) for p in args.parts
                                                 for d in args.duplication.split(","))]:
            for graph in filter(None, (plain, weighted)):
                for primitive in primitives:
                    if (graph is weighted) != (primitive == "sssp"):
                        continue
                    for boundary in boundaries(primitive, parts):
                        if parts > 1 and boundary not in args.boundaries.split(","):
                            continue
                        fields = run_config(graph, primitive, parts, duplication or "all",
                                            boundary, roots, args.repeat, args.seed,
                                            args.spread)
                        single.setdefault(primitive, fields)
                        record = {"primitive": primitive, "graph": f"kronecker-{scale}",
                                  "scale": scale, "vertices": graph.num_vertices,
                                  "edges": graph.num_edges, "device": describe_device(device),
                                  "num_devices": parts,
                                  "duplication": duplication, "boundary": boundary,
                                  "copies_ordered_by": None if not device.is_gpu
                                  else "host" if args.host_syncs else "events",
                                  "roots": roots, "repeat": args.repeat,
                                  "ratio_to_one_part":
                                      fields["time_ms"] / single[primitive]["time_ms"],
                                  **fields, "date": date.isoformat(), "command": command,
                                  "versions": versions()}
                        records.append(record)
                        print(_row(record), flush=True)
                        # written after every record: a run cut short keeps what it measured
                        path.write_text(json.dumps(records, indent=1, default=_plain) + "\n")
                graph.release_parts()
    return 0


def _row(record: dict) -> str:
    def mb(value):
        return "" if value is None else f"{value / 1e6:.1f}"

    pool = "" if record["pool_bytes"] is None else f"{record['pool_bytes'] / 2**30:.2f}"
    return (f"| {record['scale']} | {record['primitive']} | {record['duplication'] or ''} | "
            f"{record['num_devices']} | {record['boundary']} | {record['time_ms']:.2f} | "
            f"{record['ratio_to_one_part']:.2f} | {mb(record['exchanged_bytes'])} | "
            f"{mb(record['bound_bytes'])} | {pool} | {mb(record['part_bytes'])} | "
            f"{record['iterations']} |")


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON")


if __name__ == "__main__":
    sys.exit(main())
