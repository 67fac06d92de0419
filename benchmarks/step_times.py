"""Each step of a primitive on one part and on parts sharing a device: its
time and the sizes of its frontiers.

Runs the primitive once to warm up, then once with its class's ``step``
wrapped: the rank's stream is synchronized before and after the step,
and the step's input and output frontier sizes are read (a read each).
Prints each step by iteration and rank, then the call's time without the
wrapper. On parts that share a GPU a part's step also waits for the
other parts' kernels queued meanwhile, so the steps of one iteration
overlap; what a multi-part call spends outside its steps (the
boundaries, the set-up, the gather) is the call less the slowest rank's
steps.

    python benchmarks/step_times.py --scale 26 --primitive cc --parts 2
    python benchmarks/step_times.py --scale 12 --primitive cc --parts 2 --device cpu

(docs/benchmarks.md, "Where CC's parts lose").
"""

from __future__ import annotations

import argparse
import threading
import time

from profile_multi_gpu import PRIMITIVES

import frontier as fr


def timed_steps(kind, device, log: list):
    """Wrap ``kind.step`` so that each call appends (rank thread, iteration,
    input size, output size, milliseconds) to ``log``; returns the plain step."""
    plain = kind.step

    def step(self, frontier, iteration):
        device_here = self.graph.device
        device_here.synchronize()
        begin = time.perf_counter()
        output = plain(self, frontier, iteration)
        device_here.synchronize()
        spent = (time.perf_counter() - begin) * 1e3
        log.append((threading.current_thread().name, iteration, frontier.size, output.size,
                    spent))
        return output

    kind.step = step
    return plain


def call_ms(run, G, source, device, **options) -> float:
    """One call's wall time in milliseconds, after a synchronization."""
    device.synchronize()
    begin = time.perf_counter()
    run(G, source, **options)
    device.synchronize()
    return (time.perf_counter() - begin) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=24)
    parser.add_argument("--primitive", default="cc", choices=sorted(PRIMITIVES))
    parser.add_argument("--parts", type=int, default=2)
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--duplication", default="all")
    args = parser.parse_args()
    device = fr.get_device(args.device)
    G = fr.generators.kronecker(args.scale, 16, seed=0, device=device, progress=False)
    source = int(fr.to_numpy(G.out_degree()).argmax())
    kind, run = PRIMITIVES[args.primitive]
    if device.is_gpu:
        parts = [device.name] * args.parts  # parts sharing the GPU
    else:
        parts = [f"cpu:{k}" for k in range(args.parts)]  # virtual CPU devices
    for label, options in (("1 part", {"devices": device.name}),
                           (f"{args.parts} parts", {"devices": parts,
                                                    "duplication": args.duplication})):
        run(G, source, **options)  # warm-up
        log: list = []
        plain = timed_steps(kind, device, log)
        try:
            run(G, source, **options)
        finally:
            kind.step = plain
        whole = call_ms(run, G, source, device, **options)
        print(f"{args.primitive} at Kronecker {args.scale}, {label}: {whole:.2f} ms a call "
              f"(unwrapped)")
        for rank, iteration, size_in, size_out, spent in log:
            print(f"   {rank:>28} iteration {iteration:2d}: {size_in:>10} in, {size_out:>10} out, "
                  f"{spent:8.2f} ms")


if __name__ == "__main__":
    main()
