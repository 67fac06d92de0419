"""Wall time of whole primitive calls on a Kronecker graph, synchronized,
after a warm-up call: a quick before-and-after for changes that cut the
host work of each iteration (issue 32's colouring, k-core, label
propagation), where `frontier bench`'s checks and peers are not wanted.

    python benchmarks/call_times.py 20,22 greedy_color,kcore [--repeat 3] [--label new]

prints one line per scale and primitive (median of ``--repeat`` timed
calls, iterations) and, with ``--output FILE``, appends it as a JSON line.
Run it from another checkout (``PYTHONPATH=OLD``) to time the code before a
change in the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from primitive_calls import CALLS, MORE_CALLS

import frontier as fr

ALL_CALLS = {**CALLS, **MORE_CALLS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scales", help="comma-separated Kronecker scales")
    parser.add_argument("names", help=f"comma-separated, from {','.join(ALL_CALLS)}")
    parser.add_argument("--repeat", type=int, default=1, help="timed calls (default 1)")
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--label", default="", help="a name for the code timed")
    parser.add_argument("--output", help="append JSON lines here")
    args = parser.parse_args()
    device = fr.get_device(args.device)
    for scale in map(int, args.scales.split(",")):
        G = fr.generators.kronecker(scale, 16, seed=0, device=args.device)
        root = int(fr.to_numpy(G.out_degree()).argmax())
        for name in args.names.split(","):
            ALL_CALLS[name](G, root)  # warm-up: kernels compiled, memory pool grown
            walls = []
            for _ in range(args.repeat):
                device.synchronize()
                start = time.perf_counter()
                result = ALL_CALLS[name](G, root)
                device.synchronize()
                walls.append(time.perf_counter() - start)
            line = {"label": args.label, "code": os.path.dirname(os.path.abspath(fr.__file__)),
                    "device": str(device), "scale": scale, "name": name,
                    "wall_ms": round(statistics.median(walls) * 1e3, 1),
                    "iterations": getattr(result, "iterations", None), "repeat": args.repeat}
            print(json.dumps(line), flush=True)
            if args.output:
                with open(args.output, "a") as file:
                    file.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
