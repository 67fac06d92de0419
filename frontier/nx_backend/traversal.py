"""Breadth-first traversal with NetworkX's signatures, order and errors.

Frontier's :func:`primitives.bfs` finds every vertex's depth; :mod:`.order`
then lays the levels out in NetworkX's order, so the edges, layers and
lengths come out exactly as NetworkX yields them. Functions NetworkX writes
as generators are generators here too: nothing runs, and no error is raised,
before the first item is asked for.
"""

from __future__ import annotations

import numbers

import networkx as nx
import numpy as np

import frontier as fr
from primitives import bfs

from .answer_graphs import networkx_graph
from .graph import BackendGraph, Declined
from .order import Levels, bfs_levels


def depths_from(G: BackendGraph, sources: list[int], *, reverse: bool = False) -> np.ndarray:
    """Hops from the nearest of ``sources`` to every vertex (-1 if unreached),
    by Frontier's BFS. Several sources are searched at once from an added
    vertex joined to each of them."""
    if len(sources) == 1:
        graph = G.frontier_graph(reverse=reverse)
        return fr.to_numpy(bfs(graph, source=sources[0]).depth)
    n = len(G.nodes)
    src, dst = (G.edge_dst, G.edge_src) if reverse else (G.edge_src, G.edge_dst)
    hub = np.full(len(sources), n, np.int64)
    graph = fr.Graph.from_edges(np.concatenate([src, hub]), np.concatenate([dst, sources]),
                                None, n + 1, G.directed, device=G.device())
    depth = fr.to_numpy(bfs(graph, source=n).depth)[:n]
    return np.where(depth > 0, depth - 1, -1)


def tree_levels(G: BackendGraph, source, *, reverse: bool = False, limit=None) -> Levels:
    """NetworkX's BFS order and tree from ``source`` (NetworkXError if absent,
    worded as ``G.neighbors`` words it)."""
    s = G.vertex(source)
    if s is None:
        kind = "digraph" if G.directed else "graph"
        raise nx.NetworkXError(f"The node {source} is not in the {kind}.")
    flip = reverse and G.directed
    depth = depths_from(G, [s], reverse=flip)
    return bfs_levels(G.predecessors if flip else G.successors, depth, [s], limit)


def check_limit(name: str, value) -> None:
    """Declined unless ``value`` is None or a real number (what NetworkX compares)."""
    if value is not None and not isinstance(value, numbers.Real):
        raise Declined(f"{name}={value!r} is not a real number")


def check_sort_neighbors(sort_neighbors) -> None:
    if sort_neighbors is not None:
        raise Declined("sort_neighbors is applied per node by NetworkX")


