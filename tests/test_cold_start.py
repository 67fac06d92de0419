"""The NetworkX backend's first calls on a cold GPU (issue 33): answered on
the CPU while ``frontier warmup`` compiles in the background
(:mod:`frontier.nx_backend.cold_start`), the stamp that says a GPU is warm
(:mod:`frontier.kernels.first_use`), and the switch that turns it off.

On a machine without a GPU the cold GPU is played by a virtual CPU device,
``cpu:1``: what Frontier's default device would be, and where a call goes
once the (simulated) warm-up is done. GPU tests at the end run the real
thing in fresh processes with an empty kernel cache."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
import frontier.device
import frontier.enactor
from frontier import split_runs, warmup
from frontier.cli import main
from frontier.kernels import first_use
from frontier.nx_backend import call_table, cold_start
from primitives import bfs

ROOT = Path(__file__).resolve().parents[1]
THE_GPU = fr.Device("cpu", 1)  # stands for the default GPU on a CPU-only machine
CAPABILITY, CUPY = "90", "99.1.0"
READ_CUPY_VERSION = first_use.cupy_version.__wrapped__
REAL_START = cold_start.WarmUp.start


class FakeWarmUpProcess:
    """A ``frontier warmup`` child that ends when the test says."""

    def __init__(self):
        self.code = None

    def wait(self, timeout=None):
        if self.code is None:
            assert timeout is not None, "waiting forever for a warm-up that never ends"
            raise subprocess.TimeoutExpired("frontier warmup", timeout)
        return self.code

    def poll(self):
        return self.code

    def terminate(self):
        self.code = -15


def fake_start(self) -> None:
    self.process = FakeWarmUpProcess()
    self.log = tempfile.TemporaryFile()
    self.log.write(b"frontier warmup: 3 kernels ready\n")
    self.started = 0.0
    self.state = "running"
    starts.append(self)


starts: list = []


@pytest.fixture
def gpu(monkeypatch, tmp_path):
    """A machine whose default device is a GPU of compute capability 9.0,
    with CuPy 99.1.0 and an empty kernel cache in ``tmp_path``; the
    background warm-up is simulated (:class:`FakeWarmUpProcess`)."""
    real_default = frontier.device.default_device
    monkeypatch.setattr(frontier.device, "default_device",
                        lambda: THE_GPU if not os.environ.get("FRONTIER_DEVICE")
                        else real_default())
    monkeypatch.setattr(first_use, "driver_compute_capability", lambda: CAPABILITY)
    monkeypatch.setattr(first_use, "cupy_version", lambda: CUPY)
    monkeypatch.setenv("CUPY_CACHE_DIR", str(tmp_path))
    for variable in ("FRONTIER_DEVICE", cold_start.POLICY_VARIABLE,
                     cold_start.MAX_WORK_VARIABLE, "CUPY_CACHE_IN_MEMORY"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(cold_start.WarmUp, "start", fake_start)
    fresh_process(monkeypatch)
    starts.clear()
    with nx.config(warnings_to_ignore={"cache"}):  # later calls reuse the conversion
        yield tmp_path


def fresh_process(monkeypatch, gpu_started: bool = True) -> None:
    """Forget what this process learnt of the GPU (a new process); unless
    ``gpu_started`` is false, the process has started it (imported CuPy)."""
    monkeypatch.setattr(cold_start, "_warm_up", cold_start.WarmUp())
    monkeypatch.setattr(cold_start, "_gpu_start", cold_start.GpuStart())
    if gpu_started:
        cold_start._gpu_start.state = "started"
    monkeypatch.setattr(cold_start, "_last", None)


def finish_warm_up(code: int = 0) -> None:
    cold_start._warm_up.process.code = code


def ba_graph():
    return nx.barabasi_albert_graph(300, 3, seed=1)


# the decision -----------------------------------------------------------------------------

def test_cold_gpu_answers_on_the_cpu_and_starts_one_warm_up(gpu, caplog):
    with caplog.at_level(logging.INFO, logger="frontier"):
        assert cold_start.choose(None, 1000) == fr.Device("cpu")
        assert cold_start.choose(None, 1000) == fr.Device("cpu")  # not while it runs
    assert len(starts) == 1
    said = [r.getMessage() for r in caplog.records if "answering on the CPU" in r.getMessage()]
    assert len(said) == 1 and "sm_90" in said[0] and str(gpu) in said[0]
    assert cold_start.status()["warm_up"] == "running"
    finish_warm_up()
    with caplog.at_level(logging.INFO, logger="frontier"):
        assert cold_start.choose(None, 1000) == THE_GPU
    assert cold_start.status() == {"policy": "cpu", "warm_up": "done",
                                   "warm_up_s": cold_start.status()["warm_up_s"],
                                   "gpu_start": "started", "gpu_start_s": None,
                                   "last_device": THE_GPU.name}
    assert any("background warm-up done" in r.getMessage() and "3 kernels ready"
               in r.getMessage() for r in caplog.records)
    assert len(starts) == 1


def test_a_stamped_gpu_is_warm_from_the_first_call(gpu):
    path = first_use.write_stamp(CAPABILITY, CUPY, {"kernels": 3})
    assert Path(path).parent == gpu / first_use.STAMPS
    assert cold_start.choose(None, 1000) == THE_GPU
    assert starts == []


def test_a_warm_gpu_not_started_answers_small_calls_on_the_cpu_and_starts(
        gpu, monkeypatch, caplog):
    """A stamped cache, but this process has not imported CuPy: a call of
    at most START_MAX_WORK edge passes is answered on the CPU (said once),
    the GPU starts in a background thread when the call ends, and calls go
    to it once it has started."""
    first_use.write_stamp(CAPABILITY, CUPY, {"kernels": 3})
    fresh_process(monkeypatch, gpu_started=False)
    monkeypatch.delitem(sys.modules, "cupy", raising=False)
    monkeypatch.setattr(first_use, "driver_lists_gpu", lambda: True)
    with caplog.at_level(logging.INFO, logger="frontier"):
        assert cold_start.choose(None, cold_start.START_MAX_WORK) == fr.Device("cpu")
        assert cold_start.choose(None, 1000) == fr.Device("cpu")
    said = [r.getMessage() for r in caplog.records if "not started" in r.getMessage()]
    assert len(said) == 1 and f"{cold_start.START_MAX_WORK:,} edge passes" in said[0]
    assert cold_start.status()["gpu_start"] == "wanted"
    # a larger call starts the GPU itself
    assert cold_start.choose(None, cold_start.START_MAX_WORK + 1) == THE_GPU
    cold_start.after_call()
    assert cold_start.status()["gpu_start"] in ("starting", "started")
    cold_start.wait(10)
    assert cold_start.status()["gpu_start"] == "started"
    assert cold_start.status()["gpu_start_s"] is not None
    assert cold_start._gpu_start.error is None
    assert cold_start.choose(None, 1000) == THE_GPU
    assert starts == []  # warm: no warm-up


def test_a_cold_gpu_starts_while_it_warms_up(gpu, monkeypatch):
    """While the warm-up compiles, the GPU starts in this process after the
    call, so that the first call after the warm-up finds it started."""
    fresh_process(monkeypatch, gpu_started=False)
    monkeypatch.delitem(sys.modules, "cupy", raising=False)
    assert cold_start.choose(None, 1000) == fr.Device("cpu")
    cold_start.after_call()
    cold_start._gpu_start.thread.join(10)
    assert cold_start.status()["gpu_start"] == "started"
    finish_warm_up()
    assert cold_start.choose(None, 1000) == THE_GPU


def test_a_process_that_imported_cupy_or_sees_no_gpu_goes_to_the_default_device(
        gpu, monkeypatch):
    first_use.write_stamp(CAPABILITY, CUPY, {"kernels": 3})
    fresh_process(monkeypatch, gpu_started=False)
    monkeypatch.setitem(sys.modules, "cupy", object())  # imported by the caller
    assert cold_start.choose(None, 1000) == THE_GPU
    fresh_process(monkeypatch, gpu_started=False)
    monkeypatch.delitem(sys.modules, "cupy")
    monkeypatch.setattr(first_use, "driver_lists_gpu", lambda: False)  # no GPU listed
    assert cold_start.choose(None, 1000) == THE_GPU
    cold_start.after_call()
    assert cold_start.status()["gpu_start"] == "not started"


def test_a_backend_call_starts_the_gpu_after_answering_on_the_cpu(gpu, monkeypatch):
    first_use.write_stamp(CAPABILITY, CUPY, {"kernels": 3})
    fresh_process(monkeypatch, gpu_started=False)
    monkeypatch.delitem(sys.modules, "cupy", raising=False)
    monkeypatch.setattr(first_use, "driver_lists_gpu", lambda: None)  # cannot tell: may be
    graph = ba_graph()
    first = nx.pagerank(graph, backend="frontier")
    assert cold_start.status()["last_device"] == "cpu"
    cold_start.wait(10)
    assert cold_start.status()["gpu_start"] == "started"
    again = nx.pagerank(graph, backend="frontier")
    assert cold_start.status()["last_device"] == THE_GPU.name
    assert first == pytest.approx(again)


def test_a_stamp_for_another_gpu_or_cupy_is_not_warm(gpu):
    first_use.write_stamp("80", CUPY, {})
    first_use.write_stamp(CAPABILITY, "98.0.0", {})
    assert not first_use.stamped()
    assert cold_start.choose(None, 1000) == fr.Device("cpu")
    assert len(starts) == 1


def test_no_gpu_means_no_warm_up(gpu, monkeypatch):
    monkeypatch.setattr(first_use, "driver_compute_capability", lambda: None)
    assert cold_start.choose(None, 1000) == THE_GPU  # whatever the default is
    assert starts == []


def test_cold_gpu_is_the_gpu_the_policy_holds_back(gpu, monkeypatch):
    """What benchmarks/first_call.py asks before importing CuPy: a file test
    that starts no warm-up."""
    assert cold_start.cold_gpu() == CAPABILITY
    monkeypatch.setenv(cold_start.POLICY_VARIABLE, "gpu")
    assert cold_start.cold_gpu() is None
    monkeypatch.delenv(cold_start.POLICY_VARIABLE)
    first_use.write_stamp(CAPABILITY, CUPY, {})
    assert cold_start.cold_gpu() is None
    monkeypatch.setattr(first_use, "driver_compute_capability", lambda: None)
    assert cold_start.cold_gpu() is None
    assert starts == []


def listed_gpu(monkeypatch, tmp_path) -> None:
    """The NVIDIA driver's /proc listing, holding one GPU."""
    listing = tmp_path / "nvidia-gpus"
    (listing / "0000:00:06.0").mkdir(parents=True)
    monkeypatch.setattr(first_use, "NVIDIA_GPUS", str(listing))
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)


