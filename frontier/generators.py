"""Synthetic graph generators: Graph500 Kronecker, R-MAT and road-like grids.

Every generator runs on the target device. Kronecker and R-MAT edges come
from a counter-based stream (:mod:`frontier.kronecker`): the same seed gives
the same graph on every device, and the graph is built in chunks
(:mod:`frontier.build`) without ever holding the whole edge list. Grid
weights are drawn with the device's random generator.
"""

from __future__ import annotations

import numpy as np

from .build import csr_from_stream
from .device import get_device
from .graph import Graph, index_dtype
from .kronecker import GRAPH500_A, GRAPH500_B, GRAPH500_C, KroneckerStream
from .memory import device_memory_guard
from .progress import Progress


def kronecker_edges(scale: int, edgefactor: int = 16, seed: int = 0, *, a: float = GRAPH500_A,
                    b: float = GRAPH500_B, c: float = GRAPH500_C, start: int = 0,
                    stop: int | None = None, device=None, progress: bool = False):
    """The Graph500 Kronecker edge list, or the range ``start:stop`` of it.

    ``M = edgefactor * 2**scale`` edges make the list. For each of the
    ``scale`` bits of the endpoints, an edge picks a quadrant of the
    adjacency matrix with probabilities ``A, B, C, D = 1-A-B-C``, as the
    reference ``kronecker_generator.m`` does::

        ii_bit = rand > A + B
        jj_bit = rand > (C / (C + D) if ii_bit else A / (A + B))

    and the vertex labels are permuted at random. Duplicate edges and self
    loops are kept. Edge ``i`` depends only on ``seed`` and ``i`` (see
    :mod:`frontier.kronecker`): a range is generated without the edges
    before it, and a seed gives the same edges on every device.

    Parameters
    ----------
    scale : int
        ``log2`` of the number of vertices (>= 0).
    edgefactor : int
        Edges per vertex (>= 1).
    seed : int
        The random seed.
    a, b, c : float
        Quadrant probabilities (each in [0, 1], ``a + b + c <= 1``).
    start, stop : int
        The range of edges to return (default all ``M``).
    device : str or Device, optional
        Where to generate (default: the default device).
    progress : bool
        Report progress to standard error.

    Returns
    -------
    src, dst : device arrays
        ``int32`` while ``2**scale`` fits, else ``int64``.

    Raises
    ------
    ValueError
        On a negative or non-integer ``scale``, ``edgefactor < 1``, invalid
        probabilities or a range outside ``[0, M]``.

    Examples
    --------
    >>> from frontier.generators import kronecker_edges
    >>> src, dst = kronecker_edges(4, edgefactor=8, device="cpu")
    >>> len(src), int(max(src.max(), dst.max())) < 16
    (128, True)
    >>> tail, _ = kronecker_edges(4, edgefactor=8, start=100, device="cpu")
    >>> bool((tail == src[100:]).all())
    True
    """
    scale, edgefactor = _check_size(scale, edgefactor)
    _check_probabilities(a, b, c)
    m = edgefactor << scale
    stop = m if stop is None else stop
    if not (_is_int(start) and _is_int(stop) and 0 <= start <= stop <= m):
        raise ValueError(f"start={start!r}, stop={stop!r}: need 0 <= start <= stop <= {m}")
    dev = get_device(device)
    reporter = Progress(f"kronecker_edges scale {scale}", progress)
    reporter.phase("generating")
    stream = KroneckerStream(scale, m, seed, a, b, c)
    with dev.activate():
        src, dst, _ = stream.edges(dev.xp, start, stop)
    reporter.finish()
    return src, dst


