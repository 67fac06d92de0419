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
    return _paths(G, lengths, predecessor, cutoff)


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
    paths = _paths(G, lengths, predecessor, cutoff)
    # NetworkX sums the weights: integers stay integers
    number = float if weight is not None and G.weights is not None \
        and G.weights.dtype.kind == "f" else int
    distances = {node: number(lengths[G.vertex_id(node)]) for node in paths}
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
    paths = _paths(G, lengths, predecessor, None)
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


def _paths(G: fr.Graph, lengths: np.ndarray, predecessor: np.ndarray, cutoff) -> dict:
    """node -> path for every vertex reached (within ``cutoff``), nearest first."""
    reached = lengths >= 0 if lengths.dtype.kind in "iu" else np.isfinite(lengths)
    if cutoff is not None:
        reached &= lengths <= cutoff
    order = np.flatnonzero(reached)
    order = order[np.argsort(lengths[order], kind="stable")]
    path_of: dict[int, list] = {}
    for vertex in order.tolist():
        chain = []
        while vertex not in path_of and vertex >= 0:
            chain.append(vertex)
            vertex = int(predecessor[vertex])
        path = path_of.get(vertex, [])
        for step in reversed(chain):
            path = [*path, G.node(step)]
            path_of[step] = path
    return {G.node(vertex): path_of[vertex] for vertex in order.tolist()}

