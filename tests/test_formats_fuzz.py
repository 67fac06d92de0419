"""Readers under attack: mutated files of every format (Matrix Market, edge
lists, DIMACS, CSV, .fgb, .npz) raise only the documented errors, with the
file (and for text, the line) in the message, and never come back as a graph
when the mutation provably broke the file.

Documented errors of ``read_graph`` on an existing file: ``ValueError`` for
malformed content, ``frontier.DeviceMemoryError`` for a declared size larger
than the device's memory.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import frontier as fr
from frontier.device import to_numpy


def _graphs() -> dict:
    rng = np.random.default_rng(5)
    n = 9
    # A path through every vertex (none isolated, ids 0 and n-1 used) plus
    # random arcs, a self loop and a parallel arc.
    src = np.concatenate([np.arange(n - 1), rng.integers(0, n, 12), [4, 2]])
    dst = np.concatenate([np.arange(1, n), rng.integers(0, n, 12), [4, 3]])
    m = len(src)
    return {
        "int-directed": fr.Graph.from_edges(src, dst, rng.integers(1, 50, m), n, True,
                                            device="cpu"),
        "real-undirected": fr.Graph.from_edges(src, dst, rng.uniform(0.1, 9, m).round(3), n,
                                               False, device="cpu"),
        "pattern-directed": fr.Graph.from_edges(src, dst, None, n, True, device="cpu"),
    }


@dataclass(frozen=True)
class Base:
    """A valid file: its name, bytes, and for text formats its token layout."""

    name: str
    graph: str
    data: bytes
    separator: str = " "

    @property
    def kind(self) -> str:
        return fr.io.graph_format(self.name)

    @property
    def text(self) -> bool:
        return self.kind not in ("fgb", "npz")

    @property
    def gzipped(self) -> bool:
        return self.name.endswith(".gz")

    def lines(self) -> list[list[str]]:
        raw = gzip.decompress(self.data) if self.gzipped else self.data
        return [line.split(self.separator) if self.separator != " " else line.split()
                for line in raw.decode().splitlines()]

    def encode(self, lines: list[list[str]]) -> bytes:
        raw = "".join(self.separator.join(line) + "\n" for line in lines).encode()
        return gzip.compress(raw, mtime=0) if self.gzipped else raw

    def roles(self) -> list[tuple[int, int, str]]:
        """(line, token, role) for every token: ``id``, ``weight``, ``count``
        (entries or arcs), ``size`` (vertices) or ``other``."""
        found, sized = [], False
        for i, tokens in enumerate(self.lines()):
            first = tokens[0] if tokens else ""
            if not tokens or first.startswith(("#", "%", "c")) or first == "source":
                continue
            if self.kind == "dimacs":
                if first == "p":
                    found += [(i, 2, "size"), (i, 3, "count")]
                else:
                    found += [(i, 1, "id"), (i, 2, "id"), (i, 3, "weight")]
            elif self.kind == "mtx" and not sized:
                sized = True
                found += [(i, 0, "size"), (i, 1, "size"), (i, 2, "count")]
            else:
                found += [(i, j, "id" if j < 2 else "weight") for j in range(len(tokens))]
        return found

    def read(self, tmp):
        path = tmp / self.name
        return path, fr.read_graph(path, device="cpu")


def _bases(tmp) -> list[Base]:
    graphs = _graphs()
    files = [("g.mtx", "int-directed"), ("s.mtx", "real-undirected"),
             ("p.mtx", "pattern-directed"), ("g.gr", "int-directed"),
             ("w.txt", "int-directed"), ("r.el", "real-undirected"),
             ("p.txt.gz", "pattern-directed"), ("w.csv", "int-directed"),
             ("r.csv", "real-undirected"), ("g.fgb", "int-directed"),
             ("r.fgb", "real-undirected"), ("g.npz", "int-directed")]
    bases = []
    for name, graph in files:
        fr.write_graph(graphs[graph], tmp / name)
        bases.append(Base(name, graph, (tmp / name).read_bytes(),
                          "," if name.endswith(".csv") else " "))
    return bases


class Workspace(tuple):
    """``(folder, bases, graphs)``, with a short repr for hypothesis' reports."""

    def __repr__(self) -> str:
        return "workspace"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    return Workspace((tmp, _bases(tmp), _graphs()))