def kronecker(scale: int, edgefactor: int = 16, seed: int = 0, *,
              weights: tuple[int, int] | None = None, device=None,
              progress: bool = False) -> Graph:
    """The Graph500 benchmark graph: undirected, without duplicates or self loops.

    Built from :func:`kronecker_edges` with the Graph500 parameters
    ``A, B, C = 0.57, 0.19, 0.19``; the graph keeps all ``2**scale``
    vertices, isolated ones included.

    Parameters
    ----------
    scale : int
        ``log2`` of the number of vertices.
    edgefactor : int
        Input edges per vertex (before duplicates and self loops are dropped).
    seed : int
        Random seed.
    weights : (int, int), optional
        ``(low, high)``: uniform random integer weights in ``[low, high]``
        (Graph500 SSSP uses ``(1, 64)``). Both directions of an edge get the
        same weight; of parallel input edges the lightest is kept.
    device : str or Device, optional
        Where to build the graph.
    progress : bool
        Report progress to standard error.

    Returns
    -------
    Graph

    Raises
    ------
    ValueError
        On an invalid ``scale``, ``edgefactor`` or ``weights``.

    Examples
    --------
    >>> import frontier as fr
    >>> G = fr.generators.kronecker(10, device="cpu")
    >>> G.num_vertices, G.directed
    (1024, False)
    """
    return _graph("kronecker", scale, edgefactor, (GRAPH500_A, GRAPH500_B, GRAPH500_C), seed,
                  False, weights, device, progress)


def kronecker_parts(scale: int, edgefactor: int = 16, seed: int = 0, *, devices,
                    partition_seed: int = 0, progress: bool = False, **chunking):
    """The :func:`kronecker` graph built as parts on several devices, never whole.

    Every device generates the whole edge stream in chunks and keeps the
    arcs of the vertices it owns under the ``random`` partition
    (``partition_seed``), with ``duplication="all"``: the parts are those a
    multi-device run of ``kronecker(scale, edgefactor, seed)`` would make,
    so every primitive gives the same answer, but no device (and not the
    host) ever holds the whole graph or its edge list. See
    :class:`frontier.DistributedGraph`.

    Parameters
    ----------
    scale, edgefactor, seed
        As for :func:`kronecker` (unweighted).
    devices : int, list of device names, or ``"mpi"``
        The devices (as for a primitive's ``devices=``), or ``"mpi"``: each
        rank of an MPI job builds its own part on its device.
    partition_seed : int
        Seed of the random partition.
    progress : bool
        Report the first part's build to standard error.

    Returns
    -------
    DistributedGraph

    Examples
    --------
    >>> from frontier.generators import kronecker_parts
    >>> from primitives import bfs
    >>> D = kronecker_parts(8, devices=2)      # 2 GPUs, or 2 virtual CPU devices
    >>> bfs(D, source=0).depth.shape
    (256,)
    """
    from .multi.distributed import build_distributed, local_devices

    scale, edgefactor = _check_size(scale, edgefactor)
    stream = KroneckerStream(scale, edgefactor << scale, seed)
    targets, communicator = local_devices(devices)
    return build_distributed(stream, targets, partition_seed=partition_seed,
                             communicator=communicator, progress=progress, **chunking)


def rmat(scale: int, edgefactor: int = 16, *, a: float, b: float, c: float, seed: int = 0,
         directed: bool = False, weights: tuple[int, int] | None = None, device=None,
         progress: bool = False) -> Graph:
    """An R-MAT graph with quadrant probabilities ``a, b, c, d = 1 - a - b - c``.

    Generated like :func:`kronecker_edges` (vertex labels permuted), then
    built without duplicates or self loops.

    Parameters
    ----------
    scale, edgefactor, seed, weights, device, progress
        As for :func:`kronecker`.
    a, b, c : float
        Quadrant probabilities: each in ``[0, 1]`` and ``a + b + c <= 1``.
    directed : bool
        Keep edge directions (``False``: undirected).

    Returns
    -------
    Graph

    Raises
    ------
    ValueError
        On invalid probabilities, ``scale``, ``edgefactor`` or ``weights``.

    Examples
    --------
    >>> from frontier.generators import rmat
    >>> G = rmat(8, a=0.45, b=0.15, c=0.15, directed=True, device="cpu")
    >>> G.num_vertices, G.directed
    (256, True)
    """
    return _graph("rmat", scale, edgefactor, (a, b, c), seed, directed, weights, device,
                  progress)


