"""Reading and writing graph files.

Text formats are parsed with vectorized NumPy passes over the raw bytes (no
per-line Python loop), so a 100 MB file loads in seconds:

* Matrix Market ``.mtx`` (coordinate; pattern, integer or real; general or
  symmetric). A file without the ``%%MatrixMarket`` banner is read as
  symmetric, starting with the size line.
* Edge lists (SNAP and plain: ``.txt``, ``.el``, ``.edges``, ``.tsv``): two or
  three whitespace-separated columns, ``#``/``%`` comment lines, LF or CRLF.
* DIMACS shortest-path ``.gr`` (``p sp n m``, ``a u v w``, 1-based).
* Frontier's binary ``.npz`` (CSR arrays), written by :func:`write_graph`.

Text files may be gzip-compressed (detected from the content). See
``docs/io-and-generators.md``.
"""

from __future__ import annotations

import errno
import gzip
import zipfile
from pathlib import Path

import numpy as np

from .device import get_device, to_numpy
from .graph import Graph, index_dtype
from .progress import Progress

FORMAT_VERSION = 1
_SUFFIX_FORMATS = {".mtx": "mtx", ".mm": "mtx", ".gr": "dimacs", ".npz": "npz",
                   **dict.fromkeys([".txt", ".el", ".edges", ".tsv", ".edgelist"], "edges")}
_CHUNK_BYTES = 1 << 24




def _is_space(chars):
    """Whitespace bytes (space, \\t \\n \\v \\f \\r); comparisons beat a lookup table."""
    return (chars == ord(" ")) | ((chars >= ord("\t")) & (chars <= ord("\r")))


def _is_number_text(chars, extra: bytes):
    """Whitespace, digits and the bytes of ``extra``."""
    allowed = _is_space(chars) | ((chars >= ord("0")) & (chars <= ord("9")))
    for byte in extra:
        allowed |= chars == byte
    return allowed