def bfs_edges(G: BackendGraph, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """``nx.bfs_edges``: tree edges ``(parent, child)`` in NetworkX's order."""
    check_sort_neighbors(sort_neighbors)
    check_limit("depth_limit", depth_limit)
    return _tree_edges(G, source, reverse, depth_limit)


def _tree_edges(G, source, reverse, depth_limit):
    levels = tree_levels(G, source, reverse=reverse, limit=depth_limit)
    parents = _named_parents(G, source, levels)
    children = levels.vertices[levels.starts[1]:].tolist()
    nodes = G.nodes
    for parent, child in zip(parents, children):
        yield parent, nodes[child]


def _named_parents(G, source, levels: Levels) -> list:
    """The tree parent of every vertex after the first level, as a node; the
    source as the caller gave it (NetworkX yields that object)."""
    first, second = levels.starts[1], levels.starts[min(2, len(levels.starts) - 1)]
    nodes = G.nodes
    return [source] * int(second - first) + [nodes[i] for i in levels.parents[second:].tolist()]


def bfs_tree(G: BackendGraph, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """``nx.bfs_tree``: the BFS tree as a ``nx.DiGraph``: the source (the
    object given), then each vertex reached, in NetworkX's order, with the
    edge from its parent (built by :mod:`.answer_graphs`)."""
    check_sort_neighbors(sort_neighbors)
    check_limit("depth_limit", depth_limit)
    levels = tree_levels(G, source, reverse=reverse, limit=depth_limit)
    labels = list(G.nodes)
    labels[int(levels.vertices[0])] = source  # NetworkX's tree holds the object given
    first = levels.starts[1]
    return networkx_graph(nx.DiGraph, labels, levels.vertices, levels.parents[first:],
                          levels.vertices[first:])


def bfs_predecessors(G: BackendGraph, source, depth_limit=None, sort_neighbors=None):
    """``nx.bfs_predecessors``: ``(child, parent)`` in NetworkX's order."""
    check_sort_neighbors(sort_neighbors)
    check_limit("depth_limit", depth_limit)
    return ((child, parent) for parent, child in _tree_edges(G, source, False, depth_limit))


def bfs_successors(G: BackendGraph, source, depth_limit=None, sort_neighbors=None):
    """``nx.bfs_successors``: ``(parent, [children])`` in NetworkX's order."""
    check_sort_neighbors(sort_neighbors)
    check_limit("depth_limit", depth_limit)
    return _successors(G, source, depth_limit)


def _successors(G, source, depth_limit):
    levels = tree_levels(G, source, limit=depth_limit)
    first = levels.starts[1]
    parents, children = levels.parents[first:], levels.vertices[first:]
    if not len(parents):
        yield source, []
        return
    named, nodes = _named_parents(G, source, levels), G.nodes
    # A parent's children are consecutive: cut where the parent changes.
    cuts = np.flatnonzero(parents[1:] != parents[:-1]) + 1
    for start, stop in zip(np.r_[0, cuts].tolist(), np.r_[cuts, len(parents)].tolist()):
        yield named[start], [nodes[i] for i in children[start:stop].tolist()]


def bfs_layers(G: BackendGraph, sources):
    """``nx.bfs_layers``: lists of nodes by distance from ``sources``."""
    if sources in G:
        sources = [sources]
    return _layers(G, sources)


def _layers(G, sources):
    first = list(set(sources))  # NetworkX's first layer, in the same set order
    ids = []
    for source in first:
        if source not in G:
            raise nx.NetworkXError(f"The node {source} is not in the graph.")
        ids.append(G.index[source])
    if not ids:
        return
    levels = bfs_levels(G.successors, depths_from(G, ids), ids)
    nodes, starts = G.nodes, levels.starts
    yield first
    for d in range(1, len(starts) - 1):
        yield [nodes[i] for i in levels.level(d).tolist()]


def descendants_at_distance(G: BackendGraph, source, distance):
    """``nx.descendants_at_distance``: the set of nodes ``distance`` hops away."""
    check_limit("distance", distance)
    if source not in G:
        raise nx.NetworkXError(f"The node {source} is not in the graph.")
    if not 0 <= distance <= len(G.nodes):
        return set()
    depth = depths_from(G, [G.index[source]])
    return {G.nodes[i] for i in np.flatnonzero(depth == distance).tolist()}


def single_source_shortest_path_length(G: BackendGraph, source, cutoff=None) -> dict:
    """``nx.single_source_shortest_path_length``: hops to every reachable node
    (within ``cutoff``), in NetworkX's order."""
    check_limit("cutoff", cutoff)
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    levels = tree_levels(G, source, limit=cutoff)
    nodes, lengths = G.nodes, {source: 0}  # keyed by the caller's object, as NetworkX does
    for d in range(1, len(levels.starts) - 1):
        lengths.update(dict.fromkeys([nodes[i] for i in levels.level(d).tolist()], d))
    return lengths


def single_source_shortest_path(G: BackendGraph, source, cutoff=None) -> dict:
    """``nx.single_source_shortest_path``: the path to every reachable node
    (within ``cutoff`` hops) along NetworkX's own BFS tree, in its order, so
    where shortest paths tie the one returned is NetworkX's."""
    check_limit("cutoff", cutoff)
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return tree_paths(G, source, cutoff)


def tree_paths(G: BackendGraph, source, cutoff=None, *, reverse: bool = False) -> dict:
    """The path from ``source`` to every node along NetworkX's BFS tree, in
    its order (``reverse``: along reversed edges, paths still from ``source``)."""
    levels = tree_levels(G, source, reverse=reverse, limit=cutoff)
    nodes, paths = G.nodes, {source: [source]}
    path_of = {int(levels.vertices[0]): paths[source]}
    for vertex, parent in zip(levels.vertices[1:].tolist(), levels.parents[1:].tolist()):
        path_of[vertex] = paths[nodes[vertex]] = [*path_of[parent], nodes[vertex]]
    return paths


def has_path(G: BackendGraph, source, target) -> bool:
    """``nx.has_path``: whether ``target`` is reached from ``source``
    (``NodeNotFound`` for either not in the graph, as NetworkX says it)."""
    for role, node in (("Source", source), ("Target", target)):
        if node not in G:
            raise nx.NodeNotFound(f"{role} {node} is not in G")
    return bool(depths_from(G, [G.vertex(source)])[G.vertex(target)] >= 0)