def grid(rows: int, cols: int, *, weights: tuple[int, int] | None = None, seed: int = 0,
         device=None) -> Graph:
    """A road-like 2-D lattice: vertex ``r * cols + c`` is joined to its 4 neighbours.

    Parameters
    ----------
    rows, cols : int
        Lattice size (each >= 1).
    weights : (int, int), optional
        Uniform random integer weights in ``[low, high]``.
    seed : int
        Seed for the weights.
    device : str or Device, optional

    Returns
    -------
    Graph
        Undirected, ``rows * (cols - 1) + (rows - 1) * cols`` edges.

    Raises
    ------
    ValueError
        If ``rows`` or ``cols`` is not a positive integer, or on invalid ``weights``.

    Examples
    --------
    >>> from frontier.generators import grid
    >>> G = grid(3, 4, device="cpu")
    >>> G.num_vertices, G.num_edges
    (12, 17)
    """
    for name, value in (("rows", rows), ("cols", cols)):
        if not _is_int(value) or value < 1:
            raise ValueError(f"{name}={value!r} must be a positive integer")
    low_high = _check_weights(weights)
    dev = get_device(device)
    xp = dev.xp
    with dev.activate():
        ids = xp.arange(rows * cols, dtype=index_dtype(rows * cols)).reshape(rows, cols)
        src = xp.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
        dst = xp.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
        edge_weights = None if low_high is None else xp.random.default_rng(seed).integers(
            low_high[0], low_high[1], size=len(src), dtype=np.int32, endpoint=True)
        return Graph.from_edges(src, dst, edge_weights, rows * cols, directed=False,
                                device=dev)


# helpers -----------------------------------------------------------------------------


def _graph(name, scale, edgefactor, probabilities, seed, directed, weights, device,
           progress) -> Graph:
    """The R-MAT edge stream as a graph without duplicates or self loops,
    built in chunks on the device (:func:`frontier.build.csr_from_stream`)."""
    scale, edgefactor = _check_size(scale, edgefactor)
    _check_probabilities(*probabilities)
    low_high = _check_weights(weights)
    dev = get_device(device)
    reporter = Progress(f"{name} scale {scale}", progress)
    # One weight per input edge: both arcs of an edge get the same one.
    stream = KroneckerStream(scale, edgefactor << scale, seed, *probabilities, weights=low_high)
    with dev.activate(), device_memory_guard(dev, f"building {name} scale {scale}"):
        G = csr_from_stream(stream, directed=directed, deduplicate=True,
                            remove_self_loops=True, device=dev, progress=reporter)
    reporter.finish(f"{G!r}")
    return G


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _check_size(scale, edgefactor) -> tuple[int, int]:
    if not _is_int(scale) or scale < 0:
        raise ValueError(f"scale={scale!r} must be a non-negative integer")
    if not _is_int(edgefactor) or edgefactor < 1:
        raise ValueError(f"edgefactor={edgefactor!r} must be an integer >= 1")
    return int(scale), int(edgefactor)


def _check_probabilities(a, b, c) -> None:
    for name, value in (("a", a), ("b", b), ("c", c)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name}={value!r} must be a probability in [0, 1]")
    if a + b + c > 1.0 + 1e-12:
        raise ValueError(f"a + b + c = {a + b + c!r} must be at most 1 (d = 1 - a - b - c)")


def _check_weights(weights) -> tuple[int, int] | None:
    if weights is None:
        return None
    try:
        low, high = weights
    except (TypeError, ValueError):
        raise ValueError(f"weights={weights!r} must be a (low, high) pair") from None
    if not (_is_int(low) and _is_int(high)) or low > high:
        raise ValueError(f"weights={weights!r} must be integers with low <= high")
    if not np.iinfo(np.int32).min <= low <= high <= np.iinfo(np.int32).max:
        raise ValueError(f"weights={weights!r} must fit in int32")
    return int(low), int(high)
