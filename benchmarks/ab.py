"""A/B of tuning constants in one process: whole calls, alternated in rounds.

Each ``--set MODULE.NAME=VALUE`` (repeatable, comma-separated for several
constants at once) is one variant; the defaults are the baseline. Every
round runs each variant once per primitive, in turn (the order rotating
from round to round), so that drift of the machine (clocks, other tenants)
spreads over all of them; the table gives
each variant's median wall time per call (synchronized before and after:
host work, launches and device time together, what a caller waits for).

    python benchmarks/ab.py --kronecker 14 --primitives bfs,sssp --rounds 30 \\
        --set frontier.operators.fused.DENSE_MIN_VERTICES=0
    python benchmarks/ab.py --grid 64 --primitives bfs --set frontier.kernels.edges.BLOCK_SCAN_MAX=0
    python benchmarks/ab.py --kronecker 22 --primitives triangles --rounds 2 --peak \
        --set primitives.triangles.PAIRS_PER_PIECE=16777216   # issue 32's names too
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import functools
import importlib
import statistics
import time

from primitive_calls import CALLS, MORE_CALLS

import frontier as fr
from frontier.bench.measure import peak_device_bytes

ALL_CALLS = {**CALLS, **MORE_CALLS}


def parse_variant(text: str) -> list[tuple[object, str, object]]:
    """``a.b.NAME=1,c.OTHER=2`` as (module, name, value) triples (values are
    Python literals, converted to the constant's type)."""
    settings = []
    for item in text.split(","):
        target, value = item.split("=", 1)
        module_name, name = target.rsplit(".", 1)
        module = importlib.import_module(module_name)
        current = getattr(module, name)  # AttributeError for a misspelt name
        settings.append((module, name, type(current)(ast.literal_eval(value))))
    return settings


@contextlib.contextmanager
def applied(settings):
    """The constants set to the given values for the ``with`` block, then restored."""
    previous = [(module, name, getattr(module, name)) for module, name, _ in settings]
    try:
        for module, name, value in settings:
            setattr(module, name, value)
        yield
    finally:
        for module, name, value in previous:
            setattr(module, name, value)


def timed_call(call, G, root, device) -> float:
    device.synchronize()
    start = time.perf_counter()
    call(G, root)
    device.synchronize()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    graph = parser.add_mutually_exclusive_group(required=True)
    graph.add_argument("--kronecker", type=int, metavar="SCALE")
    graph.add_argument("--grid", type=int, metavar="SIDE", help="a SIDE x SIDE grid")
    parser.add_argument("--primitives", default="bfs")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--set", action="append", default=[], dest="variants",
                        metavar="MODULE.NAME=VALUE[,...]")
    parser.add_argument("--peak", action="store_true",
                        help="also each variant's peak device memory (one more call each)")
    args = parser.parse_args()
    device = fr.get_device(args.device)
    if args.kronecker is not None:
        G = fr.generators.kronecker(args.kronecker, 16, seed=0, device=args.device)
        weighted = fr.generators.kronecker(args.kronecker, 16, seed=0, weights=(1, 64),
                                           device=args.device)
        root = int(fr.to_numpy(G.out_degree()).argmax())
    else:
        G = fr.generators.grid(args.grid, args.grid, device=args.device)
        weighted = fr.generators.grid(args.grid, args.grid, weights=(1, 64), device=args.device)
        root = 0
    variants = [("defaults", [])] + [(text, parse_variant(text)) for text in args.variants]
    names = args.primitives.split(",")
    times = {(name, label): [] for name in names for label, _ in variants}
    for round_ in range(args.rounds + 1):  # round 0 warms up every variant
        for name in names:
            graph = weighted if name == "sssp" else G
            # Rotated each round: the first call after another primitive
            # runs measurably slower, and no variant should always take it.
            shift = round_ % len(variants)
            for label, settings in variants[shift:] + variants[:shift]:
                with applied(settings):
                    seconds = timed_call(ALL_CALLS[name], graph, root, device)
                if round_:
                    times[name, label].append(seconds)
    print(f"{G}, root {root}, {args.rounds} rounds on {device.name}; median (min) ms per call")
    for name in names:
        graph = weighted if name == "sssp" else G
        base = statistics.median(times[name, "defaults"])
        for label, _ in variants:
            runs = times[name, label]
            median = statistics.median(runs)
            peak = ""
            if args.peak:
                with applied(settings):
                    _, held = peak_device_bytes(
                        device, functools.partial(ALL_CALLS[name], graph, root))
                peak = f"  peak {held / 2**20:,.1f} MiB" if held is not None else ""
            print(f"  {name:9} {median * 1e3:9.3f} ({min(runs) * 1e3:8.3f})  "
                  f"{median / base:5.2f}x  {label}{peak}")


if __name__ == "__main__":
    main()
