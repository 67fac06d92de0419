"""A one-device call's host time, function by function.

Wraps the enactor's, the loop's and the operators' functions that a call
of a primitive passes through (:data:`FUNCTIONS`, and the primitive
class's own ``setup``, ``step``, ``initial_frontier`` and ``result``)
with timers, each charged with its own time: its time less that of the
wrapped functions it called. Then times ``--calls`` calls after a
warm-up and prints the wall time of a call and each function's
microseconds a call, the largest first. Nothing synchronizes inside a
call, so a function that waits for the device (a read of counts) is
charged with the wait; a wrapper costs about a microsecond a call.

    python benchmarks/host_functions.py --scale 24 --primitive dobfs
    python benchmarks/host_functions.py --scale 12 --primitive bfs --device cpu

(docs/benchmarks.md, "Where a one-GPU DOBFS call's host time goes").
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections import defaultdict

from profile_multi_gpu import PRIMITIVES

import frontier as fr

#: (module, function or Class.method) pairs wrapped, besides the primitive's own methods
FUNCTIONS = [
    ("frontier", "enact"),
    ("frontier.enactor", "_run"), ("frontier.enactor", "_iterate_on"),
    ("frontier.enactor", "check_options"), ("frontier.enactor", "check_params"),
    ("frontier.enactor", "resolve_memory_limit"), ("frontier.enactor", "run_devices"),
    ("frontier.loop", "run_steps"), ("frontier.loop", "finish"), ("frontier.loop", "_event_now"),
    ("frontier.loop", "_stop"), ("frontier.loop", "_batch"),
    ("frontier.split_runs", "pieces"), ("frontier.memory", "Budget.after_setup"),
    ("frontier.primitive", "Primitive.__init__"), ("frontier.primitive", "Primitive.local_slots"),
    ("frontier.primitive", "Primitive.vertex_array"), ("frontier.primitive", "Primitive.put"),
    ("frontier.primitive", "fill_array"),
    ("frontier", "advance"), ("frontier.operators.auto", "auto_advance"),
    ("frontier.operators.auto", "_all_levels"), ("frontier.operators.auto_levels", "auto_levels"),
    ("frontier.operators.auto_levels", "read_counters"),
    ("frontier.operators.auto_levels", "_carve"),
    ("frontier.operators.fused", "release_workspaces"),
]
#: the primitive class's methods wrapped (where it has them)
METHODS = ("setup", "step", "initial_frontier", "result", "traversal_direction")

own: dict = defaultdict(float)
_stack: list = []


def wrap(owner, attribute: str, label: str) -> None:
    """Charge ``owner.attribute``'s own time to ``label``."""
    plain = getattr(owner, attribute)

    def wrapped(*arguments, **keywords):
        begin = time.perf_counter()
        _stack.append(0.0)
        try:
            return plain(*arguments, **keywords)
        finally:
            spent = time.perf_counter() - begin
            own[label] += spent - _stack.pop()
            if _stack:
                _stack[-1] += spent
    setattr(owner, attribute, wrapped)


def wrap_all(kind) -> list[str]:
    """Wrap :data:`FUNCTIONS` and ``kind``'s :data:`METHODS`; the names not found."""
    missing = []
    for module_name, name in FUNCTIONS:
        owner = importlib.import_module(module_name)
        *classes, attribute = name.split(".")
        for cls in classes:
            owner = getattr(owner, cls, None)
        if owner is None or not hasattr(owner, attribute):
            missing.append(f"{module_name}.{name}")
            continue
        wrap(owner, attribute, f"{module_name}.{name}")
    for method in METHODS:
        if method in vars(kind) or hasattr(kind, method):
            wrap(kind, method, f"{kind.__name__}.{method}")
    return missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=24)
    parser.add_argument("--primitive", default="dobfs", choices=sorted(PRIMITIVES))
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=5)
    args = parser.parse_args()
    device = fr.get_device(args.device)
    G = fr.generators.kronecker(args.scale, 16, seed=0, device=device, progress=False)
    source = int(fr.to_numpy(G.out_degree()).argmax())
    kind, run = PRIMITIVES[args.primitive]
    missing = wrap_all(kind)
    for _ in range(args.warmup):
        run(G, source)
    device.synchronize()
    own.clear()
    begin = time.perf_counter()
    for _ in range(args.calls):
        run(G, source)
    device.synchronize()
    call = (time.perf_counter() - begin) / args.calls
    print(f"{args.primitive} at Kronecker {args.scale} on {device.describe()}: "
          f"{call * 1e6:.0f} us a call (wrapped), {args.calls} calls after {args.warmup}")
    for label, seconds in sorted(own.items(), key=lambda item: -item[1]):
        print(f"{seconds / args.calls * 1e6:9.1f} us  {label}")
    if missing:
        print("not found (not wrapped):", ", ".join(missing))


if __name__ == "__main__":
    main()
