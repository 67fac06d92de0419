"""Progress bars: drawn on a terminal, silent otherwise or when turned off."""

from __future__ import annotations

import io
import sys

import pytest

import frontier as fr
from frontier.cli import main
from frontier.progress import Progress, is_terminal


class FakeTerminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run_task(progress: Progress) -> None:
    progress.phase("reading", total=1000, unit="bytes")
    progress.update(400)
    progress.update(1000)
    progress.phase("parsing")
    progress.write("a note")
    progress.phase("building CSR", total=50, unit="edges")
    progress.finish("built it")


def test_bars_on_a_terminal():
    stream = FakeTerminal()
    run_task(Progress("read_graph g.mtx", enabled=True, stream=stream))
    text = stream.getvalue()
    assert "frontier: read_graph g.mtx: reading" in text and "1.00k/1.00k" in text
    assert "frontier: read_graph g.mtx: parsing [" in text
    assert "frontier: read_graph g.mtx: a note\n" in text
    # a phase is complete when the next one starts, even without update()
    assert "building CSR: 100%" in text and "50.0/50.0" in text
    assert "frontier: read_graph g.mtx: built it, " in text
    assert "\r" in text  # a bar redraws its line in place


@pytest.mark.parametrize("stream, enabled", [(io.StringIO(), True), (FakeTerminal(), False)])
def test_silent_off_a_terminal_or_when_disabled(stream, enabled):
    progress = Progress("task", enabled=enabled, stream=stream)
    run_task(progress)
    assert stream.getvalue() == "" and not progress.shown


def test_errors_are_written_anyway():
    for stream in (io.StringIO(), FakeTerminal()):
        progress = Progress("bench g", enabled=False, stream=stream)
        progress.error("bfs networkx FAILED")
        assert stream.getvalue() == "frontier: bench g: bfs networkx FAILED\n"


def test_context_manager_finishes():
    stream = FakeTerminal()
    with Progress("task", enabled=True, stream=stream) as progress:
        progress.phase("step", total=3)
    assert "step: 100%" in stream.getvalue() and "task: done, " in stream.getvalue()


def test_is_terminal():
    assert is_terminal(FakeTerminal()) and not is_terminal(io.StringIO())
    closed = io.StringIO()
    closed.close()
    assert not is_terminal(closed) and not is_terminal(object())


# the call sites: generation, loading, the command line ---------------------------------


def fake_stderr(monkeypatch) -> FakeTerminal:
    """Replace standard error by a fake terminal. (Call it in the test body: pytest's
    output capture sets ``sys.stderr`` again after the fixtures are set up.)"""
    stream = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", stream)
    return stream


def test_generator_and_reader_bars_on_a_terminal(monkeypatch, tmp_path):
    terminal = fake_stderr(monkeypatch)
    fr.generators.kronecker(6, device="cpu", progress=True)
    text = terminal.getvalue()
    assert "frontier: kronecker scale 6: building CSR" in text
    path = tmp_path / "e.txt"
    path.write_text("0 1\n1 2\n")
    fr.read_graph(path, device="cpu", progress=True)
    for phase in ("reading", "tokenizing", "parsing", "building CSR"):
        assert f"frontier: read_graph e.txt: {phase}" in terminal.getvalue()


def test_generator_and_reader_silent_when_not_asked(monkeypatch, tmp_path):
    terminal = fake_stderr(monkeypatch)
    fr.generators.kronecker(6, device="cpu")
    path = tmp_path / "e.txt"
    path.write_text("0 1\n")
    fr.read_graph(path, device="cpu")
    assert terminal.getvalue() == ""


def test_silent_when_stderr_is_not_a_terminal(capsys, tmp_path):
    fr.generators.kronecker(6, device="cpu", progress=True)
    path = tmp_path / "e.txt"
    path.write_text("0 1\n")
    fr.read_graph(path, device="cpu", progress=True)
    assert capsys.readouterr().err == ""


def test_run_quiet(monkeypatch, capsys):
    terminal = fake_stderr(monkeypatch)
    assert main(["run", "bfs", "--kronecker", "5", "--json"]) == 0
    assert "frontier: kronecker scale 5: building CSR" in terminal.getvalue()
    shown = len(terminal.getvalue())
    assert main(["run", "bfs", "--kronecker", "5", "--json", "--quiet"]) == 0
    assert len(terminal.getvalue()) == shown
