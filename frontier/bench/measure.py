"""What the benchmark measures: elapsed time, device-memory high-water marks,
traversed edges and the Graph500 statistics over roots.

Times come from CUDA events on a GPU (recorded on the current stream around
the call, after draining it) and from :func:`time.perf_counter` on the CPU,
where NumPy is synchronous. Peak memory is the high-water mark of the bytes in
use in CuPy's default memory pool above what was in use before the call,
tracked by a memory hook; the CPU has no such counter, so its peak is
``None`` rather than a guess.
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..device import Device
from ..graph import Graph


def timer(device: Device) -> Callable[[Callable[[], Any]], tuple[Any, float]]:
    """A function that runs ``call()`` on ``device`` and returns
    ``(call's result, elapsed milliseconds)``.

    Parameters
    ----------
    device : frontier.Device
        A GPU is timed with CUDA events on its current stream (queued work is
        drained first, and the end event is waited for); a CPU with
        :func:`time.perf_counter`.

    Returns
    -------
    callable
        ``measure(call) -> (result, milliseconds)``.

    Examples
    --------
    >>> import frontier as fr
    >>> measure = timer(fr.get_device("cpu"))
    >>> value, ms = measure(lambda: sum(range(1000)))
    >>> value, ms >= 0
    (499500, True)
    """
    if not device.is_gpu:
        def measure_cpu(call):
            start = time.perf_counter()
            result = call()
            return result, (time.perf_counter() - start) * 1e3
        return measure_cpu

    cupy = device.xp

    def measure_gpu(call):
        with cupy.cuda.Device(device.index):
            stream = cupy.cuda.get_current_stream()
            stream.synchronize()
            start, end = cupy.cuda.Event(), cupy.cuda.Event()
            start.record(stream)
            result = call()
            end.record(stream)
            end.synchronize()
            return result, float(cupy.cuda.get_elapsed_time(start, end))
    return measure_gpu


def median_ms(device: Device, call: Callable[[], Any], repeat: int = 20,
              warmup: int = 3) -> float:
    """The median milliseconds of ``repeat`` runs of ``call()`` on ``device``
    (timed by :func:`timer`), after ``warmup`` untimed runs.

    Examples
    --------
    >>> import frontier as fr
    >>> median_ms(fr.get_device("cpu"), lambda: sum(range(1000)), repeat=3) >= 0
    True
    """
    for _ in range(warmup):
        call()
    measure = timer(device)
    return statistics.median(measure(call)[1] for _ in range(repeat))


@functools.cache
def _peak_hook_class(cupy):
    """A CuPy memory hook class tracking the most bytes taken from the memory
    pool and not yet returned (built lazily because CuPy is optional)."""

    class PeakPoolBytes(cupy.cuda.MemoryHook):
        name = "frontier-bench-peak-bytes"

        def __init__(self, device_id: int):
            self.device_id = device_id
            self.held = 0
            self.peak = 0

        def malloc_postprocess(self, **kwargs):
            if kwargs["device_id"] == self.device_id and kwargs["mem_ptr"]:
                self.held += kwargs["mem_size"]
                self.peak = max(self.peak, self.held)

        def free_postprocess(self, **kwargs):
            if kwargs["device_id"] == self.device_id:
                # Freeing what existed before the call lowers ``held`` below 0,
                # so the peak is the call's own high-water mark net of that.
                self.held -= kwargs["mem_size"]

    return PeakPoolBytes


def peak_device_bytes(device: Device, call: Callable[[], Any]) -> tuple[Any, int | None]:
    """Run ``call()`` and return ``(its result, the most device bytes it held at once)``.

    On a GPU this is the high-water mark, during the call, of the bytes in
    use in CuPy's default memory pool above what was in use when it started:
    the call's scratch memory and its result, not the graph or anything else
    allocated before. (Pool sizes are rounded up to CuPy's 512-byte
    granularity.) The memory hook adds Python work to every allocation, so
    never time a call while measuring its memory. On a CPU the peak is
    ``None``: there is no comparable counter.

    Examples
    --------
    >>> import frontier as fr
    >>> peak_device_bytes(fr.get_device("cpu"), lambda: 42)
    (42, None)
    """
    if not device.is_gpu:
        return call(), None
    cupy = device.xp
    with cupy.cuda.Device(device.index), _peak_hook_class(cupy)(device.index) as hook:
        result = call()
    return result, int(hook.peak)


def traversed_edges(graph: Graph, reached, degree=None) -> int:
    """Edges inside the traversed part of ``graph``: the Graph500 TEPS numerator.

    For an undirected graph, the undirected edges with both ends reached
    (the sum of the reached vertices' degrees over two, a self loop counting
    two in its vertex's degree); for a directed graph, the arcs leaving
    reached vertices.

    Parameters
    ----------
    graph : frontier.Graph
    reached : boolean array on the graph's device
        ``reached[v]`` is true when the traversal reached ``v``.
    degree : array, optional
        ``graph.degree()`` (undirected) or ``graph.out_degree()`` (directed),
        when the caller has it already.

    Raises
    ------
    ValueError
        If ``reached`` does not have one entry per vertex.

    Examples
    --------
    >>> import numpy as np, frontier as fr
    >>> G = fr.Graph.from_edges([0, 1, 3], [1, 2, 4], device="cpu")
    >>> traversed_edges(G, np.array([True, True, True, False, False]))
    2
    """
    if len(reached) != graph.num_vertices:
        raise ValueError(f"reached has {len(reached)} entries, expected one per vertex "
                         f"({graph.num_vertices})")
    if degree is None:
        degree = graph.out_degree() if graph.directed else graph.degree()
    total = int(degree[reached].sum())
    return total if graph.directed else total // 2


def harmonic_mean(values: Sequence[float]) -> float:
    """Harmonic mean, the Graph500 statistic for TEPS over roots.

    Raises
    ------
    ValueError
        If ``values`` is empty or holds a value that is not positive.

    Examples
    --------
    >>> harmonic_mean([1.0, 2.0, 4.0])
    1.7142857142857142
    """
    values = [float(v) for v in values]
    if not values:
        raise ValueError("harmonic mean of no values")
    low = min(values)
    if not low > 0:
        raise ValueError(f"harmonic mean needs positive values, got {low}")
    return len(values) / sum(1.0 / v for v in values)


def median(values: Sequence[float]) -> float:
    """Median of a non-empty sequence (the mean of the middle two for even length)."""
    if not values:
        raise ValueError("median of no values")
    return float(statistics.median(values))
