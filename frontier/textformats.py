"""Parsers of the text graph formats, vectorized over the raw bytes.

:class:`Text` indexes the lines of a file's bytes once (line starts and ends,
first non-blank byte, number of fields) with NumPy passes; the readers
:func:`matrix_market`, :func:`dimacs` and :func:`edge_list` check the lines
they expect and convert all numbers in one ``np.fromstring``-style call. Each
returns ``(src, dst, weights, num_vertices, directed, labels)`` for
:func:`frontier.io.read_graph`; errors name the file, the line and what was
expected.
"""

from __future__ import annotations

import numpy as np

from .graph import _symmetrize
from .progress import Progress
from .ranges import concatenated_ranges
from .relabel import relabel as _relabel


def _is_space(chars):
    """Whitespace bytes (space, \\t \\n \\v \\f \\r); comparisons beat a lookup table."""
    return (chars == ord(" ")) | ((chars >= ord("\t")) & (chars <= ord("\r")))


def _is_number_text(chars, extra: bytes):
    """Whitespace, digits and the bytes of ``extra``."""
    allowed = _is_space(chars) | ((chars >= ord("0")) & (chars <= ord("9")))
    for byte in extra:
        allowed |= chars == byte
    return allowed


def number_dtype(clean, real: bool | None):
    """int64 or float64 for the numbers in ``clean`` (space-separated
    characters), and the position of the first character that fits neither
    (None if all fit). ``real=None`` decides: float64 when some number has
    a point or an exponent."""
    bad = np.flatnonzero(~_is_number_text(clean, b"+-"))
    if real is None:
        real = bool(len(bad)) and bool(_is_number_text(clean[bad], b".eE").all())
    if real:
        bad = bad[~_is_number_text(clean[bad], b"+-.eE")]
    return (np.float64 if real else np.int64), (int(bad[0]) if len(bad) else None)


class Text:
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

    def raw_line(self, index: int) -> str:
        """Line ``index`` (0-based) in full, without its line break."""
        raw = self.chars[self.line_start[index]:self.line_end[index]].tobytes()
        return raw.decode("utf-8", "replace")

    def line(self, index: int) -> str:
        """Line ``index`` stripped and shortened for an error message."""
        text = self.raw_line(index).strip()
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
        # A trailing space ends the last number: NumPy's number parsing does
        # not stop at the buffer's end and would read whatever memory follows.
        clean = np.append(self.chars, np.uint8(ord(" ")))
        other = np.flatnonzero(~data & (self.count > 0))
        _blank(clean, self.head[other], self.line_end[other])
        if skip_head:
            clean[self.head[lines]] = ord(" ")
        dtype, bad = number_dtype(clean, real)
        real = dtype == np.float64
        if bad is not None:
            self.expect(np.searchsorted(self.line_start, bad, side="right") - 1, what)
        if not len(lines):
            return np.zeros((0, ncols), dtype=dtype), lines, real
        try:
            values = np.fromstring(clean, dtype=dtype, sep=" ")
        except ValueError:
            values = None
        if values is None or len(values) != len(lines) * ncols:
            self._locate_unparsable(lines, ncols, float if real else int, what)
        values = values.reshape(-1, ncols)
        if not real:
            check_int64(self, values, lines,
                        lambda row: self.raw_line(lines[row]).split()[-ncols:], what)
        return values, lines, real

    def _locate_unparsable(self, lines, ncols: int, convert, what: str):
        for index in lines:
            try:
                [convert(token) for token in self.raw_line(index).split()[-ncols:]]
            except ValueError:
                self.expect(index, what)
        raise ValueError(f"{self.name}: numbers could not be parsed ({what} per line)")

    def vertex_ids(self, values, lines, real: bool):
        """The first two columns as int64, checking they are integers (read
        exactly: below 2**53 in magnitude when parsed as floats)."""
        ids = values[:, :2]
        if real:
            rows = np.flatnonzero((ids != np.floor(ids)).any(axis=1))
            if len(rows):
                self.expect(lines[rows[0]], "integer vertex ids")
            rows = np.flatnonzero((~(np.abs(ids) < 2.0**53)).any(axis=1))
            if len(rows):
                self.fail(lines[rows[0]], "a vertex id beyond 2**53 cannot be read exactly "
                                          "from a file with real numbers")
        return ids.astype(np.int64)

    def finite(self, weights, lines):
        """Fail on the first weight that is NaN or infinite (``1e999`` parses as inf)."""
        if weights is not None and weights.dtype.kind == "f":
            bad = np.flatnonzero(~np.isfinite(weights))
            if len(bad):
                self.fail(lines[bad[0]], f"weight {weights[bad[0]]} is not finite")
        return weights

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


def check_int64(text: Text, values, lines, tokens_of, what: str) -> None:
    """Fail on a number outside the int64 range, which ``np.fromstring``
    silently clamps to the nearest limit: rows holding a limit are re-read
    exactly with ``tokens_of(row)``."""
    low, high = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    for row in np.flatnonzero(((values == low) | (values == high)).any(axis=1)).tolist():
        for token in tokens_of(row):
            try:
                number = int(token)
            except ValueError:
                text.expect(lines[row], what)
            if not low <= number <= high:
                text.fail(lines[row], f"number {token} is outside the 64-bit integer range")


def _blank(chars, begin, end) -> None:
    """Overwrite ``chars[begin[i]:end[i]]`` with spaces for every i."""
    chars[concatenated_ranges(begin, end - begin)] = ord(" ")


def matrix_market(text: Text, directed):
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
    weights = text.finite(values[:, 2], lines) if ncols == 3 else None
    symmetric = symmetry == "symmetric"
    directed = (not symmetric) if directed is None else bool(directed)
    if symmetric and directed:
        src, dst, weights = _symmetrize(np, src, dst, weights)
    return src, dst, weights, rows, directed, None


def dimacs(text: Text, directed):
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
    if min(n, m) < 0:
        text.fail(problems[0], f"sizes must not be negative, got {n} {m}")
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


def edge_list(text: Text, directed):
    data = (text.count > 0) & (text.head_char != ord("#")) & (text.head_char != ord("%"))
    lines = np.flatnonzero(data)
    ncols = int(text.count[lines[0]]) if len(lines) else 2
    if ncols not in (2, 3):
        text.expect(lines[0], "2 or 3 columns (source, target and an optional weight)")
    what = "2 integers" if ncols == 2 else "2 integers and a weight"
    values, lines, real = text.rows(data, ncols, None, what)
    ids, n, labels = _relabel(text.vertex_ids(values, lines, real))
    weights = text.finite(values[:, 2], lines) if ncols == 3 else None
    directed = True if directed is None else bool(directed)
    return ids[:, 0], ids[:, 1], weights, n, directed, labels
