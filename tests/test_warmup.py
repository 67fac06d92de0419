"""Kernels ready ahead of their first use (issue 33): the registry that
``frontier warmup`` compiles holds every kernel the package builds, the
command on a machine without a GPU, the one-line notice of a long
first-use compile, and the first-call benchmark's smoke path."""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from frontier.bench.records import read_records
from frontier.cli import main
from frontier.device import Device
from frontier.kernels import first_use
from frontier.kernels.module import INSTANTIATIONS, instantiation
from frontier.warmup import exercises, registry

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("frontier", "primitives", "partition")
KERNELS = ROOT / "frontier" / "kernels"
#: CuPy's constructors of compiled kernels (and decorators that compile).
KERNEL_CONSTRUCTORS = {"RawModule", "RawKernel", "ElementwiseKernel", "ReductionKernel", "fuse",
                       "rawkernel"}


def kernel_builders() -> set[str]:
    """``module.function`` of every function of the packages whose body
    constructs a CuPy kernel (a call of a constructor, by any alias)."""
    builders = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            tree = ast.parse(path.read_text())
            for function in ast.walk(tree):
                if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(function):
                    called = node.func if isinstance(node, ast.Call) else None
                    name = getattr(called, "attr", None) or getattr(called, "id", None)
                    if name in KERNEL_CONSTRUCTORS:
                        builders.add(f"{module}.{function.name}")
    return builders


def global_kernels(source: str) -> set[str]:
    """The names of the ``__global__`` functions of a ``.cu`` file here."""
    text = (KERNELS / source).read_text()
    bounds = r"(?:__launch_bounds__\([^)]*\)\s+)?"
    return set(re.findall(r"__global__\s+void\s+" + bounds + r"(\w+)\s*\(", text))


def test_every_function_that_builds_a_kernel_is_in_the_registry():
    """Adding a kernel without registering it (so that warmup would not
    compile it) fails here; so does a registry entry whose builder is gone."""
    builders = kernel_builders()
    assert "frontier.kernels.module._module" in builders  # the scan sees RawModule
    assert builders == {kernel.made_by for kernel in registry()}


def test_every_cuda_source_and_kernel_is_listed():
    sources = {path.name for path in KERNELS.glob("*.cu")}
    assert sources == set(INSTANTIATIONS)
    for source, expressions in INSTANTIATIONS.items():
        listed = {expression.split("<")[0] for expression in expressions}
        assert listed == global_kernels(source), source
        assert len(set(expressions)) == len(expressions), f"{source} lists one twice"


def test_every_launch_names_a_kernel_of_its_source():
    """``kernel("name", ..., source=...)`` and ``edges.launch("name", ...)``
    call sites name a ``__global__`` of the source they load from."""
    launched = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not (isinstance(node, ast.Call) and node.args):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                first = node.args[0]
                if isinstance(first, ast.BinOp):  # "compact_count" + suffix
                    first = first.left
                if name not in ("kernel", "launch") or not isinstance(first, ast.Constant):
                    continue
                source = next((keyword.value.value for keyword in node.keywords
                               if keyword.arg == "source"), "traversal.cu")
                launched.append((path.name, first.value, source))
    assert len(launched) > 15
    for where, kernel_name, source in launched:
        assert kernel_name in global_kernels(source), (where, kernel_name, source)


def test_registry_names_each_instantiation_once():
    kernels = registry()
    names = [kernel.name for kernel in kernels]
    assert len(names) == len(set(names))
    listed = sum(len(expressions) for expressions in INSTANTIATIONS.values())
    assert sum(kernel.made_by == "frontier.kernels.module._module" for kernel in kernels) == listed
    assert "traversal.cu gather_sum<int, int, double, double>" in names


