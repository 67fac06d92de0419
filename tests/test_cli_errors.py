"""Every ``frontier`` command fails on bad input with a non-zero exit and one
line naming the problem; with ``--json`` that line is a JSON object on
standard output. ``run --output`` is written atomically."""

from __future__ import annotations

import json

import numpy as np
import pytest

from frontier.cli import main

MISSING = "no-such-graph.mtx"


@pytest.fixture
def files(tmp_path, monkeypatch):
    """Work in a fresh folder holding a good, a malformed and a CSV graph file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.txt").write_text("0 1\n1 2\n")
    (tmp_path / "bad.mtx").write_text("%%MatrixMarket matrix coordinate pattern general\n"
                                      "3 3 2\n1 2\n2 x\n")
    (tmp_path / "noise.fgb").write_bytes(b"\x00\x01garbage")
    (tmp_path / "folder.fgb").mkdir()
    return tmp_path


# (argv, words the message must contain); "--json" is appended for the JSON case
BAD_INPUT = [
    (["run", "bfs", "--graph", MISSING], [MISSING, "not found"]),
    (["run", "bfs", "--graph", "bad.mtx"], ["bad.mtx line 4", "expected 2 integers"]),
    (["run", "no_such_primitive", "--kronecker", "4"], ["unknown primitive"]),
    (["run", "bfs", "--kronecker", "four"], ["--kronecker", "four"]),
    (["run"], ["required"]),
    (["demo", "--scale", "big"], ["--scale", "big"]),
    (["bench", "--kronecker", "x"], ["--kronecker"]),
    (["bench", "--graph", MISSING], [MISSING]),
    (["info", MISSING], [MISSING, "not found"]),
    (["info", "bad.mtx"], ["bad.mtx line 4"]),
    (["info", "noise.fgb"], ["noise.fgb", "bad magic"]),
    (["info", "--kronecker", "0"], ["--kronecker", "1..40"]),
    (["info", "--kronecker", "4", "--devices", "-2"], ["--devices", "-2"]),
    (["info", "good.txt", "--columns", "0,1"], ["good.txt", ".csv files only"]),
    (["info", "good.txt", "--columns", "a"], ["--columns", "SOURCE,TARGET"]),
    (["info"], ["FILE", "--kronecker", "required"]),
    (["convert", MISSING, "out.fgb"], [MISSING]),
    (["convert", "good.txt", "out.unknown"], ["out.unknown", "format"]),
    (["convert", "good.txt", "missing-dir/out.fgb"], ["missing-dir", "does not exist"]),
    (["convert", "good.txt", "folder.fgb"], ["folder.fgb", "is a directory"]),
    (["convert", "bad.mtx", "out.fgb"], ["bad.mtx line 4"]),
    (["convert", "good.txt"], ["OUT"]),
    (["no-such-command"], ["invalid choice"]),
]


IDS = [" ".join(argv) for argv, _ in BAD_INPUT]


@pytest.mark.parametrize("argv, words", BAD_INPUT, ids=IDS)
def test_bad_input_gives_one_line(files, capsys, argv, words):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert " error: " in lines[0] and lines[0].startswith("frontier")
    for word in words:
        assert word in lines[0], lines[0]
    assert not list(files.glob("out*")) and not list(files.glob(".*.tmp"))


@pytest.mark.parametrize("argv, words", BAD_INPUT, ids=IDS)
def test_bad_input_with_json_gives_a_json_error(files, capsys, argv, words):
    code = main(argv + ["--json"])
    out, err = capsys.readouterr()
    assert code != 0
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    report = json.loads(lines[0])
    assert set(report) == {"error", "command"} and report["command"].startswith("frontier")
    for word in words:
        assert word in report["error"], report
    assert err == ""


def test_run_output_is_written_atomically(files, capsys):
    target = files / "result.npz"
    target.write_bytes(b"an older result")
    code = main(["run", "bfs", "--kronecker", "5", "--output", str(target), "--json",
                 "--quiet"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["output"] == str(target)
    assert summary["host_peak_bytes"] > 2**20  # this process's peak resident memory
    with np.load(target) as result:
        assert {"depth", "predecessor"} <= set(result.files) and result["depth"][0] == 0
    assert sorted(p.name for p in files.iterdir()) == sorted(
        ["bad.mtx", "folder.fgb", "good.txt", "noise.fgb", "result.npz"])


def test_run_output_into_a_missing_folder_fails_cleanly(files, capsys):
    code = main(["run", "bfs", "--kronecker", "4", "--output", "nowhere/r.npz", "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "nowhere" in err[0]
    assert not (files / "nowhere").exists()


def test_help_still_exits_zero(capsys):
    assert main(["info", "--help"]) == 0
    assert "--kronecker" in capsys.readouterr().out
