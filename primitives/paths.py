"""Paths, not only lengths: NetworkX's path functions from the predecessor
trees that :func:`~primitives.bfs` and :func:`~primitives.sssp` return.

The traversal runs where ``G`` is (CPU, GPU, several devices); the tree is
then read back and walked on the host, each path once: a vertex's path is
its predecessor's path and the vertex. Sources, targets and the keys and
entries of the answers are the caller's nodes (``G.node_labels`` on a graph
built from NetworkX with labels, else vertex ids), as NetworkX gives them.

Where several shortest paths tie, the one returned is the traversal's
(NetworkX may pick another of the same length). ``weight=None`` counts hops
with BFS; a weight name uses ``G.weights`` when the graph has them (one
weight per edge, as :meth:`frontier.Graph.from_networkx` keeps the named
attribute), else every edge weighs 1 as NetworkX's default does.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

import frontier as fr

from .bfs import bfs
from .sssp import sssp


def single_source_shortest_path(G: fr.Graph, source, cutoff=None, **options) -> dict:
    """``nx.single_source_shortest_path``: the fewest-hop path from
    ``source`` to every node it reaches (within ``cutoff`` hops).

    Returns
    -------
    dict
        node -> list of nodes from ``source`` to it.

    Raises
    ------
    networkx.NodeNotFound
        If ``source`` is not a node of ``G``.

    Examples
    --------
    >>> import frontier as fr
    >>> G = fr.Graph.from_edges([0, 1, 0], [1, 2, 3], device="cpu")
    >>> single_source_shortest_path(G, 0)
    {0: [0], 1: [0, 1], 3: [0, 3], 2: [0, 1, 2]}
    """
    lengths, predecessor = _tree(G, source, None, options)
    return _paths(G, lengths, predecessor, cutoff)[0]


def single_source_dijkstra(G: fr.Graph, source, target=None, cutoff=None,
                           weight="weight", **options):
    """``nx.single_source_dijkstra``: shortest weighted lengths and paths
    from ``source`` (non-negative weights).

    Returns
    -------
    (dict, dict)
        node -> length and node -> path, for every node reached within
        ``cutoff``; with ``target``, that node's ``(length, path)``.

    Raises
    ------
    networkx.NodeNotFound
        If ``source`` is not a node of ``G``.
    networkx.NetworkXNoPath
        If ``target`` is given and not reached (within ``cutoff``).
    """
    lengths, predecessor = _tree(G, source, weight, options)
    paths, vertices, nodes = _paths(G, lengths, predecessor, cutoff)
    # NetworkX sums the weights: integers stay integers
    number = np.float64 if weight is not None and G.weights is not None \
        and G.weights.dtype.kind == "f" else np.int64
    distances = dict(zip(nodes, lengths[vertices].astype(number).tolist(), strict=True))
    distances[G.node(G.vertex_id(source))] = 0  # NetworkX's source length is the int 0
    if target is None:
        return distances, paths
    if target not in paths:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    return distances[target], paths[target]


def dijkstra_path(G: fr.Graph, source, target, weight="weight", **options) -> list:
    """``nx.dijkstra_path``: a shortest weighted path from ``source`` to
    ``target`` (:class:`networkx.NetworkXNoPath` if there is none)."""
    return single_source_dijkstra(G, source, target, weight=weight, **options)[1]


def shortest_path(G: fr.Graph, source, target=None, weight=None, method="dijkstra",
                  **options):
    """``nx.shortest_path`` from one source: every path from ``source``
    (a dict), or the path to ``target`` (a list). ``weight=None`` counts
    hops; ``method`` is NetworkX's (``"dijkstra"``; ``"bellman-ford"`` is
    refused: it exists for negative weights, which SSSP rejects).

    Raises
    ------
    ValueError
        For an unknown ``method``, or ``source=None`` (all pairs are not
        computed here).
    networkx.NodeNotFound, networkx.NetworkXNoPath
        As NetworkX raises them.
    """
    if method not in ("dijkstra", "bellman-ford"):
        raise ValueError(f"method not supported: {method}")
    if method != "dijkstra":
        raise ValueError("method='bellman-ford' is for negative weights, which sssp rejects; "
                         "use networkx.shortest_path")
    if source is None:
        raise ValueError("shortest_path needs a source here (all pairs are not computed)")
    lengths, predecessor = _tree(G, source, weight, options)
    paths = _paths(G, lengths, predecessor, None)[0]
    if target is None:
        return paths
    if target not in paths:
        if not _is_node(G, target):
            raise nx.NodeNotFound(f"Target {target} is not in G")
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return paths[target]


def has_path(G: fr.Graph, source, target, **options) -> bool:
    """``nx.has_path``: whether ``target`` can be reached from ``source``
    (:class:`networkx.NodeNotFound` if either is not a node)."""
    if _is_node(G, source) and not _is_node(G, target):
        raise nx.NodeNotFound(f"Target {target} is not in G")
    lengths, _ = _tree(G, source, None, options)
    return bool(lengths[G.vertex_id(target)] >= 0)


# ----------------------------------------------------------------------------------------

def _is_node(G: fr.Graph, node) -> bool:
    try:
        G.vertex_id(node)
    except (ValueError, TypeError):
        return False
    return True


def _tree(G: fr.Graph, source, weight, options: dict):
    """The host ``(lengths, predecessor)`` of a traversal from ``source``:
    lengths are hops (-1 unreached) or distances (``inf`` unreached)."""
    if not _is_node(G, source):
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if weight is None or G.weights is None:
        result = bfs(G, source, **options)
        return fr.to_numpy(result.depth), fr.to_numpy(result.predecessor)
    result = sssp(G, source, **options)
    return fr.to_numpy(result.distance), fr.to_numpy(result.predecessor)


def _paths(G: fr.Graph, lengths: np.ndarray, predecessor: np.ndarray,
           cutoff) -> tuple[dict, np.ndarray, list]:
    """``(paths, vertices, nodes)``: node -> path for every vertex reached
    (within ``cutoff``), nearest first, and those vertices (an array) and
    their nodes (a list) in the same order, for a caller that keys other
    answers by the same nodes.

    Whole-array work: the paths of the vertices ``d`` steps down the tree
    are the rows of a ``(vertices, d + 1)`` array, their parents' rows and
    their own ids, turned into lists by one ``tolist`` per level; no Python
    loop runs per vertex."""
    vertices = _reached(lengths, cutoff)  # closed under parents: lengths grow along the tree
    depth, parent = _tree_depth(predecessor, vertices)
    order = np.argsort(depth, kind="stable")
    starts = np.searchsorted(depth[order], np.arange(int(depth.max(initial=-1)) + 2))
    labels = _labels(G)
    row = np.empty(len(vertices), dtype=np.int64)  # of each vertex in its level's array
    rows = np.empty((0, 1), dtype=vertices.dtype)
    paths: list = []
    with fr.collector_paused():
        for level in (order[start:stop] for start, stop in zip(starts, starts[1:])):
            row[level] = np.arange(len(level))
            rows = np.concatenate([rows[row[parent[level]]], vertices[level, None]], axis=1) \
                if len(paths) else vertices[level, None]
            paths.extend((rows if labels is None else labels[rows]).tolist())
        at = np.empty(len(order), dtype=np.int64)
        at[order] = np.arange(len(order))
        nodes = _nodes(labels, vertices)
        return dict(zip(nodes, [paths[i] for i in at.tolist()], strict=True)), vertices, nodes


def _reached(lengths: np.ndarray, cutoff) -> np.ndarray:
    """The vertices reached (within ``cutoff``), nearest first, ties by id."""
    reached = lengths >= 0 if lengths.dtype.kind in "iu" else np.isfinite(lengths)
    if cutoff is not None:
        reached &= lengths <= cutoff
    vertices = np.flatnonzero(reached)
    return vertices[np.argsort(lengths[vertices], kind="stable")]


def _labels(G: fr.Graph):
    """``G.node_labels`` as an object array (each label one entry, tuples
    too), or None on a graph whose nodes are its vertex ids."""
    if G.node_labels is None:
        return None
    return np.fromiter(G.node_labels, dtype=object, count=len(G.node_labels))


def _nodes(labels, vertices: np.ndarray) -> list:
    """The caller's node of each of ``vertices``: its entry of ``labels``
    (from :func:`_labels`), or its id where ``labels`` is None."""
    return (vertices if labels is None else labels[vertices]).tolist()


def _tree_depth(predecessor: np.ndarray, vertices: np.ndarray):
    """The depth in the tree of each of ``vertices`` (a set closed under
    ``predecessor``, which is -1 at the root) and the position in
    ``vertices`` of its parent (-1 for the root), by pointer jumping
    (``log2(depth)`` whole-array rounds).

    Examples
    --------
    >>> depth, parent = _tree_depth(np.array([2, 0, -1, 1]), np.arange(4))
    >>> depth.tolist(), parent.tolist()
    ([1, 2, 0, 3], [2, 0, -1, 1])
    """
    at = np.full(len(predecessor), -1, dtype=np.int64)
    at[vertices] = np.arange(len(vertices))
    up = predecessor[vertices].astype(np.int64)
    up = np.where(up >= 0, at[np.maximum(up, 0)], -1)
    depth, ancestor = (up >= 0).astype(np.int64), up.copy()
    for _ in range(64):  # depth < 2**64: more rounds means a cycle
        jumping = np.flatnonzero(ancestor >= 0)
        if len(jumping) == 0:
            return depth, up
        via = ancestor[jumping]
        depth[jumping] += depth[via]  # fancy indexing reads before it writes
        ancestor[jumping] = ancestor[via]
    raise ValueError("the predecessors do not form a tree")