def test_instantiation_names_and_refusals():
    assert instantiation("gather_sum", (np.int32, np.int64, np.float32, np.float64)) == \
        "gather_sum<int, long long, float, double>"
    assert instantiation("scatter_extreme", (np.float64, True), "scatter.cu") == \
        "scatter_extreme<double, true>"
    assert instantiation("flags_to_bits", (np.bool_,)) == "flags_to_bits<bool>"
    assert instantiation("fill_pattern", source="fill.cu") == "fill_pattern"
    with pytest.raises(ValueError, match=r"hook<int, float> is not an instantiation of "
                                         r"traversal.cu"):
        instantiation("hook", (np.int32, np.float32))
    with pytest.raises(ValueError, match="no kernel source 'other.cu'"):
        instantiation("fill_pattern", source="other.cu")


def test_warmup_without_a_gpu_says_so_and_exits_0(monkeypatch, capsys):
    monkeypatch.setattr("frontier.warmup.gpu_count", lambda: 0)
    assert main(["warmup"]) == 0
    captured = capsys.readouterr()
    assert "frontier warmup: no CUDA GPU" in captured.err
    assert "nothing to compile" in captured.err and captured.out == ""


def test_warmup_list_prints_the_registry(capsys):
    assert main(["warmup", "--list"]) == 0
    assert capsys.readouterr().out.splitlines() == [kernel.name for kernel in registry()]


def test_warmup_on_the_cpu_device_is_an_input_error(capsys):
    assert main(["warmup", "--device", "cpu"]) == 2
    assert "frontier warmup: error: frontier warmup compiles for a GPU, not 'cpu'" in \
        capsys.readouterr().err


def test_the_calls_warmup_runs_run_on_the_cpu(monkeypatch, recwarn):
    """Each call of the second phase, on small graphs: on the CPU device and
    a second virtual one (on a GPU: the GPU and, if any, another)."""
    monkeypatch.setattr("frontier.warmup.EXERCISE_SCALE", 6)
    monkeypatch.setattr("frontier.warmup.EXERCISE_NODES", 60)
    monkeypatch.setattr("frontier.warmup.SMALL_EXERCISE_NODES", (20,))
    calls = exercises(Device("cpu"))
    names = [name for name, _ in calls]
    assert "pagerank, 2 devices" in names and "nx.pagerank" in names
    assert "nx.pagerank, 20 nodes" in names
    for name, call in calls:
        assert call() is not None, name
    assert not [w for w in recwarn if "cache" in str(w.message)]


def test_warmup_calls_every_backend_function_on_each_graph():
    """The backend calls warmup runs are exactly the backend's functions,
    once on the larger graph and once on each small one: a function added
    to the backend without a call in frontier/nx_backend/call_table.py
    fails here."""
    from frontier.nx_backend import backend_interface
    from frontier.nx_backend.call_table import CALLS
    from frontier.warmup import SMALL_EXERCISE_NODES
    from frontier_backend_info import FUNCTIONS

    assert set(CALLS) == set(FUNCTIONS)
    names = [name for name, _ in exercises(Device("cpu"))]  # builds no graph until called
    backend = [name.removeprefix("nx.") for name in names if name.startswith("nx.")]
    on_each = sorted([*FUNCTIONS] + [f"{function}, {nodes} nodes" for function in FUNCTIONS
                                     for nodes in SMALL_EXERCISE_NODES])
    assert sorted(backend) == on_each
    assert all(callable(getattr(backend_interface, name)) for name in FUNCTIONS)
    assert "Graph.from_networkx" in names


