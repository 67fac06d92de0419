"""``devices="mpi"``: one process per device under ``mpirun``.

The primitives (and the user primitives of examples/multi_device_primitive.py)
on 2 and 3 ranks give the single-process answers; ``frontier run --devices
mpi`` reports on rank 0 only; an exception, a hang (with
``FRONTIER_MPI_TIMEOUT``) or a killed rank ends every rank within seconds.
Each launch costs a second or two, so one launch of tests/mpi_driver.py
checks many runs. Skipped, with the reason, without mpi4py or ``mpirun``
(the ``test`` extra installs both).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import frontier as fr
from partition import make_partition
from partition.subgraph import build_parts
from primitives import bfs

ROOT = Path(__file__).resolve().parent.parent
DRIVER = Path(__file__).resolve().parent / "mpi_driver.py"
#: A failing job must be over well within this many seconds.
PROMPT = 30


def _launcher() -> list[str]:
    """``mpirun`` (next to this Python first) with the options this machine
    needs, or skip the test saying what is missing."""
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        pytest.skip("mpi4py is not installed (pip install 'frontier-graph[mpi]')")
    beside = Path(sys.executable).parent / "mpirun"
    mpirun = str(beside) if beside.exists() else shutil.which("mpirun")
    if mpirun is None:
        pytest.skip("no mpirun found (pip install 'frontier-graph[mpi]')")
    version = subprocess.run([mpirun, "--version"], capture_output=True, text=True,
                             timeout=PROMPT).stdout
    # Open MPI refuses more ranks than cores unless told; CI has two cores.
    return [mpirun, "--oversubscribe"] if "Open MPI" in version or "OpenRTE" in version \
        else [mpirun]


def _environment(**extra) -> dict:
    """Open MPI may run as root (CI does) and yields the core while it waits
    (ranks outnumber cores); every rank on the CPU; no timeout unless given."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_mpi_yield_when_idle="1", FRONTIER_DEVICE="cpu")
    env.pop("FRONTIER_MPI_TIMEOUT", None)
    env.update(extra)
    return env


def launch(ranks: int, *command: str, timeout: float = 120, **env):
    """Run ``command`` on ``ranks`` MPI processes; (completed process, seconds)."""
    start = time.monotonic()
    done = subprocess.run([*_launcher(), "-n", str(ranks), *command], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, env=_environment(**env))
    return done, time.monotonic() - start


def _frontier(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "frontier.cli", *arguments]


@pytest.mark.parametrize("ranks", [2, 3])
def test_every_primitive_gives_the_single_process_answer(ranks):
    # With 3 ranks the watchdog runs too, with a timeout it must not reach.
    timeout = {"FRONTIER_MPI_TIMEOUT": "60"} if ranks == 3 else {}
    done, _ = launch(ranks, sys.executable, str(DRIVER), "check", **timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"checked 52 runs on {ranks} ranks over mpi-host" in done.stdout


@pytest.mark.gpu
@pytest.mark.parametrize("transport", ["nccl", "staging"])
def test_gpu_ranks_give_the_single_process_answer(transport):
    gpus = fr.device.gpu_count()
    if transport == "nccl" and gpus < 2:
        pytest.skip(f"NCCL needs a GPU per rank; this machine has {gpus}")
    done, _ = launch(2, sys.executable, str(DRIVER), "check", timeout=600, FRONTIER_DEVICE="",
                     FRONTIER_MPI_TRANSPORT=transport)
    assert done.returncode == 0, done.stderr[-3000:]
    name = "mpi-nccl" if transport == "nccl" else "mpi-host-staging"
    assert f"checked 52 runs on 2 ranks over {name}" in done.stdout


@pytest.mark.gpu
def test_nccl_on_a_shared_gpu_says_why_it_cannot():
    done, _ = launch(2, *_frontier("run", "bfs", "--kronecker", "8", "--devices", "mpi"),
                     FRONTIER_DEVICE="", FRONTIER_MPI_TRANSPORT="nccl", CUDA_VISIBLE_DEVICES="0")
    assert done.returncode != 0
    assert "two ranks share a GPU" in done.stderr, done.stderr[-3000:]


class _OneRank:
    """The one collective ``choose_transport`` needs, for a single rank."""

    def allgather(self, item):
        return [item]


def test_transport_choice_on_cpus(monkeypatch):
    from frontier.multi.mpi import choose_transport

    cpu = fr.device.Device("cpu")
    for wanted in ("", "nccl", "staging"):
        monkeypatch.setenv("FRONTIER_MPI_TRANSPORT", wanted)
        assert choose_transport(_OneRank(), cpu) == "mpi-host"
    monkeypatch.setenv("FRONTIER_MPI_TRANSPORT", "ucx")
    with pytest.raises(ValueError, match="expected nccl or staging"):
        choose_transport(_OneRank(), cpu)


def test_each_rank_builds_only_its_part(tmp_path):
    done, _ = launch(2, sys.executable, str(DRIVER), "distributed",
                     FRONTIER_TEST_DIR=str(tmp_path))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "checked distributed parts on 2 ranks" in done.stdout


def test_command_line_reports_on_rank_zero(tmp_path):
    output = tmp_path / "depth.npz"
    done, _ = launch(2, *_frontier("run", "bfs", "--kronecker", "10", "--devices", "mpi",
                                   "--json", "--output", str(output)))
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout  # rank 1 prints nothing
    summary = json.loads(lines[0])
    assert summary["num_devices"] == 2 and len(summary["devices"]) == 2
    assert summary["transport"] == summary["partition"]["transport"] == "mpi-host"
    assert summary["partition"]["num_parts"] == 2
    expected = bfs(fr.generators.kronecker(10, device="cpu"), 0, devices="cpu")
    with np.load(output) as saved:
        np.testing.assert_array_equal(saved["depth"], expected.depth)


def test_without_mpirun_a_single_rank_runs():
    pytest.importorskip("mpi4py", reason="mpi4py is not installed")
    done = subprocess.run(_frontier("run", "connected_components", "--kronecker", "8",
                                    "--devices", "mpi", "--json"),
                          capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=_environment())
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout)["num_devices"] == 1