def test_no_stamp_for_any_gpu_asks_the_driver_nothing(gpu, monkeypatch, tmp_path, caplog):
    """Where the driver lists a GPU and no warm-up stamped any, the GPU is
    cold whatever its architecture: no cuInit in the caller's first call."""
    listed_gpu(monkeypatch, tmp_path)
    monkeypatch.setattr(first_use, "driver_compute_capability", no_driver)
    assert cold_start.cold_gpu() == ""
    with caplog.at_level(logging.INFO, logger="frontier"):
        assert cold_start.choose(None, 1000) == fr.Device("cpu")
    assert len(starts) == 1
    assert any("no stamp for any GPU" in r.getMessage() for r in caplog.records)


def test_a_stamp_for_some_gpu_makes_the_driver_say_which_this_is(gpu, monkeypatch, tmp_path):
    listed_gpu(monkeypatch, tmp_path)
    first_use.write_stamp("80", CUPY, {})
    assert cold_start.cold_gpu() == CAPABILITY  # another GPU's stamp: cold
    first_use.write_stamp(CAPABILITY, CUPY, {})
    assert cold_start.cold_gpu() is None  # this GPU's: warm
    assert cold_start.choose(None, 1000) == THE_GPU
    assert starts == []


@pytest.mark.parametrize("listing, visible, expected", [
    (None, None, None), ([], None, False), (["0000:00:06.0"], None, True),
    (["0000:00:06.0"], "", False), (["0000:00:06.0"], "-1", False),
    (["0000:00:06.0"], "0,1", True)])