def read_graph(path, *, directed: bool | None = None, device=None,
               progress: bool = False) -> Graph:
    """Read a graph file, choosing the format from the file name and header.

    Parameters
    ----------
    path : str or os.PathLike
        ``.mtx``, ``.gr``, ``.npz`` or an edge list (``.txt``, ``.el``,
        ``.edges``, ``.tsv``); any text format may be gzip-compressed
        (``.gz``). Other names are recognised from their content.
    directed : bool, optional
        Default: ``False`` for symmetric Matrix Market files, ``True`` for
        general ones, edge lists and DIMACS files, the stored flag for
        ``.npz``. ``False`` reads every entry as an undirected edge;
        ``True`` on a symmetric matrix stores both directions of each entry.
    device : str or Device, optional
        Where to put the graph (default: the default device).
    progress : bool
        Report the phases of loading to standard error.

    Returns
    -------
    Graph
        Edge-list files whose ids are not exactly ``0..n-1`` are relabeled
        in sorted id order; ``G.node_labels`` then holds the original ids.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        On malformed content, naming the file, the line and what was expected,
        and on an entry outside the declared size, naming the value.

    Examples
    --------
    >>> import frontier as fr
    >>> G = fr.read_graph("graph.mtx")                     # doctest: +SKIP
    >>> G = fr.read_graph("wiki-Vote.txt", directed=True)  # doctest: +SKIP
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(errno.ENOENT, "graph file not found", str(path))
    reporter = Progress(f"read_graph {path.name}", progress)
    with open(path, "rb") as file:
        is_zip = file.read(4) == b"PK\x03\x04"
    name = path.name.lower().removesuffix(".gz")
    kind = _SUFFIX_FORMATS.get(Path(name).suffix)
    if is_zip or kind == "npz":
        reporter.phase("loading")
        G = _read_npz(path, device)
        if directed is not None and bool(directed) != G.directed:
            src, dst, weights = G.edges()
            G = _build(src, dst, weights, G.num_vertices, bool(directed), G.node_labels,
                       device, reporter)
        reporter.finish(f"{G!r}")
        return G
    text = _Text(path.name, _read_bytes(path, reporter), reporter)
    if text.starts_with(b"%%matrixmarket"):
        kind = "mtx"
    elif kind is None:
        kind = "dimacs" if text.first_head() in b"cp" else "edges"
    reporter.phase("parsing")
    reader = {"mtx": _matrix_market, "dimacs": _dimacs, "edges": _edge_list}[kind]
    src, dst, weights, n, directed, labels = reader(text, directed)
    G = _build(src, dst, weights, n, directed, labels, device, reporter)
    reporter.finish(f"{G!r}")
    return G


def write_graph(G: Graph, path) -> None:
    """Write ``G`` to Frontier's binary ``.npz`` format (read back by :func:`read_graph`).

    The file holds the CSR arrays as they are (``offsets``, ``columns``,
    ``weights`` if any, ``node_labels`` if any), the ``directed`` flag,
    ``num_edges`` and ``format_version``; reading it does no sorting.

    Parameters
    ----------
    G : Graph
    path : str or os.PathLike
        Must end in ``.npz``.

    Raises
    ------
    ValueError
        If the name does not end in ``.npz``, or the node labels are not all
        numbers or all strings.

    Examples
    --------
    >>> import frontier as fr
    >>> G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    >>> fr.write_graph(G, "path.npz")                  # doctest: +SKIP
    >>> fr.read_graph("path.npz").num_edges            # doctest: +SKIP
    2
    """
    path = Path(path)
    if path.suffix.lower() != ".npz":
        raise ValueError(f"write_graph writes the binary .npz format; {path.name!r} "
                         "does not end in .npz")
    arrays = {"format_version": np.int64(FORMAT_VERSION), "offsets": to_numpy(G.offsets),
              "columns": to_numpy(G.columns), "directed": np.bool_(G.directed),
              "num_edges": np.int64(G.num_edges)}
    if G.weights is not None:
        arrays["weights"] = to_numpy(G.weights)
    if G.node_labels is not None:
        arrays["node_labels"] = _labels_array(G.node_labels)
    np.savez(path, **arrays)


def _labels_array(labels) -> np.ndarray:
    """Node labels as a plain NumPy array that reads back equal to ``labels``."""
    try:
        array = np.asarray(labels)
    except ValueError:
        array = None
    # The round trip catches mixed types that NumPy would silently turn into strings.
    if array is None or array.dtype.kind not in "biufU" or array.tolist() != list(labels):
        raise ValueError("node labels cannot be stored in .npz: they must be all "
                         f"numbers or all strings, got {list(labels)[:5]!r}...")
    return array


# text parsing ------------------------------------------------------------------------


class _Text:
    """A text file split into lines and whitespace-separated tokens (vectorized).

    Per line: ``count`` tokens, the position ``head`` of its first token
    (-1 for blank lines) and that token's first byte ``head_char``.
    """

    def __init__(self, name: str, data: bytearray, reporter: Progress):
        reporter.phase("tokenizing")
        self.name = name
        self.chars = np.frombuffer(data, dtype=np.uint8)
        newlines = np.flatnonzero(self.chars == ord("\n"))
        self.line_start = np.concatenate(([0], newlines + 1))
        self.line_end = np.append(newlines, len(self.chars))
        space = _is_space(self.chars)
        starts = ~space
        starts[1:] &= space[:-1]
        starts = np.flatnonzero(starts)
        first = np.searchsorted(starts, self.line_start)
        self.count = np.diff(np.append(first, len(starts)))
        nonempty = self.count > 0
        self.head = np.full(len(self.count), -1, dtype=np.int64)
        self.head[nonempty] = starts[first[nonempty]]
        self.head_char = np.zeros(len(self.count), dtype=np.uint8)
        self.head_char[nonempty] = self.chars[self.head[nonempty]]

    def starts_with(self, prefix: bytes) -> bool:
        lines = np.flatnonzero(self.count)
        return bool(len(lines)) and self.line(lines[0]).lower().startswith(prefix.decode())

    def first_head(self) -> bytes:
        lines = np.flatnonzero(self.count)
        return bytes([self.head_char[lines[0]]]) if len(lines) else b"#"

    def line(self, index: int) -> str:
        raw = self.chars[self.line_start[index]:self.line_end[index]].tobytes()
        text = raw.decode("utf-8", "replace").strip()
        return text if len(text) <= 80 else text[:77] + "..."

    def fail(self, index: int, message: str):
        raise ValueError(f"{self.name} line {int(index) + 1}: {message}")

    def expect(self, index: int, what: str):
        self.fail(index, f"expected {what}, got {self.line(index)!r}")

    def rows(self, data, ncols: int, real: bool | None, what: str, skip_head: bool = False):
        """Parse the lines where ``data`` is true into an ``(rows, ncols)`` array.

        Each data line must hold ``ncols`` numbers (after a one-letter line
        type when ``skip_head``). ``real=None`` picks floats only when a
        number needs it. Returns the values, the line index of each row and
        whether the values were parsed as floats.
        """
        lines = np.flatnonzero(data)
        wrong = lines[self.count[lines] != ncols + skip_head]
        if len(wrong):
            self.expect(wrong[0], what)
        # Blank everything that is not a number so one C-level pass parses the rest.
        clean = self.chars.copy()
        other = np.flatnonzero(~data & (self.count > 0))
        _blank(clean, self.head[other], self.line_end[other])
        if skip_head:
            clean[self.head[lines]] = ord(" ")
        bad = np.flatnonzero(~_is_number_text(clean, b"+-"))
        if real is None:
            real = bool(len(bad)) and bool(_is_number_text(clean[bad], b".eE").all())
        if real:
            bad = bad[~_is_number_text(clean[bad], b"+-.eE")]
        if len(bad):
            self.expect(np.searchsorted(self.line_start, bad[0], side="right") - 1, what)
        dtype = np.float64 if real else np.int64
        if not len(lines):
            return np.zeros((0, ncols), dtype=dtype), lines, real
        try:
            values = np.fromstring(clean, dtype=dtype, sep=" ")
        except ValueError:
            values = None
        if values is None or len(values) != len(lines) * ncols:
            self._locate_unparsable(lines, ncols, float if real else int, what)
        return values.reshape(-1, ncols), lines, real

    def _locate_unparsable(self, lines, ncols: int, convert, what: str):
        for index in lines:
            try:
                [convert(token) for token in self.line(index).split()[-ncols:]]
            except ValueError:
                self.expect(index, what)
        raise ValueError(f"{self.name}: numbers could not be parsed ({what} per line)")

    def vertex_ids(self, values, lines, real: bool):
        """The first two columns as int64, checking they are integers."""
        ids = values[:, :2]
        if real:
            fractional = np.flatnonzero((ids != np.floor(ids)).any(axis=1))
            if len(fractional):
                self.expect(lines[fractional[0]], "integer vertex ids")
        return ids.astype(np.int64)

    def check_range(self, ids, lines, high: int, declared_at: int):
        """Fail on the first 1-based id outside ``1..high``."""
        outside = (ids < 1) | (ids > high)
        rows = np.flatnonzero(outside.any(axis=1))
        if len(rows):
            value = int(ids[rows[0]][outside[rows[0]]][0])
            self.fail(lines[rows[0]], f"vertex {value} is out of range 1..{high} "
                                      f"declared on line {declared_at + 1}")

    def tokens_of(self, index: int, count: int, what: str) -> list[str]:
        tokens = self.line(index).split()
        if len(tokens) != count:
            self.expect(index, what)
        return tokens

    def integers(self, index: int, tokens: list[str], what: str) -> list[int]:
        try:
            return [int(token) for token in tokens]
        except ValueError:
            self.expect(index, what)


def _blank(chars, begin, end) -> None:
    """Overwrite ``chars[begin[i]:end[i]]`` with spaces for every i."""
    lengths = end - begin
    total = int(lengths.sum())
    if total:
        shift = np.repeat(begin - (np.cumsum(lengths) - lengths), lengths)
        chars[np.arange(total) + shift] = ord(" ")


def _matrix_market(text: _Text, directed):
    lines = np.flatnonzero(text.count)
    field, symmetry = None, "symmetric"
    if text.starts_with(b"%%matrixmarket"):
        banner = "%%MatrixMarket matrix coordinate <field> <symmetry>"
        words = [w.lower() for w in text.tokens_of(lines[0], 5, repr(banner))]
        if words[1:3] != ["matrix", "coordinate"]:
            text.fail(lines[0], f"only '{banner}' is supported, got {text.line(lines[0])!r}")
        field, symmetry = words[3:]
        if field not in ("pattern", "integer", "real") or symmetry not in ("general",
                                                                          "symmetric"):
            text.fail(lines[0], f"unsupported field or symmetry {field} {symmetry}: "
                                "expected pattern/integer/real and general/symmetric")
    comment = text.head_char == ord("%")
    size_candidates = lines[~comment[lines]]
    if not len(size_candidates):
        raise ValueError(f"{text.name}: no size line 'rows columns entries' found")
    size_line = size_candidates[0]
    what = "a size line 'rows columns entries' of 3 integers"
    rows, cols, declared = text.integers(size_line, text.tokens_of(size_line, 3, what), what)
    if min(rows, cols, declared) < 0:
        text.fail(size_line, f"sizes must not be negative, got {rows} {cols} {declared}")
    if rows != cols:
        text.fail(size_line, f"a graph needs a square matrix, got {rows} x {cols}")
    data = (text.count > 0) & ~comment
    data[size_line] = False
    if field is None:  # no banner: three columns mean a weight
        entries = np.flatnonzero(data)
        field = "real" if len(entries) and text.count[entries[0]] == 3 else "pattern"
    ncols = 2 if field == "pattern" else 3
    what = {"pattern": "2 integers", "integer": "3 integers",
            "real": "2 integers and a number"}[field]
    values, lines, real = text.rows(data, ncols, field == "real", what)
    ids = text.vertex_ids(values, lines, real)
    text.check_range(ids, lines, rows, size_line)
    if len(lines) != declared:
        raise ValueError(f"{text.name}: size line {size_line + 1} declares {declared} "
                         f"entries, found {len(lines)}")
    src, dst = ids[:, 0] - 1, ids[:, 1] - 1
    weights = values[:, 2] if ncols == 3 else None
    symmetric = symmetry == "symmetric"
    directed = (not symmetric) if directed is None else bool(directed)
    if symmetric and directed:
        mirror = src != dst
        src, dst = np.concatenate([src, dst[mirror]]), np.concatenate([dst, src[mirror]])
        weights = None if weights is None else np.concatenate([weights, weights[mirror]])
    return src, dst, weights, rows, directed, None


def _dimacs(text: _Text, directed):
    nonempty = text.count > 0
    head = text.head_char
    arcs = head == ord("a")
    problems = np.flatnonzero(head == ord("p"))
    other = np.flatnonzero(nonempty & ~arcs & (head != ord("c")) & (head != ord("p")))
    if len(other):
        text.expect(other[0], "a 'c', 'p' or 'a' line")
    if len(problems) != 1:
        if not len(problems):
            raise ValueError(f"{text.name}: no problem line 'p sp <nodes> <arcs>' found")
        text.fail(problems[1], "a second problem line; expected exactly one")
    what = "a problem line 'p sp <nodes> <arcs>'"
    tokens = text.tokens_of(problems[0], 4, what)
    if tokens[:2] != ["p", "sp"]:
        text.expect(problems[0], what)
    n, m = text.integers(problems[0], tokens[2:], what)
    after_a = np.minimum(text.head[arcs] + 1, len(text.chars) - 1)
    glued = np.flatnonzero(~_is_space(text.chars[after_a]) & (after_a > text.head[arcs]))
    what = "an arc line 'a <tail> <head> <weight>' with 3 integers"
    if len(glued):
        text.expect(np.flatnonzero(arcs)[glued[0]], what)
    values, lines, _ = text.rows(arcs, 3, False, what, skip_head=True)
    ids = values[:, :2]
    text.check_range(ids, lines, n, problems[0])
    if len(lines) != m:
        raise ValueError(f"{text.name}: problem line {problems[0] + 1} declares {m} arcs, "
                         f"found {len(lines)}")
    directed = True if directed is None else bool(directed)
    return ids[:, 0] - 1, ids[:, 1] - 1, values[:, 2], n, directed, None


def _edge_list(text: _Text, directed):
    data = (text.count > 0) & (text.head_char != ord("#")) & (text.head_char != ord("%"))
    lines = np.flatnonzero(data)
    ncols = int(text.count[lines[0]]) if len(lines) else 2
    if ncols not in (2, 3):
        text.expect(lines[0], "2 or 3 columns (source, target and an optional weight)")
    what = "2 integers" if ncols == 2 else "2 integers and a weight"
    values, lines, real = text.rows(data, ncols, None, what)
    ids, n, labels = _relabel(text.vertex_ids(values, lines, real))
    weights = values[:, 2] if ncols == 3 else None
    directed = True if directed is None else bool(directed)
    return ids[:, 0], ids[:, 1], weights, n, directed, labels


def _relabel(ids):
    """Map ids to ``0..n-1`` in sorted order; labels are None if ids already are that."""
    if not ids.size:
        return ids, 0, None
    low, high = int(ids.min()), int(ids.max())
    if low >= 0 and high < 2 * ids.size + 1024:  # dense ids: a presence table beats sorting
        present = np.zeros(high + 1, dtype=bool)
        present[ids] = True
        if present.all():
            return ids, high + 1, None
        labels = np.flatnonzero(present)
        return (np.cumsum(present) - 1)[ids], len(labels), labels.tolist()
    labels, inverse = np.unique(ids, return_inverse=True)
    return inverse.reshape(ids.shape), len(labels), labels.tolist()


def _build(src, dst, weights, n, directed, labels, device, reporter) -> Graph:
    reporter.phase("building CSR", total=len(src), unit="edges")
    dtype = index_dtype(n)
    G = Graph.from_edges(np.asarray(src, dtype=dtype), np.asarray(dst, dtype=dtype), weights,
                         n, directed, device=device)
    G.node_labels = labels
    return G


def _read_bytes(path: Path, reporter: Progress) -> bytearray:
    reporter.phase("reading", total=path.stat().st_size, unit="bytes")
    data = bytearray()
    with open(path, "rb") as raw:
        compressed = raw.read(2) == b"\x1f\x8b"
        raw.seek(0)
        stream = gzip.GzipFile(fileobj=raw) if compressed else raw
        try:
            while chunk := stream.read(_CHUNK_BYTES):
                data += chunk
                reporter.update(raw.tell())
        except (OSError, EOFError) as err:
            raise ValueError(f"{path.name}: corrupt gzip data ({err})") from err
    return data


# binary format -----------------------------------------------------------------------


def _read_npz(path: Path, device) -> Graph:
    try:
        archive = np.load(path, allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile) as err:
        raise ValueError(f"{path.name}: not a Frontier .npz graph ({err})") from err
    with archive:
        missing = {"format_version", "offsets", "columns", "directed",
                   "num_edges"} - set(archive.files)
        if missing:
            raise ValueError(f"{path.name}: not a Frontier .npz graph, missing "
                             f"{sorted(missing)}")
        version = int(archive["format_version"])
        if version != FORMAT_VERSION:
            raise ValueError(f"{path.name}: .npz format version {version} is not supported "
                             f"(this Frontier reads version {FORMAT_VERSION})")
        offsets, columns = archive["offsets"], archive["columns"]
        weights = archive["weights"] if "weights" in archive.files else None
        labels = archive["node_labels"].tolist() if "node_labels" in archive.files else None
        directed, num_edges = bool(archive["directed"]), int(archive["num_edges"])
    _check_csr(path.name, offsets, columns, weights, labels)
    dev = get_device(device)
    return Graph(dev.asarray(offsets), dev.asarray(columns),
                 None if weights is None else dev.asarray(weights), directed, dev,
                 num_edges, labels)


def _check_csr(name: str, offsets, columns, weights, labels) -> None:
    n = len(offsets) - 1
    if offsets.ndim != 1 or n < 0 or offsets.dtype.kind not in "iu" or offsets[0] != 0:
        raise ValueError(f"{name}: offsets must be a 1-D integer array starting at 0")
    if (np.diff(offsets) < 0).any() or offsets[-1] != len(columns):
        raise ValueError(f"{name}: offsets must be non-decreasing and end at the "
                         f"{len(columns)} columns, they end at {offsets[-1]}")
    if len(columns) and (columns.dtype.kind not in "iu" or columns.min() < 0
                         or columns.max() >= n):
        raise ValueError(f"{name}: column ids must be integers in 0..{n - 1}")
    if weights is not None and weights.shape != columns.shape:
        raise ValueError(f"{name}: {len(weights)} weights for {len(columns)} columns")
    if labels is not None and len(labels) != n:
        raise ValueError(f"{name}: {len(labels)} node labels for {n} vertices")
