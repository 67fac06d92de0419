"""Where a GPU call's wall time goes: a timeline of its launches and reads.

Each launch of a kernel of :mod:`frontier.kernels` is followed by a CUDA
event, and each read of counts (:func:`frontier.kernels.workspace._read_words`)
is timed on the host. After three warm-up calls, one call is traced: for
each launch, when the host made it and how long that took, when the GPU
finished it (microseconds from the call's start), and ``idle``: how long
the GPU had been waiting for it (the launch's end less the end of the
kernel before, where positive). The tracing adds an event per launch.
CuPy's own operations (fills, allocations' memsets, scans) are not
wrapped: their time lands in the next kernel's span. The loop
(``run_steps``) and the primitive's ``setup``, ``initial_frontier``,
``step``, ``converged`` and ``result`` are marked where they begin and end.

    python benchmarks/call_timeline.py 24 dobfs [--root hub|N]

prints the table, the call's wall time, the GPU's busy span, and the sum
of the idle gaps, where the host kept the GPU waiting.
"""

from __future__ import annotations

import argparse
import sys
import time

import cupy
from primitive_calls import CALLS

import frontier as fr
import frontier.kernels.module as module
import frontier.kernels.workspace as workspace
import frontier.loop as loop

LOG: list = []


class TracedKernel:
    """A kernel whose launches are logged, each followed by an event."""

    def __init__(self, name, function):
        self.name, self.function = name, function

    def __getattr__(self, attribute):
        return getattr(self.function, attribute)

    def __call__(self, grid, block, arguments, **options):
        before = time.perf_counter()
        self.function(grid, block, arguments, **options)
        after = time.perf_counter()
        event = cupy.cuda.Event()
        event.record()
        LOG.append(("launch", self.name, before, after, event))


def traced_kernel(name, *types, source="traversal.cu"):
    return TracedKernel(name, ORIGINAL_KERNEL(name, *types, source=source))


def traced_read(address, words, dtype):
    before = time.perf_counter()
    values = ORIGINAL_READ(address, words, dtype)
    LOG.append(("read", f"{words} word(s)", before, time.perf_counter(), None))
    return values


def marked(name, function):
    """``function``, logging when it begins and ends."""
    def call(*args, **kwargs):
        LOG.append(("begin", name, time.perf_counter(), None, None))
        try:
            return function(*args, **kwargs)
        finally:
            LOG.append(("end", name, time.perf_counter(), None, None))
    return call


def traced_run_steps(run, *args, **kwargs):
    """The loop, with the primitive's methods marked."""
    for method in ("setup", "initial_frontier", "step", "converged", "result"):
        setattr(run, method, marked(method, getattr(run, method)))
    return marked("run_steps", ORIGINAL_RUN_STEPS)(run, *args, **kwargs)


ORIGINAL_KERNEL, ORIGINAL_READ = module.kernel, workspace._read_words
ORIGINAL_RUN_STEPS = loop.run_steps


def install() -> None:
    for name, loaded in list(sys.modules.items()):
        if name.startswith("frontier") and getattr(loaded, "kernel", None) is ORIGINAL_KERNEL:
            loaded.kernel = traced_kernel
    workspace._read_words = traced_read
    loop.run_steps = traced_run_steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scale", type=int)
    parser.add_argument("primitive", choices=sorted(CALLS))
    parser.add_argument("--root", default="hub")
    args = parser.parse_args()
    G = fr.generators.kronecker(args.scale, 16, seed=0, device="cuda:0")
    root = int(fr.to_numpy(G.out_degree()).argmax()) if args.root == "hub" else int(args.root)
    call = CALLS[args.primitive]
    install()
    for _ in range(3):
        call(G, root)
    stream = cupy.cuda.get_current_stream()
    stream.synchronize()
    LOG.clear()
    start_event = cupy.cuda.Event()
    start = time.perf_counter()
    start_event.record()
    result = call(G, root)
    stream.synchronize()
    wall = time.perf_counter() - start
    print(f"{args.primitive} from {root} on {G}: {getattr(result, 'iterations', '?')} "
          f"iterations, wall {wall * 1e6:.0f} us")
    print(f"{'what':>7} {'name':<28} {'host at':>9} {'host us':>8} {'GPU end':>9} {'idle':>7}")
    gpu_end, idle = 0.0, 0.0
    for kind, name, before, after, event in LOG:
        at = (before - start) * 1e6
        if kind in ("begin", "end"):
            print(f"{kind:>7} {name:<28} {at:9.1f}")
            continue
        if event is None:
            print(f"{kind:>7} {name:<28} {at:9.1f} {(after - before) * 1e6:8.1f}")
            continue
        end = cupy.cuda.get_elapsed_time(start_event, event) * 1e3
        gap = max(0.0, (after - start) * 1e6 - gpu_end) if end > gpu_end else 0.0
        idle += gap
        print(f"{kind:>7} {name:<28} {at:9.1f} {(after - before) * 1e6:8.1f} {end:9.1f} "
              f"{gap:7.1f}")
        gpu_end = max(gpu_end, end)
    print(f"last kernel ends at {gpu_end:.0f} us; the host kept the GPU idle about "
          f"{idle:.0f} us before launches; {wall * 1e6 - gpu_end:.0f} us after the last")


if __name__ == "__main__":
    main()
