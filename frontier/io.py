"""Reading and writing graph files.

Text formats are parsed with vectorized NumPy passes over the raw bytes (no
per-line Python loop), so a 100 MB file loads in seconds:

* Matrix Market ``.mtx`` (coordinate; pattern, integer or real; general or
  symmetric). A file without the ``%%MatrixMarket`` banner is read as
  symmetric, starting with the size line.
* Edge lists (SNAP and plain: ``.txt``, ``.el``, ``.edges``, ``.tsv``): two or
  three whitespace-separated columns, ``#``/``%`` comment lines, LF or CRLF.
* CSV ``.csv``: a header line or not, columns chosen by name or index, any
  one-byte delimiter (:mod:`frontier.csvformat`).
* DIMACS shortest-path ``.gr`` (``p sp n m``, ``a u v w``, 1-based).
* Frontier's memory-mapped binary ``.fgb`` (:mod:`frontier.binary`) and the
  older NumPy ``.npz`` (CSR arrays).

Text files may be gzip-compressed (detected from the content). Every format
can also be written by :func:`write_graph`, atomically
(:func:`frontier.atomic.atomic_write`). See ``docs/io-and-generators.md``.
"""

from __future__ import annotations

import errno
import gzip
import os
import struct
import zipfile
import zlib
from pathlib import Path

import numpy as np

from .atomic import atomic_write, write_npz
from .binary import check_csr, is_binary, read_binary, write_binary
from .csvformat import check_options, read_csv
from .device import get_device, to_numpy
from .graph import Graph, index_dtype
from .memory import DeviceMemoryError
from .progress import Progress
from .textformats import Text, dimacs, edge_list, matrix_market
from .textwriters import write_csv, write_dimacs, write_edge_list, write_matrix_market

FORMAT_VERSION = 1
EDGE_LIST_SUFFIXES = (".txt", ".el", ".edges", ".tsv", ".edgelist")
FORMATS = {".mtx": "mtx", ".mm": "mtx", ".gr": "dimacs", ".npz": "npz", ".fgb": "fgb",
           ".csv": "csv", **dict.fromkeys(EDGE_LIST_SUFFIXES, "edges")}
BINARY_FORMATS = ("fgb", "npz")
_CHUNK_BYTES = 1 << 24
_UTF8_BOM = b"\xef\xbb\xbf"
# Bytes per vertex that building a CSR needs at its peak (several int64
# arrays of n + 1); a declared size beyond the device's memory cannot load.
_BUILD_BYTES_PER_VERTEX = 32


def graph_format(path) -> str | None:
    """The format a file name stands for (``"mtx"``, ``"edges"``, ``"csv"``,
    ``"dimacs"``, ``"fgb"``, ``"npz"``), ignoring a trailing ``.gz``; None if unknown."""
    name = Path(path).name.lower().removesuffix(".gz")
    return FORMATS.get(Path(name).suffix)


