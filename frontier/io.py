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
from .textformats import Text, dimacs, edge_list, matrix_market

FORMAT_VERSION = 1
_SUFFIX_FORMATS = {".mtx": "mtx", ".mm": "mtx", ".gr": "dimacs", ".npz": "npz",
                   **dict.fromkeys([".txt", ".el", ".edges", ".tsv", ".edgelist"], "edges")}
_CHUNK_BYTES = 1 << 24


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
    text = Text(path.name, _read_bytes(path, reporter), reporter)
    if text.starts_with(b"%%matrixmarket"):
        kind = "mtx"
    elif kind is None:
        kind = "dimacs" if text.first_head() in b"cp" else "edges"
    reporter.phase("parsing")
    reader = {"mtx": matrix_market, "dimacs": dimacs, "edges": edge_list}[kind]
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
