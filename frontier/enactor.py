"""Primitives and the enactor that runs them.

A primitive subclasses :class:`Primitive` and declares

* its vertex data, allocated in :meth:`Primitive.setup`;
* its first frontier, :meth:`Primitive.initial_frontier`;
* one iteration, :meth:`Primitive.step` (a few operator calls);
* when to stop, :meth:`Primitive.converged` (default: empty frontier);
* its answer, :meth:`Primitive.result`;
* ``communicate``: for multi-device runs, which vertex arrays to exchange and
  the combiner (``"min"``, ``"max"``, ``"sum"`` or a function) that merges a
  remote update with the local value.

:func:`enact` validates the run options, places the graph, and loops.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from .device import resolve_devices
from .frontier import Frontier
from .graph import Graph
from .memory import device_memory_guard
from .result import Result

DUPLICATION = ("all", "one_hop")
COMMUNICATION = ("selective", "broadcast")
COMBINERS = ("min", "max", "sum")


class Primitive:
    """Base class of a graph primitive; see the module docstring."""

    #: vertex data to exchange between devices: name -> combiner
    communicate: dict[str, str | Callable] = {}

    def __init__(self, graph: Graph, **params):
        self.graph = graph
        self.xp = graph.xp
        self.params = params

    def setup(self) -> None:
        """Allocate and initialise the primitive's vertex data."""

    def initial_frontier(self) -> Frontier:
        raise NotImplementedError(f"{type(self).__name__} must define initial_frontier()")

    def step(self, frontier: Frontier, iteration: int) -> Frontier:
        raise NotImplementedError(f"{type(self).__name__} must define step()")

    def converged(self, frontier: Frontier, iteration: int) -> bool:
        """True when the run is over; by default when the frontier is empty."""
        return frontier.is_empty()

    def result(self) -> Result:
        raise NotImplementedError(f"{type(self).__name__} must define result()")

    # helpers for primitive authors ---------------------------------------------------

    def vertex_array(self, fill, dtype):
        """A new array with one ``fill`` entry per vertex, on the graph's device."""
        return self.xp.full(self.graph.num_vertices, fill, dtype=dtype)

    def frontier_of(self, ids) -> Frontier:
        """A sparse frontier of the given vertex ids."""
        return Frontier.from_ids(ids, self.graph.num_vertices, self.graph.device)


def check_vertex(graph: Graph, vertex, name: str = "source") -> int:
    """``vertex`` as an int, or ValueError if it is not a vertex of ``graph``."""
    if isinstance(vertex, bool) or not isinstance(vertex, (int, np.integer)):
        raise ValueError(f"{name}={vertex!r} must be an integer vertex id")
    if not 0 <= int(vertex) < graph.num_vertices:
        raise ValueError(
            f"{name}={vertex} is out of range for a graph of {graph.num_vertices} vertices")
    return int(vertex)


def check_options(primitive: type[Primitive], partition, duplication, communication) -> None:
    """Validate the multi-device options every primitive accepts."""
    from partition import resolve_partitioner

    resolve_partitioner(partition)
    if duplication not in DUPLICATION:
        raise ValueError(f"duplication={duplication!r}: expected one of {DUPLICATION}")
    if communication not in COMMUNICATION:
        raise ValueError(f"communication={communication!r}: expected one of {COMMUNICATION}")
    for name, combiner in primitive.communicate.items():
        if combiner not in COMBINERS and not callable(combiner):
            raise ValueError(f"{primitive.__name__}.communicate[{name!r}] = {combiner!r}: "
                             f"expected one of {COMBINERS} or a function")


def enact(
    primitive: type[Primitive],
    graph: Graph,
    *,
    devices=None,
    partition=None,
    duplication: str = "all",
    communication: str = "selective",
    max_iterations: int | None = None,
    **params,
) -> Result:
    """Run ``primitive`` on ``graph`` and return its result.

    Parameters
    ----------
    primitive : a :class:`Primitive` subclass
    graph : Graph
    devices : None, int, device name or list of names
        Where to run (see :func:`frontier.device.resolve_devices`).
    partition : None, partitioner name or callable
        How a multi-device run splits the vertices.
    duplication, communication : multi-device strategy options.
    max_iterations : int, optional
        Stop with RuntimeError after this many iterations.
    **params : passed to the primitive.

    Raises
    ------
    NotImplementedError
        For more than one device: the multi-device enactor is not built yet.
    """
    if not isinstance(graph, Graph):
        raise TypeError(f"expected a frontier.Graph, got {type(graph).__name__}")
    check_options(primitive, partition, duplication, communication)
    targets = resolve_devices(devices)
    if len(targets) > 1:
        raise NotImplementedError(
            f"devices={devices!r} asks for {len(targets)} devices; this version of Frontier "
            "runs primitives on one device only")
    device = targets[0]
    with device.activate(), device_memory_guard(device, f"running {primitive.__name__}"):
        try:
            return _loop(primitive, graph.to(device), max_iterations, params)
        finally:
            if device.is_gpu:
                from .kernels import release_workspaces

                release_workspaces()


def _loop(primitive: type[Primitive], graph: Graph, max_iterations, params) -> Result:
    """Set up, iterate to convergence, and time the run."""
    run = primitive(graph, **params)
    start = time.perf_counter()
    run.setup()
    frontier = run.initial_frontier()
    graph.device.synchronize()
    setup_s = time.perf_counter() - start
    iteration = 0
    while not run.converged(frontier, iteration):
        if max_iterations is not None and iteration >= max_iterations:
            raise RuntimeError(
                f"{primitive.__name__} did not converge in {max_iterations} iterations")
        frontier = run.step(frontier, iteration)
        iteration += 1
    result = run.result()
    graph.device.synchronize()
    result.iterations = iteration
    result.elapsed_s = time.perf_counter() - start
    result.setup_s = setup_s
    return result
