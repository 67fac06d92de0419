"""Writers of the text graph formats: Matrix Market, edge lists, DIMACS ``.gr``, CSV.

Integer columns are formatted without a per-line Python loop (digits are
written into a byte buffer, one vectorized pass per decimal digit), a chunk
of lines at a time, so writing costs about as much as reading. Floating-point
weights are written with Python's shortest round-trip ``repr``, so a
reader gets back exactly the same float64 values.

Each writer takes the graph, the open binary file and the file's name (for
error messages); :func:`frontier.io.write_graph` picks the writer and makes
the write atomic.
"""

from __future__ import annotations

from typing import IO

import numpy as np

from .graph import Graph

_CHUNK_LINES = 1 << 21


def _digit_counts(magnitude):
    """Decimal digits of each uint64 value (1 for 0)."""
    count = np.ones(len(magnitude), dtype=np.int64)
    for power in range(1, 20):
        count += magnitude >= np.uint64(10**power)
    return count


def _int_lines(columns: list, prefix: bytes, separator: bytes) -> bytes:
    """``prefix`` + the integer columns joined by ``separator``, one line per row."""
    rows = len(columns[0])
    parts = []
    for column in columns:
        values = np.asarray(column, dtype=np.int64)
        negative = values < 0
        # |x| as uint64, exact even for the smallest int64
        magnitude = np.where(negative, (-(values + 1)).astype(np.uint64) + np.uint64(1),
                             values.astype(np.uint64))
        parts.append((negative, magnitude, _digit_counts(magnitude) + negative))
    widths = len(prefix) + sum(width for *_, width in parts) \
        + len(separator) * (len(columns) - 1) + 1
    ends = np.cumsum(widths)
    position = ends - widths
    buffer = np.empty(int(ends[-1]) if rows else 0, dtype=np.uint8)
    buffer[ends - 1] = ord("\n")
    for k, byte in enumerate(prefix):
        buffer[position + k] = byte
    position = position + len(prefix)
    for index, (negative, magnitude, width) in enumerate(parts):
        if index:
            for k, byte in enumerate(separator):
                buffer[position + k] = byte
            position = position + len(separator)
        buffer[position[negative]] = ord("-")
        last = position + width - 1
        remaining = magnitude.copy()
        digits = width - negative
        for place in range(int(digits.max()) if rows else 0):
            active = digits > place
            buffer[(last - place)[active]] = (remaining[active] % np.uint64(10)).astype(
                np.uint8) + ord("0")
            remaining //= np.uint64(10)
        position = position + width
    return buffer.tobytes()


def _lines(columns: list, prefix: bytes = b"", separator: bytes = b" ") -> bytes:
    """One chunk of lines; floats go through ``repr``."""
    if all(np.asarray(c).dtype.kind in "iu" for c in columns):
        return _int_lines(columns, prefix, separator)
    head, sep = prefix.decode(), separator.decode()
    rows = zip(*[np.asarray(c).tolist() for c in columns])
    return "".join(f"{head}{sep.join(map(repr, row))}\n" for row in rows).encode()


def _write_rows(file: IO[bytes], columns: list, prefix: bytes = b"",
                separator: bytes = b" ") -> None:
    total = len(columns[0])
    for start in range(0, total, _CHUNK_LINES):
        file.write(_lines([c[start:start + _CHUNK_LINES] for c in columns], prefix,
                          separator))


def _arcs(G: Graph, once: bool):
    """Host ``(src, dst, weights)``; ``once`` keeps one arc per undirected edge."""
    src, dst, weights = G.edges()
    if once and not G.directed:
        keep = src >= dst
        src, dst = src[keep], dst[keep]
        weights = None if weights is None else weights[keep]
    return src, dst, weights


def write_matrix_market(G: Graph, file: IO[bytes], name: str) -> None:
    """``coordinate`` ``general`` (directed) or ``symmetric`` (undirected, lower
    triangle), field ``pattern``, ``integer`` or ``real``; node labels are not kept."""
    src, dst, weights = _arcs(G, once=True)
    field = "pattern" if weights is None else ("real" if weights.dtype.kind == "f"
                                               else "integer")
    symmetry = "general" if G.directed else "symmetric"
    n = G.num_vertices
    file.write(f"%%MatrixMarket matrix coordinate {field} {symmetry}\n"
               f"% written by Frontier\n{n} {n} {len(src)}\n".encode())
    columns = [src + 1, dst + 1] + ([] if weights is None else [weights])
    _write_rows(file, columns)


def write_dimacs(G: Graph, file: IO[bytes], name: str) -> None:
    """``p sp n m`` and one ``a u v w`` line per stored arc (an undirected edge
    gives two arcs); an unweighted graph gets weight 1 on every arc."""
    src, dst, weights = _arcs(G, once=False)
    if weights is None:
        weights = np.ones(len(src), dtype=np.int64)
    elif weights.dtype.kind == "f":
        raise ValueError(f"{name}: DIMACS .gr weights are integers, this graph has "
                         f"{weights.dtype} weights; write .mtx, .csv, .fgb or .npz instead")
    file.write(f"c written by Frontier\np sp {G.num_vertices} {len(src)}\n".encode())
    _write_rows(file, [src + 1, dst + 1, weights], prefix=b"a ")


def _edge_list_ids(G: Graph, name: str, src, dst):
    """Ids as an edge list stores them: the original labels, which must be
    integers, and every vertex must be on an edge (a reader cannot know the rest)."""
    n = G.num_vertices
    touched = np.zeros(n, dtype=bool)
    touched[src] = True
    touched[dst] = True
    if not touched.all():
        lonely = np.flatnonzero(~touched)
        raise ValueError(f"{name}: an edge list cannot hold the {len(lonely)} isolated "
                         f"vertices of this graph (vertex {int(lonely[0])} is one); write "
                         ".mtx, .gr, .fgb or .npz instead")
    if G.node_labels is None:
        return src, dst
    labels = np.asarray(G.node_labels)
    if labels.dtype.kind not in "iu" or labels.tolist() != list(G.node_labels):
        raise ValueError(f"{name}: an edge list stores integer ids, but the node labels "
                         f"are not all integers ({list(G.node_labels)[:3]!r}...); write .fgb "
                         "or .npz instead")
    return labels[src], labels[dst]


def write_edge_list(G: Graph, file: IO[bytes], name: str, separator: bytes = b" ") -> None:
    """``source target [weight]`` lines after a ``#`` comment; an undirected
    graph stores each edge once (read it back with ``directed=False``)."""
    src, dst, weights = _arcs(G, once=True)
    src, dst = _edge_list_ids(G, name, src, dst)
    kind = "directed" if G.directed else "undirected (each edge once)"
    file.write(f"# written by Frontier: {kind}, {G.num_vertices} vertices, "
               f"{len(src)} edges\n".encode())
    _write_rows(file, [src, dst] + ([] if weights is None else [weights]),
                separator=separator)


def write_csv(G: Graph, file: IO[bytes], name: str) -> None:
    """A ``source,target[,weight]`` header and one edge per line, as edge lists."""
    src, dst, weights = _arcs(G, once=True)
    src, dst = _edge_list_ids(G, name, src, dst)
    file.write(b"source,target" + (b"" if weights is None else b",weight") + b"\n")
    _write_rows(file, [src, dst] + ([] if weights is None else [weights]), separator=b",")
