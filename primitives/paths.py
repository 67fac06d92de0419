"""Shortest paths, not only their lengths, with NetworkX's signatures.

BFS and SSSP already leave a shortest-path tree behind: ``predecessor[v]``
is the vertex before ``v`` on a shortest path from the source. A path is
that tree read backwards, so these functions run :func:`primitives.bfs`
(hops) or :func:`primitives.sssp` (weights) once, on any device or several,
and lay the tree out on the host:

* list ranking (pointer doubling, ``O(log depth)`` vectorized passes) gives
  every reached vertex its depth in the tree;
* in order of depth, ``path[v] = path[predecessor[v]] + [v]``, as NetworkX
  builds its own paths.

Where several shortest paths exist, the one returned is the one the tree
holds; NetworkX's choice follows its own visiting order (the NetworkX
backend reproduces it for hop counts, see docs/primitives/paths.md).
Vertex ids are ints ``0..n-1``; errors are NetworkX's: ``NodeNotFound``
for a vertex not in the graph, ``NetworkXNoPath`` for an unreachable
target.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

import frontier as fr

from .bfs import bfs
from .sssp import sssp

METHODS = ("dijkstra", "bellman-ford")


def tree_depth(predecessor) -> np.ndarray:
    """Edges from every vertex up to the root of its tree in the forest
    ``predecessor`` (-1 marks a root or an unreached vertex), by list ranking."""
    hop = np.asarray(predecessor, dtype=np.int64).copy()
    depth = (hop >= 0).astype(np.int64)
    while True:
        up = np.flatnonzero(hop >= 0)
        if not len(up):
            return depth
        above = hop[up]
        # Both updates read the values before this pass (fancy indexing copies).
        depth[up] += depth[above]
        hop[up] = hop[above]


def paths_in_order(order, parent, name=None) -> dict:
    """``{v: path}`` for the vertices ``order`` (each after its parent),
    ``parent[i]`` being the parent of ``order[i]`` (-1 for a root, whose path
    is itself). With ``name`` (a function of a vertex id), keys and paths
    hold ``name(v)`` instead of ``v``."""
    paths, named = {}, {}
    for v, p in zip(np.asarray(order).tolist(), np.asarray(parent).tolist()):
        paths[v] = [v] if p < 0 else paths[p] + [v]
    if name is None:
        return paths
    for v, path in paths.items():
        named[name(v)] = [name(u) for u in path]
    return named


def tree_paths(predecessor, reached) -> dict:
    """``{v: path from the root}`` for every vertex of the boolean mask
    ``reached``, from a forest whose predecessors are all reached too."""
    predecessor = np.asarray(predecessor, dtype=np.int64)
    ids = np.flatnonzero(reached)
    order = ids[np.argsort(tree_depth(predecessor)[ids], kind="stable")]
    return paths_in_order(order, predecessor[order])


def _check_node(G: fr.Graph, vertex, role: str = "Source") -> int:
    if isinstance(vertex, bool) or not isinstance(vertex, (int, np.integer)) \
            or not 0 <= int(vertex) < G.num_vertices:
        raise nx.NodeNotFound(f"{role} {vertex} is not in G")
    return int(vertex)


def _check_cutoff(cutoff) -> None:
    if cutoff is not None and not isinstance(cutoff, (int, float, np.integer, np.floating)):
        raise TypeError(f"cutoff={cutoff!r} must be a number or None")


def _weighted_tree(G: fr.Graph, source: int, weight, options):
    """Lengths (float64, inf if unreached), predecessors and the Python type
    of NetworkX's sums, by SSSP; or by BFS when ``weight`` is None or the
    graph has no weights (every edge then weighs 1 in NetworkX too)."""
    if weight is None or not G.is_weighted:
        r = bfs(G, source, **options).to_numpy()
        distance = np.where(r.depth >= 0, r.depth, np.inf).astype(np.float64)
        return distance, r.predecessor, int
    r = sssp(G, source, **options).to_numpy()
    kind = int if np.issubdtype(np.asarray(G.weights).dtype, np.integer) else float
    return r.distance, r.predecessor, kind


def single_source_shortest_path(G: fr.Graph, source: int, cutoff=None, **options) -> dict:
    """Paths with the fewest edges from ``source`` to every reachable vertex,
    as ``networkx.single_source_shortest_path``.

    Parameters
    ----------
    G : frontier.Graph
    source : int
    cutoff : number, optional
        Only vertices at most ``cutoff`` edges away.
    **options
        Enactor options (``devices``, ``partition``, ...; see :func:`frontier.enact`).

    Returns
    -------
    dict
        ``{v: [source, ..., v]}``, nearest first; ``{source: [source]}`` at least.

    Raises
    ------
    networkx.NodeNotFound
        If ``source`` is not a vertex of ``G``.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import single_source_shortest_path
    >>> G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], device="cpu")
    >>> single_source_shortest_path(G, 0)[3]
    [0, 1, 2, 3]
    """
    source = _check_node(G, source)
    _check_cutoff(cutoff)
    r = bfs(G, source, **options).to_numpy()
    reached = r.depth >= 0
    if cutoff is not None:
        reached &= r.depth <= cutoff
    return tree_paths(r.predecessor, reached)


def single_source_dijkstra(G: fr.Graph, source: int, target=None, cutoff=None,
                           weight="weight", **options):
    """Weighted shortest lengths and paths from ``source``, as
    ``networkx.single_source_dijkstra``.

    Parameters
    ----------
    G : frontier.Graph
        Non-negative weights; an unweighted graph (or ``weight=None``) has
        every edge weigh 1.
    source : int
    target : int, optional
        Return only the length and path to ``target``.
    cutoff : number, optional
        Only vertices at most ``cutoff`` away.
    weight : str or None
        Any name uses ``G.weights``; ``None`` counts edges.
    **options
        Enactor options (see :func:`frontier.enact`).

    Returns
    -------
    (dict, dict) or (number, list)
        ``({v: length}, {v: path})`` sorted by length, or ``(length, path)``
        to ``target``. Lengths are ints for integer weights, as NetworkX's sums.

    Raises
    ------
    networkx.NodeNotFound
        If ``source`` is not a vertex of ``G``.
    networkx.NetworkXNoPath
        If ``target`` is given and not reachable (within ``cutoff``).
    ValueError
        If an edge has a negative weight.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import single_source_dijkstra
    >>> G = fr.Graph.from_edges([0, 0, 1], [1, 2, 2], weights=[4, 1, 2], device="cpu")
    >>> single_source_dijkstra(G, 0, 1)
    (3, [0, 2, 1])
    """
    source = _check_node(G, source)
    _check_cutoff(cutoff)
    if target is not None:
        target = _check_node(G, target, "Target")
    distance, predecessor, kind = _weighted_tree(G, source, weight, options)
    reached = np.isfinite(distance)
    if cutoff is not None:
        reached &= distance <= cutoff
    if target is not None:
        if not reached[target]:
            raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
        if target == source:
            return 0, [source]
        chain = [target]
        while chain[-1] != source:
            chain.append(int(predecessor[chain[-1]]))
        return kind(distance[target]), chain[::-1]
    paths = tree_paths(predecessor, reached)
    ids = np.flatnonzero(reached)
    ids = ids[np.argsort(distance[ids], kind="stable")]
    lengths = dict(zip(ids.tolist(), map(kind, distance[ids].tolist())))
    lengths[source] = 0  # an int whatever the weights, as in NetworkX
    return lengths, {v: paths[v] for v in lengths}


def dijkstra_path(G: fr.Graph, source: int, target: int, weight="weight", **options) -> list:
    """A shortest weighted path from ``source`` to ``target``, as
    ``networkx.dijkstra_path`` (errors as :func:`single_source_dijkstra`)."""
    return single_source_dijkstra(G, source, target, weight=weight, **options)[1]


def shortest_path(G: fr.Graph, source=None, target=None, weight=None, method="dijkstra",
                  **options):
    """Shortest paths, as ``networkx.shortest_path``.

    With ``source`` and ``target``: one path (a list). With ``source`` only:
    ``{v: path}`` from it. With ``target`` only: ``{v: path to target}`` (a
    directed graph is searched backwards). With neither: ``{s: {v: path}}``
    for every source, one search each. ``weight=None`` counts edges; a name
    uses ``G.weights`` (non-negative). ``method`` is ``"dijkstra"`` or
    ``"bellman-ford"``, which give the same paths here (negative weights are
    refused either way).

    Raises
    ------
    ValueError
        For another ``method``, or a negative weight.
    networkx.NodeNotFound, networkx.NetworkXNoPath
        As NetworkX raises them.
    """
    if method not in METHODS:
        raise ValueError(f"method not supported: {method}")

    def from_source(s, G=G):
        if weight is None:
            return single_source_shortest_path(G, s, **options)
        return single_source_dijkstra(G, s, weight=weight, **options)[1]

    if source is None and target is None:
        return {s: from_source(s) for s in range(G.num_vertices)}
    if source is None:
        reverse = _reversed(G) if G.directed else G
        return {v: path[::-1] for v, path in from_source(_check_node(G, target, "Target"),
                                                         reverse).items()}
    if target is None:
        return from_source(source)
    source = _check_node(G, source)
    target = _check_node(G, target, "Target")
    if weight is None:
        paths = single_source_shortest_path(G, source, **options)
        if target not in paths:
            raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
        return paths[target]
    return dijkstra_path(G, source, target, weight, **options)


def _reversed(G: fr.Graph) -> fr.Graph:
    src, dst, weights = G.edges()
    return G.with_edges(dst, src, weights)


def has_path(G: fr.Graph, source: int, target: int, **options) -> bool:
    """Whether ``target`` can be reached from ``source``, as ``networkx.has_path``.

    Raises
    ------
    networkx.NodeNotFound
        If ``source`` or ``target`` is not a vertex of ``G``.
    """
    source = _check_node(G, source)
    target = _check_node(G, target, "Target")
    return bool(fr.to_numpy(bfs(G, source, **options).depth)[target] >= 0)