def test_driver_lists_gpu(monkeypatch, tmp_path, listing, visible, expected):
    """The /proc listing answers where it exists; CUDA_VISIBLE_DEVICES can
    hide every GPU; without the listing only the driver can tell (None)."""
    directory = tmp_path / "gpus"
    if listing is not None:
        directory.mkdir()
        for name in listing:
            (directory / name).mkdir()
    monkeypatch.setattr(first_use, "NVIDIA_GPUS", str(directory))
    if visible is None:
        monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    else:
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", visible)
    assert first_use.driver_lists_gpu() is expected


def listed_models(monkeypatch, tmp_path, models: list[str]) -> None:
    """The NVIDIA driver's /proc listing, one GPU of each of ``models``,
    with its ``information`` file as the driver writes it."""
    listing = tmp_path / "nvidia-gpus"
    for number, model in enumerate(models):
        gpu = listing / f"0000:{number:02x}:00.0"
        gpu.mkdir(parents=True)
        (gpu / "information").write_text(f"Model: \t\t {model}\nIRQ:   \t\t 42\n"
                                         "Bus Type: \t PCIe\n")
    monkeypatch.setattr(first_use, "NVIDIA_GPUS", str(listing))
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)


def no_driver():
    raise AssertionError("the driver was asked for the compute capability")


