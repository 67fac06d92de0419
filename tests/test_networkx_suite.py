"""NetworkX's own tests, run through the ``frontier`` backend.

NetworkX's conftest has a test mode: with ``NETWORKX_TEST_BACKEND=frontier``
every dispatchable call in its tests converts the graphs to the backend and
runs the backend's function, falling back to NetworkX
(``NETWORKX_FALLBACK_TO_NX``) where the backend declines or does not
implement the function. The test runs that suite in a subprocess, over the
modules of the functions the backend implements, and requires no failure or
error and a backend that really ran: each process of the backend appends its
call counts to the file named by ``FRONTIER_NX_BACKEND_LOG``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

MODULES = [
    "networkx.algorithms.traversal",
    "networkx.algorithms.components",
    "networkx.algorithms.shortest_paths",
    "networkx.algorithms.link_analysis",
    "networkx.algorithms.centrality.tests.test_betweenness_centrality",
    "networkx.algorithms.centrality.tests.test_eigenvector_centrality",
    "networkx.algorithms.centrality.tests.test_katz_centrality",
    "networkx.algorithms.community.tests.test_label_propagation",
]
TIME_LIMIT_S = 240


def test_networkx_suite_passes_with_the_frontier_backend(tmp_path):
    log, report = tmp_path / "backend_calls.jsonl", tmp_path / "report.xml"
    env = {**os.environ, "NETWORKX_TEST_BACKEND": "frontier", "NETWORKX_FALLBACK_TO_NX": "True",
           "FRONTIER_NX_BACKEND_LOG": str(log)}
    command = [sys.executable, "-m", "pytest", "--pyargs", *MODULES, "-q",
               "-p", "no:cacheprovider", f"--junitxml={report}"]
    start = time.perf_counter()
    # Run outside the repository, so that its pytest configuration stays out.
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=TIME_LIMIT_S)
    elapsed = time.perf_counter() - start
    assert report.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    suite = ElementTree.parse(report).getroot().find("testsuite")
    tests, skipped, failures, errors = (int(suite.get(key)) for key in
                                        ("tests", "skipped", "failures", "errors"))
    calls, declined = {}, {}
    for line in log.read_text().splitlines() if log.exists() else []:
        counts = json.loads(line)
        for name, n in counts["calls"].items():
            calls[name] = calls.get(name, 0) + n
        for name, n in counts["declined"].items():
            declined[name] = declined.get(name, 0) + n
    print(f"\nNetworkX suite with backend 'frontier': {tests - skipped - failures - errors} "
          f"passed, {skipped} skipped, {failures} failed, {errors} errors in {elapsed:.1f} s; "
          f"backend calls {sum(calls.values())}, fallbacks to NetworkX "
          f"{sum(declined.values())}")
    print("calls by function:", json.dumps(dict(sorted(calls.items()))))
    print("fallbacks by function:", json.dumps(dict(sorted(declined.items()))))
    assert failures == 0 and errors == 0 and run.returncode == 0, run.stdout[-5000:]
    assert tests - skipped > 0
    assert sum(calls.values()) > 0, "the backend never ran: is its entry point installed?"