WHOLE_FILE_ERRORS = ("corrupt gzip data", "no size line", "no problem line", "declares",
                     "vertices is beyond", "building the graph needs")


def check(workspace, base: Base, data: bytes, must_fail: bool):
    """Read the mutated bytes; check the error (or the graph) it gives."""
    tmp, _, graphs = workspace
    path = tmp / base.name
    path.write_bytes(data)
    try:
        G = fr.read_graph(path, device="cpu")
    except (ValueError, fr.DeviceMemoryError) as error:
        message = str(error)
        assert message.startswith(base.name), message
        # the content decides: a ZIP or .fgb magic makes any file binary
        binary_now = data.startswith((b"PK\x03\x04", fr.binary.MAGIC))
        if base.text and not binary_now:
            assert re.match(rf"{re.escape(base.name)} line \d+: ", message) or any(
                phrase in message for phrase in WHOLE_FILE_ERRORS), message
        return None
    assert not must_fail, f"{base.name}: the mutation broke the file but a graph came back"
    if not base.text:  # checksummed: a graph that comes back is the original
        original = graphs[base.graph]
        for mine, theirs in zip((G.offsets, G.columns, G.weights),
                                (original.offsets, original.columns, original.weights)):
            np.testing.assert_array_equal(to_numpy(mine), to_numpy(theirs))
    return G


bases = st.integers(0, 11)
text_bases = st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 8])
one_based = st.sampled_from([0, 1, 2, 3])  # .mtx and .gr


def test_every_base_file_reads_back(workspace):
    tmp, all_bases, graphs = workspace
    for base in all_bases:
        G = check(workspace, base, base.data, must_fail=False)
        assert G.num_vertices == 9


@settings(max_examples=150)
@given(index=bases, data=st.data())
def test_truncation(workspace, index, data):
    base = workspace[1][index]
    cut = data.draw(st.integers(0, len(base.data) - 1))
    if base.text and not base.gzipped and base.kind in ("mtx", "dimacs"):
        # Cutting before the last entry line drops at least one declared entry.
        last = max(line for line, _, role in base.roles() if role == "id")
        offset = sum(len(b) + 1 for b in base.data.decode().split("\n")[:last])
        must_fail = cut < offset
    else:
        # checksummed, or a gzip stream (magic kept) without its end
        must_fail = not base.text or (base.gzipped and cut >= 2)
    check(workspace, base, base.data[:cut], must_fail)


@settings(max_examples=150)
@given(index=text_bases, data=st.data())
def test_token_replacement(workspace, index, data):
    """Bad tokens, out-of-range, 0-based, non-finite and huge numbers."""
    base = workspace[1][index]
    line, token, role = data.draw(st.sampled_from(base.roles()))
    kind = data.draw(st.sampled_from(["junk", "zero", "negative", "beyond", "nonfinite",
                                      "huge", "empty"]))
    value = {
        "junk": data.draw(st.text("xyz!?&", min_size=1, max_size=4)),
        "zero": "0",
        "negative": "-1",
        "beyond": "10",  # the graphs have 9 vertices
        "nonfinite": data.draw(st.sampled_from(["nan", "inf", "-inf", "1e999", "NaN"])),
        "huge": data.draw(st.sampled_from(["", "-"])) + str(10 ** data.draw(st.integers(19, 40))),
        "empty": "",
    }[kind]
    lines = base.lines()
    old = lines[line][token]
    lines[line][token] = value
    one_based_ids = base.kind in ("mtx", "dimacs")
    must_fail = (
        kind in ("junk", "empty")  # not a number, or a missing field
        or (role == "id" and kind in ("huge", "nonfinite"))
        or (role == "id" and one_based_ids and kind in ("zero", "negative", "beyond"))
        or (role == "weight" and kind in ("nonfinite", "junk"))
        or (role == "weight" and kind == "huge" and base.graph == "int-directed")
        or (role == "count" and value != old)
        or (base.kind == "mtx" and role == "size" and value != old)  # no longer square
        or (base.kind == "dimacs" and role == "size" and kind in ("zero", "negative"))
    )
    check(workspace, base, base.encode(lines), must_fail)