def test_a_warm_up_lets_the_listed_model_name_the_capability(gpu, monkeypatch, tmp_path):
    """After a warm-up recorded the model, the stamp test reads the
    capability from files: no cuInit in the caller's first call."""
    listed_models(monkeypatch, tmp_path, ["NVIDIA H200", "NVIDIA H200"])
    assert first_use.listed_models() == {"NVIDIA H200"}
    assert first_use.compute_capability() == CAPABILITY  # the driver's, nothing recorded
    first_use.remember_model(CAPABILITY)
    first_use.write_stamp(CAPABILITY, CUPY, {})
    monkeypatch.setattr(first_use, "driver_compute_capability", no_driver)
    assert first_use.compute_capability() == CAPABILITY
    assert first_use.stamped() and cold_start.cold_gpu() is None
    # another model on this machine (a new GPU in the same cache): the driver again
    listed_models(monkeypatch, tmp_path / "other", ["NVIDIA H100 80GB HBM3"])
    with pytest.raises(AssertionError, match="the driver was asked"):
        first_use.compute_capability()


def test_several_listed_models_are_not_recorded_nor_trusted(gpu, monkeypatch, tmp_path):
    """Which of two models is CUDA's first GPU the listing does not say."""
    listed_models(monkeypatch, tmp_path, ["NVIDIA H200", "NVIDIA A100-SXM4-80GB"])
    first_use.remember_model(CAPABILITY)
    assert not (gpu / first_use.STAMPS / first_use.MODELS).exists()
    (gpu / first_use.STAMPS).mkdir(exist_ok=True)
    (gpu / first_use.STAMPS / first_use.MODELS).write_text(json.dumps({"NVIDIA H200": "90"}))
    monkeypatch.setattr(first_use, "driver_compute_capability", lambda: "80")
    assert first_use.compute_capability() == "80"


def test_an_unreadable_model_record_means_asking_the_driver(gpu, monkeypatch, tmp_path):
    listed_models(monkeypatch, tmp_path, ["NVIDIA H200"])
    (gpu / first_use.STAMPS).mkdir()
    (gpu / first_use.STAMPS / first_use.MODELS).write_text("not json{")
    assert first_use.compute_capability() == CAPABILITY
    (gpu / first_use.STAMPS / first_use.MODELS).write_text(json.dumps({"NVIDIA H200": "sm9"}))
    assert first_use.compute_capability() == CAPABILITY


@pytest.mark.parametrize("how", ["nx.config", "FRONTIER_DEVICE", "policy gpu"])
def test_a_device_the_user_names_or_the_off_switch_is_used_as_is(gpu, monkeypatch, how):
    named = None
    if how == "nx.config":
        named = "cpu:2"
    elif how == "FRONTIER_DEVICE":
        monkeypatch.setenv("FRONTIER_DEVICE", "cpu:2")
    else:
        monkeypatch.setenv(cold_start.POLICY_VARIABLE, "GPU")
    expected = THE_GPU if how == "policy gpu" else fr.Device("cpu", 2)
    assert cold_start.choose(named, 1000) == expected
    assert starts == []
    # a GPU this process has not started is not held back either
    first_use.write_stamp(CAPABILITY, CUPY, {"kernels": 3})
    fresh_process(monkeypatch, gpu_started=False)
    monkeypatch.delitem(sys.modules, "cupy", raising=False)
    monkeypatch.setattr(first_use, "driver_lists_gpu", lambda: True)
    assert cold_start.choose(named, 1000) == expected
    cold_start.after_call()
    assert cold_start.status()["gpu_start"] == "not started"


def test_a_device_named_in_networkx_config_is_used_even_when_cold(gpu):
    G = ba_graph()
    with nx.config.backends.frontier(device="cpu:2"):
        nx.pagerank(G, backend="frontier")
    assert cold_start.status()["last_device"] == "cpu:2"
    assert built_devices(G) == {fr.Device("cpu", 2)} and starts == []


