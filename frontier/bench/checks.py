"""Result checks for the benchmark, outside every timed region.

BFS results go through :func:`frontier.validate.graph500_bfs`, which needs a
depth and a predecessor array; peers that produce only one of the two get the
other from :func:`depth_from_parent` or :func:`parent_from_depth`. SSSP
distances are checked by :func:`check_distances`. Everything here is
whole-array NumPy/CuPy code on the arrays' own device.
"""

from __future__ import annotations

import numpy as np

from ..device import array_namespace
from ..graph import ARC_BATCH, Graph


def depth_from_parent(parent, source: int):
    """BFS depth of every vertex from a predecessor tree.

    Pointer jumping: each round doubles the distance every vertex has climbed,
    so ``log2(depth)`` whole-array rounds suffice.

    Parameters
    ----------
    parent : integer array
        ``parent[v]`` is the vertex ``v`` was reached from; negative for the
        source and for unreached vertices.
    source : int

    Returns
    -------
    int32 array
        Hops from ``source`` along the tree, -1 for unreached vertices.

    Raises
    ------
    ValueError
        If the tree has a cycle or a reached vertex hangs below an unreached one.

    Examples
    --------
    >>> import numpy as np
    >>> depth_from_parent(np.array([-1, 0, 1, -1, 2]), 0).tolist()
    [0, 1, 2, -1, 3]
    """
    xp = array_namespace(parent)
    n = len(parent)
    own = xp.arange(n)
    linked = parent >= 0
    linked[source] = False
    ancestor = xp.where(linked, parent, own)
    climbed = linked.astype(np.int64)
    for _ in range(max(n, 1).bit_length() + 1):
        next_ancestor = ancestor[ancestor]
        if bool((next_ancestor == ancestor).all()):
            break
        climbed = climbed + climbed[ancestor]
        ancestor = next_ancestor
    else:
        raise ValueError("the predecessor array has a cycle: it is not a BFS tree")
    stray = xp.flatnonzero(linked & (ancestor != source))
    if len(stray):
        v = int(stray[0])
        raise ValueError(f"vertex {v} has a predecessor but its tree path ends at vertex "
                         f"{int(ancestor[v])}, not at the source {source}")
    depth = xp.where(linked, climbed, -1).astype(np.int32)
    depth[source] = 0
    return depth


def parent_from_depth(graph: Graph, depth):
    """A BFS predecessor for every reached vertex, from depths alone.

    Each vertex at depth ``d > 0`` gets one in-neighbour at depth ``d - 1``
    (any one: the scatter picks a winner). Graph500 validation of the pair
    then checks the depths themselves: every edge spans at most one level and
    the reached set is closed.

    Parameters
    ----------
    graph : frontier.Graph
    depth : integer array on the graph's device, -1 for unreached

    Returns
    -------
    int64 array
        ``-1`` for the source, unreached vertices, and vertices with no
        in-neighbour one level up (which validation then rejects).

    Examples
    --------
    >>> import numpy as np, frontier as fr
    >>> G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    >>> parent_from_depth(G, np.array([0, 1, 2])).tolist()
    [-1, 0, 1]
    """
    xp = graph.xp
    sources = graph.arc_sources()
    source_depth = depth[sources]
    steps = (source_depth >= 0) & (depth[graph.columns] == source_depth + 1)
    parent = xp.full(graph.num_vertices, -1, dtype=np.int64)
    parent[graph.columns[steps]] = sources[steps]
    return parent


def check_distances(graph: Graph, source: int, distance, rtol: float = 1e-6) -> None:
    """Check single-source shortest-path distances against the edges of ``graph``.

    The source is at distance 0; no arc ``u -> v`` leaves ``v`` farther than
    ``distance[u] + w`` (so the reached set is closed); every other reached
    vertex has an arc that attains its distance. Together these hold exactly
    for the true distances when the weights are positive.

    Parameters
    ----------
    graph : frontier.Graph
        Weights are read from the graph (1 for every arc if unweighted).
    source : int
    distance : float array on the graph's device, ``inf`` for unreached
    rtol : float
        Relative tolerance for sums of floating-point weights.

    Raises
    ------
    ValueError
        Naming the first vertex whose distance is wrong.

    Examples
    --------
    >>> import numpy as np, frontier as fr
    >>> G = fr.Graph.from_edges([0, 1], [1, 2], weights=[2.0, 3.0], device="cpu")
    >>> check_distances(G, 0, np.array([0.0, 2.0, 5.0]))
    >>> check_distances(G, 0, np.array([0.0, 2.0, 4.0]))
    Traceback (most recent call last):
    ...
    ValueError: distance[2] = 4.0 is attained by no arc into it
    """
    xp = graph.xp
    distance = xp.asarray(distance, dtype=np.float64)
    if float(distance[source]) != 0.0:
        raise ValueError(f"distance[{source}] = {float(distance[source])}: the source must "
                         "be at distance 0")
    attained = xp.zeros(graph.num_vertices, dtype=bool)
    # a few float64 per arc of a batch
    for sources, heads, weight in graph.arc_batches(ARC_BATCH):
        weight = 1.0 if weight is None else weight.astype(np.float64)
        from_reached = xp.isfinite(distance[sources])  # arcs out of unreached vertices say nothing
        sources, heads = sources[from_reached], heads[from_reached]
        via = distance[sources] + (weight if np.isscalar(weight) else weight[from_reached])
        target = distance[heads]
        slack = rtol * xp.maximum(1.0, xp.abs(via))
        longer = xp.flatnonzero(target > via + slack)
        if len(longer):
            arc = int(longer[0])
            u, v = int(sources[arc]), int(heads[arc])
            raise ValueError(f"distance[{v}] = {float(target[arc])} but the arc {u} -> {v} "
                             f"gives {float(via[arc])}")
        attained[heads[xp.abs(target - via) <= slack]] = True
    attained[source] = True
    unexplained = xp.flatnonzero(xp.isfinite(distance) & ~attained)
    if len(unexplained):
        v = int(unexplained[0])
        raise ValueError(f"distance[{v}] = {float(distance[v])} is attained by no arc into it")
