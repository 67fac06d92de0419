"""Where does a primitive's time go? Host-side profile with synchronous launches.

Runs each primitive once to warm up, then once under cProfile with
CUDA_LAUNCH_BLOCKING=1 (set before CuPy loads), so the time of each kernel is
charged to the Python line that launched it. Prints the top functions by
internal time. A development tool: figures for docs/benchmarks.md come from
`frontier bench`, which times with CUDA events and no blocking launches.

    python benchmarks/profile_gpu.py 22 bfs,dobfs,sssp        # sets CUDA_LAUNCH_BLOCKING
    python benchmarks/profile_gpu.py 24 bfs,dobfs levels    # time of each iteration
    python benchmarks/profile_gpu.py -24 bfs levels         # a 4096 x 4096 grid
    python benchmarks/profile_gpu.py path bfs,sssp          # a 1 x 20000 grid, host
        # work per level: launches are not made blocking, and the table is
        # per level (calls and microseconds of each function)
    python benchmarks/profile_gpu.py 20 sssp-narrow         # SSSP with delta=2
    python benchmarks/profile_gpu.py 14 bfs,sssp calls      # host work per call of a
        # small graph: 20 calls profiled, launches not blocking, table per call
    python benchmarks/profile_gpu.py 18 greedy_color rounds  # host work per
        # iteration of one call (launches not blocking): the colouring's rounds
"""

import cProfile
import io
import os
import pstats
import sys
import time

# "levels", "path", "calls" and "rounds" time host work: their launches are not blocking.
if not {"levels", "path", "calls", "rounds"} & set(sys.argv):
    os.environ.setdefault("CUDA_LAUNCH_BLOCKING", "1")

from primitive_calls import CALLS as STANDARD_CALLS  # noqa: E402
from primitive_calls import MORE_CALLS  # noqa: E402

import frontier as fr  # noqa: E402
import primitives  # noqa: E402

# PageRank to a tighter tolerance than NetworkX's: more iterations to profile.
# SSSP with a narrow near/far split (weights 1..64): many iterations to profile.
CALLS = {**STANDARD_CALLS,
         "pagerank": lambda G, root: primitives.pagerank(G, tol=1e-6 / G.num_vertices),
         "sssp-narrow": lambda G, root: primitives.sssp(G, source=root, delta=2.0),
         **MORE_CALLS}


def main(scale: int | str, names: list[str], top: int = 18, calls: int = 1,
         per_iteration: bool = False) -> None:
    if scale == "path":
        G = fr.generators.grid(1, 20_000, device="cuda:0")
        weighted = fr.generators.grid(1, 20_000, weights=(1, 64), device="cuda:0")
    else:
        G = fr.generators.kronecker(scale, 16, seed=0, device="cuda:0")
        weighted = fr.generators.kronecker(scale, 16, seed=0, weights=(1, 64), device="cuda:0") \
            if any(n.startswith("sssp") for n in names) else None
    degree = fr.to_numpy(G.out_degree())
    root = int(degree.argmax() // 2 + 1)
    while degree[root] == 0:
        root += 1
    for name in names:
        graph = weighted if name.startswith("sssp") else G
        CALLS[name](graph, root)
        fr.get_device("cuda:0").synchronize()
        profile = cProfile.Profile()
        start = time.perf_counter()
        profile.enable()
        for _ in range(calls):
            result = CALLS[name](graph, root)
        fr.get_device("cuda:0").synchronize()
        profile.disable()
        wall = time.perf_counter() - start
        if scale == "path" or per_iteration:
            where = "on a path" if scale == "path" else f"at scale {scale}"
            print_per_unit(profile, f"{name} {where}", wall, result.iterations, "iteration", top)
            continue
        if calls > 1:
            print_per_unit(profile, f"{name} at scale {scale} ({result.iterations} iterations)",
                           wall, calls, "call", top)
            continue
        text = io.StringIO()
        pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(top)
        print(f"==== {name} scale {scale}: {wall * 1e3:.1f} ms blocking, "
              f"{getattr(result, 'iterations', '?')} iterations, "
              f"setup {getattr(result, 'setup_s', 0) * 1e3:.1f} ms")
        lines = text.getvalue().splitlines()
        start_at = next(i for i, line in enumerate(lines) if "ncalls" in line)
        print("\n".join(line[:150] for line in lines[start_at:start_at + top + 1]))


def print_per_unit(profile, title: str, wall: float, units: int, unit: str, top: int) -> None:
    """Each function's calls and own microseconds per level or call, most time first."""
    stats = pstats.Stats(profile).stats
    rows = sorted(((tottime, calls, f"{fn[0].split('/')[-1]}:{fn[1]}({fn[2]})")
                   for fn, (_, calls, tottime, _, _) in stats.items()), reverse=True)
    print(f"==== {title}: {wall / units * 1e6:.1f} us per {unit} under cProfile, {units} {unit}s")
    print(f"{'us/' + unit:>9} {'calls/' + unit:>11}  function")
    for tottime, calls, where in rows[:top]:
        print(f"{tottime / units * 1e6:9.2f} {calls / units:11.2f}  {where[:110]}")




def levels(scale: int, name: str) -> None:
    """Per-iteration device time of a traversal (events around each step)."""
    import cupy

    G = fr.generators.kronecker(scale, 16, seed=0, device="cuda:0") if scale > 0 else \
        fr.generators.grid(1 << (-scale // 2), 1 << (-scale // 2), device="cuda:0")
    cls = {"bfs": sys.modules["primitives.bfs"].BFS,
           "dobfs": sys.modules["primitives.dobfs"].DOBFS,
           "sssp": sys.modules["primitives.sssp"].SSSP}[name]
    original = cls.step
    rows = []

    def timed_step(self, frontier, iteration):
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        size = frontier.size
        out = original(self, frontier, iteration)
        stop.record()
        stop.synchronize()
        direction = getattr(self, "direction", "")
        if isinstance(direction, fr.AutoDirection):
            direction = direction.directions[-1]
        rows.append((iteration, size, direction, cupy.cuda.get_elapsed_time(start, stop)))
        return out

    cls.step = timed_step
    degree = fr.to_numpy(G.out_degree())
    root = int(degree.argmax())
    CALLS[name](G, root)
    rows.clear()
    start = time.perf_counter()
    CALLS[name](G, root)
    call_ms = 1e3 * (time.perf_counter() - start)
    cls.step = original
    print(f"==== {name} levels, {G}")
    for iteration, size, direction, ms in rows:
        print(f"  {iteration:>5} {direction:>5} frontier {size:>10} {ms:8.3f} ms")
    print(f"  total {sum(r[3] for r in rows):.3f} ms over {len(rows)} iterations, "
          f"{call_ms:.3f} ms the whole call")


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[3] == "levels":
        for primitive in sys.argv[2].split(","):
            levels(int(sys.argv[1]), primitive)
    else:
        per_call, rounds = "calls" in sys.argv, "rounds" in sys.argv
        main(sys.argv[1] if sys.argv[1] == "path" else int(sys.argv[1]), sys.argv[2].split(","),
             top=40 if sys.argv[1] == "path" or per_call or rounds else 18,
             calls=20 if per_call else 1, per_iteration=rounds)
