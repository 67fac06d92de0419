"""A pytest plugin that counts the NetworkX tests that reached Frontier's code.

Loaded into a run of NetworkX's own tests in the backend's test mode
(``NETWORKX_TEST_BACKEND=frontier``, see ``tests/test_networkx_suite.py``)
with ``-p nx_reach_plugin`` (``tests/`` on ``PYTHONPATH``). A test *reached*
Frontier when the backend ran at least one of its functions during the test's
setup, call or teardown (:mod:`frontier.nx_backend.calls` counts the runs);
it *fell back* when the backend declined at least one call, which NetworkX
then ran itself. A test that passes without reaching Frontier tests NetworkX
alone, which is why the plain pass count says little about the backend.

Options:

``--nx-reach-report=FILE``
    write, when the session ends, ``{"tests", "outcomes": {outcome: n},
    "reached", "fell_back", "reached_by_outcome", "reached_by_module",
    "calls": {function: n}, "declined": {function: n}}`` as JSON.
``--nx-reach-floor=FILE``
    fail the session when fewer tests reached Frontier than ``FILE``'s
    ``"reached"`` (the last recorded figure).
``--nx-reach-update``
    with ``--nx-reach-floor``: write the count into ``FILE`` when it is
    higher, to be committed.

The count is printed in the terminal summary either way.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("nx-reach", "tests that reached the frontier backend")
    group.addoption("--nx-reach-report", default=None, metavar="FILE",
                    help="write how many tests reached the frontier backend to FILE (JSON)")
    group.addoption("--nx-reach-floor", default=None, metavar="FILE",
                    help="fail if fewer tests reached the backend than FILE records")
    group.addoption("--nx-reach-update", action="store_true",
                    help="raise the figure in --nx-reach-floor's FILE to this run's count")


class ReachCounter:
    """Per test: its outcome, and whether the backend ran or declined during it."""

    def __init__(self, report: str | None, floor: str | None, update: bool):
        from frontier.nx_backend import calls

        self.report, self.floor, self.update = report, floor, update
        self.calls = calls
        self.outcomes: dict[str, str] = {}
        self.reached: set[str] = set()
        self.fell_back: set[str] = set()
        self.modules: dict[str, str] = {}
        self.verdict: str | None = None

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        module = getattr(item, "module", None)
        self.modules[item.nodeid] = getattr(module, "__name__", item.nodeid.split("::")[0])
        ran, declined = self.calls.calls.total(), self.calls.declined.total()
        yield
        if self.calls.calls.total() > ran:
            self.reached.add(item.nodeid)
        if self.calls.declined.total() > declined:
            self.fell_back.add(item.nodeid)

    def pytest_runtest_logreport(self, report):
        # The first outcome that is not a pass decides (a failing teardown
        # after a passing call is an error); a test is "passed" only if all passed.
        if report.when == "call" or report.outcome != "passed":
            outcome = report.outcome
            if hasattr(report, "wasxfail"):
                outcome = "xfailed" if report.skipped else "xpassed"
            elif report.failed and report.when != "call":
                outcome = "error"
            if self.outcomes.get(report.nodeid, "passed") == "passed":
                self.outcomes[report.nodeid] = outcome

    def summary(self) -> dict:
        """The counts, as written to ``--nx-reach-report``."""
        reached = [nodeid for nodeid in self.reached if nodeid in self.outcomes]
        return {"tests": len(self.outcomes), "outcomes": dict(Counter(self.outcomes.values())),
                "reached": len(reached), "fell_back": len(self.fell_back),
                "reached_by_outcome": dict(Counter(self.outcomes[n] for n in reached)),
                "reached_by_module": dict(Counter(self.modules[n] for n in reached)),
                **self.calls.counts()}

    def line(self, summary: dict) -> str:
        outcomes = ", ".join(f"{n} {outcome}" for outcome, n in sorted(summary["outcomes"].items()))
        return (f"NetworkX tests that reached the frontier backend: {summary['reached']} of "
                f"{summary['tests']} ({outcomes}); {summary['fell_back']} fell back to "
                f"NetworkX for at least one call")

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session):
        summary = self.summary()
        if self.report:
            with open(self.report, "w", encoding="utf-8") as out:
                json.dump(summary, out, indent=1, sort_keys=True)
        if self.floor:
            self.verdict = self.compare(summary["reached"])
            if self.verdict.startswith("FAILED"):
                session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def compare(self, reached: int) -> str:
        """Check ``reached`` against the recorded figure (and raise the figure
        with ``--nx-reach-update``); says what was found."""
        with open(self.floor, encoding="utf-8") as recorded:
            record = json.load(recorded)
        floor = record["reached"]
        if reached < floor:
            return (f"FAILED: {reached} tests reached the frontier backend, fewer than the "
                    f"{floor} recorded in {self.floor}")
        if reached > floor and self.update:
            with open(self.floor, "w", encoding="utf-8") as out:
                json.dump({**record, "reached": reached}, out, indent=1)
                out.write("\n")
            return f"raised the figure in {self.floor} from {floor} to {reached}"
        return f"at least the {floor} recorded in {self.floor}"

    def pytest_terminal_summary(self, terminalreporter):
        summary = self.summary()
        terminalreporter.write_line(self.line(summary))
        if self.verdict:
            terminalreporter.write_line(self.verdict, red=self.verdict.startswith("FAILED"))


def pytest_configure(config):
    floor = config.getoption("--nx-reach-floor")
    counter = ReachCounter(config.getoption("--nx-reach-report"), floor,
                           config.getoption("--nx-reach-update"))
    config.pluginmanager.register(counter, "nx_reach_counter")
