"""Graph files: round trips, every supported variant, every error path, and the
real-world datasets against the counts in their README."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from graphs import DATASETS

import frontier as fr
from frontier.device import to_numpy


def host_csr(G):
    weights = None if G.weights is None else to_numpy(G.weights)
    return to_numpy(G.offsets), to_numpy(G.columns), weights


def assert_same_graph(G, H):
    assert (G.num_vertices, G.num_edges, G.directed) == (H.num_vertices, H.num_edges, H.directed)
    for mine, theirs in zip(host_csr(G), host_csr(H)):
        if theirs is None:
            assert mine is None
        else:
            np.testing.assert_array_equal(mine, theirs)


def write(tmp_path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    data = text.encode() if isinstance(text, str) else text
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return path


# binary format -----------------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("directed", [False, True])
def test_npz_round_trip(tmp_path, device, weighted, directed):
    rng = np.random.default_rng(1)
    src, dst = rng.integers(0, 30, 100), rng.integers(0, 30, 100)
    weights = rng.uniform(0, 5, 100) if weighted else None
    G = fr.Graph.from_edges(src, dst, weights, 35, directed, device=device)
    fr.write_graph(G, tmp_path / "g.npz")
    H = fr.read_graph(tmp_path / "g.npz", device=device)
    assert_same_graph(H, G)
    assert H.device == G.device and H.node_labels is None
    assert H.columns.dtype == G.columns.dtype


def test_npz_keeps_node_labels_and_can_change_direction(tmp_path):
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    G.node_labels = ["a", "b", "c"]
    fr.write_graph(G, tmp_path / "g.npz")
    assert fr.read_graph(tmp_path / "g.npz").node_labels == ["a", "b", "c"]
    D = fr.read_graph(tmp_path / "g.npz", directed=True, device="cpu")
    assert D.directed and D.num_edges == 4 and D.node_labels == ["a", "b", "c"]


def test_npz_errors(tmp_path):
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    with pytest.raises(ValueError, match=r"cannot tell the format of 'g\.bin'"):
        fr.write_graph(G, tmp_path / "g.bin")
    for labels in ([1, "b", 2], [1, "b", (2,)]):
        G.node_labels = labels
        with pytest.raises(ValueError, match="all numbers or all strings"):
            fr.write_graph(G, tmp_path / "g.npz")
    good = dict(format_version=1, offsets=[0, 1, 2], columns=[1, 0], directed=False,
                num_edges=1)
    for change, message in [({"format_version": 2}, "format version 2 is not supported"),
                            ({"offsets": [0, 2, 1]}, "offsets must be non-decreasing"),
                            ({"columns": [1, 5]}, r"column ids must be integers in 0\.\.1"),
                            ({"weights": [1.0]}, "1 weights for 2 columns")]:
        np.savez(tmp_path / "bad.npz", **{**good, **change})
        with pytest.raises(ValueError, match=message):
            fr.read_graph(tmp_path / "bad.npz")
    np.savez(tmp_path / "bad.npz", offsets=[0])
    with pytest.raises(ValueError, match=r"missing \['columns', 'directed'"):
        fr.read_graph(tmp_path / "bad.npz")
    write(tmp_path, "text.npz", "0 1\n")
    with pytest.raises(ValueError, match=r"text\.npz: not a Frontier \.npz graph"):
        fr.read_graph(tmp_path / "text.npz")


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("directed", [False, True])
def test_fgb_round_trip_is_memory_mapped(tmp_path, device, weighted, directed):
    rng = np.random.default_rng(2)
    src, dst = rng.integers(0, 30, 100), rng.integers(0, 30, 100)
    weights = rng.integers(-5, 50, 100).astype(np.int32) if weighted else None
    G = fr.Graph.from_edges(src, dst, weights, 35, directed, device=device)
    fr.write_graph(G, tmp_path / "g.fgb")
    H = fr.read_graph(tmp_path / "g.fgb", device=device)
    assert_same_graph(H, G)
    assert H.columns.dtype == G.columns.dtype and H.node_labels is None
    if weighted:
        assert to_numpy(H.weights).dtype == np.int32
    if device == "cpu":  # views of read-only maps of the file, not copies
        for array in (H.offsets, H.columns):
            assert isinstance(array.base, np.memmap) and not array.flags.writeable


def test_fgb_layout(tmp_path):
    G = fr.Graph.from_edges([0, 1], [1, 2], [0.5, 2.0], device="cpu")
    fr.write_graph(G, tmp_path / "g.fgb")
    data = (tmp_path / "g.fgb").read_bytes()
    assert data[:8] == b"\x89FGB\r\n\x1a\n"
    length = int.from_bytes(data[8:16], "little")
    header = json.loads(data[24:24 + length])
    assert header["num_vertices"] == 3 and header["num_edges"] == 2
    assert header["directed"] is False
    start = -(-(24 + length) // 64) * 64
    for name, dtype in (("offsets", "<i8"), ("columns", "<i4"), ("weights", "<f8")):
        entry = header["arrays"][name]
        assert entry["dtype"] == dtype and (start + entry["offset"]) % 64 == 0
        values = np.frombuffer(data, dtype, entry["count"], start + entry["offset"])
        np.testing.assert_array_equal(values, to_numpy(getattr(G, name)))


@pytest.mark.parametrize("labels", [[10, 20, 30], ["a", "b", "c"], [1, "b", 2.5]])
def test_fgb_node_labels(tmp_path, labels):
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    G.node_labels = labels
    fr.write_graph(G, tmp_path / "g.fgb")
    H = fr.read_graph(tmp_path / "g.fgb")
    assert H.node_labels == labels
    assert [type(label) for label in H.node_labels] == [type(label) for label in labels]
    D = fr.read_graph(tmp_path / "g.fgb", directed=True, device="cpu")
    assert D.directed and D.num_edges == 4 and D.node_labels == labels


def test_fgb_empty_graph_and_isolated_vertices(tmp_path):
    for G in (fr.Graph.from_edges([], [], num_vertices=0, device="cpu"),
              fr.Graph.from_edges([], [], num_vertices=4, device="cpu")):
        fr.write_graph(G, tmp_path / "e.fgb")
        assert_same_graph(fr.read_graph(tmp_path / "e.fgb"), G)


def test_fgb_errors(tmp_path):
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    G.node_labels = [(1,), 2, 3]
    with pytest.raises(ValueError, match="cannot be stored in .fgb"):
        fr.write_graph(G, tmp_path / "g.fgb")
    G.node_labels = None
    with pytest.raises(ValueError, match="not gzip-compressed"):
        fr.write_graph(G, tmp_path / "g.fgb.gz")
    fr.write_graph(G, tmp_path / "g.fgb")
    data = (tmp_path / "g.fgb").read_bytes()
    cases = [(data[:-1], r"array 'columns' .* runs past the end .* \(truncated\?\)"),
             (data[:20], "not a Frontier binary graph .*: bad magic bytes"),
             (b"\x00" + data[1:], "not a Frontier binary graph .*: bad magic bytes"),
             (data[:30] + b"X" + data[31:], "header checksum mismatch"),
             (data[:-2] + b"\x07" + data[-1:], "array 'columns' checksum mismatch"),
             (data[:20] + b"\x01" + data[21:], "bytes 20-23 must be zero")]
    for content, message in cases:
        (tmp_path / "bad.fgb").write_bytes(content)
        with pytest.raises(ValueError, match=r"^bad\.fgb: " + message):
            fr.read_graph(tmp_path / "bad.fgb")


def test_binary_format_found_by_content(tmp_path):
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    fr.write_graph(G, tmp_path / "g.fgb")
    (tmp_path / "g.fgb").rename(tmp_path / "graph.data")
    assert_same_graph(fr.read_graph(tmp_path / "graph.data"), G)


# CSV ---------------------------------------------------------------------------------


def test_csv_header_columns_by_name_and_relabeling(tmp_path):
    text = ('# exported\r\n"from","to","km","note"\r\n'
            '10, 30 ,1.5,x\r\n30,20,2,"y"\r\n\r\n"20","10",3,z\r\n')
    for name in ("t.csv", "t.csv.gz"):
        G = fr.read_graph(write(tmp_path, name, text), columns=("from", "to", "km"),
                          device="cpu")
        assert G.directed and G.num_vertices == 3 and G.node_labels == [10, 20, 30]
        src, dst, weights = G.edges()
        labels = np.array(G.node_labels)
        assert sorted(zip(labels[src].tolist(), labels[dst].tolist(), weights.tolist())) == \
            [(10, 30, 1.5), (20, 10, 3.0), (30, 20, 2.0)]


def test_csv_text_columns_do_not_make_a_header(tmp_path):
    G = fr.read_graph(write(tmp_path, "l.csv", "1,2,friend\n3,4,foe\n"), columns=(0, 1))
    assert G.num_edges == 2
    H = fr.read_graph(write(tmp_path, "n.csv", "a,b,kind\n1,2,friend\n"), columns=(0, 1))
    assert H.num_edges == 1


def test_csv_byte_order_mark_is_not_a_header(tmp_path):
    G = fr.read_graph(write(tmp_path, "b.csv", "\ufeff1,2\n3,4\n"), device="cpu")
    assert G.num_edges == 2 and G.node_labels == [1, 2, 3, 4]
    H = fr.read_graph(write(tmp_path, "h.csv", "\ufeffsrc,dst\n1,2\n"), columns=("src", "dst"))
    assert H.num_edges == 1


def test_csv_column_choices(tmp_path):
    path = write(tmp_path, "t.csv", "a,b,w\n0,1,5\n1,2,7\n")
    G = fr.read_graph(path, device="cpu")  # three columns: the third is the weight
    assert to_numpy(G.weights).tolist() == [5, 7] and to_numpy(G.weights).dtype == np.int64
    assert fr.read_graph(path, columns=(0, 1)).weights is None
    R = fr.read_graph(path, columns=("b", "a"), directed=False, device="cpu")
    assert not R.directed and R.num_edges == 2 and R.weights is None
    W = fr.read_graph(path, columns=[2, 0], device="cpu")  # ids 5, 7 -> 0, 1 -> relabeled
    assert W.node_labels == [0, 1, 5, 7]


def test_csv_header_detection_and_delimiters(tmp_path):
    plain = write(tmp_path, "p.csv", "0;1\n1;2\n")
    G = fr.read_graph(plain, delimiter=";", device="cpu")
    assert G.num_edges == 2 and G.num_vertices == 3
    with pytest.raises(ValueError, match=r"p\.csv line 1: column index 2 is out of range"):
        fr.read_graph(plain, delimiter=";", header=True, columns=(0, 1, 2))
    assert fr.read_graph(write(tmp_path, "h.csv", "5,6\n0,1\n"), header=True).num_edges == 1
    tabs = fr.read_graph(write(tmp_path, "t.csv", "src\tdst\n0\t1\n"), delimiter="\t")
    assert tabs.num_edges == 1
    assert fr.read_graph(write(tmp_path, "e.csv", "source,target\n")).num_vertices == 0


@pytest.mark.parametrize("text, options, message", [
    ("a,b\n1,2\n3,,\n", {}, "x.csv line 3: expected 2 fields separated by ','"),
    ("a,b\n1,2\n3\n", {}, "x.csv line 3: expected 2 fields"),
    ("a,b\n1,2\n3,x\n", {}, "x.csv line 3: expected integer vertex ids in 'a' and 'b', "
                           "got '3,x'"),
    ("a,b\n1,2\n3 4,5\n", {}, "x.csv line 3: expected integer vertex ids"),
    ("a,b\n1,2\n,5\n", {}, "x.csv line 3: expected integer vertex ids"),
    ("a,b\n1,2\n1.5,5\n", {}, "x.csv line 3: expected integer vertex ids"),
    ('a,b\n1,2\n"3,4",5\n', {}, "x.csv line 3: expected 2 fields"),
    ("a,b,w\n1,2,1\n3,4,abc\n", {}, "x.csv line 3: expected a number in the weight "
                                    "column 'w'"),
    ("a,b,w\n1,2,0.5\n3,4,1e999\n", {}, "x.csv line 3: weight inf is not finite"),
    ("a,b\n1,99999999999999999999\n", {}, "x.csv line 2: number 99999999999999999999 is "
                                           "outside the 64-bit integer range"),
    ("a,b\n1,2\n", {"columns": ("a", "c")}, "x.csv line 1: no column 'c' in the header"),
    ("1,2\n", {"columns": ("a", "b")}, "x.csv: column 'a' is named but the file has no header"),
    ("a,b\n1,2\n", {"columns": (0, 5)}, "x.csv line 1: column index 5 is out of range"),
    ("a\n1\n", {}, "x.csv line 1: expected at least 2 fields"),
    ("a,b\n1,2\n", {"columns": (0, 0)}, "columns=(0, 0) names a column twice"),
    ("a,b\n1,2\n", {"columns": ("a",)}, "columns=('a',): expected (source, target)"),
    ("a,b\n1,2\n", {"columns": (0, -1)}, "-1 is neither a column name nor an index"),
    ("a,b\n1,2\n", {"delimiter": ",,"}, "delimiter=',,': expected one ASCII character"),
    ("a,b\n1,2\n", {"delimiter": "1"}, "delimiter='1'"),
    ("a,b\n1,2\n", {"header": "yes"}, "header='yes': expected None"),
])
def test_csv_errors(tmp_path, text, options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        fr.read_graph(write(tmp_path, "x.csv", text), **options)


def test_csv_options_on_other_formats(tmp_path):
    with pytest.raises(ValueError, match=r"e\.txt: columns=, header= and delimiter= apply to "
                                         r"\.csv files only"):
        fr.read_graph(write(tmp_path, "e.txt", "0 1\n"), columns=(0, 1))


# writing every format ----------------------------------------------------------------

WRITABLE = ["g.fgb", "g.npz", "g.mtx", "g.mtx.gz", "g.gr", "g.txt", "g.tsv", "g.el.gz",
            "g.csv"]


def _sample(weights: str, directed: bool, labels: bool = False):
    rng = np.random.default_rng(11)
    n = 12
    src = np.concatenate([np.arange(n - 1), rng.integers(0, n, 30), [3, 5]])
    dst = np.concatenate([np.arange(1, n), rng.integers(0, n, 30), [3, 6]])
    values = {"none": None, "int": rng.integers(-3, 90, len(src)),
              "float": rng.uniform(-1, 1e6, len(src)) / 7}[weights]
    G = fr.Graph.from_edges(src, dst, values, n, directed, device="cpu")
    if labels:
        G.node_labels = [100 + 7 * i for i in range(n)]
    return G


@pytest.mark.parametrize("name", WRITABLE)
@pytest.mark.parametrize("weights", ["none", "int", "float"])
@pytest.mark.parametrize("directed", [False, True])
def test_write_read_round_trip(tmp_path, name, weights, directed):
    G = _sample(weights, directed)
    if name == "g.gr" and weights == "float":
        with pytest.raises(ValueError, match=r"g\.gr: DIMACS \.gr weights are integers"):
            fr.write_graph(G, tmp_path / name)
        return
    fr.write_graph(G, tmp_path / name)
    edge_list = fr.io.graph_format(name) in ("edges", "csv")
    # Edge lists and DIMACS have no undirected kind: edge lists store each
    # edge once (read with directed=False), DIMACS both arcs (read as directed).
    H = fr.read_graph(tmp_path / name, directed=G.directed if edge_list else None,
                      device="cpu")
    if name == "g.gr":
        assert H.directed and H.num_arcs == G.num_arcs
        np.testing.assert_array_equal(to_numpy(H.columns), to_numpy(G.columns))
        if weights == "int":
            np.testing.assert_array_equal(to_numpy(H.weights), to_numpy(G.weights))
        return
    assert_same_graph(H, G)


@pytest.mark.parametrize("name", ["g.fgb", "g.npz", "g.txt", "g.csv"])
def test_write_keeps_integer_labels(tmp_path, name):
    G = _sample("int", True, labels=True)
    fr.write_graph(G, tmp_path / name)
    H = fr.read_graph(tmp_path / name, device="cpu")
    assert_same_graph(H, G)
    assert H.node_labels == G.node_labels


def test_write_refuses_what_a_format_cannot_hold(tmp_path):
    lonely = fr.Graph.from_edges([0], [1], num_vertices=3, device="cpu")
    for name in ("g.txt", "g.csv"):
        with pytest.raises(ValueError, match=rf"g\.{name[2:]}: an edge list cannot hold the 1 "
                                             "isolated vertices of this graph"):
            fr.write_graph(lonely, tmp_path / name)
    named = fr.Graph.from_edges([0], [1], device="cpu")
    named.node_labels = ["a", "b"]
    with pytest.raises(ValueError, match="node labels are not all integers"):
        fr.write_graph(named, tmp_path / "g.txt")
    with pytest.raises(ValueError, match="cannot tell the format of 'g.json'"):
        fr.write_graph(named, tmp_path / "g.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_text_writers_format_integers_exactly(tmp_path):
    big = np.iinfo(np.int64)
    weights = np.array([big.min, big.max, 0, -1, 10**12, 9, -10])
    G = fr.Graph.from_edges(np.arange(7), np.arange(1, 8), weights, directed=True,
                            device="cpu")
    fr.write_graph(G, tmp_path / "g.mtx")
    text = (tmp_path / "g.mtx").read_text().splitlines()
    assert text[3:] == ["1 2 -9223372036854775808", "2 3 9223372036854775807", "3 4 0",
                        "4 5 -1", "5 6 1000000000000", "6 7 9", "7 8 -10"]
    assert_same_graph(fr.read_graph(tmp_path / "g.mtx"), G)


# atomic writes -----------------------------------------------------------------------


class Interrupted(Exception):
    pass


@pytest.mark.parametrize("name", ["g.fgb", "g.npz", "g.mtx", "g.txt.gz"])
def test_failed_write_keeps_the_old_file(tmp_path, monkeypatch, name):
    """A write that fails half-way leaves the previous file intact and no
    temporary file behind."""
    old = _sample("int", True)
    fr.write_graph(old, tmp_path / name)
    before = (tmp_path / name).read_bytes()
    new = _sample("none", False)
    real_write = fr.atomic.os.fdopen

    def failing_fdopen(*args, **kwargs):
        file = real_write(*args, **kwargs)
        original = file.write
        calls = []

        def write_then_fail(data):
            calls.append(len(data))
            if len(calls) == 2:  # some bytes are already in the temporary file
                raise Interrupted("disk unplugged")
            return original(data)

        file.write = write_then_fail
        return file

    monkeypatch.setattr(fr.atomic.os, "fdopen", failing_fdopen)
    with pytest.raises(Interrupted):
        fr.write_graph(new, tmp_path / name)
    monkeypatch.undo()
    assert (tmp_path / name).read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [name]
    assert_same_graph(fr.read_graph(tmp_path / name, device="cpu"), old)
    fr.write_graph(new, tmp_path / name)  # and a write that succeeds replaces it
    assert_same_graph(fr.read_graph(tmp_path / name, directed=False, device="cpu"), new)


def test_atomic_write_helper(tmp_path):
    from frontier.atomic import atomic_write, write_npz

    target = tmp_path / "out.txt"
    with atomic_write(target, "w") as file:
        file.write("first\n")
    with pytest.raises(KeyboardInterrupt):
        with atomic_write(target, "w") as file:
            file.write("second, half")
            raise KeyboardInterrupt
    assert target.read_text() == "first\n" and len(list(tmp_path.iterdir())) == 1
    assert oct(target.stat().st_mode & 0o777) != oct(0o600)  # not mkstemp's private mode
    with pytest.raises(FileNotFoundError, match="does not exist"):
        with atomic_write(tmp_path / "no" / "such.txt"):
            pass
    with pytest.raises(IsADirectoryError):
        with atomic_write(tmp_path):
            pass
    assert write_npz(tmp_path / "result", {"depth": np.arange(3)}).name == "result.npz"
    assert np.load(tmp_path / "result.npz")["depth"].tolist() == [0, 1, 2]


# Matrix Market -----------------------------------------------------------------------


@pytest.mark.parametrize("field", ["pattern", "integer", "real"])
@pytest.mark.parametrize("symmetry", ["general", "symmetric"])
def test_matrix_market_kinds_match_scipy(tmp_path, device, field, symmetry):
    rng = np.random.default_rng(7)
    matrix = sp.random(25, 25, density=0.15, random_state=3, format="coo")
    matrix.data = rng.integers(1, 9, matrix.nnz).astype(float)
    if field == "real":
        matrix.data += 0.25
    if symmetry == "symmetric":
        matrix = (sp.tril(matrix) + sp.tril(matrix, -1).T).tocoo()
    if field == "integer":
        matrix = matrix.astype(np.int64)
    scipy.io.mmwrite(tmp_path / "m.mtx", matrix, field=field, symmetry=symmetry)
    G = fr.read_graph(tmp_path / "m.mtx", device=device)
    expected = fr.Graph.from_scipy(matrix, directed=symmetry == "general",
                                   weighted=field != "pattern", device=device)
    assert_same_graph(G, expected)
    if field != "pattern":
        assert to_numpy(G.weights).dtype == (np.int64 if field == "integer" else np.float64)


def test_matrix_market_symmetric_read_as_directed(tmp_path):
    path = write(tmp_path, "s.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n"
                                    "3 3 3\n2 1\n3 3\n3 1\n")
    G = fr.read_graph(path, directed=True, device="cpu")
    assert G.directed and G.num_edges == 5
    assert sorted(zip(*G.edges()[:2])) == [(0, 1), (0, 2), (1, 0), (2, 0), (2, 2)]


def test_matrix_market_without_banner_is_symmetric(tmp_path):
    G = fr.read_graph(write(tmp_path, "nb.mtx", "4 4 3\n2 1\n3 2\n4 3\n"), device="cpu")
    assert not G.directed and G.num_edges == 3 and G.weights is None
    assert sorted(zip(*G.edges()[:2])) == [(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2)]
    W = fr.read_graph(write(tmp_path, "w.mtx", "3 3 2\n2 1 0.5\n3 1 2\n"), device="cpu")
    assert not W.directed and sorted(to_numpy(W.weights).tolist()) == [0.5, 0.5, 2.0, 2.0]


def test_banner_wins_over_the_file_name(tmp_path):
    path = write(tmp_path, "graph.dat", "%%MatrixMarket matrix coordinate pattern general\n"
                                        "% a comment\n2 2 1\n1 2\n")
    G = fr.read_graph(path, device="cpu")
    assert G.directed and G.num_vertices == 2 and G.num_edges == 1


# edge lists --------------------------------------------------------------------------


def test_edge_list_comments_crlf_gzip_and_relabeling(tmp_path):
    text = "# SNAP header\r\n% another comment\r\n10\t30\r\n30\t20\r\n\r\n  20 10\r\n"
    for name in ("e.txt", "e.txt.gz", "e.el", "e.edges", "e.tsv", "noext"):
        G = fr.read_graph(write(tmp_path, name, text), device="cpu")
        assert G.directed and G.num_vertices == 3 and G.num_edges == 3
        assert G.node_labels == [10, 20, 30]
        src, dst, _ = G.edges()
        labels = np.array(G.node_labels)
        assert sorted(zip(labels[src], labels[dst])) == [(10, 30), (20, 10), (30, 20)]


def test_edge_list_contiguous_ids_keep_their_numbers(tmp_path):
    G = fr.read_graph(write(tmp_path, "e.txt", "0 2\n2 1\n"), directed=False, device="cpu")
    assert G.node_labels is None and not G.directed and G.num_edges == 2
    assert sorted(zip(*G.edges()[:2])) == [(0, 2), (1, 2), (2, 0), (2, 1)]


def test_edge_list_weights(tmp_path):
    G = fr.read_graph(write(tmp_path, "w.txt", "0 1 5\n1 2 -3\n"), device="cpu")
    assert to_numpy(G.weights).dtype == np.int64
    assert to_numpy(G.weights).tolist() == [5, -3]
    F = fr.read_graph(write(tmp_path, "f.txt", "0 1 0.5\n1 2 1e-3\n"), device="cpu")
    assert to_numpy(F.weights).tolist() == [0.5, 0.001]


def test_empty_edge_list(tmp_path):
    G = fr.read_graph(write(tmp_path, "empty.txt", "# nothing here\n"), device="cpu")
    assert G.num_vertices == 0 and G.num_edges == 0


# DIMACS ------------------------------------------------------------------------------


def test_dimacs(tmp_path, device):
    text = "c road\np sp 4 4\nc arcs\na 1 2 7\na 2 3 0\na 3 1 12\na 4 4 1\n"
    G = fr.read_graph(write(tmp_path, "r.gr", text), device=device)
    assert G.directed and G.num_vertices == 4 and G.num_edges == 4
    src, dst, weights = G.edges()
    assert sorted(zip(src, dst, weights)) == [(0, 1, 7), (1, 2, 0), (2, 0, 12), (3, 3, 1)]
    assert not fr.read_graph(write(tmp_path, "r.gr", text), directed=False).directed


def test_dimacs_recognised_by_content(tmp_path):
    G = fr.read_graph(write(tmp_path, "road.data", "p sp 2 1\na 1 2 3\n"), device="cpu")
    assert G.directed and G.num_edges == 1 and to_numpy(G.weights).tolist() == [3]


# errors ------------------------------------------------------------------------------


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.mtx"):
        fr.read_graph(tmp_path / "nope.mtx")


MTX = "%%MatrixMarket matrix coordinate pattern general\n% c\n% c\n% c\n4 4 3\n1 2\n"
REAL = "%%MatrixMarket matrix coordinate real general\n% c\n% c\n% c\n4 4 3\n1 2 1\n"


@pytest.mark.parametrize("name, text, message", [
    ("graph.mtx", MTX + "a b\n3 4\n", "graph.mtx line 7: expected 2 integers, got 'a b'"),
    ("graph.mtx", MTX + "2 3 4\n3 4\n", "graph.mtx line 7: expected 2 integers, got '2 3 4'"),
    ("graph.mtx", MTX + "2 9\n3 4\n",
     "graph.mtx line 7: vertex 9 is out of range 1..4 declared on line 5"),
    ("graph.mtx", MTX + "0 1\n3 4\n", "graph.mtx line 7: vertex 0 is out of range 1..4"),
    ("graph.mtx", MTX + "2 3\n", "size line 5 declares 3 entries, found 2"),
    ("graph.mtx", MTX + "2-3 1\n3 4\n", "graph.mtx line 7: expected 2 integers, got '2-3 1'"),
    ("graph.mtx", REAL + "2 3 x\n3 4 1\n",
     "line 7: expected 2 integers and a number, got '2 3 x'"),
    ("graph.mtx", REAL + "2.5 3 1\n3 4 1\n",
     "line 7: expected integer vertex ids, got '2.5 3 1'"),
    ("graph.mtx", MTX.replace("pattern", "complex"), "unsupported field or symmetry complex"),
    ("graph.mtx", MTX.replace("general", "hermitian"), "unsupported field or symmetry"),
    ("graph.mtx", MTX.replace("coordinate", "array"), "only '%%MatrixMarket matrix coordinate"),
    ("graph.mtx", "%%MatrixMarket matrix coordinate pattern\n1 1 0\n",
     "line 1: expected '%%MatrixMarket matrix coordinate <field> <symmetry>'"),
    ("graph.mtx", "%%MatrixMarket matrix coordinate pattern general\n% only comments\n",
     "graph.mtx: no size line"),
    ("graph.mtx", "3 4 1\n1 2\n", "line 1: a graph needs a square matrix, got 3 x 4"),
    ("graph.mtx", "3 3 -1\n", "line 1: sizes must not be negative, got 3 3 -1"),
    ("graph.mtx", "3 x 1\n1 2\n", "line 1: expected a size line 'rows columns entries'"),
    ("e.txt", "# h\n1 2\n3\n", "e.txt line 3: expected 2 integers, got '3'"),
    ("e.txt", "1 2 3 4\n", "e.txt line 1: expected 2 or 3 columns"),
    ("e.txt", "1 2 1\n3 4 x1\n", "e.txt line 2: expected 2 integers and a weight, got '3 4 x1'"),
    ("e.txt", "1 2\r\n3 4\r\n5 six\r\n", "e.txt line 3: expected 2 integers, got '5 six'"),
    ("e.txt", "1 2\n1.5 3\n", "e.txt line 2: expected integer vertex ids, got '1.5 3'"),
    ("e.txt.gz", "1 2\n# c\n1 2 3\n", "e.txt.gz line 3: expected 2 integers, got '1 2 3'"),
    ("r.gr", "c x\na 1 2 3\n", "r.gr: no problem line 'p sp <nodes> <arcs>'"),
    ("r.gr", "p sp 2 1\np sp 2 1\na 1 2 3\n", "r.gr line 2: a second problem line"),
    ("r.gr", "p max 2 1\na 1 2 3\n", "r.gr line 1: expected a problem line"),
    ("r.gr", "p sp 2 1\ne 1 2\n", "r.gr line 2: expected a 'c', 'p' or 'a' line, got 'e 1 2'"),
    ("r.gr", "p sp 2 1\na 1 2\n", "r.gr line 2: expected an arc line 'a <tail> <head> <weight>'"),
    ("r.gr", "p sp 2 1\na1 2 3\n", "r.gr line 2: expected an arc line"),
    ("r.gr", "p sp 2 1\na 1 2 2.5\n", "r.gr line 2: expected an arc line"),
    ("r.gr", "p sp 2 1\na 1 3 2\n",
     "r.gr line 2: vertex 3 is out of range 1..2 declared on line 1"),
    ("r.gr", "p sp 2 2\na 1 2 2\n", "r.gr: problem line 1 declares 2 arcs, found 1"),
    ("r.gr", "p sp -1 0\n", "r.gr line 1: sizes must not be negative, got -1 0"),
    # np.fromstring clamps numbers beyond int64 to its limits: they must fail instead
    ("e.txt", "1 2\n3 99999999999999999999\n",
     "e.txt line 2: number 99999999999999999999 is outside the 64-bit integer range"),
    ("e.txt", "1 2 5\n3 4 -99999999999999999999\n", "e.txt line 2: number -9999"),
    ("e.txt", "1 2 0.5\n3 4 1e999\n", "e.txt line 2: weight inf is not finite"),
    ("e.txt", "1 2 0.5\n3 1e300 1\n", "e.txt line 2: a vertex id beyond 2**53"),
    ("graph.mtx", REAL + "2 3 1e400\n3 4 1\n", "graph.mtx line 7: weight inf is not finite"),
    ("graph.mtx", REAL + "2 3 nan\n3 4 1\n", "graph.mtx line 7: expected 2 integers and a"),
])
def test_malformed_files(tmp_path, name, text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        fr.read_graph(write(tmp_path, name, text))


def test_corrupt_gzip(tmp_path):
    path = tmp_path / "e.txt.gz"
    path.write_bytes(gzip.compress(b"1 2\n" * 1000)[:-20])
    with pytest.raises(ValueError, match=r"e\.txt\.gz: corrupt gzip data"):
        fr.read_graph(path)


def test_progress_goes_to_stderr_only_when_asked(tmp_path, capsys, monkeypatch):
    # Bars are drawn only on a terminal: make the captured stream count as one.
    monkeypatch.setattr("frontier.progress.is_terminal", lambda stream: True)
    path = write(tmp_path, "e.txt", "0 1\n")
    fr.read_graph(path, device="cpu")
    assert capsys.readouterr().err == ""
    fr.read_graph(path, device="cpu", progress=True)
    err = capsys.readouterr().err
    for phase in ("reading", "tokenizing", "parsing", "building CSR"):
        assert f"frontier: read_graph e.txt: {phase}" in err


# real-world datasets (counts from datasets/README.md) ---------------------------------

# file: (vertices, edges as stored, directed by default, weighted, relabeled)
EXPECTED = {
    "rome99.gr": (3353, 8870, True, True, False),
    "DE.gr": (49109, 121024, True, True, False),
    "VT.gr": (97975, 215116, True, True, False),
    "luxembourg_osm.mtx": (114599, 119666, False, False, False),
    "facebook_combined.txt": (4039, 88234, True, False, False),
    "wiki-Vote.txt": (7115, 103689, True, False, True),
    "ca-GrQc.txt.gz": (5242, 28980, True, False, True),
    "cit-HepTh.txt.gz": (27770, 352807, True, False, True),
    "chesapeake.mtx": (39, 170, False, False, False),
    "netscience.mtx": (1589, 2742, False, True, False),
}

needs_datasets = pytest.mark.skipif(not DATASETS.is_dir(),
                                    reason=f"datasets folder {DATASETS} is absent")


@needs_datasets
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_datasets_match_their_readme(name):
    n, m, directed, weighted, relabeled = EXPECTED[name]
    G = fr.read_graph(DATASETS / name, device="cpu")
    assert (G.num_vertices, G.num_edges, G.directed) == (n, m, directed)
    assert G.is_weighted == weighted
    assert (G.node_labels is not None) == relabeled


@needs_datasets
def test_dataset_details():
    # SNAP ids are relabeled in sorted order and kept.
    for name, low, high in [("wiki-Vote.txt", 3, 8297), ("ca-GrQc.txt.gz", 13, 26196),
                            ("cit-HepTh.txt.gz", 1001, 9912293)]:
        labels = fr.read_graph(DATASETS / name, device="cpu").node_labels
        assert (labels[0], labels[-1]) == (low, high) and labels == sorted(labels)
    # ca-GrQc stores both directions: as an undirected multigraph each pair
    # appears twice, and its 12 self loops once.
    G = fr.read_graph(DATASETS / "ca-GrQc.txt.gz", directed=False, device="cpu")
    src, dst, _ = G.edges()
    assert int((src == dst).sum()) == 12
    assert len(set(zip(src[src < dst].tolist(), dst[src < dst].tolist()))) == 14484
    # DIMACS: weights as stored, 448 self-loop arcs, zero-weight arcs present.
    D = fr.read_graph(DATASETS / "DE.gr", device="cpu")
    src, dst, weights = D.edges()
    assert int((src == dst).sum()) == 448 and weights.min() == 0 and weights.max() == 3818
    # netscience: real weights 0.0526..4.75, each undirected edge stored once.
    N = fr.read_graph(DATASETS / "netscience.mtx", device="cpu")
    weights = to_numpy(N.weights)
    assert abs(weights.min() - 0.0526) < 1e-4 and abs(weights.max() - 4.75) < 1e-9