def test_a_call_larger_than_the_compile_goes_to_the_gpu(gpu, monkeypatch, caplog):
    monkeypatch.setenv(cold_start.MAX_WORK_VARIABLE, "5000")
    with caplog.at_level(logging.INFO, logger="frontier"):
        assert cold_start.choose(None, 1000, passes=6) == THE_GPU
        assert cold_start.choose(None, 5001) == THE_GPU
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "longer on the CPU" in said[0] and "6,000 edge passes" in said[0]
    assert len(starts) == 1  # the warm-up still fills the cache for later calls
    with caplog.at_level(logging.INFO, logger="frontier"):
        assert cold_start.choose(None, 5000) == fr.Device("cpu")
    assert "answering on the CPU" in caplog.records[-1].getMessage()


def test_a_failed_warm_up_leaves_the_calls_to_the_gpu(gpu, caplog):
    cold_start.choose(None, 10)
    finish_warm_up(1)
    with caplog.at_level(logging.WARNING, logger="frontier"):
        assert cold_start.choose(None, 10) == THE_GPU
    assert cold_start.status()["warm_up"] == "failed"
    assert any("failed (exit 1)" in r.getMessage() for r in caplog.records)


def test_a_warm_up_that_cannot_start_leaves_the_calls_to_the_gpu(gpu, monkeypatch, caplog):
    monkeypatch.setattr(cold_start.WarmUp, "start", REAL_START)
    monkeypatch.setattr(sys, "executable", str(gpu / "no-such-python"))
    with caplog.at_level(logging.WARNING, logger="frontier"):
        assert cold_start.choose(None, 10) == THE_GPU
    assert cold_start.status()["warm_up"] == "failed"
    assert any("could not start" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("variable, value", [(cold_start.POLICY_VARIABLE, "gpu-please"),
                                             (cold_start.MAX_WORK_VARIABLE, "-1"),
                                             (cold_start.MAX_WORK_VARIABLE, "lots")])
def test_bad_settings_say_what_was_expected(gpu, monkeypatch, variable, value):
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=variable):
        cold_start.choose(None, 10)


def test_a_process_that_exits_stops_its_warm_up(gpu):
    cold_start.choose(None, 10)
    cold_start._warm_up.stop()
    assert cold_start._warm_up.process.code == -15


# the backend's calls ----------------------------------------------------------------------

def built_devices(G) -> set:
    """The devices of the frontier.Graphs built for the conversions NetworkX cached."""
    cache = G.__networkx_cache__.get("backends", {}).get("frontier", {})
    return {key[2] for converted in cache.values() for key in converted._built}


def test_the_cached_conversion_serves_the_cpu_then_the_gpu(gpu):
    G = ba_graph()
    expected = nx.pagerank(G)
    first = nx.pagerank(G, backend="frontier")
    assert cold_start.status()["last_device"] == "cpu"
    assert built_devices(G) == {fr.Device("cpu")}
    nx.pagerank(G, backend="frontier")
    assert built_devices(G) == {fr.Device("cpu")}  # no GPU while it warms
    finish_warm_up()
    later = nx.pagerank(G, backend="frontier")
    assert cold_start.status()["last_device"] == THE_GPU.name
    assert built_devices(G) == {fr.Device("cpu"), THE_GPU}
    for answer in (first, later):
        assert answer.keys() == expected.keys()
        assert all(abs(answer[v] - expected[v]) < 1e-6 for v in G)


def test_each_call_runs_where_its_graph_was_built(gpu, monkeypatch):
    """The cold answer runs on the CPU, not merely builds there: the enactor
    would otherwise copy the graph to the default device (the cold GPU,
    compiling there) -- generators' primitives included, which run after the
    call returned; the caller's own runs between their items are not kept."""
    ran = []
    real = frontier.enactor.run_devices
    monkeypatch.setattr(frontier.enactor, "run_devices",
                        lambda graph, devices: ran.append(real(graph, devices)) or ran[-1])
    G = ba_graph()
    nx.pagerank(G, backend="frontier")
    components = nx.connected_components(G, backend="frontier")
    assert ran == [[fr.Device("cpu")]]
    assert len(next(components)) == len(G)
    assert ran == [[fr.Device("cpu")]] * 2
    own = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    with nx.config.backends.frontier(device="cpu"):
        edges = nx.bfs_edges(G, 0, backend="frontier")
        next(edges)
        assert bfs(own, source=0).devices == (THE_GPU.name,)  # the caller's run, between items
    assert ran[-2:] == [[fr.Device("cpu")], [THE_GPU]]
    finish_warm_up()
    nx.pagerank(G, backend="frontier")
    assert ran[-1] == [THE_GPU]


