"""Runs over pieces of a list option, side by side on the CPU's cores.

A primitive that declares :attr:`~frontier.Primitive.independent_items`
(betweenness: ``"sources"``) takes the items of that option one after
another, each on its own, and says with :meth:`~frontier.Primitive.absorb`
how one run's work adds to another's. On a CPU device with several cores,
:func:`run_in_pieces` splits the list into one piece per thread, runs each
piece's loop in a thread of its own, absorbs the pieces into the first in
their order (so the answer does not depend on which thread ends first) and
takes the result from it. A piece that fails stops the others at their
next step, as does an interrupt of the caller (Ctrl-C), and its error is
raised. NumPy gives up the interpreter lock in its array
work (gathers, scatters, reductions, scans: nearly all of a CPU run's time
on a large graph), so the threads share the cores.

There are at most :func:`cpu_threads` pieces, and no more than fit in
half the memory free when the run starts (each holds the primitive's
vertex arrays and its operators' temporaries; an estimate). A run stays
whole on a GPU, on several devices, with ``max_iterations``
or a ``memory_limit`` (both count the whole run), below :data:`MIN_WORK`,
and where :func:`cpu_threads` is 1. With ``FRONTIER_CHECK_DECLARATIONS=1``
a split run is compared with one run over the whole list
(:func:`check_pieces`).
"""

from __future__ import annotations

import concurrent.futures
import os
import threading
import time

import numpy as np

from .loop import finish, run_steps
from .primitive import DeclarationError
from .result import Result

#: Arc passes (the graph's arcs times the items) below which a run stays
#: whole: starting the threads and the pieces' own set-ups would cost more
#: than they save.
MIN_WORK = 1 << 22
#: Threads at most, whatever the cores: each piece holds the primitive's
#: vertex arrays and the temporaries of its operators.
MAX_THREADS = 8
#: A piece's memory, estimated: its vertex arrays (betweenness: four of 8
#: bytes or fewer) and the operators' temporaries over a level's arcs.
PIECE_BYTES_PER_VERTEX = 64
PIECE_BYTES_PER_ARC = 24
#: The variable that sets the threads (``1``: no split).
THREADS_VARIABLE = "FRONTIER_CPU_THREADS"


def cpu_threads() -> int:
    """Threads a split run may use: ``FRONTIER_CPU_THREADS`` if set, else
    the cores this process may run on, at most :data:`MAX_THREADS`.

    Raises
    ------
    ValueError
        If ``FRONTIER_CPU_THREADS`` is not a positive integer.
    """
    named = os.environ.get(THREADS_VARIABLE, "").strip()
    if named:
        if not named.isdigit() or int(named) < 1:
            raise ValueError(f"{THREADS_VARIABLE}={named!r}: expected a positive integer")
        return int(named)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cores or 1, MAX_THREADS))


def pieces(primitive, graph, params: dict, max_iterations: int | None = None,
           memory_limit: int | None = None) -> list[dict] | None:
    """The params of each piece of a run of ``primitive`` on ``graph``, or
    ``None`` where the run stays whole (module docstring). The items are
    listed in ``params`` first (an iterator is read once)."""
    name = primitive.independent_items
    if name is None or graph.device.is_gpu or max_iterations is not None \
            or memory_limit is not None:
        return None
    items = params[name] = list(params[name])
    count = piece_count(len(items), graph.num_vertices, graph.num_arcs)
    if count < 2:
        return None
    return [{**params, name: items[k::count]} for k in range(count)]


def piece_count(items: int, num_vertices: int, num_arcs: int) -> int:
    """The pieces a CPU run over ``items`` independent items of a graph of
    that size is split into: 1 (whole) below :data:`MIN_WORK` arc passes,
    else :func:`cpu_threads` at most, no more than there are items and
    than fit in memory."""
    if num_arcs * items < MIN_WORK:
        return 1
    return max(1, min(cpu_threads(), items, _pieces_that_fit(num_vertices, num_arcs)))


def _pieces_that_fit(num_vertices: int, num_arcs: int) -> int:
    """Pieces whose own data fits in half the memory free now, by an
    estimate of a piece: :data:`PIECE_BYTES_PER_VERTEX` and
    :data:`PIECE_BYTES_PER_ARC` (the primitive's arrays and its operators'
    temporaries); :data:`MAX_THREADS` where the free memory is unknown."""
    try:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return MAX_THREADS
    piece = num_vertices * PIECE_BYTES_PER_VERTEX + num_arcs * PIECE_BYTES_PER_ARC
    return max(1, free // 2 // max(piece, 1))


def run_in_pieces(primitive, graph, params: dict, split: list[dict]) -> Result:
    """The result of ``primitive`` on ``graph`` with ``params``, from runs
    over the pieces ``split`` (:func:`pieces`) in threads of their own."""
    start = time.perf_counter()
    runs = [primitive(graph, **piece) for piece in split]
    stop = threading.Event()  # set: the other pieces stop at their next step
    for run in runs:
        run.step = _unless_stopped(run.step, stop)
    with concurrent.futures.ThreadPoolExecutor(len(runs), "frontier-piece") as pool:
        futures = [pool.submit(run_steps, run, None) for run in runs]
        try:
            done, _ = concurrent.futures.wait(
                futures, return_when=concurrent.futures.FIRST_EXCEPTION)
            failed = [future for future in futures if future in done and future.exception()]
            if failed:
                raise failed[0].exception()
        except BaseException:  # a piece's error, or an interrupt of the caller
            stop.set()
            raise
        counted = [future.result() for future in futures]
    first = runs[0]
    for run in runs[1:]:
        first.absorb(run)
    first.params = {**first.defaults, **params}
    steps = sum(counted[1:], counted[0])
    result = finish(first, steps, start)
    result.pieces = len(runs)
    return result


class _Stopped(Exception):
    """A piece stopped because another failed or the caller was interrupted."""


def _unless_stopped(step, stop: threading.Event):
    """``step``, raising :class:`_Stopped` instead once ``stop`` is set."""
    def step_unless_stopped(frontier, iteration):
        if stop.is_set():
            raise _Stopped
        return step(frontier, iteration)

    return step_unless_stopped


def check_pieces(primitive, split: Result, whole: Result) -> None:
    """Raise :class:`~frontier.primitive.DeclarationError` unless ``split``
    (a run in pieces) has the arrays of ``whole`` (one run over every
    item): the same integers, floats within rounding (the pieces add their
    items in another order)."""
    for name, expected in whole.arrays().items():
        got = np.asarray(getattr(split, name))
        expected = np.asarray(expected)
        same = got.shape == expected.shape and (
            np.allclose(got, expected, rtol=1e-9, atol=1e-12, equal_nan=True)
            if np.issubdtype(expected.dtype, np.floating) else np.array_equal(got, expected))
        if not same:
            raise DeclarationError(
                f"{primitive.__name__} declares independent_items="
                f"{primitive.independent_items!r}, but a run in {split.pieces} pieces "
                f"gave another {name} than one run over every item")

