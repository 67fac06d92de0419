"""Where a multi-GPU run spends its time: cProfile of rank 0's thread.

Runs a primitive once to warm up, then once with rank 0's ``run_rank``
under cProfile (Python 3.12 allows one active profiler per process, so the
other ranks run unprofiled), and prints its top functions by own time and by
cumulative time, with the run's exchange share.

    python benchmarks/profile_multi_gpu.py --scale 22 --primitive bfs --gpus 2
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats

import frontier as fr
import frontier.multi.enactor as multi
from primitives import bfs, pagerank

PRIMITIVES = {"bfs": lambda G, s, **o: bfs(G, s, **o),
              "pagerank": lambda G, s, **o: pagerank(G, **o)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=22)
    parser.add_argument("--primitive", default="bfs", choices=sorted(PRIMITIVES))
    parser.add_argument("--gpus", type=int, default=2)
    parser.add_argument("--duplication", default="all")
    args = parser.parse_args()
    G = fr.generators.kronecker(args.scale, 16, seed=0, device="cuda:0", progress=False)
    source = int(fr.to_numpy(G.out_degree()).argmax())
    run = PRIMITIVES[args.primitive]
    devices = [f"cuda:{i}" for i in range(args.gpus)]
    options = {"devices": devices, "duplication": args.duplication}
    single = run(G, source, devices="cuda:0")
    run(G, source, **options)
    profiles = {}
    plain = multi.run_rank

    def profiled(*arguments, **keywords):
        if arguments[4].rank != 0:
            return plain(*arguments, **keywords)
        profile = cProfile.Profile()
        try:
            return profile.runcall(plain, *arguments, **keywords)
        finally:
            profiles[0] = profile

    multi.run_rank = profiled
    result = run(G, source, **options)
    multi.run_rank = plain
    print(f"{args.primitive} scale {args.scale}: 1 GPU {single.elapsed_s * 1e3:.2f} ms, "
          f"{args.gpus} GPUs {result.elapsed_s * 1e3:.2f} ms in {result.iterations} iterations, "
          f"exchange {result.exchange_s * 1e3:.2f} ms summed over ranks, "
          f"{result.exchanged_bytes / 2**20:.1f} MiB sent")
    for order in ("tottime", "cumulative"):
        text = io.StringIO()
        pstats.Stats(profiles[0], stream=text).sort_stats(order).print_stats(22)
        print("\n".join(line[:150] for line in text.getvalue().splitlines()[5:32]))


if __name__ == "__main__":
    main()