def test_a_generator_function_decides_when_it_runs(gpu):
    G = ba_graph()
    edges = nx.bfs_edges(G, 0, backend="frontier")
    assert cold_start.status()["last_device"] is None  # nothing ran yet
    assert list(edges) == list(nx.bfs_edges(G, 0))
    assert cold_start.status()["last_device"] == "cpu"


def test_a_generator_function_starts_the_gpu_once_consumed(gpu, monkeypatch):
    """A generator's runs choose their device after the call returned: the
    GPU's start they ask for begins when the generator ends."""
    first_use.write_stamp(CAPABILITY, CUPY, {"kernels": 3})
    fresh_process(monkeypatch, gpu_started=False)
    monkeypatch.delitem(sys.modules, "cupy", raising=False)
    monkeypatch.setattr(first_use, "driver_lists_gpu", lambda: True)
    components = nx.connected_components(ba_graph(), backend="frontier")
    assert cold_start.status()["gpu_start"] == "not started"
    assert len(list(components)) == 1
    assert cold_start.status()["last_device"] == "cpu"
    assert cold_start.status()["gpu_start"] in ("starting", "started")
    cold_start.wait(10)


def test_betweenness_counts_its_sources_as_passes(gpu, monkeypatch):
    G = ba_graph()  # 891 edges
    monkeypatch.setenv(cold_start.MAX_WORK_VARIABLE, str(891 * 10))
    nx.betweenness_centrality(G, k=10, seed=0, backend="frontier")
    assert cold_start.status()["last_device"] == "cpu"
    nx.betweenness_centrality(G, k=11, seed=0, backend="frontier")
    assert cold_start.status()["last_device"] == THE_GPU.name


def test_betweenness_counts_its_passes_per_cpu_thread(gpu, monkeypatch):
    """Split over 4 threads (frontier.split_runs), 11 sources are 3 passes
    of each thread: the CPU answers what it finishes as fast as 3."""
    G = ba_graph()  # 891 edges
    monkeypatch.setenv(cold_start.MAX_WORK_VARIABLE, str(891 * 3))
    monkeypatch.setenv(split_runs.THREADS_VARIABLE, "4")
    monkeypatch.setattr(split_runs, "MIN_WORK", 0)
    nx.betweenness_centrality(G, k=11, seed=0, backend="frontier")
    assert cold_start.status()["last_device"] == "cpu"
    nx.betweenness_centrality(G, k=13, seed=0, backend="frontier")
    assert cold_start.status()["last_device"] == THE_GPU.name


def test_the_warm_up_child_yields_the_cores(monkeypatch):
    """The background warm-up starts at a lower priority than the caller's."""
    commands = []
    monkeypatch.setattr(cold_start.subprocess, "Popen",
                        lambda command, **options: commands.append(command))
    monkeypatch.setattr(cold_start.atexit, "register", lambda stop: None)
    cold_start.WarmUp().start()
    monkeypatch.undo()  # subprocess.Popen itself was patched
    prelude = commands[0][2].split("from frontier")[0]
    shown = subprocess.run([sys.executable, "-c", prelude + "print(os.nice(0))"],
                           capture_output=True, text=True, check=True).stdout
    assert int(shown) == min(os.nice(0) + cold_start.WARM_UP_NICENESS, 19)


def test_the_cpu_answer_imports_no_cupy(gpu, monkeypatch, tmp_path):
    """The cold path (the stamp test included) answers every backend
    function without importing CuPy (about a second on a GPU host, and CUDA's
    start with it): a CuPy that records its import is never imported. It
    once was, by the check of whether a list of sources is a CuPy array."""
    fake = tmp_path / "fake" / "cupy"
    fake.mkdir(parents=True)
    mark = tmp_path / "imported"
    (fake / "__init__.py").write_text(
        f"open({str(mark)!r}, 'a').write('cupy')\nraise ImportError('fake cupy')\n")
    monkeypatch.syspath_prepend(str(fake.parent))
    monkeypatch.delitem(sys.modules, "cupy", raising=False)
    (fake / "_version.py").write_text(f"__version__ = {CUPY!r}\n")
    monkeypatch.setattr(first_use, "cupy_version", READ_CUPY_VERSION)  # the real reader
    frontier.device._cupy.cache_clear()
    try:
        G = ba_graph()
        for function, (_, call, *prepare) in call_table.CALLS.items():
            graph = prepare[0](G) if prepare else G
            call(nx, graph, backend="frontier")
            assert cold_start.status()["last_device"] == "cpu", function
            assert not mark.exists(), function
        frontier.device._cupy()  # the check can see an import
        assert mark.read_text() == "cupy"
    finally:
        frontier.device._cupy.cache_clear()