def test_bad_input_ends_every_rank():
    done, seconds = launch(3, *_frontier("run", "bfs", "--graph", "missing.mtx", "--devices",
                                         "mpi"), timeout=2 * PROMPT)
    assert done.returncode != 0 and seconds < PROMPT, (done.returncode, seconds, done.stderr)
    assert "graph file not found" in done.stderr, done.stderr


def test_an_exception_on_one_rank_ends_the_job():
    done, seconds = launch(3, sys.executable, str(DRIVER), "raise", timeout=2 * PROMPT)
    assert done.returncode != 0 and seconds < PROMPT, (done.returncode, seconds, done.stderr)
    assert "MPI rank 1 of 3" in done.stderr and "rank 1 fails on purpose" in done.stderr, \
        done.stderr


def test_a_hung_rank_ends_the_job_after_the_timeout():
    done, seconds = launch(2, sys.executable, str(DRIVER), "hang", timeout=2 * PROMPT,
                           FRONTIER_MPI_TIMEOUT="2")
    assert done.returncode != 0 and seconds < PROMPT, (done.returncode, seconds, done.stderr)
    assert "waited more than 2 s" in done.stderr, done.stderr


def test_a_killed_rank_ends_the_job():
    done, seconds = launch(2, sys.executable, str(DRIVER), "kill", timeout=2 * PROMPT)
    assert done.returncode != 0 and seconds < PROMPT, (done.returncode, seconds, done.stderr)


def test_missing_mpi4py_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    graph = fr.generators.grid(3, 3, device="cpu")
    with pytest.raises(ImportError, match=r"frontier-graph\[mpi\]"):
        bfs(graph, 0, devices="mpi")


@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@pytest.mark.parametrize("directed", [False, True])
def test_one_part_alone_equals_that_part_of_all(duplication, directed):
    rng = np.random.default_rng(4)
    graph = fr.Graph.from_edges(rng.integers(0, 30, 80), rng.integers(0, 30, 80),
                                rng.random(80), 32, directed, device="cpu")
    owner = make_partition(graph, 3, "random").owner
    every = build_parts(graph, owner, 3, duplication)
    for index in range(3):
        (alone,) = build_parts(graph, owner, 3, duplication, only=index)
        whole = every[index]
        for name in ("owned", "owned_ids", "slot_owner"):
            np.testing.assert_array_equal(getattr(alone, name), getattr(whole, name))
        assert alone.mirrors.keys() == whole.mirrors.keys()
        for peer, (local, remote) in alone.mirrors.items():
            np.testing.assert_array_equal(local, whole.mirrors[peer][0])
            np.testing.assert_array_equal(remote, whole.mirrors[peer][1])
        assert alone.graph.edges()[0].tolist() == whole.graph.edges()[0].tolist()
        assert alone.graph.edges()[1].tolist() == whole.graph.edges()[1].tolist()
    with pytest.raises(ValueError, match="only=3"):
        build_parts(graph, owner, 3, duplication, only=3)