def test_the_first_call_benchmark_loads_the_call_table_without_frontier():
    """benchmarks/first_call.py takes its calls from frontier/nx_backend/
    call_table.py without importing Frontier (or CuPy): its child times the
    backend's import as part of the first call."""
    script = ("import runpy, sys; table = runpy.run_path(sys.argv[1])['CALLS']; "
              "print(len(table), sorted(m for m in sys.modules "
              "if m.split('.')[0] in ('frontier', 'cupy', 'networkx')))")
    done = subprocess.run([sys.executable, "-c", script,
                           str(ROOT / "benchmarks" / "first_call.py")],
                          capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    from frontier.nx_backend.call_table import CALLS

    assert done.stdout.split() == [str(len(CALLS)), "[]"]
    assert first_call_module().CALLS.keys() == CALLS.keys()


def test_warm_up_compiles_every_entry_in_threads_then_runs_the_calls(monkeypatch):
    """The orchestration, with a stand-in GPU: every registry entry compiled
    once (on the device, in worker threads), then every call run once."""
    import contextlib
    import threading

    from frontier import warmup

    compiled, ran, threads = [], [], set()

    def entry(name):
        def compile_it():
            threads.add(threading.get_ident())
            compiled.append(name)
        return warmup.Kernel(name, "test", compile_it)

    class StandInGPU:
        is_gpu, name = True, "cuda:0"

        def activate(self):
            return contextlib.nullcontext()

        def describe(self):
            return "cuda:0 (stand-in)"

    monkeypatch.setattr(warmup, "registry", lambda: [entry(f"k{i}") for i in range(20)])
    monkeypatch.setattr(warmup, "exercises",
                        lambda device: [(n, lambda n=n: ran.append(n)) for n in ("a", "b")])
    summary = warmup.warm_up(StandInGPU(), jobs=4)
    assert sorted(compiled) == sorted(f"k{i}" for i in range(20))
    assert threading.get_ident() not in threads
    assert ran == ["a", "b"]
    assert summary["kernels"] == 20 and summary["calls"] == 2
    assert summary["device"] == "cuda:0 (stand-in)"
    assert warmup.warm_up(StandInGPU(), jobs=1, run_calls=False)["calls"] == 0
    with pytest.raises(ValueError, match="jobs=0: expected at least 1"):
        warmup.warm_up(StandInGPU(), jobs=0)


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def fresh_notice(monkeypatch):
    """The notice as in a new process, after 0.05 s of compiling. (Tests set
    ``sys.stderr`` in their body: pytest's capture replaces it after setup.)"""
    monkeypatch.setattr(first_use, "NOTICE_AFTER_S", 0.05)
    monkeypatch.setattr(first_use, "_spent_s", 0.0)
    monkeypatch.setattr(first_use, "_noticed", False)


def test_a_long_first_use_compile_is_announced_once(fresh_notice, monkeypatch):
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with first_use.compiling("gather_sum<int, int, double, double> (traversal.cu)"):
        time.sleep(0.01)  # under the threshold: nothing yet
    assert terminal.getvalue() == ""
    with first_use.compiling("hook<int, int> (traversal.cu)"):
        time.sleep(0.3)  # the notice fires during the wait
        assert "compiling CUDA kernels" in terminal.getvalue()
    with first_use.compiling("clear_bits<int> (traversal.cu)"):
        time.sleep(0.1)
    text = terminal.getvalue()
    assert text.count("\n") == 1 and text.startswith("frontier: first call: compiling")
    assert "hook<int, int>" in text and "frontier warmup" in text
    assert first_use.cache_dir() in text


def test_the_notice_is_logged_but_not_drawn_off_a_terminal(fresh_notice, monkeypatch, caplog):
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    with caplog.at_level("INFO", logger="frontier"):
        with first_use.compiling("hook<int, int> (traversal.cu)"):
            time.sleep(0.3)
    assert pipe.getvalue() == ""
    assert [record.getMessage()[:25] for record in caplog.records] == \
        ["compiling CUDA kernels fo"]


def test_cache_dir_follows_cupy(monkeypatch):
    monkeypatch.setenv("CUPY_CACHE_DIR", "/somewhere/kernels")
    assert first_use.cache_dir() == "/somewhere/kernels"
    monkeypatch.delenv("CUPY_CACHE_DIR")
    assert first_use.cache_dir() == os.path.expanduser("~/.cupy/kernel_cache")


def first_call_module():
    spec = importlib.util.spec_from_file_location("first_call",
                                                  ROOT / "benchmarks" / "first_call.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_ledger_counts_nested_stages_once():
    """The benchmark's stages are exclusive: the compile inside a conversion
    counts as compile only, and the kernels compiled are named."""
    first_call = first_call_module()

    class Compiler:
        def compile(self, source, options=(), arch=None, filename="", name_expressions=None):
            time.sleep(0.05)

        def convert(self):
            time.sleep(0.05)
            self.compile("extern \"C\" __global__ void cupy_add(double x) {}")
            self.compile("", (), 90, "k.cu", ("gather_sum<int, int, double, double>",))
            time.sleep(0.05)

    compiler = Compiler()
    ledger = first_call.Ledger()
    ledger.watch(compiler, "convert", "conversion")
    ledger.watch(compiler, "compile", "compile", first_call._kernel_names)
    ledger.watch(compiler, "absent", "nothing")  # a CuPy without it: not watched
    compiler.convert()
    assert ledger.counts == {"conversion": 1, "compile": 2}
    assert ledger.names == ["cupy_add", "gather_sum<int, int, double, double>"]
    assert 0.1 <= ledger.seconds["compile"] < 0.2
    assert 0.1 <= ledger.seconds["conversion"] < 0.2


def test_first_call_tables_and_records_keep_a_failed_process():
    """A process that failed is a "failed" cell, a line saying why and an
    error record; the others are reported as measured."""
    first_call = first_call_module()
    parts = dict(import_s=0.3, cuda_start_s=0.7, conversion_s=0.2, compile_s=1.0,
                 kernels_compiled=4, kernel_load_s=0.01, run_s=0.05)
    measured = dict(device="cuda:0 (GPU)", device_name="cuda:0", cpu="cpu (CPU)",
                    versions={"python": "3"}, first_s=2.26, first_call=parts,
                    compiled=["gather_sum<int, int, double, double>"], first_device="cpu",
                    warm_up="done", warm_up_s=40.0, next_s=0.5, next_device="cuda:0",
                    next_compiled=[], warm_s=0.02, warm_device="cuda:0",
                    networkx_s=3.2, agrees=True)
    runs = {"pagerank": {"empty cache": measured,
                         "after warmup": {"error": "exit 1: RuntimeError: boom"}}}
    table = first_call.markdown(runs, "a graph", 12.0, "ready", "python first_call.py")
    assert ("| `pagerank(G)` | 3.2 s | 2.26 s (cpu) | 40 s | 0.5 s (cuda:0) | failed | failed | "
            "failed |" in table)
    assert "| `pagerank(G)` | empty cache | cpu | 0.3 s | 0.7 s | 0.2 s | 1 s (4) |" in table
    assert "Failed: `pagerank(G)` (after warmup): exit 1: RuntimeError: boom." in table
    written = first_call.records(runs, "a graph", 10, {"pagerank": (False, 20)},
                                 "2026-11-25T00:00:00Z", "c", 12.0)
    assert [(r["implementation"], r["status"]) for r in written] == [
        ("networkx", "ok"), ("frontier first call, empty cache", "ok"),
        ("frontier first call, after warmup", "error"), ("frontier next call, empty cache", "ok"),
        ("frontier warm call, empty cache", "ok")]
    assert written[2]["reason"] == "exit 1: RuntimeError: boom"
    assert written[1]["edges"] == 20 and written[1]["directed"] is False
    assert written[1]["first_call"]["warmup_s"] == 12.0
    assert written[1]["first_call"]["answered_on"] == "cpu"
    assert written[1]["first_call"]["background_warm_up_s"] == 40.0
    assert written[3]["answered_on"] == "cuda:0"
    assert written[4]["time_ms"] == 20.0 and written[4]["answered_on"] == "cuda:0"


def test_first_call_benchmark_smoke(tmp_path):
    """benchmarks/first_call.py on a small graph (on the CPU here: nothing to
    compile, warmup says so): both tables and a record file."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "first_call.py"), "--nodes", "300",
         "--functions", "pagerank", "connected_components", "--results", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
        env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    table = done.stdout
    assert "| `pagerank(G)` |" in table and "| `connected_components(G)` | empty cache |" in table
    assert "Answers differ" not in table
    [path] = tmp_path.glob("*-ba-300-5-first-call.json")
    records = read_records([path])
    implementations = [(r["primitive"], r["implementation"]) for r in records]
    assert ("pagerank", "frontier first call, after warmup") in implementations
    assert ("connected_components", "networkx") in implementations
    first = next(r for r in records if r["implementation"] == "frontier first call, empty cache")
    assert first["agrees_with_networkx"] is True
    parts = first["first_call"]
    assert set(parts) >= {"import_s", "cuda_start_s", "conversion_s", "compile_s",
                          "kernels_compiled", "kernel_load_s", "run_s", "warmup_s"}
    assert sum(parts[k] for k in ("import_s", "cuda_start_s", "conversion_s", "compile_s",
                                  "kernel_load_s", "run_s")) == \
        pytest.approx(first["time_ms"] / 1e3, rel=1e-2, abs=1e-3)
    json.dumps(records)  # plain JSON


@pytest.mark.gpu
def test_warmup_fills_an_empty_kernel_cache(tmp_path):
    """On a GPU: ``frontier warmup --kernels-only`` into an empty cache
    directory leaves a compiled kernel there for (at least) every registry
    entry, and a second run compiles nothing new."""
    env = dict(os.environ, CUPY_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    command = [sys.executable, "-c",
               "import sys; from frontier.cli import main; sys.exit(main(sys.argv[1:]))",
               "warmup", "--kernels-only", "--quiet", "--device", "cuda:0"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{len(registry())} kernels ready" in done.stdout
    cached = {path.name for path in tmp_path.iterdir() if path.suffix == ".cubin"}
    # fewer entries than the registry would mean instantiations sharing a module
    assert len(cached) >= len(INSTANTIATIONS["traversal.cu"]) + len(INSTANTIATIONS["scatter.cu"])
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert {path.name for path in tmp_path.iterdir() if path.suffix == ".cubin"} == cached


@pytest.mark.gpu
def test_a_launch_compiles_only_its_own_instantiation():
    """On a GPU: the first launch of a fused kernel builds the module of its
    one instantiation, not its source file's."""
    import cupy

    from frontier.kernels import module

    module._module.cache_clear()
    module._function.cache_clear()
    module.kernel("clear_bits", np.int32)
    gpu = cupy.cuda.runtime.getDevice()
    assert module._module.cache_info().currsize == 1
    assert module._module("traversal.cu", "clear_bits<int>", gpu).name_expressions == \
        ("clear_bits<int>",)


def test_first_call_benchmark_reuses_a_warmed_cache(tmp_path):
    """``--warmed DIR``: each call after warmup gets a copy of DIR (no warmup
    run here), and every process's third call is recorded as its warm call."""
    warmed = tmp_path / "warmed"
    (warmed / "frontier-warm").mkdir(parents=True)
    (warmed / "frontier-warm" / "marker.json").write_text("{}")
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "first_call.py"), "--nodes", "300",
         "--states", "warm", "--warmed", str(warmed), "--functions", "pagerank",
         "--skip-networkx", "pagerank", "--results", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
        env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    assert f"`frontier warmup` warmed before, {warmed}." in done.stdout
    assert "warm call" in done.stdout and "kernels compiled), warm " in done.stderr
    [path] = tmp_path.glob("*-ba-300-5-first-call.json")
    warm = [r for r in read_records([path])
            if r["implementation"] == "frontier warm call, after warmup"]
    assert len(warm) == 1 and warm[0]["time_ms"] > 0 and warm[0]["answered_on"] == "cpu"
    assert (warmed / "frontier-warm" / "marker.json").exists()  # copied, not moved