CALLS = {
    "pagerank": lambda G, **b: nx.pagerank(G, **b),
    "betweenness_centrality": lambda G, **b: nx.betweenness_centrality(G, **b),
    "connected_components": lambda G, **b: sorted(
        map(sorted, nx.weakly_connected_components(G, **b) if G.is_directed()
            else nx.connected_components(G, **b))),
    "single_source_shortest_path_length": lambda G, **b: dict(
        nx.single_source_shortest_path_length(G, 0, **b)),
}


def same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(abs(a[v] - b[v]) < 1e-6 for v in a)
    return a == b


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edges=edge_lists(weighted=False, max_vertices=30, max_edges=80),
       function=st.sampled_from(sorted(CALLS)))
def test_the_cold_answer_is_the_warm_answer_and_networkx(gpu, monkeypatch, edges, function):
    fresh_process(monkeypatch)
    G = edges.networkx(multigraph=False)
    call = CALLS[function]
    with nx.config(cache_converted_graphs=False):
        cold = call(G, backend="frontier")
        assert cold_start.status()["last_device"] == "cpu"
        finish_warm_up()
        warm = call(G, backend="frontier")
        assert cold_start.status()["last_device"] == THE_GPU.name
    assert same(cold, warm)
    assert same(cold, call(G))


# the stamp --------------------------------------------------------------------------------

class FakeGpu(fr.Device):
    """A device warm_up takes for a GPU (its kernels and calls are fakes)."""

    @property
    def is_gpu(self) -> bool:
        return True

    def activate(self):
        return contextlib.nullcontext()

    def describe(self) -> str:
        return "a fake GPU"


@pytest.fixture
def fake_warmup_command(monkeypatch, gpu):
    """``frontier warmup`` on a machine with one (fake) GPU: ``main([...])``
    and the kernels it compiled."""
    compiled = []
    kernels = [warmup.Kernel(f"k{i}", "test", lambda i=i: compiled.append(i)) for i in range(5)]
    monkeypatch.setattr(warmup, "registry", lambda: kernels)
    monkeypatch.setattr(warmup, "exercises", lambda device: [("call", lambda: None)])
    monkeypatch.setattr(warmup, "gpus_by_model", lambda: [FakeGpu("cpu", 0)])
    monkeypatch.setattr(warmup, "gpu_identity", lambda device: (CAPABILITY, CUPY))
    return compiled


def test_warmup_writes_the_stamp_the_backend_looks_for(fake_warmup_command, gpu, capsys):
    assert not first_use.stamped()
    assert main(["warmup", "--quiet", "--jobs", "2"]) == 0
    assert sorted(fake_warmup_command) == list(range(5))
    path = first_use.stamp_path(CAPABILITY, CUPY)
    assert f"stamp: {path}" in capsys.readouterr().out
    assert first_use.stamped()
    assert json.loads(Path(path).read_text())["kernels"] == 5
    assert cold_start.choose(None, 10) == THE_GPU and starts == []


def test_warmup_records_the_listed_model(fake_warmup_command, gpu, monkeypatch, tmp_path):
    listed_models(monkeypatch, tmp_path, ["NVIDIA H200"])
    assert main(["warmup", "--quiet"]) == 0
    monkeypatch.setattr(first_use, "driver_compute_capability", no_driver)
    assert first_use.compute_capability() == CAPABILITY and first_use.stamped()


def test_kernels_only_or_an_in_memory_cache_write_no_stamp(fake_warmup_command, gpu,
                                                          monkeypatch, capsys):
    assert main(["warmup", "--quiet", "--kernels-only"]) == 0
    assert not first_use.stamped()
    monkeypatch.setenv("CUPY_CACHE_IN_MEMORY", "1")
    assert main(["warmup", "--quiet"]) == 0
    assert "stamp:" not in capsys.readouterr().out
    assert not (gpu / first_use.STAMPS).exists()


def test_a_stamp_names_the_build():
    build = first_use.build_id()
    assert build.startswith(fr.__version__ + "-") and len(build.split("-")[-1]) == 12
    assert f"frontier{build}" in first_use.stamp_path("90", "13.6.0")
    assert "sm90-cupy13.6.0" in first_use.stamp_path("90", "13.6.0")