@settings(max_examples=60)
@given(index=one_based, data=st.data())
def test_header_counts(workspace, index, data):
    """Declared sizes and counts changed by a little."""
    base = workspace[1][index]
    delta = data.draw(st.sampled_from([-3, -2, -1, 1, 2, 3]))
    fields = [(line, token, role) for line, token, role in base.roles()
              if role in ("size", "count")]
    lines = base.lines()
    changed = data.draw(st.sampled_from(["count", "size"]))
    for line, token, role in fields:
        if role == changed:
            lines[line][token] = str(int(lines[line][token]) + delta)
    # Every vertex id is used, so a smaller size leaves one out of range.
    must_fail = changed == "count" or delta < 0
    G = check(workspace, base, base.encode(lines), must_fail)
    if G is not None:
        assert G.num_vertices == 9 + delta


@settings(max_examples=60)
@given(index=one_based)
def test_zero_based_file(workspace, index):
    """A 0-based file where 1-based ids are expected (vertex 1 is used)."""
    base = workspace[1][index]
    lines = base.lines()
    for line, token, role in base.roles():
        if role == "id":
            lines[line][token] = str(int(lines[line][token]) - 1)
    check(workspace, base, base.encode(lines), must_fail=True)


@settings(max_examples=200)
@given(index=bases, data=st.data())
def test_binary_noise(workspace, index, data):
    """Random bytes written over or into the file. Binary formats carry CRC-32
    checksums, which catch every burst of up to 4 bytes: they must come back
    unchanged or not at all."""
    base = workspace[1][index]
    position = data.draw(st.integers(0, len(base.data) - 1))
    noise = data.draw(st.binary(min_size=1, max_size=4))
    if data.draw(st.booleans()):
        mutated = base.data[:position] + noise + base.data[position + len(noise):]
    else:
        mutated = base.data[:position] + noise + base.data[position:]
    check(workspace, base, mutated, must_fail=False)


NAMES = ["x.mtx", "x.gr", "x.txt", "x.csv", "x.fgb", "x.npz", "x.dat"]


@settings(max_examples=150)
@given(name=st.sampled_from(NAMES),
       content=st.one_of(st.binary(max_size=120),
                         st.text("0123456789 \t\n\r,-+.eE#%\"acpsxMatrix", max_size=120)))
def test_arbitrary_content(workspace, name, content):
    """Whatever a file holds, reading it gives a graph or a documented error."""
    data = content if isinstance(content, bytes) else content.encode()
    base = Base(name, "int-directed", data)
    path = workspace[0] / name
    path.write_bytes(data)
    try:
        fr.read_graph(path, device="cpu")
    except (ValueError, fr.DeviceMemoryError) as error:
        assert str(error).startswith(base.name), str(error)


def _field(number: int, style: int) -> str:
    return [str(number), f" {number} ", f'"{number}"', f' "{number}"  '][style]


@settings(max_examples=100)
@given(data=st.data(), ncols=st.integers(2, 5), rows=st.integers(0, 12),
       header=st.booleans(), delimiter=st.sampled_from([",", ";", "\t", "|"]),
       crlf=st.booleans())
def test_csv_reads_what_was_written(workspace, data, ncols, rows, header, delimiter, crlf):
    """Valid CSV files of any shape give exactly the edges they hold."""
    table = data.draw(st.lists(st.lists(st.integers(-10**15, 10**15), min_size=ncols,
                                        max_size=ncols), min_size=rows, max_size=rows))
    chosen = data.draw(st.permutations(range(ncols)))[:data.draw(st.integers(2, min(3, ncols)))]
    names = [f"c{i}" for i in range(ncols)]
    lines = [delimiter.join(names)] if header else []
    for row in table:
        lines.append(delimiter.join(_field(v, data.draw(st.integers(0, 3))) for v in row))
    newline = "\r\n" if crlf else "\n"
    path = workspace[0] / "v.csv"
    path.write_text(newline.join(lines) + newline)
    by = [names[i] for i in chosen] if header else chosen
    G = fr.read_graph(path, columns=by, header=header, delimiter=delimiter, device="cpu")
    src, dst, weights = G.edges()
    labels = np.arange(G.num_vertices) if G.node_labels is None else np.array(G.node_labels)
    got = sorted(zip(labels[src].tolist(), labels[dst].tolist(),
                     [None] * len(src) if weights is None else weights.tolist()))
    expected = sorted((row[chosen[0]], row[chosen[1]],
                       row[chosen[2]] if len(chosen) == 3 else None) for row in table)
    assert got == expected
