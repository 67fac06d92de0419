"""The CSV edge-list reader, vectorized over the raw bytes like the other text formats.

One edge per line, fields separated by one delimiter byte (``,`` by
default); any number of columns, of which two (source and target) and
optionally a third (weight) are read, chosen by index or, with a header
line, by name. Fields may be padded with spaces and wrapped in double
quotes, but a quoted field cannot contain the delimiter, a quote or a line
break. ``#`` lines and blank lines are skipped; LF or CRLF.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .textformats import Text, _is_space, _relabel, check_int64, number_dtype

_QUOTE = ord('"')


def check_options(columns, header, delimiter) -> tuple[tuple | None, bool | None, str]:
    """The CSV options, checked: ``(columns, header, delimiter)``."""
    delimiter = "," if delimiter is None else delimiter
    if not isinstance(delimiter, str) or len(delimiter) != 1 or not delimiter.isascii() \
            or delimiter in '"#\r\n0123456789+-.eE':
        raise ValueError(f"delimiter={delimiter!r}: expected one ASCII character other than "
                         "a digit, sign, '.', 'e', '\"', '#' or a line break")
    if header not in (None, True, False):
        raise ValueError(f"header={header!r}: expected None (detect), True or False")
    if columns is not None:
        if isinstance(columns, (str, bytes)) or not isinstance(columns, Sequence) \
                or len(columns) not in (2, 3):
            raise ValueError(f"columns={columns!r}: expected (source, target) or "
                             "(source, target, weight), each a column name or index")
        for column in columns:
            if isinstance(column, bool) or not isinstance(column, (str, int, np.integer)) \
                    or (not isinstance(column, str) and column < 0):
                raise ValueError(f"columns={columns!r}: {column!r} is neither a column name "
                                 "nor an index >= 0")
        if len(set(columns)) != len(columns):
            raise ValueError(f"columns={columns!r} names a column twice")
        columns = tuple(columns)
    return columns, header, delimiter


def _fields(line: str, delimiter: str) -> list[str]:
    return [field.strip().strip('"').strip() for field in line.split(delimiter)]


def _is_number(field: str) -> bool:
    try:
        float(field)
    except ValueError:
        return False
    return True


def _looks_like_header(first: list[str], second: list[str] | None) -> bool:
    """A first line is a header when a column holds text there and a number in
    the next line (a column of text throughout, like a label, does not count)."""
    if second is None or len(second) != len(first):
        return not all(_is_number(field) for field in first)
    return any(not _is_number(a) and _is_number(b) for a, b in zip(first, second))


def _resolve(text: Text, columns, names: list[str] | None, ncols: int, at: int) -> list[int]:
    """Column indices of source, target and (if any) weight."""
    if columns is None:
        return [0, 1, 2] if ncols == 3 else [0, 1]
    indices = []
    for column in columns:
        if isinstance(column, str):
            if names is None:
                raise ValueError(f"{text.name}: column {column!r} is named but the file has "
                                 "no header line (pass header=True, or column indices)")
            if column not in names:
                text.fail(at, f"no column {column!r} in the header; it has {names}")
            indices.append(names.index(column))
        else:
            if int(column) >= ncols:
                text.fail(at, f"column index {int(column)} is out of range: the file has "
                              f"{ncols} columns (indices 0..{ncols - 1})")
            indices.append(int(column))
    if len(set(indices)) != len(indices):
        raise ValueError(f"{text.name}: columns={columns!r} names a column twice")
    return indices


def _inside(size: int, begin, end):
    """A mask of ``size`` bytes, true in the disjoint ranges ``begin[i]:end[i]``."""
    full = begin < end
    edges = np.zeros(size + 1, dtype=np.int8)
    # Field ranges never touch (a delimiter or line break lies between), so
    # the starts and ends are distinct positions.
    edges[begin[full]] = 1
    edges[end[full]] = -1
    return np.cumsum(edges[:-1], dtype=np.int8).view(bool)


class _Fields:
    """The field boundaries of the data lines (``rows x ncols``)."""

    def __init__(self, text: Text, lines, ncols: int, delimiter: str):
        self.text, self.lines = text, lines
        chars = text.chars
        delimiters = np.flatnonzero(chars == ord(delimiter))
        line_of = np.searchsorted(text.line_start, delimiters, side="right") - 1
        is_data = np.zeros(len(text.count), dtype=bool)
        is_data[lines] = True
        on_data = is_data[line_of]
        found = np.bincount(line_of[on_data], minlength=len(text.count))[lines] + 1
        wrong = np.flatnonzero(found != ncols)
        if len(wrong):
            text.expect(lines[wrong[0]], f"{ncols} fields separated by {delimiter!r} "
                                         f"(found {found[wrong[0]]})")
        inner = delimiters[on_data].reshape(len(lines), ncols - 1)
        self.begin = np.column_stack([text.line_start[lines], inner + 1])
        self.end = np.column_stack([inner, text.line_end[lines]])

    def parse(self, indices: list[int], what: str, real: bool | None):
        """The fields of columns ``indices`` as an array ``(rows, len(indices))``:
        int64, or float64 when ``real`` (``None``: when a value needs it)."""
        text, lines = self.text, self.lines
        order = np.argsort(indices, kind="stable")  # file order within a line
        columns = np.asarray(indices)[order]
        begin, end = self.begin[:, columns].ravel(), self.end[:, columns].ravel()
        # One more space than the file: NumPy's number parsing reads past the
        # end of a buffer that ends in a digit.
        clean = np.full(len(text.chars) + 1, ord(" "), dtype=np.uint8)
        inside = _inside(len(text.chars), begin, end)
        inside &= text.chars != _QUOTE
        np.copyto(clean[:-1], text.chars, where=inside)
        self._one_token_per_field(clean, begin, end, len(columns), what)
        dtype, bad = number_dtype(clean, real)
        real = dtype == np.float64
        if bad is not None:
            self._fail_at(bad, what)
        shape = (len(lines), len(columns))
        try:
            values = np.fromstring(clean, dtype=dtype, sep=" ") if len(lines) else \
                np.zeros(0, dtype=dtype)
        except ValueError:  # text NumPy cannot parse; find its line below
            values = None
        if values is None or len(values) != shape[0] * shape[1]:
            self._locate_unparsable(columns, float if real else int, what)
        values = values.reshape(shape)
        if not real:
            check_int64(text, values, lines, lambda row: self._tokens(row, columns), what)
        result = np.empty_like(values)
        result[:, order] = values
        return result, real

    def _tokens(self, row: int, columns) -> list[str]:
        chars = self.text.chars
        return [chars[self.begin[row, c]:self.end[row, c]].tobytes().decode(
                    "utf-8", "replace").strip().strip('"').strip() for c in columns]

    def _fail_at(self, position: int, what: str):
        text = self.text
        text.expect(np.searchsorted(text.line_start, position, side="right") - 1, what)

    def _one_token_per_field(self, clean, begin, end, per_row: int, what: str):
        space = _is_space(clean)
        starts = ~space
        starts[1:] &= space[:-1]
        starts = np.flatnonzero(starts)
        field = np.searchsorted(begin, starts, side="right") - 1
        tokens = np.bincount(field[field >= 0], minlength=len(begin))
        wrong = np.flatnonzero(tokens != 1)
        if len(wrong):
            self.text.expect(self.lines[wrong[0] // per_row], what)

    def _locate_unparsable(self, columns, convert, what: str):
        for row, line in enumerate(self.lines):
            try:
                [convert(token) for token in self._tokens(row, columns)]
            except ValueError:
                self.text.expect(line, what)
        raise ValueError(f"{self.text.name}: numbers could not be parsed ({what})")


def read_csv(text: Text, directed, columns=None, header=None, delimiter=None):
    """Parse a CSV edge list; returns ``(src, dst, weights, n, directed, labels)``
    like the readers of :mod:`frontier.textformats`."""
    columns, header, delimiter = check_options(columns, header, delimiter)
    content = np.flatnonzero((text.count > 0) & (text.head_char != ord("#")))
    names = None
    if len(content):
        first = _fields(text.raw_line(content[0]), delimiter)
        if header is None:
            header = _looks_like_header(first, _fields(text.raw_line(content[1]), delimiter)
                                        if len(content) > 1 else None)
        if header:
            names = first
    at = content[0] if len(content) else 0
    lines = content[1:] if header else content
    if names is not None:
        ncols = len(names)
    elif len(lines):
        ncols = len(_fields(text.raw_line(lines[0]), delimiter))
    else:  # nothing to read: any column index is as good as another
        ncols = max([2] + [c + 1 for c in columns or () if not isinstance(c, str)])
    if ncols < 2:
        text.fail(at, f"expected at least 2 fields separated by {delimiter!r}, got "
                      f"{text.line(at)!r}")
    indices = _resolve(text, columns, names, ncols, at)
    label = [repr(names[i]) if names else f"column {i}" for i in indices]
    fields = _Fields(text, lines, ncols, delimiter)
    ids, _ = fields.parse(indices[:2], f"integer vertex ids in {label[0]} and {label[1]}",
                          real=False)
    weights = None
    if len(indices) == 3:
        what = f"a number in the weight column {label[2]}"
        values, real = fields.parse(indices[2:], what, real=None)
        weights = values[:, 0]
        if real:
            bad = np.flatnonzero(~np.isfinite(weights))
            if len(bad):
                text.fail(lines[bad[0]], f"weight {weights[bad[0]]} is not finite")
    ids, n, labels = _relabel(ids)
    directed = True if directed is None else bool(directed)
    return ids[:, 0], ids[:, 1], weights, n, directed, labels
