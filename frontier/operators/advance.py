"""The advance operator: visit the edges of a frontier.

``advance(G, frontier, functor)`` calls ``functor(src, dst, edge, weight)`` on
every out-edge of the frontier's vertices (push) and returns the frontier of
destinations for which it returned true. ``direction="pull"`` walks the other
way: every candidate vertex (``among``, default all) looks at its in-edges from
the frontier, and the output holds the candidates for which the functor
returned true on at least one of them.

Built-in functors (:mod:`frontier.functors`) run as fused kernels on a GPU;
any other vectorized function takes the general path here, with the same
result.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from ..direction import DIRECTIONS, AutoDirection
from ..frontier import Frontier, as_frontier
from ..graph import Graph
from ..replay import claim_batch, joint_batch
from ..slots import for_graph
from .expand import default_chunk_edges, expand


def advance(
    graph: Graph,
    frontier,
    functor: Callable | None = None,
    *,
    direction: str = "push",
    among=None,
    chunk_edges: int | None = None,
) -> Frontier:
    """Advance ``frontier`` over the edges of ``graph``.

    Parameters
    ----------
    graph : Graph
    frontier : Frontier, id array or boolean mask
        The active vertices.
    functor : callable ``(src, dst, edge, weight) -> bool array``, optional
        Called on batches of edges (arrays of equal length; ``weight`` is
        ``None`` for an unweighted graph). It may update vertex data, best
        with :func:`~frontier.claim`, :func:`~frontier.scatter_min` or
        :func:`~frontier.scatter_add`. ``None`` keeps every edge.
    direction : ``"push"``, ``"pull"`` or :class:`~frontier.AutoDirection`
        Push walks out-edges of the frontier. Pull lets each vertex of
        ``among`` examine its in-edges whose source is in the frontier. An
        ``AutoDirection``, the same object for every level of a traversal
        with a claiming functor (each vertex accepted once), chooses per
        level (:mod:`frontier.direction`, :mod:`.auto`); ``"auto"`` asks
        for one, which a primitive makes with
        :meth:`~frontier.Primitive.auto_direction`.
    among : Frontier, id array or boolean mask, optional
        Pull only: the candidate destinations (default every vertex).
    chunk_edges : int, optional
        Largest number of edges handed to the functor at once (the general
        path's temporary memory is proportional to it; a batch is whole
        vertices, so a hub may make it larger). Default: as many as fit the
        edge budget, ``FRONTIER_EDGE_BUDGET`` bytes or else an eighth of the
        device's free memory capped at ``2**24`` edges (see
        :func:`frontier.operators.expand.default_chunk_edges`).

    Returns
    -------
    Frontier
        Push: destinations of accepted edges, possibly repeated (a functor
        built on ``claim`` or ``scatter_min`` accepts each vertex once).
        Pull: the accepted candidates, without repeats.

    Raises
    ------
    ValueError
        For an unknown direction, ``among`` with push, or (general path,
        default ``chunk_edges``) a ``FRONTIER_EDGE_BUDGET`` that is not a
        byte count.
    """
    if isinstance(direction, AutoDirection):
        if among is not None:
            raise ValueError("among= with an automatic direction: the rule's pulls choose "
                             "the unvisited vertices themselves")
        from .auto import auto_advance

        frontier = as_frontier(frontier, graph.num_vertices, graph.device)
        batch = joint_batch()
        if batch is not None:  # a part's levels, pulls included, each with its boundary
            output = batch.joint.run_auto(graph, frontier, functor, direction, batch)
            if output is not None:
                batch.exchanged = True
                return output
        return auto_advance(advance, graph, frontier, functor, direction, chunk_edges)
    if direction == "auto":
        raise ValueError("direction='auto' keeps counts from level to level: pass the same "
                         "frontier.AutoDirection() to every advance of the traversal (in a "
                         "primitive: self.auto_direction(), made in setup)")
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r}: expected one of {DIRECTIONS} "
                         "or a frontier.AutoDirection")
    frontier = as_frontier(frontier, graph.num_vertices, graph.device)
    if among is not None and direction == "push":
        raise ValueError("among= selects pull candidates; it has no meaning for push")
    functor = for_graph(functor, graph)
    if direction == "push" and among is None:
        batch = joint_batch()
        if batch is not None:  # a part's levels, each with its boundary
            output = batch.joint.run(graph, frontier, functor, batch)
            if output is not None:
                batch.exchanged = True
                return output
    result = _fast_path(graph, frontier, functor, direction, among)
    if result is not None:
        return _predecessors_in_caller_ids(functor, result)
    if chunk_edges is None:
        # a push walks at most size x largest degree edges (a pull: no cheap bound)
        most = frontier.size * graph.max_out_degree() if direction == "push" else None
        chunk_edges = default_chunk_edges(graph, output_bytes=1, most_edges=most)
    if direction == "push":
        return _push(graph, frontier, functor, chunk_edges)
    candidates = None if among is None else as_frontier(among, graph.num_vertices, graph.device)
    return _pull(graph, frontier, functor, candidates, chunk_edges)


def _fast_path(graph: Graph, frontier: Frontier, functor, direction: str, among):
    """The output of a built-in functor's fast path: a fused kernel on a GPU
    (:mod:`.fused`), the host claims on a CPU (:mod:`.host_push`,
    :mod:`.host_pull`); ``None`` where none applies."""
    if graph.device.is_gpu:
        return _fused_advance()(graph, frontier, functor, direction, among)
    if getattr(functor, "fused", None) == "relax_min" and direction == "push":
        batch = claim_batch()
        if batch is None:
            return None
        from .host_levels import relax_to_fixed_point

        return relax_to_fixed_point(graph, frontier, functor, batch)
    if not _host_claim_fits(functor):
        return None
    if direction == "pull":
        from .host_pull import claim_pull

        candidates = None if among is None else as_frontier(among, graph.num_vertices,
                                                            graph.device)
        return claim_pull(graph, frontier, functor, candidates)
    from .host_push import claim_push

    batch = claim_batch()
    if batch is not None:
        from .host_levels import claim_levels

        levels = claim_levels(graph, frontier, functor, batch)
        if levels is not None:
            return levels
    return claim_push(graph, frontier, functor)


@functools.cache
def _fused_advance():
    """:func:`.fused.fused_advance`, imported on first use by a GPU graph
    (once: an import statement in a level's path costs about a microsecond)."""
    from .fused import fused_advance

    return fused_advance


def _host_claim_fits(functor) -> bool:
    """A built-in claim the CPU fast paths take (host_pull, host_push): labels
    compared with ``unset``."""
    return getattr(functor, "fused", None) == "claim_unvisited" \
        and functor.unset == functor.unset  # not NaN


def _predecessors_in_caller_ids(functor, output: Frontier) -> Frontier:
    """The fast paths store a predecessor as the slot it was found from. On a
    part of a larger graph (``functor.vertex_slots`` set) the primitive reads
    the caller's ids, so the entries this call wrote, those of the output's
    vertices (each once, and no others), are translated."""
    table = getattr(functor, "vertex_slots", None)
    predecessor = getattr(functor, "predecessor", None)
    if table is not None and predecessor is not None:
        written = output.ids
        predecessor[written] = table.ids[predecessor[written]]
    return output


def _call(functor, src, dst, edge, weights):
    weight = None if weights is None else weights[edge]
    accepted = functor(src, dst, edge, weight)
    if getattr(accepted, "shape", None) != dst.shape or accepted.dtype != bool:
        raise TypeError(
            f"functor {getattr(functor, '__name__', functor)!r} must return a boolean "
            f"array of shape {dst.shape}, got {getattr(accepted, 'dtype', type(accepted))} "
            f"of shape {getattr(accepted, 'shape', None)}")
    return accepted


def _push(graph: Graph, frontier: Frontier, functor, chunk_edges: int) -> Frontier:
    xp = graph.xp
    found = []
    for batch in expand(xp, graph.offsets, frontier.ids, chunk_edges):
        dst = graph.columns[batch.edge]
        if functor is not None:
            dst = dst[_call(functor, batch.vertex, dst, batch.edge, graph.weights)]
        found.append(dst)
    return _frontier_of(graph, found)


def _pull(graph: Graph, frontier: Frontier, functor, candidates, chunk_edges: int) -> Frontier:
    xp = graph.xp
    in_edges = graph.in_edges()
    active = frontier.mask
    vertices = xp.arange(graph.num_vertices) if candidates is None else candidates.ids
    found = []
    for batch in expand(xp, in_edges.offsets, vertices, chunk_edges):
        src = in_edges.sources[batch.edge]
        from_frontier = xp.flatnonzero(active[src])
        src, dst = src[from_frontier], batch.vertex[from_frontier]
        edge = batch.edge[from_frontier]
        if in_edges.edge_ids is not None:
            edge = in_edges.edge_ids[edge]
        if functor is not None:
            dst = dst[_call(functor, src, dst, edge, graph.weights)]
        found.append(dst)
    return _frontier_of(graph, found).unique()


def _frontier_of(graph: Graph, parts: list) -> Frontier:
    xp = graph.xp
    if not parts:
        return Frontier.empty(graph.num_vertices, graph.device)
    ids = parts[0] if len(parts) == 1 else xp.concatenate(parts)
    return Frontier(graph.num_vertices, graph.device, ids=ids)
