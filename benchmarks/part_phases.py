"""Where a multi-part call's host time goes, rank by rank.

Functions of the multi-device path (the enactor's rank, the loop, the
boundary, the joint levels, the communicator, the turns, the primitive's
methods) are wrapped with timers kept per rank thread: for each, the calls
and the milliseconds spent inside (inclusive) and inside less its timed
callees (exclusive), averaged over ``--calls`` traced calls after
``--warmup`` untimed ones. ``resume`` is the wait for the turn (another
rank's host code); ``read`` holds the wait for the device. The wrappers add
about a microsecond a call.

    python benchmarks/part_phases.py --kronecker 24 --parts 2 --device cuda:0 [--spread]

prints the call's median wall time and one row per function and rank.
"""

from __future__ import annotations

import argparse
import collections
import functools
import importlib
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import frontier as fr  # noqa: E402
from frontier.bench.harness import Settings, frontier_workload, pick_roots  # noqa: E402
from frontier.bench.measure import timer  # noqa: E402

#: (module, qualified name) of every function timed
TIMED = (
    ("frontier.multi.enactor", "run_rank"), ("frontier.multi.enactor", "gather_result"),
    ("frontier.multi.enactor", "part_bytes"), ("frontier.multi.enactor", "_release_workspaces"),
    ("frontier.loop", "run_steps"), ("frontier.loop", "finish"),
    ("frontier.multi.view", "PartView.__init__"),
    ("frontier.multi.output_exchange", "OutputExchange.__init__"),
    ("frontier.multi.output_exchange", "OutputExchange.synchronize"),
    ("frontier.multi.exchange", "Exchange.start"),
    ("frontier.multi.joint_levels", "JointLevels.run"),
    ("frontier.multi.joint_levels", "JointLevels._kept_buffers"),
    ("frontier.multi.joint_levels", "JointLevels._meet"),
    *(("frontier.multi.joint_levels", f"_Buffers.{name}")
      for name in ("start", "claim", "merge", "read", "queue", "bind")),
    *(("frontier.multi.communicator", f"LocalCommunicator.{name}")
      for name in ("allgather", "alltoall", "allreduce", "allreduce_each", "barrier")),
    ("frontier.turns", "resume"),
    *(("primitives.bfs", f"BFS.{name}")
      for name in ("__init__", "setup", "initial_frontier", "step", "result")),
)

#: (rank, function) -> [calls, inclusive s, exclusive s]
TOTALS: dict = collections.defaultdict(lambda: [0, 0.0, 0.0])
_stack = threading.local()


def _rank_label() -> str:
    """The calling thread's rank, as the enactor's ``run_rank`` was given
    it (``caller``: the thread that made the call)."""
    rank = getattr(_stack, "rank", None)
    return "caller" if rank is None else f"rank {rank}"


def timed(name: str, function):
    """``function``, its time added to :data:`TOTALS` under ``name``."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        if "communicator" in kwargs:  # run_rank: the thread's rank from here on
            _stack.rank = kwargs["communicator"].rank
        frames = _stack.__dict__.setdefault("frames", [])
        frames.append(0.0)  # the timed callees' seconds
        begin = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent = time.perf_counter() - begin
            inner = frames.pop()
            if frames:
                frames[-1] += spent
            entry = TOTALS[_rank_label(), name]
            entry[0] += 1
            entry[1] += spent
            entry[2] += spent - inner

    return wrapper


def wrap_all() -> None:
    """Put :func:`timed` around every function of :data:`TIMED`, in its
    module and wherever another module imported it by name."""
    for module_name, qualified in TIMED:
        module = importlib.import_module(module_name)
        owner, _, attribute = qualified.rpartition(".")
        holder = getattr(module, owner) if owner else module
        original = getattr(holder, attribute)
        wrapped = timed(qualified, original)
        setattr(holder, attribute, wrapped)
        if not owner:  # imported by name elsewhere (turns.resume, run_rank)
            for name, other in list(sys.modules.items()):
                if name.startswith("frontier") and getattr(other, attribute, None) is original:
                    setattr(other, attribute, wrapped)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kronecker", type=int, default=20)
    parser.add_argument("--parts", type=int, default=2)
    parser.add_argument("--device", default=None)
    parser.add_argument("--spread", action="store_true",
                        help="each part on a device of its own instead of all on --device")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    device = fr.get_device(args.device)
    graph = fr.generators.kronecker(scale=args.kronecker, seed=args.seed, device=device)
    root = pick_roots(graph, 1, args.seed)[0]
    settings = Settings(primitives=("bfs",), duplication="all", shared=not args.spread)
    work = frontier_workload("bfs", graph, args.seed, settings, args.parts)
    for _ in range(args.warmup):
        work.run(root)
    wrap_all()
    clock = timer(device)
    walls = [clock(lambda: work.run(root))[1] for _ in range(args.calls)]
    print(f"BFS, Kronecker {args.kronecker}, {args.parts} parts "
          f"({'a device each' if args.spread else 'sharing ' + device.name}), root {root}: "
          f"median {statistics.median(walls):.2f} ms a call over {args.calls}")
    threads = sorted({thread for thread, _ in TOTALS})
    print("| function | " + " | ".join(f"{t}: calls, incl ms, excl ms" for t in threads) + " |")
    print("|---|" + "---|" * len(threads))
    for _, name in TIMED:
        cells = []
        for thread in threads:
            calls, inclusive, exclusive = TOTALS.get((thread, name), (0, 0.0, 0.0))
            cells.append(f"{calls / args.calls:.1f}, {1e3 * inclusive / args.calls:.3f}, "
                         f"{1e3 * exclusive / args.calls:.3f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