def test_cupy_version_is_read_without_importing_cupy(tmp_path, monkeypatch):
    package = tmp_path / "cupy"
    package.mkdir()
    (package / "__init__.py").write_text("raise ImportError('not to be imported')\n")
    (package / "_version.py").write_text("__version__ = '13.6.0'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "cupy", raising=False)
    assert first_use.cupy_version.__wrapped__() == "13.6.0"
    assert "cupy" not in sys.modules


def test_the_driver_probe_answers_without_a_gpu():
    capability = first_use.driver_compute_capability.__wrapped__()
    assert capability is None or capability.isdigit()


def test_the_background_warm_up_runs_frontier_warmup_in_a_child(monkeypatch, caplog, tmp_path):
    """The real child, shown no GPU (also on a GPU machine): warmup says
    there is nothing to compile and exits 0, and its end is logged once."""
    monkeypatch.setattr(cold_start, "_warm_up", cold_start.WarmUp())
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    monkeypatch.setenv("CUPY_CACHE_DIR", str(tmp_path))
    cold_start._warm_up.start()
    with caplog.at_level(logging.INFO, logger="frontier"):
        assert cold_start.wait(120) == "done"
        assert cold_start.wait(0) == "done"
    assert cold_start.status()["warm_up_s"] > 0
    done = [r.getMessage() for r in caplog.records if "background warm-up done" in r.getMessage()]
    assert len(done) == 1 and "nothing to compile" in done[0]


# on a GPU: a fresh process with an empty kernel cache -------------------------------------

FIRST_CALLS = textwrap.dedent("""
    import json, sys, time
    import networkx as nx
    from frontier.nx_backend import cold_start
    from frontier.kernels import first_use
    G = nx.barabasi_albert_graph(2000, 4, seed=0)
    expected = nx.pagerank(G)
    nx.config.warnings_to_ignore.add("cache")
    out = {"stamped_before": first_use.stamped()}
    def call(label):
        answer = nx.pagerank(G, backend="frontier")
        out[label] = cold_start.status()["last_device"]
        out[label + "_agrees"] = all(abs(answer[v] - expected[v]) < 1e-6 for v in G)
    call("first")
    call("second")
    out["warm_up"] = cold_start.wait(600)
    call("after")
    out["stamped_after"] = first_use.stamped()
    print(json.dumps(out))
""")


def run_fresh(cache: Path) -> dict:
    env = dict(os.environ, CUPY_CACHE_DIR=str(cache),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    for variable in ("FRONTIER_DEVICE", cold_start.POLICY_VARIABLE, "CUPY_CACHE_IN_MEMORY"):
        env.pop(variable, None)
    done = subprocess.run([sys.executable, "-c", FIRST_CALLS], env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.gpu
def test_an_empty_cache_answers_on_the_cpu_then_the_gpu(tmp_path):
    first = run_fresh(tmp_path)
    assert first["stamped_before"] is False
    assert (first["first"], first["second"]) == ("cpu", "cpu")
    assert first["warm_up"] == "done" and first["stamped_after"] is True
    assert first["after"] == "cuda:0"
    assert first["first_agrees"] and first["second_agrees"] and first["after_agrees"]
    # A new process finds the stamp: its first call is answered on the CPU
    # while the GPU starts in the background, the call after the wait on it.
    again = run_fresh(tmp_path)
    assert again["stamped_before"] is True and again["first"] == "cpu"
    assert again["warm_up"] == "warm" and again["after"] == "cuda:0"
    assert again["first_agrees"] and again["after_agrees"]


@pytest.mark.gpu
def test_the_listed_model_names_the_gpu_as_cupy_does(monkeypatch, tmp_path):
    """On a real machine: the driver's /proc listing, once a warm-up
    recorded its model, gives CuPy's compute capability without cuInit."""
    import cupy

    monkeypatch.setenv("CUPY_CACHE_DIR", str(tmp_path))
    models = first_use.listed_models()
    if models is None or len(models) != 1:
        pytest.skip(f"the driver lists {models!r}: not one model, so nothing is recorded")
    first_use.remember_model(cupy.cuda.Device(0).compute_capability)
    monkeypatch.setattr(first_use, "driver_compute_capability", no_driver)
    assert first_use.compute_capability() == cupy.cuda.Device(0).compute_capability


@pytest.mark.gpu
def test_the_driver_probe_names_the_gpu_as_cupy_does():
    import cupy

    assert first_use.first_gpu() == (cupy.cuda.Device(0).compute_capability, cupy.__version__)
