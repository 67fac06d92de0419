"""The filter and compute operators: per-vertex work on a frontier."""

from __future__ import annotations

from collections.abc import Callable

from ..frontier import Frontier
from ..kernels import compact
from ..slots import for_graph


def filter(frontier: Frontier, predicate: Callable | None = None, *,  # noqa: A001
           unique: bool = False) -> Frontier:
    """Keep the vertices of ``frontier`` for which ``predicate(ids)`` is true.

    Parameters
    ----------
    frontier : Frontier
    predicate : callable ``ids -> bool array``, optional
        Vectorized test over the frontier's ids; ``None`` keeps all.
    unique : bool
        Also drop repeated ids.

    Returns
    -------
    Frontier
        A sparse frontier.
    """
    _check_frontier(frontier, "filter")
    if unique:
        frontier = frontier.unique()
    if predicate is None:
        return frontier.to_sparse()
    ids = frontier.ids
    keep = _tested(predicate, ids, "filter")
    return _subset(frontier, compact.where(ids, keep))


def separate(frontier: Frontier, predicate: Callable) -> tuple[Frontier, Frontier]:
    """Split ``frontier`` into the vertices for which ``predicate(ids)`` is
    true and the rest: what ``filter`` with the predicate and with its
    negation return, from one evaluation of the predicate and, on a GPU, one
    device read (the kept count; the rest's follows from it).

    Returns
    -------
    (Frontier, Frontier)
        Two sparse frontiers, each in the ids' order and distinct when the
        input was.
    """
    _check_frontier(frontier, "separate")
    ids = frontier.ids
    keep = _tested(predicate, ids, "separate")
    kept = compact.where(ids, keep)
    rest = compact.where(ids, ~keep, count=len(ids) - len(kept))
    return _subset(frontier, kept), _subset(frontier, rest)


def _tested(predicate: Callable, ids, operator: str):
    """``predicate(ids)``, checked to be a boolean array shaped like ``ids``."""
    keep = predicate(ids)
    if getattr(keep, "shape", None) != ids.shape or keep.dtype != bool:
        raise TypeError(f"{operator} predicate must return a boolean array of shape "
                        f"{ids.shape}")
    return keep


def _subset(frontier: Frontier, ids) -> Frontier:
    """A sparse frontier of some of ``frontier``'s ids: a subset of distinct
    ids is distinct, so a later unique() costs nothing."""
    return Frontier(frontier.num_vertices, frontier.device, ids=ids,
                    distinct=frontier.distinct)


def compute(frontier: Frontier, functor: Callable, *, graph=None):
    """Run ``functor(ids)`` once over all of the frontier's vertex ids.

    The functor typically updates vertex data in place (``rank[ids] = ...``);
    whatever it returns is returned. ``graph``, the graph whose vertices the
    frontier holds, lets a built-in functor that stores vertex ids
    (:class:`~frontier.functors.PointToRoots`) work on a part of a larger
    graph, and run as a fused kernel on a GPU.
    """
    _check_frontier(frontier, "compute")
    if graph is not None:
        functor = for_graph(functor, graph)
        if graph.device.is_gpu and getattr(functor, "fused", None) == "point_to_roots":
            from .fused import point_to_roots, slot_kernels_fit

            if slot_kernels_fit(functor.vertex_slots):
                return point_to_roots(frontier, functor.labels, functor.vertex_slots)
    return functor(frontier.ids)


def _check_frontier(frontier, operator: str) -> None:
    if not isinstance(frontier, Frontier):
        raise TypeError(f"{operator} takes a Frontier, got {type(frontier).__name__}: "
                        "wrap ids with Frontier.from_ids(ids, num_vertices)")
