"""The backend's notice of a long conversion (issue 33): silent when quick;
past its threshold, the phase under way, each later phase and the total, on
the ``frontier`` logger and on standard error when that is a terminal."""

from __future__ import annotations

import io
import logging
import time

import networkx as nx

from frontier.nx_backend import graph, long_task
from frontier.nx_backend.long_task import LongTask


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_quick_task_says_nothing(caplog):
    stream = Terminal()
    with caplog.at_level(logging.INFO, "frontier"):
        for watch in (True, False):
            with LongTask("quick", watch=watch, after=10.0, stream=stream) as task:
                task.phase("one")
    assert stream.getvalue() == "" and not caplog.records


def test_a_watched_task_reports_the_phase_it_is_in_then_every_phase(caplog):
    stream = Terminal()
    with caplog.at_level(logging.INFO, "frontier"):
        with LongTask("converting", after=0.05, stream=stream) as task:
            task.phase("reading the adjacency")
            time.sleep(0.5)  # the timer reports during this phase
            task.phase("reading edge attribute 'weight'")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3, lines
    assert lines[0].startswith("frontier: converting: reading the adjacency ... (")
    assert lines[1] == "frontier: converting: reading edge attribute 'weight' ..."
    assert lines[2].startswith("frontier: converting: done, ")
    assert [r.getMessage() for r in caplog.records] == [line[len("frontier: "):]
                                                        for line in lines]


def test_an_unwatched_task_reports_at_its_next_phase_and_not_on_a_pipe(caplog):
    pipe = io.StringIO()  # not a terminal: the logger only
    with caplog.at_level(logging.INFO, "frontier"):
        with LongTask("building", watch=False, after=0.05, stream=pipe) as task:
            time.sleep(0.1)
            task.phase("packing")
    assert pipe.getvalue() == ""
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0].startswith("building: starting ... (") and len(messages) == 3
    assert messages[1] == "building: packing ..." and messages[2].startswith("building: done")


def test_a_failing_task_says_it_stopped(caplog):
    with caplog.at_level(logging.INFO, "frontier"):
        try:
            with LongTask("failing", watch=False, after=0.0) as task:
                task.phase("reading")
                raise KeyError("x")
        except KeyError:
            pass
    assert caplog.records[-1].getMessage().startswith("failing: stopped by KeyError, ")


def test_a_long_conversion_reports_its_phases(caplog, monkeypatch):
    monkeypatch.setattr(long_task, "NOTICE_AFTER_S", 0.0)  # small: not watched, so no race
    g = nx.DiGraph([("a", "b", {"weight": 2})])
    with caplog.at_level(logging.INFO, "frontier"):
        converted = graph.convert_from_nx(g, edge_attrs={"weight": 1}, name="pagerank")
    assert converted.number_of_edges() == 1
    messages = [r.getMessage() for r in caplog.records]
    task = "converting a NetworkX graph of 2 nodes for pagerank"
    assert messages and all(m.startswith(task) for m in messages), messages
    assert messages[-1].startswith(f"{task}: done, ")
    assert f"{task}: reading the predecessors ..." in messages
    assert f"{task}: reading edge attribute 'weight' ..." in messages
