"""NetworkX's own tests, run through the ``frontier`` backend.

NetworkX's conftest has a test mode: with ``NETWORKX_TEST_BACKEND=frontier``
every dispatchable call in its tests converts the graphs to the backend and
runs the backend's function, falling back to NetworkX (``fallback_to_nx``)
where the backend declines or does not implement the function. The test runs
that suite in a subprocess, over the modules of the functions the backend
implements and others where many tests reach it cheaply (listed in
``tests/nx_reach_floor.json``), with the plugin ``tests/nx_reach_plugin.py``: it requires no
failure or error, and at least as many tests that reached Frontier's code
(not only NetworkX's) as ``tests/nx_reach_floor.json`` records. It prints
the counts even under ``pytest -q``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent
FLOOR = TESTS / "nx_reach_floor.json"
TIME_LIMIT_S = 300


def suite_environment(fallback: bool) -> dict:
    """The environment of NetworkX's test mode for the backend of this
    checkout. NetworkX turns ``fallback_to_nx`` on for *any* non-empty
    ``NETWORKX_FALLBACK_TO_NX`` (``"False"`` and ``"0"`` included), so off
    means the variable is absent."""
    env = {**os.environ, "NETWORKX_TEST_BACKEND": "frontier",
           "PYTHONPATH": os.pathsep.join([str(TESTS.parent), str(TESTS),
                                          os.environ.get("PYTHONPATH", "")])}
    env.pop("NETWORKX_FALLBACK_TO_NX", None)
    if fallback:
        env["NETWORKX_FALLBACK_TO_NX"] = "True"
    return env


def run_suite(modules: list[str], report: Path, *options: str, fallback: bool = True):
    """Run NetworkX's tests in ``modules`` through the backend, counting with
    the plugin into ``report``; the finished process."""
    command = [sys.executable, "-m", "pytest", "--pyargs", *modules, "-q",
               "-p", "no:cacheprovider", "-p", "nx_reach_plugin",
               f"--nx-reach-report={report}", *options]
    # Run outside the repository, so that its pytest configuration stays out.
    return subprocess.run(command, cwd=report.parent, env=suite_environment(fallback),
                          capture_output=True, text=True, timeout=TIME_LIMIT_S)


def test_fallback_off_means_the_variable_is_unset():
    assert suite_environment(True)["NETWORKX_FALLBACK_TO_NX"] == "True"
    script = "import networkx as nx; print(nx.config.fallback_to_nx)"
    off = subprocess.run([sys.executable, "-c", script], env=suite_environment(False),
                         capture_output=True, text=True, check=True)
    assert off.stdout.strip() == "False"
    # What the variable set to "False" would have done:
    env = {**suite_environment(False), "NETWORKX_FALLBACK_TO_NX": "False"}
    on = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                        text=True, check=True)
    assert on.stdout.strip() == "True"


def test_networkx_suite_passes_and_reaches_the_frontier_backend(tmp_path, capsys):
    floor = json.loads(FLOOR.read_text())
    report = tmp_path / "reach.json"
    start = time.perf_counter()
    # -k: 500 random-graph cases of one test that take minutes in this mode.
    run = run_suite(floor["modules"], report, f"--nx-reach-floor={FLOOR}", "-k", floor["keyword"])
    elapsed = time.perf_counter() - start
    assert report.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    counts = json.loads(report.read_text())
    outcomes = counts["outcomes"]
    with capsys.disabled():
        print(f"\nNetworkX suite ({len(floor['modules'])} modules) with backend 'frontier' "
              f"in {elapsed:.1f} s: {counts['tests']} tests, "
              + ", ".join(f"{n} {outcome}" for outcome, n in sorted(outcomes.items()))
              + f"; {counts['reached']} reached Frontier (recorded: {floor['reached']}), "
              f"{counts['fell_back']} fell back to NetworkX for a call; backend calls "
              f"{sum(counts['calls'].values())}, declined {sum(counts['declined'].values())}")
    assert outcomes.get("failed", 0) == 0 and outcomes.get("error", 0) == 0, run.stdout[-5000:]
    assert counts["reached"] >= floor["reached"], (
        f"only {counts['reached']} NetworkX tests reached the backend; {FLOOR.name} "
        f"records {floor['reached']}")
    assert run.returncode == 0, run.stdout[-5000:]


def test_the_plugin_fails_below_the_recorded_figure_and_raises_it_on_request(tmp_path):
    module = ["networkx.algorithms.link_analysis.tests.test_pagerank"]
    floor, report = tmp_path / "floor.json", tmp_path / "reach.json"
    floor.write_text(json.dumps({"modules": module, "reached": 10**6}))
    run = run_suite(module, report, f"--nx-reach-floor={floor}")
    reached = json.loads(report.read_text())["reached"]
    assert run.returncode != 0 and f"FAILED: {reached} tests reached" in run.stdout
    assert 0 < reached < json.loads(report.read_text())["tests"]
    floor.write_text(json.dumps({"modules": module, "reached": 1}))
    run = run_suite(module, report, f"--nx-reach-floor={floor}", "--nx-reach-update")
    assert run.returncode == 0, run.stdout[-3000:]
    assert f"reached the frontier backend: {reached} of" in run.stdout
    assert json.loads(floor.read_text()) == {"modules": module, "reached": reached}