def read_graph(path, *, directed: bool | None = None, device=None, progress: bool = False,
               columns=None, header: bool | None = None, delimiter: str | None = None
               ) -> Graph:
    """Read a graph file, choosing the format from the file name and header.

    Parameters
    ----------
    path : str or os.PathLike
        ``.mtx``, ``.gr``, ``.csv``, ``.fgb``, ``.npz`` or an edge list
        (``.txt``, ``.el``, ``.edges``, ``.tsv``); any text format may be
        gzip-compressed (``.gz``). Other names are recognised from their content.
    directed : bool, optional
        Default: ``False`` for symmetric Matrix Market files, ``True`` for
        general ones, edge lists, CSV and DIMACS files, the stored flag for
        ``.fgb`` and ``.npz``. ``False`` reads every entry as an undirected
        edge; ``True`` on a symmetric matrix stores both directions of each entry.
    device : str or Device, optional
        Where to put the graph (default: the default device).
    progress : bool
        Report the phases of loading to standard error.
    columns : sequence of 2 or 3 column names or indices, optional
        CSV only: the source, target and (optional) weight columns. Default:
        the first two columns, and the third as weight when there are exactly three.
    header : bool, optional
        CSV only: whether the first line names the columns. Default: detect
        (a header is a first line with a field that is not a number).
    delimiter : str, optional
        CSV only: the one-character field separator (default ``","``).

    Returns
    -------
    Graph
        Edge-list and CSV files whose ids are not exactly ``0..n-1`` are
        relabeled in sorted id order; ``G.node_labels`` then holds the original
        ids. A ``.fgb`` file is memory-mapped (read-only arrays on the CPU).

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        On malformed content, naming the file, the line and what was expected;
        on an entry outside the declared size, naming the value; on CSV options
        given for another format.
    frontier.DeviceMemoryError
        If the declared number of vertices cannot fit in the device's memory.

    Examples
    --------
    >>> import frontier as fr
    >>> G = fr.read_graph("graph.mtx")                     # doctest: +SKIP
    >>> G = fr.read_graph("wiki-Vote.txt", directed=True)  # doctest: +SKIP
    >>> G = fr.read_graph("trips.csv", columns=("from", "to", "km"))  # doctest: +SKIP
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(errno.ENOENT, "graph file not found", str(path))
    reporter = Progress(f"read_graph {path.name}", progress)
    kind = graph_format(path)
    csv_options = (columns, header, delimiter)
    if kind != "csv" and csv_options != (None, None, None):
        raise ValueError(f"{path.name}: columns=, header= and delimiter= apply to .csv files "
                         f"only, this is {kind or 'not a known format'}")
    check_options(*csv_options)
    with open(path, "rb") as file:
        is_zip = file.read(4) == b"PK\x03\x04"
    fgb = is_binary(path) or (kind == "fgb" and not is_zip)
    if fgb or is_zip or kind == "npz":
        reporter.phase("loading")
        G = read_binary(path, device) if fgb else _read_npz(path, device)
        if directed is not None and bool(directed) != G.directed:
            src, dst, weights = G.edges()
            G = _build(path.name, src, dst, weights, G.num_vertices, bool(directed),
                       G.node_labels, device, reporter)
        reporter.finish(f"{G!r}")
        return G
    text = Text(path.name, _read_bytes(path, reporter), reporter)
    if text.starts_with(b"%%matrixmarket"):
        kind = "mtx"
    elif kind is None:
        kind = "dimacs" if text.first_head() in b"cp" else "edges"
    reporter.phase("parsing")
    if kind == "csv":
        parsed = read_csv(text, directed, *csv_options)
    else:
        reader = {"mtx": matrix_market, "dimacs": dimacs, "edges": edge_list}[kind]
        parsed = reader(text, directed)
    G = _build(path.name, *parsed, device, reporter)
    reporter.finish(f"{G!r}")
    return G


def read_parts(path, *, devices, partition_seed: int = 0, progress: bool = False):
    """A ``.fgb`` graph file read as parts on several devices, never whole.

    Each device (or MPI rank, with ``devices="mpi"``) reads the memory-mapped
    file in row batches and keeps the arcs of the vertices it owns under the
    ``random`` partition (``partition_seed``), with ``duplication="all"``:
    the parts a multi-device run of ``read_graph(path)`` would make, without
    any process holding the whole graph. Unweighted, unlabelled files only.

    Parameters
    ----------
    path : str or Path
        A ``.fgb`` file (``frontier convert`` writes one from any format).
    devices : int, list of device names, or ``"mpi"``
    partition_seed : int
    progress : bool

    Returns
    -------
    frontier.DistributedGraph

    Raises
    ------
    ValueError
        For a file that is not a valid ``.fgb`` graph, or one with weights
        or vertex labels.
    FileNotFoundError
        If ``path`` does not exist.
    """
    from .multi.distributed import local_devices, read_distributed

    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"graph file not found: {path}")
    if graph_format(path) != "fgb":
        raise ValueError(f"{path.name}: read_parts reads .fgb files; convert it with "
                         "`frontier convert` first")
    targets, communicator = local_devices(devices)
    return read_distributed(path, targets, partition_seed=partition_seed,
                            communicator=communicator, progress=progress)


def write_graph(G: Graph, path) -> None:
    """Write ``G`` to a file whose format is given by its name, atomically.

    ``.fgb`` (memory-mapped binary) and ``.npz`` keep the CSR exactly,
    with the node labels; the text formats (``.mtx``, ``.gr``, edge lists,
    ``.csv``, each optionally ``.gz``-compressed) hold what their format can:
    see ``docs/io-and-generators.md``. The file is written under a temporary
    name in the same directory and renamed when complete, so a failure
    leaves an existing file untouched and no partial file behind.

    Parameters
    ----------
    G : Graph
    path : str or os.PathLike

    Raises
    ------
    ValueError
        If the name has no writable format, or the format cannot hold the
        graph (node labels that are not numbers or strings; float weights in
        ``.gr``; isolated vertices or non-integer labels in an edge list or CSV).
    FileNotFoundError
        If the directory does not exist.

    Examples
    --------
    >>> import frontier as fr
    >>> G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    >>> fr.write_graph(G, "path.fgb")                  # doctest: +SKIP
    >>> fr.read_graph("path.fgb").num_edges            # doctest: +SKIP
    2
    """
    path = Path(path)
    kind = graph_format(path)
    if kind is None:
        raise ValueError(f"write_graph: cannot tell the format of {path.name!r} from its "
                         f"name; use one of {', '.join(sorted(FORMATS))} (text formats may "
                         "add .gz)")
    compressed = path.name.lower().endswith(".gz")
    if compressed and kind in BINARY_FORMATS:
        raise ValueError(f"write_graph: {path.name!r}: .{kind} files are not gzip-compressed")
    if kind == "npz":
        write_npz(path, _npz_arrays(G))
        return
    with atomic_write(path) as file:
        if kind == "fgb":
            write_binary(G, file)
        elif compressed:
            with gzip.GzipFile(filename=path.name.removesuffix(".gz"), mode="wb",
                               fileobj=file, mtime=0) as stream:
                _write_text(kind, G, stream, path.name)
        else:
            _write_text(kind, G, file, path.name)


def _write_text(kind: str, G: Graph, file, name: str) -> None:
    if kind == "edges":
        separator = b"\t" if name.lower().removesuffix(".gz").endswith(".tsv") else b" "
        write_edge_list(G, file, name, separator)
    else:
        {"mtx": write_matrix_market, "dimacs": write_dimacs, "csv": write_csv}[kind](
            G, file, name)


def _npz_arrays(G: Graph) -> dict:
    arrays = {"format_version": np.int64(FORMAT_VERSION), "offsets": to_numpy(G.offsets),
              "columns": to_numpy(G.columns), "directed": np.bool_(G.directed),
              "num_edges": np.int64(G.num_edges)}
    if G.weights is not None:
        arrays["weights"] = to_numpy(G.weights)
    if G.node_labels is not None:
        arrays["node_labels"] = _labels_array(G.node_labels)
    return arrays


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


# building ----------------------------------------------------------------------------


def _memory_bytes(device) -> int:
    """Total memory of the device (host RAM for CPU devices)."""
    if device.is_gpu:
        with device.activate():
            return int(device.xp.cuda.runtime.memGetInfo()[1])
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _check_fits(name: str, n: int, device) -> None:
    """Refuse a vertex count that no CSR build could hold, before allocating."""
    if n > np.iinfo(np.int64).max - 1:
        raise ValueError(f"{name}: {n} vertices is beyond the 64-bit id range")
    needed, total = _BUILD_BYTES_PER_VERTEX * (n + 1), _memory_bytes(device)
    if needed > total:
        raise DeviceMemoryError(
            f"{name}: the file declares {n} vertices; building the graph needs about "
            f"{needed / 2**30:.1f} GiB, more than the {total / 2**30:.1f} GiB of "
            f"{device.describe()}")


def _build(name, src, dst, weights, n, directed, labels, device, reporter) -> Graph:
    dev = get_device(device)
    _check_fits(name, n, dev)
    reporter.phase("building CSR", total=len(src), unit="edges")
    dtype = index_dtype(n)
    G = Graph.from_edges(np.asarray(src, dtype=dtype), np.asarray(dst, dtype=dtype), weights,
                         n, directed, device=dev)
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
        except (OSError, EOFError, zlib.error) as err:
            raise ValueError(f"{path.name}: corrupt gzip data ({err})") from err
    if data.startswith(_UTF8_BOM):  # spreadsheet exports start with one
        del data[:len(_UTF8_BOM)]
    return data


# the .npz format ---------------------------------------------------------------------


# What zipfile and numpy raise on a damaged archive (a member's declared
# shape can ask for more memory than the file could ever hold).
_NPZ_ERRORS = (OSError, EOFError, zipfile.BadZipFile, zlib.error, NotImplementedError,
               KeyError, struct.error, UnicodeDecodeError, OverflowError, MemoryError)


_NPZ_REQUIRED = {"format_version", "offsets", "columns", "directed", "num_edges"}
_NPZ_KEYS = _NPZ_REQUIRED | {"weights", "node_labels"}


def _zip_entries(path: Path) -> int | None:
    """The entry count the ZIP end-of-central-directory record declares."""
    with open(path, "rb") as file:
        file.seek(max(0, path.stat().st_size - (1 << 16) - 22))
        tail = file.read()
    at = tail.rfind(b"PK\x05\x06")
    return None if at < 0 or at + 22 > len(tail) else struct.unpack_from("<H", tail, at + 10)[0]


def _read_npz(path: Path, device) -> Graph:
    try:
        with np.load(path, allow_pickle=False) as archive:
            missing = _NPZ_REQUIRED - set(archive.files)
            if missing:
                raise ValueError(f"{path.name}: not a Frontier .npz graph, missing "
                                 f"{sorted(missing)}")
            unknown = set(archive.files) - _NPZ_KEYS
            if unknown:
                raise ValueError(f"{path.name}: not a Frontier .npz graph, unexpected "
                                 f"members {sorted(unknown)}")
            # zipfile stops quietly at a damaged directory entry: count them.
            if _zip_entries(path) != len(archive.files):
                raise ValueError(f"{path.name}: damaged .npz: the ZIP directory lists "
                                 f"{len(archive.files)} of {_zip_entries(path)} members")
            arrays = {key: archive[key] for key in archive.files}
    except _NPZ_ERRORS as err:
        raise ValueError(f"{path.name}: not a Frontier .npz graph "
                         f"({type(err).__name__}: {err})") from err
    except ValueError as err:
        if str(err).startswith(f"{path.name}:"):
            raise
        raise ValueError(f"{path.name}: not a Frontier .npz graph ({err})") from err
    scalars = {}
    for key, kinds in (("format_version", "iu"), ("directed", "b"), ("num_edges", "iu")):
        if arrays[key].shape != () or arrays[key].dtype.kind not in kinds:
            raise ValueError(f"{path.name}: {key} must be a single "
                             f"{'bool' if kinds == 'b' else 'integer'}, got "
                             f"{arrays[key].dtype} of shape {arrays[key].shape}")
        scalars[key] = arrays[key].item()
    if scalars["format_version"] != FORMAT_VERSION:
        raise ValueError(f"{path.name}: .npz format version {scalars['format_version']} is "
                         f"not supported (this Frontier reads version {FORMAT_VERSION})")
    offsets, columns = arrays["offsets"], arrays["columns"]
    weights = arrays.get("weights")
    labels = arrays.get("node_labels")
    if labels is not None:
        if labels.ndim != 1:
            raise ValueError(f"{path.name}: node_labels must be 1-D, got shape {labels.shape}")
        labels = labels.tolist()
    check_csr(path.name, offsets, columns, weights, labels)
    num_arcs, num_edges = len(columns), scalars["num_edges"]
    low = num_arcs if scalars["directed"] else -(-num_arcs // 2)
    if not low <= num_edges <= num_arcs:
        raise ValueError(f"{path.name}: num_edges {num_edges} does not fit {num_arcs} arcs")
    offsets = offsets.astype(np.int64, copy=False)
    if columns.dtype not in (np.int32, np.int64):
        columns = columns.astype(index_dtype(len(offsets) - 1))
    dev = get_device(device)
    return Graph(dev.asarray(offsets), dev.asarray(columns),
                 None if weights is None else dev.asarray(weights), scalars["directed"],
                 dev, num_edges, labels)
