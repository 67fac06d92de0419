"""Frontier's memory-mapped binary graph format, ``.fgb``.

A file is a fixed 24-byte prefix, a JSON header, and the raw CSR arrays,
each starting on a 64-byte boundary so that it can be memory-mapped in place::

    bytes 0-7     magic  b"\\x89FGB\\r\\n\\x1a\\n"
    bytes 8-15    header length H, uint64 little-endian
    bytes 16-19   CRC-32 of the header bytes, uint32 little-endian
    bytes 20-23   zero
    bytes 24-...  header: H bytes of UTF-8 JSON
    data section  from the first multiple of 64 at or after 24 + H

The header (see ``docs/io-and-generators.md`` for an example)::

    {"format": "frontier-graph", "version": 1, "num_vertices": n,
     "num_edges": m, "directed": true,
     "arrays": {"offsets": {"dtype": "<i8", "offset": 0, "count": n + 1,
                            "crc32": ...},
                "columns": {...}, "weights": {...}, "node_labels": {...}},
     "node_labels": [...]}

``offset`` is counted from the start of the data section. ``weights`` is
absent for an unweighted graph; integer node labels are an int64 array
``node_labels``, other JSON-serialisable labels the header's
``node_labels`` list. Every array and the header carry a CRC-32, so a
truncated or damaged file is refused rather than read as another graph.

Reading maps the arrays with ``numpy.memmap`` (read-only): nothing is
parsed, copied or sorted, and pages come from the operating system's file
cache. The checksums and the CSR checks read every page once.
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path
from typing import IO

import numpy as np

from .device import get_device, to_numpy
from .graph import Graph

MAGIC = b"\x89FGB\r\n\x1a\n"
FORMAT_NAME = "frontier-graph"
VERSION = 1
_PREFIX = struct.Struct("<8sQII")
_ALIGN = 64
# Allowed dtypes of each array, as NumPy dtype strings.
_DTYPES = {"offsets": {"<i8"}, "columns": {"<i4", "<i8"}, "node_labels": {"<i8"},
           "weights": {"|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f4", "<f8"}}


def _aligned(position: int) -> int:
    return -(-position // _ALIGN) * _ALIGN


def _little_endian(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    return array.astype(array.dtype.newbyteorder("<"), copy=False)


def _label_payload(labels) -> tuple[np.ndarray | None, list | None]:
    """Integer labels as an int64 array, or other labels as a JSON list."""
    if labels is None:
        return None, None
    labels = list(labels)
    try:
        array = np.asarray(labels)
    except (ValueError, OverflowError):
        array = None
    if array is not None and array.dtype.kind in "iu" and array.tolist() == labels:
        try:
            return array.astype(np.int64, casting="safe"), None
        except TypeError:
            pass  # uint64 beyond int64: JSON keeps big integers
    try:
        restored = json.loads(json.dumps(labels, allow_nan=False))
    except (TypeError, ValueError):
        restored = None
    if restored != labels or any(type(a) is not type(b) for a, b in zip(restored, labels)):
        raise ValueError("node labels cannot be stored in .fgb: they must be integers or "
                         f"JSON values (numbers, strings), got {labels[:5]!r}...")
    return None, labels


def write_binary(G: Graph, file: IO[bytes]) -> None:
    """Write ``G`` to the open binary ``file`` in the ``.fgb`` layout.

    Raises ValueError if the node labels are neither integers nor JSON values.
    """
    label_array, label_list = _label_payload(G.node_labels)
    arrays = {"offsets": to_numpy(G.offsets).astype(np.int64, copy=False),
              "columns": to_numpy(G.columns)}
    if G.weights is not None:
        arrays["weights"] = to_numpy(G.weights)
    if label_array is not None:
        arrays["node_labels"] = label_array
    entries, position = {}, 0
    for name, array in arrays.items():
        array = arrays[name] = _little_endian(array)
        if array.dtype.str not in _DTYPES[name]:
            raise ValueError(f".fgb cannot store {name} of dtype {array.dtype}: expected one "
                             f"of {sorted(_DTYPES[name])}")
        entries[name] = {"dtype": array.dtype.str, "offset": position, "count": len(array),
                         "crc32": zlib.crc32(array)}
        position = _aligned(position + array.nbytes)
    header = {"format": FORMAT_NAME, "version": VERSION, "num_vertices": G.num_vertices,
              "num_edges": int(G.num_edges), "directed": bool(G.directed), "arrays": entries}
    if label_list is not None:
        header["node_labels"] = label_list
    text = json.dumps(header, separators=(",", ":")).encode()
    file.write(_PREFIX.pack(MAGIC, len(text), zlib.crc32(text), 0))
    file.write(text)
    start = _aligned(_PREFIX.size + len(text))
    file.write(bytes(start - _PREFIX.size - len(text)))
    written = 0
    for name, array in arrays.items():
        file.write(bytes(entries[name]["offset"] - written))
        file.write(memoryview(array).cast("B"))
        written = entries[name]["offset"] + array.nbytes


def is_binary(path: Path) -> bool:
    """Whether the file starts with the ``.fgb`` magic."""
    with open(path, "rb") as file:
        return file.read(len(MAGIC)) == MAGIC


class _Reader:
    """Checks one ``.fgb`` file; every failure is a ValueError naming it."""

    def __init__(self, path: Path):
        self.path = path
        self.name = path.name
        self.size = path.stat().st_size

    def fail(self, message: str):
        raise ValueError(f"{self.name}: {message}")

    def header(self) -> tuple[dict, int]:
        with open(self.path, "rb") as file:
            prefix = file.read(_PREFIX.size)
            if len(prefix) < _PREFIX.size or prefix[:len(MAGIC)] != MAGIC:
                self.fail("not a Frontier binary graph (.fgb): bad magic bytes")
            _, length, checksum, reserved = _PREFIX.unpack(prefix)
            if reserved:
                self.fail("bytes 20-23 must be zero: not a version 1 .fgb file")
            if length > self.size - _PREFIX.size:
                self.fail(f"header of {length} bytes runs past the end of the "
                          f"{self.size}-byte file (truncated?)")
            text = file.read(length)
        if zlib.crc32(text) != checksum:
            self.fail("header checksum mismatch: the file is damaged")
        try:
            header = json.loads(text)
        except (UnicodeDecodeError, ValueError) as err:
            self.fail(f"header is not valid JSON ({err})")
        if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
            self.fail(f"header does not describe a {FORMAT_NAME!r}")
        if header.get("version") != VERSION:
            self.fail(f".fgb format version {header.get('version')!r} is not supported "
                      f"(this Frontier reads version {VERSION})")
        return header, _aligned(_PREFIX.size + length)

    def integer(self, header: dict, key: str, where: str = "header") -> int:
        value = header.get(key)
        if type(value) is not int or value < 0:
            self.fail(f"{where} field {key!r} must be an integer >= 0, got {value!r}")
        return value

    def array(self, entries: dict, name: str, count: int, data_start: int):
        entry = entries.get(name)
        if not isinstance(entry, dict):
            self.fail(f"header lacks the array {name!r}")
        where = f"array {name!r}"
        dtype, offset = entry.get("dtype"), self.integer(entry, "offset", where)
        if dtype not in _DTYPES[name]:
            self.fail(f"{where} has dtype {dtype!r}, expected one of {sorted(_DTYPES[name])}")
        if self.integer(entry, "count", where) != count:
            self.fail(f"{where} holds {entry['count']} values, expected {count}")
        dtype = np.dtype(dtype)
        start, end = data_start + offset, data_start + offset + count * dtype.itemsize
        if end > self.size:
            self.fail(f"{where} (bytes {start}..{end}) runs past the end of the "
                      f"{self.size}-byte file (truncated?)")
        if count == 0:
            array = np.zeros(0, dtype=dtype)
        else:
            array = np.memmap(self.path, dtype=dtype, mode="r", offset=start, shape=(count,))
        if zlib.crc32(array) != entry.get("crc32"):
            self.fail(f"{where} checksum mismatch: the file is damaged")
        return np.asarray(array)


def read_binary(path: Path, device=None) -> Graph:
    """Map a ``.fgb`` file as a :class:`Graph` (CPU arrays are read-only memory maps).

    Raises ValueError naming the file when anything in it is inconsistent.
    """
    reader = _Reader(path)
    header, data_start = reader.header()
    n = reader.integer(header, "num_vertices")
    num_edges = reader.integer(header, "num_edges")
    directed = header.get("directed")
    if not isinstance(directed, bool):
        reader.fail(f"header field 'directed' must be true or false, got {directed!r}")
    entries = header.get("arrays")
    if not isinstance(entries, dict):
        reader.fail("header lacks its 'arrays' table")
    offsets = reader.array(entries, "offsets", n + 1, data_start)
    num_arcs = int(offsets[-1])
    columns = reader.array(entries, "columns", max(num_arcs, 0), data_start)
    weights = None
    if "weights" in entries:
        weights = reader.array(entries, "weights", len(columns), data_start)
    labels = header.get("node_labels")
    if "node_labels" in entries:
        labels = reader.array(entries, "node_labels", n, data_start).tolist()
    elif labels is not None and (not isinstance(labels, list) or len(labels) != n):
        reader.fail(f"header 'node_labels' must be a list of {n} labels")
    check_csr(reader.name, offsets, columns, weights, labels)
    low = num_arcs if directed else -(-num_arcs // 2)
    if not low <= num_edges <= num_arcs:
        reader.fail(f"num_edges {num_edges} does not fit {num_arcs} arcs of a "
                    f"{'directed' if directed else 'undirected'} graph")
    dev = get_device(device)
    return Graph(dev.asarray(offsets), dev.asarray(columns),
                 None if weights is None else dev.asarray(weights), directed, dev,
                 num_edges, labels)


def check_csr(name: str, offsets, columns, weights, labels) -> None:
    """ValueError naming file ``name`` unless the host arrays form a valid CSR."""
    if offsets.ndim != 1 or len(offsets) < 1 or offsets.dtype.kind not in "iu" \
            or offsets[0] != 0:
        raise ValueError(f"{name}: offsets must be a 1-D integer array starting at 0")
    n = len(offsets) - 1
    if columns.ndim != 1:
        raise ValueError(f"{name}: columns must be 1-D, got shape {columns.shape}")
    if (np.diff(offsets) < 0).any() or offsets[-1] != len(columns):
        raise ValueError(f"{name}: offsets must be non-decreasing and end at the "
                         f"{len(columns)} columns, they end at {offsets[-1]}")
    if columns.dtype.kind not in "iu" or (
            len(columns) and (columns.min() < 0 or columns.max() >= n)):
        raise ValueError(f"{name}: column ids must be integers in 0..{n - 1}")
    if weights is not None:
        if weights.shape != columns.shape:
            raise ValueError(f"{name}: {weights.size} weights for {len(columns)} columns")
        if weights.dtype.kind not in "iuf":
            raise ValueError(f"{name}: weights must be numbers, got dtype {weights.dtype}")
        if weights.dtype.kind == "f" and not np.isfinite(weights).all():
            raise ValueError(f"{name}: weights must be finite, found NaN or infinity")
    if labels is not None and len(labels) != n:
        raise ValueError(f"{name}: {len(labels)} node labels for {n} vertices")
