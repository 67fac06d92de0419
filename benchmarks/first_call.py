"""What the first call of a NetworkX backend function costs, with an empty
kernel cache and after ``frontier warmup`` (issue 33).

For each function the backend implements (all of
``frontier_backend_info.FUNCTIONS``; ``--functions`` picks some), called
as :data:`CALLS` shows (the table of :mod:`frontier.nx_backend.call_table`,
whose calls ``frontier warmup`` runs once on a small graph:
``nx.pagerank(G)``, ``nx.betweenness_centrality(G,
k=16, seed=0)``, ``nx.bfs_edges(G, 0)``, ...) on a Barabasi-Albert graph
(nodes 0 to n - 1; the functions NetworkX defines for directed graphs only,
such as ``is_strongly_connected``, on ``G.to_directed()``, made before the
timer starts), a fresh Python process times:

* Frontier's first call, as a new process pays it: importing the backend
  (and CuPy, where the GPU answers), starting CUDA, then the call itself,
  taken apart into the conversion from NetworkX, kernel compilation (NVRTC;
  how many kernels), kernel loads (from CuPy's cache into the GPU) and the
  rest (running); and the device that answered it: with an empty cache the
  CPU, while ``frontier warmup`` runs in the background
  (:mod:`frontier.nx_backend.cold_start`; ``--cold-start gpu`` turns that
  off and the first call compiles);
* the background warm-up's seconds, and the next call once it (and the
  GPU's start in a thread of the caller's process) has ended
  (on the GPU, which loads the kernels it compiled);
* Frontier's second call on the same graph (the converted graph is cached
  by NetworkX), and the kernels it compiled (those ``frontier warmup`` did
  not leave in the cache);
* a third call, warm: the kernels loaded and the graph on the device (the
  warm call of the table; after warmup where that state ran);
* NetworkX's own call (``backend="networkx"``), and whether the answers agree
  (in the first state measured; ``--skip-networkx`` leaves it out).

In two states of the kernel cache (``--states``: both by default, or one of
``empty`` and ``warm``): each process with ``CUPY_CACHE_DIR`` an empty
directory of its own ("empty cache"), then each with a copy of a directory
``frontier warmup`` filled, timed once ("after warmup"); the table shows
"-" for a state not measured.
The output is the "first call" table of docs/networkx-backend.md, in
Markdown, and a JSON list of records (``frontier.bench.records`` fields,
``time_ms`` the call's time, ``first_call`` the parts, ``compiled_kernels``
what NVRTC compiled during the call) in ``--results``.

Frontier's modules are byte-compiled first (:func:`compile_bytecode`), as
an installed package has them. On the GPU machine, from the repository
root (NetworkX's betweenness with k=16 takes about 3 minutes of the run on
this graph, its edge betweenness a little longer; ``--skip-networkx``
spares them)::

    PYTHONPATH=. python benchmarks/first_call.py --results $OUT

or only after ``frontier warmup``::

    PYTHONPATH=. python benchmarks/first_call.py --states warm --results $OUT

or, to spend one warm-up on several runs (each call gets a copy of the
cache ``frontier warmup`` filled)::

    CUPY_CACHE_DIR=/tmp/warmed frontier warmup --quiet
    PYTHONPATH=. python benchmarks/first_call.py --states warm --warmed /tmp/warmed \\
        --functions triangles pagerank --results $OUT

On a CPU (no CuPy: nothing is compiled, warmup says so), a smoke test::

    PYTHONPATH=. python benchmarks/first_call.py --nodes 2000 --results /tmp/first_call
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import math
import os
import pickle
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _load_call_table():
    """:mod:`frontier.nx_backend.call_table`, loaded from its file: importing it
    by name would import the ``frontier`` package and its backend before a
    child's timer starts, and a first call pays that import."""
    path = ROOT / "frontier" / "nx_backend" / "call_table.py"
    spec = importlib.util.spec_from_file_location("_first_call_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_call_table = _load_call_table()
#: The calls timed, one of every function of the backend
#: (:data:`frontier.nx_backend.call_table.CALLS`): the text shown, the call
#: (``backend`` as a keyword) with its answer made comparable, and, where
#: there is one, the graph's preparation, made before the timer starts.
CALLS = _call_table.CALLS
_preparation = _call_table.preparation
STATES = ("empty cache", "after warmup")
#: ``--states``' short names.
STATE_NAMES = {"empty": "empty cache", "warm": "after warmup"}


# the child: one call in a fresh process ------------------------------------------------

class Ledger:
    """Exclusive seconds per stage of wrapped functions: time inside a
    stage that is spent in a nested stage counts for the nested one only."""

    def __init__(self):
        self.seconds: dict[str, float] = {}
        self.counts: dict[str, int] = {}
        self.names: list[str] = []
        self._stack: list[list] = []

    def watch(self, owner, attribute: str, stage: str, describe=None) -> None:
        """Count calls of ``owner.attribute`` as ``stage`` (if it exists);
        ``describe(*args, **kwargs)``, if given, says what each call was about."""
        function = getattr(owner, attribute, None)
        if function is None:
            return

        def timed(*args, **kwargs):
            if describe is not None:
                self.names.append(describe(*args, **kwargs))
            now = time.perf_counter()
            if self._stack:
                self._add(self._stack[-1][0], now - self._stack[-1][1])
            self._stack.append([stage, now])
            self.counts[stage] = self.counts.get(stage, 0) + 1
            try:
                return function(*args, **kwargs)
            finally:
                now = time.perf_counter()
                name, since = self._stack.pop()
                self._add(name, now - since)
                if self._stack:
                    self._stack[-1][1] = now

        setattr(owner, attribute, timed)

    def _add(self, stage: str, seconds: float) -> None:
        self.seconds[stage] = self.seconds.get(stage, 0.0) + seconds


def _kernel_names(source, options=(), arch=None, filename="", name_expressions=None,
                  *args, **kwargs) -> str:
    """The kernels of one NVRTC compile (CuPy's arguments): its name
    expressions (Frontier's templates), else its ``__global__`` names (CuPy's
    generated kernels)."""
    names = name_expressions or re.findall(r"__global__\s+void\s+(\w+)", source)
    return ", ".join(names)


def _agree(mine, theirs) -> bool:
    """Same answer: floats within 1e-6 (also in dicts, lists and tuples),
    dicts with the same keys and agreeing values, lists of sets as the same
    sets in any order (components, communities), other lists and tuples item
    by item, anything else (other numbers, nodes, sets, bools) equal."""
    if isinstance(theirs, dict):
        return mine.keys() == theirs.keys() and all(
            _agree(mine[key], value) for key, value in theirs.items())
    if isinstance(mine, float) or isinstance(theirs, float):
        return math.isclose(mine, theirs, rel_tol=1e-6, abs_tol=1e-9)
    if isinstance(theirs, (list, tuple)):
        if all(isinstance(item, set) for item in theirs):
            return sorted(map(sorted, mine)) == sorted(map(sorted, theirs))
        return len(mine) == len(theirs) and all(map(_agree, mine, theirs))
    return mine == theirs


def _watch_compiles(ledger: Ledger, cupy) -> None:
    """Count kernel loads and compiles on ``ledger``, through CuPy's private
    compile path (CuPy 14): a kernel not in memory goes through
    _compile_module_with_cache (the cache read and the load), which compiles
    a missing one with NVRTC (and probes NVRTC's version once per option
    set, with _preprocess)."""
    compiler = cupy.cuda.compiler
    ledger.watch(compiler, "_compile_module_with_cache", "kernel load")
    ledger.watch(compiler, "_compile_using_nvrtc_no_warning", "compile", _kernel_names)
    ledger.watch(compiler, "_preprocess", "compile probe")


def child(function: str, graph_path: str, with_networkx: bool) -> dict:
    """Time ``function``'s first backend call, the background warm-up it may
    start (:mod:`frontier.nx_backend.cold_start`), the next call once that
    has ended (and NetworkX's call)."""
    import networkx as nx

    with open(graph_path, "rb") as file:
        G = pickle.load(file)
    prepare = _preparation(function)
    if prepare is not None:
        G = prepare(G)  # before any timer: not part of the first call
    nx.config.warnings_to_ignore.add("cache")  # later calls reuse the conversion
    call = CALLS[function][1]
    parts = {}
    start = time.perf_counter()
    import frontier.nx_backend as backend  # the dispatcher imports it at the first call
    from frontier.device import Device, default_device, gpu_count
    from frontier.nx_backend import cold_start

    # A call the cold-start policy answers on the CPU imports no CuPy (the
    # warm-up's child process does, and a thread of this one after the
    # call): import it here only where the call goes to the GPU at once.
    cupy = None
    if cold_start.policy() == "gpu":
        try:
            import cupy
        except ImportError:
            pass
    parts["import_s"] = time.perf_counter() - start
    start = time.perf_counter()
    if cupy is not None and gpu_count():
        cupy.empty(1)
        cupy.cuda.Device().synchronize()
    parts["cuda_start_s"] = time.perf_counter() - start
    ledger = Ledger()
    ledger.watch(backend.backend_interface, "convert_from_nx", "conversion")
    ledger.watch(backend.BackendGraph, "frontier_graph", "conversion")
    if cupy is not None:
        _watch_compiles(ledger, cupy)
    start = time.perf_counter()
    mine = call(nx, G, backend="frontier")
    call_s = time.perf_counter() - start
    first_device = cold_start.status()["last_device"]
    seconds = ledger.seconds
    parts.update({
        "conversion_s": seconds.get("conversion", 0.0),
        "compile_s": seconds.get("compile", 0.0) + seconds.get("compile probe", 0.0),
        "kernels_compiled": ledger.counts.get("compile", 0),
        "kernel_load_s": seconds.get("kernel load", 0.0),
    })
    parts["run_s"] = call_s - parts["conversion_s"] - parts["compile_s"] - parts["kernel_load_s"]
    first_s = parts["import_s"] + parts["cuda_start_s"] + call_s
    warm_up = cold_start.wait()  # until a background warm-up ends (at once if none)
    warm_up_s = cold_start.status()["warm_up_s"]
    first_compiled = len(ledger.names)
    if cupy is None and "cupy" in sys.modules:  # the GPU started after the first call
        _watch_compiles(ledger, sys.modules["cupy"])
    start = time.perf_counter()
    call(nx, G, backend="frontier")  # the next call, once a warm-up and the GPU's start ended
    next_s = time.perf_counter() - start
    next_device = cold_start.status()["last_device"]
    # what the next call compiled: kernels `frontier warmup` did not leave in the cache
    next_compiled = ledger.names[first_compiled:]
    start = time.perf_counter()
    call(nx, G, backend="frontier")  # a warm call: kernels loaded, graph on the device
    warm_s = time.perf_counter() - start
    warm_device = cold_start.status()["last_device"]
    networkx_s = agrees = None
    if with_networkx:
        start = time.perf_counter()
        theirs = call(nx, G, backend="networkx")
        networkx_s = time.perf_counter() - start
        agrees = _agree(mine, theirs)
    from frontier.bench.records import describe_device, versions

    device = default_device()
    return {"function": function, "device_name": device.name,
            "device": describe_device(device), "cpu": describe_device(Device("cpu")),
            "versions": versions(),
            "first_s": first_s, "first_call": {k: round(v, 4) if isinstance(v, float) else v
                                               for k, v in parts.items()},
            "first_device": first_device, "warm_up": warm_up, "warm_up_s": warm_up_s,
            "compiled": ledger.names[:first_compiled], "next_s": next_s,
            "next_device": next_device, "next_compiled": next_compiled,
            "warm_s": warm_s, "warm_device": warm_device,
            "networkx_s": networkx_s, "agrees": agrees}


# the parent: processes, warmup, table, records ------------------------------------------

#: FRONTIER_COLD_START for every process (``--cold-start``).
COLD_START = {"policy": "cpu"}


def _environment(cache: Path) -> dict:
    env = dict(os.environ, CUPY_CACHE_DIR=str(cache), FRONTIER_COLD_START=COLD_START["policy"])
    env.pop("CUPY_CACHE_IN_MEMORY", None)
    env.pop("FRONTIER_DEVICE", None)  # a named device would bypass the cold-start policy
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def _run(command: list[str], cache: Path, timeout: float) -> tuple[str | None, str]:
    """Run ``command`` with ``CUPY_CACHE_DIR=cache``: ``(None, stdout)``, or
    for a failure ``(what went wrong, stdout)``, its standard error echoed
    here (one failed process leaves the others to run)."""
    try:
        done = subprocess.run(command, env=_environment(cache), capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:.0f} s", ""
    if done.returncode == 0:
        return None, done.stdout
    print(done.stderr[-4000:], file=sys.stderr)
    last = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return f"exit {done.returncode}: {last}", done.stdout


def _run_child(function: str, graph_path: Path, cache: Path, with_networkx: bool,
               timeout: float) -> dict:
    """The child's measurement, or ``{"error": ...}``."""
    command = [sys.executable, __file__, "--child", function, "--graph-file", str(graph_path)]
    if with_networkx:
        command.append("--with-networkx")
    error, out = _run(command, cache, timeout)
    run = {"error": error} if error else json.loads(out.strip().splitlines()[-1])
    # a line as each process ends: a run stopped before the table keeps what it measured
    said = run.get("error") or (
        f"first call {_s(run['first_s'])} on {run['first_device']}, next {_s(run['next_s'])} "
        f"on {run['next_device']} ({len(run['next_compiled'])} kernels compiled), warm "
        f"{_s(run['warm_s'])} on {run['warm_device']}")
    print(f"first_call: {function}, {cache.name}: {said}", file=sys.stderr, flush=True)
    return run


def _shape(G, prepare) -> tuple[bool, int]:
    """Whether the graph a call takes (``G``, or its ``G.to_directed()``
    copy) is directed, and its edges, counted without building the copy: an
    undirected edge becomes two arcs, a self loop one."""
    import networkx as nx

    if prepare is None or G.is_directed():
        return G.is_directed(), G.number_of_edges()
    return True, 2 * G.number_of_edges() - nx.number_of_selfloops(G)


def _warmup(cache: Path, timeout: float) -> tuple[float, str]:
    """``frontier warmup`` into ``cache``: its seconds and its summary line
    (or what went wrong)."""
    command = [sys.executable, "-c",
               "import sys; from frontier.cli import main; sys.exit(main(sys.argv[1:]))",
               "warmup", "--quiet"]
    start = time.perf_counter()
    error, out = _run(command, cache, timeout)
    seconds = time.perf_counter() - start
    if error:
        return seconds, f"failed: {error}"
    lines = out.strip().splitlines()
    return seconds, lines[-1] if lines else ""


def _s(seconds) -> str:
    return "-" if seconds is None else f"{seconds:.3g} s"


def _cell(run: dict | None, key: str, device: str | None = None) -> str:
    """``run[key]`` (and ``run[device]``); "-" for a state that did not run."""
    if run is None:
        return "-"
    if "error" in run:
        return "failed"
    return _s(run[key]) + ("" if device is None or run[device] is None else f" ({run[device]})")


def _warm_up_cell(run: dict | None) -> str:
    """The background warm-up's seconds, or why there was none."""
    if run is None:
        return "-"
    if "error" in run:
        return "failed"
    if run["warm_up_s"] is not None:
        return f"{_s(run['warm_up_s'])}" + ("" if run["warm_up"] == "done"
                                            else f" ({run['warm_up']})")
    return {"warm": "none needed", "unknown": "none (policy gpu)"}.get(run["warm_up"],
                                                                        run["warm_up"])


def _measured(runs: dict) -> list[dict]:
    return [run for by_state in runs.values() for run in by_state.values() if "error" not in run]


def _first(by_state: dict) -> dict:
    """The run of the first state that ran, the one that timed NetworkX."""
    return next(iter(by_state.values()))


def markdown(runs: dict, graph: str, warmup_s: float | None, warmup_line: str,
             command: str) -> str:
    """The summary table and the first calls taken apart, in Markdown ("-"
    in the columns of a state that did not run)."""
    device = next((run["device"] for run in _measured(runs)), "no device measured")
    warmup = (warmup_line if warmup_s is None
              else f"took {warmup_s:.1f} s" + (f" ({warmup_line})" if warmup_line else ""))
    directed = ("" if all(_preparation(function) is None for function in runs)
                else " `D` is `G.to_directed()`, made before the timer starts.")
    lines = [f"### First calls: {graph}, {device}, "
             f"{datetime.now(timezone.utc):%Y-%m-%d}", "",
             f"Command: `{command}`. `frontier warmup` {warmup}.{directed}", "",
             f"Cold-start policy: FRONTIER_COLD_START={COLD_START['policy']}. Empty cache: the "
             "first call (the device that answered it), the background warm-up it started "
             "(`frontier warmup` in a child process), the next call once that ended; after "
             "`frontier warmup`: the first call and the one after it, once the GPU's start "
             "in the background (after a first call answered on the CPU) ended; the warm call: a "
             "third call (after warmup, else with the cache the next call left).", "",
             "| call | NetworkX | Frontier first call, empty cache | background warm-up | "
             "next call | first call after `frontier warmup` | second call | warm call |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for function, by_state in runs.items():
        empty, warm = by_state.get("empty cache"), by_state.get("after warmup")
        lines.append(f"| `{CALLS[function][0]}` | {_cell(_first(by_state), 'networkx_s')} | "
                     f"{_cell(empty, 'first_s', 'first_device')} | {_warm_up_cell(empty)} | "
                     f"{_cell(empty, 'next_s', 'next_device')} | "
                     f"{_cell(warm, 'first_s', 'first_device')} | "
                     f"{_cell(warm, 'next_s', 'next_device')} | "
                     f"{_cell(warm or empty, 'warm_s', 'warm_device')} |")
    lines += ["", "The first call taken apart (compile: NVRTC, with the number of kernels "
              "compiled; kernel loads: CuPy's cache read, or written after a compile, and "
              "the load into the GPU):", "",
              "| call | kernel cache | answered on | import | CUDA start | conversion | compile | "
              "kernel loads | run | first call |", "| --- | --- | --- |" + " ---: |" * 7]
    failed = []
    for function, by_state in runs.items():
        for state, run in by_state.items():
            if "error" in run:
                failed.append(f"`{CALLS[function][0]}` ({state}): {run['error']}")
                continue
            parts = run["first_call"]
            lines.append(
                f"| `{CALLS[function][0]}` | {state} | {run['first_device']} | "
                f"{_s(parts['import_s'])} | "
                f"{_s(parts['cuda_start_s'])} | {_s(parts['conversion_s'])} | "
                f"{_s(parts['compile_s'])} ({parts['kernels_compiled']}) | "
                f"{_s(parts['kernel_load_s'])} | {_s(parts['run_s'])} | {_s(run['first_s'])} |")
    disagree = [function for function, by_state in runs.items()
                if _first(by_state).get("agrees") is False]
    if disagree:
        lines += ["", f"Answers differ from NetworkX's: {', '.join(disagree)}."]
    if failed:
        lines += ["", "Failed: " + "; ".join(failed) + "."]
    return "\n".join(lines) + "\n"


def records(runs: dict, graph: str, nodes: int, shapes: dict, date: str, command: str,
            warmup_s: float | None) -> list:
    """One record per function and implementation (``frontier.bench.records``),
    for the states that ran; ``shapes``: ``{function: (directed, edges)}`` of
    the graph each call takes. A first call's record has its parts, and the
    warmup's time (None if it did not run), in ``first_call``."""
    from frontier.bench.records import make_record

    out = []
    measured = _measured(runs)
    device = measured[0]["device"] if measured else None
    warmup_s = None if warmup_s is None else round(warmup_s, 3)
    for function, by_state in runs.items():
        empty, warm = by_state.get("empty cache"), by_state.get("after warmup")
        first = _first(by_state)
        directed, edges = shapes[function]
        shared = dict(primitive=function, graph=graph, vertices=nodes, edges=edges,
                      directed=directed, weighted=False, num_devices=1, date=date,
                      command=command, versions=measured[0]["versions"] if measured else None)
        if first.get("networkx_s") is not None:
            out.append(make_record(implementation="networkx", device=first["cpu"],
                                   status="ok", time_ms=first["networkx_s"] * 1e3, **shared))
        for state, run in by_state.items():
            implementation = f"frontier first call, {state}"
            if "error" in run:
                out.append(make_record(implementation=implementation, device=device,
                                       status="error", reason=run["error"], **shared))
                continue
            record = make_record(implementation=implementation, device=run["device"],
                                 status="ok", time_ms=run["first_s"] * 1e3, **shared)
            record["first_call"] = dict(run["first_call"], warmup_s=warmup_s,
                                        answered_on=run["first_device"],
                                        background_warm_up=run["warm_up"],
                                        background_warm_up_s=run["warm_up_s"])
            record["compiled_kernels"] = run["compiled"]
            record["agrees_with_networkx"] = run["agrees"]
            out.append(record)
        if empty is not None and "error" not in empty:
            record = make_record(implementation="frontier next call, empty cache",
                                 device=empty["device"], status="ok",
                                 time_ms=empty["next_s"] * 1e3, **shared)
            record["answered_on"] = empty["next_device"]
            out.append(record)
        if warm is not None and "error" not in warm:
            record = make_record(implementation="frontier second call", device=warm["device"],
                                 status="ok", time_ms=warm["next_s"] * 1e3, **shared)
            record["answered_on"] = warm["next_device"]
            record["compiled_kernels"] = warm["next_compiled"]
            out.append(record)
        for state, run in by_state.items():
            if "error" not in run:
                record = make_record(implementation=f"frontier warm call, {state}",
                                     device=run["device"], status="ok",
                                     time_ms=run["warm_s"] * 1e3, **shared)
                record["answered_on"] = run["warm_device"]
                out.append(record)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--edges-per-node", type=int, default=5,
                        help="Barabasi-Albert m: about m * nodes edges (default 5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--functions", nargs="+", choices=sorted(CALLS), default=list(CALLS),
                        metavar="FUNCTION", help="the functions to call (default: all the "
                        "backend implements; their calls: CALLS)")
    parser.add_argument("--skip-networkx", nargs="*", choices=sorted(CALLS), default=[],
                        metavar="FUNCTION", help="do not time NetworkX's own call of these")
    parser.add_argument("--states", nargs="+", choices=(*STATES, *STATE_NAMES),
                        default=list(STATES), metavar="STATE",
                        help="the kernel cache states to measure: 'empty cache' (or empty), "
                        "'after warmup' (or warm); default both. NetworkX is timed in the "
                        "first of them")
    parser.add_argument("--results", default=str(ROOT / "benchmarks" / "results"),
                        help="directory of the JSON record file")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds each process may take")
    parser.add_argument("--warmed", metavar="DIR",
                        help="a kernel cache `frontier warmup` filled already: copied for "
                        "each call after warmup instead of running warmup here")
    parser.add_argument("--cold-start", choices=("cpu", "gpu"), default="cpu",
                        help="FRONTIER_COLD_START of every process (default cpu: a cold GPU's "
                        "first calls are answered on the CPU; gpu: they compile)")
    parser.add_argument("--child", choices=sorted(CALLS), help=argparse.SUPPRESS)
    parser.add_argument("--graph-file", help=argparse.SUPPRESS)
    parser.add_argument("--with-networkx", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.graph_file, args.with_networkx)))
        return 0

    COLD_START["policy"] = args.cold_start
    import networkx as nx

    from frontier.bench.records import RecordFile
    from frontier.device import Device

    command = "python benchmarks/first_call.py " + shlex.join(
        sys.argv[1:] if argv is None else argv)
    G = nx.barabasi_albert_graph(args.nodes, args.edges_per_node, seed=args.seed)
    graph = f"Barabasi-Albert graph, {G.number_of_nodes()} nodes, {G.number_of_edges()} edges"
    states = [state for state in STATES
              if state in {STATE_NAMES.get(name, name) for name in args.states}]
    networkx = [function for function in args.functions if function not in args.skip_networkx]
    runs: dict = {function: {} for function in args.functions}
    warmup_s, warmup_line = None, "not run"
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="first_call_") as temporary:
        scratch = Path(temporary)
        graph_path = scratch / "graph.pickle"
        graph_path.write_bytes(pickle.dumps(G, protocol=pickle.HIGHEST_PROTOCOL))
        if "empty cache" in states:
            for function in args.functions:
                cache = scratch / f"empty-{function}"
                cache.mkdir()
                runs[function]["empty cache"] = _run_child(
                    function, graph_path, cache, function in networkx, args.timeout)
        if "after warmup" in states:
            if args.warmed:
                warmed, warmup_line = Path(args.warmed), f"warmed before, {args.warmed}"
            else:
                warmed = scratch / "warmed"
                warmed.mkdir()
                warmup_s, warmup_line = _warmup(warmed, args.timeout)
            for function in args.functions:
                cache = scratch / f"warm-{function}"
                shutil.copytree(warmed, cache)  # no call sees what another compiled
                runs[function]["after warmup"] = _run_child(
                    function, graph_path, cache,
                    function in networkx and states == ["after warmup"], args.timeout)
    print(markdown(runs, graph, warmup_s, warmup_line, command))
    date = datetime.now(timezone.utc)
    measured = _measured(runs)
    kind, _, index = (measured[0]["device_name"] if measured else "cpu").partition(":")
    record_file = RecordFile(args.results, date, Device(kind, int(index or 0)),
                             f"ba-{args.nodes}-{args.edges_per_node}-first-call")
    shapes = {function: _shape(G, _preparation(function)) for function in args.functions}
    written = records(runs, graph, G.number_of_nodes(), shapes,
                      date.strftime("%Y-%m-%dT%H:%M:%SZ"), command, warmup_s)
    print(f"records in {record_file.write(written)}", file=sys.stderr)
    failed = len(measured) < len(states) * len(args.functions) or warmup_line.startswith("failed")
    return 1 if failed else 0


def compile_bytecode() -> None:
    """Byte-compile Frontier's modules, as installing the package does
    (``pip install`` writes them): a fresh process then reads them. Without
    them (a working tree never imported, or ``PYTHONDONTWRITEBYTECODE``
    set) each first call compiled about 270 sources, 0.45-0.49 s of it on
    the H200 host (2026-11-28, ``cProfile``)."""
    for package in ("frontier", "primitives", "partition"):
        compileall.compile_dir(ROOT / package, quiet=1)


if __name__ == "__main__":
    sys.exit(main())
