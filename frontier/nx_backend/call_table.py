"""One call of every backend function: what ``frontier warmup`` runs and
``benchmarks/first_call.py`` times.

:data:`CALLS` holds, for each function the backend implements (all of
``frontier_backend_info.FUNCTIONS``; ``tests/test_warmup.py`` checks that),
one call with arguments chosen for a Barabasi-Albert graph with nodes 0 to
n - 1 (``katz_centrality``'s ``alpha`` converges there, ``dijkstra_path``
goes from node 0 to the last node, ...). :func:`frontier.warmup.exercises`
runs each of them once on a small such graph, so that CuPy's own kernels
they launch are compiled into its cache; ``benchmarks/first_call.py`` times
the first one of a fresh process on a large one.

This module imports nothing but the standard library (the calls take the
``networkx`` module as an argument): ``benchmarks/first_call.py`` loads it
from its file, so that importing Frontier's backend stays part of the first
call it times.
"""

from __future__ import annotations


def directed(G):
    """``G.to_directed()`` (``D`` in the calls' texts), for the calls NetworkX
    defines for directed graphs only; the benchmark makes it before its timer
    starts."""
    return G.to_directed()


def sorted_edges(graph) -> list:
    """A graph's edges, sorted (the ends of an undirected one sorted too): an
    answer that is a graph, made comparable."""
    return sorted(edge if graph.is_directed() else tuple(sorted(edge)) for edge in graph.edges)


#: ``{function: (text, call)}`` or ``{function: (text, call, prepare)}``, one
#: entry per function of the backend: the text shown (``G`` the graph, ``D``
#: its :func:`directed` copy, ``n - 1`` its last node, ``len(G) - 1``), the
#: call ``call(nx, G, **backend)`` (``backend="frontier"`` or ``"networkx"``
#: as a keyword) with its answer made whole and comparable (generators
#: consumed into lists, sets or dicts, graphs as :func:`sorted_edges`), and,
#: where there is one, the preparation of the graph it takes
#: (:func:`directed`).
CALLS = {
    "pagerank": ("pagerank(G)", lambda nx, G, **b: nx.pagerank(G, **b)),
    "betweenness_centrality": (
        "betweenness_centrality(G, k=16, seed=0)",
        lambda nx, G, **b: nx.betweenness_centrality(G, k=16, seed=0, **b)),
    "edge_betweenness_centrality": (
        "edge_betweenness_centrality(G, k=16, seed=0)",
        lambda nx, G, **b: nx.edge_betweenness_centrality(G, k=16, seed=0, **b)),
    "eigenvector_centrality": (
        "eigenvector_centrality(G)", lambda nx, G, **b: nx.eigenvector_centrality(G, **b)),
    # alpha under 1 / the adjacency's largest eigenvalue (about 23 at 2,000 nodes, 46 at
    # 200,000), where the default 0.1 is not: it would not converge
    "katz_centrality": (
        "katz_centrality(G, alpha=0.01)",
        lambda nx, G, **b: nx.katz_centrality(G, alpha=0.01, **b)),
    "hits": ("hits(G)", lambda nx, G, **b: nx.hits(G, **b)),
    "connected_components": (
        "connected_components(G)",
        lambda nx, G, **b: [set(c) for c in nx.connected_components(G, **b)]),
    "number_connected_components": (
        "number_connected_components(G)",
        lambda nx, G, **b: nx.number_connected_components(G, **b)),
    "is_connected": ("is_connected(G)", lambda nx, G, **b: nx.is_connected(G, **b)),
    "node_connected_component": (
        "node_connected_component(G, 0)",
        lambda nx, G, **b: nx.node_connected_component(G, 0, **b)),
    "weakly_connected_components": (
        "weakly_connected_components(D)",
        lambda nx, G, **b: [set(c) for c in nx.weakly_connected_components(G, **b)],
        directed),
    "number_weakly_connected_components": (
        "number_weakly_connected_components(D)",
        lambda nx, G, **b: nx.number_weakly_connected_components(G, **b), directed),
    "strongly_connected_components": (
        "strongly_connected_components(D)",
        lambda nx, G, **b: [set(c) for c in nx.strongly_connected_components(G, **b)],
        directed),
    "number_strongly_connected_components": (
        "number_strongly_connected_components(D)",
        lambda nx, G, **b: nx.number_strongly_connected_components(G, **b), directed),
    "is_strongly_connected": (
        "is_strongly_connected(D)",
        lambda nx, G, **b: nx.is_strongly_connected(G, **b), directed),
    "single_source_shortest_path_length": (
        "single_source_shortest_path_length(G, 0)",
        lambda nx, G, **b: dict(nx.single_source_shortest_path_length(G, 0, **b))),
    "single_source_shortest_path": (
        "single_source_shortest_path(G, 0)",
        lambda nx, G, **b: nx.single_source_shortest_path(G, 0, **b)),
    "shortest_path": ("shortest_path(G, 0)", lambda nx, G, **b: nx.shortest_path(G, 0, **b)),
    "shortest_path_length": (
        "shortest_path_length(G, 0)",
        lambda nx, G, **b: dict(nx.shortest_path_length(G, 0, **b))),
    # Every edge weighs 1 here (no "weight" attribute): NetworkX's own paths, from the
    # backend's BFS tree (frontier/nx_backend/paths.py).
    "single_source_dijkstra": (
        "single_source_dijkstra(G, 0)",
        lambda nx, G, **b: nx.single_source_dijkstra(G, 0, **b)),
    "single_source_dijkstra_path": (
        "single_source_dijkstra_path(G, 0)",
        lambda nx, G, **b: nx.single_source_dijkstra_path(G, 0, **b)),
    "single_source_dijkstra_path_length": (
        "single_source_dijkstra_path_length(G, 0)",
        lambda nx, G, **b: dict(nx.single_source_dijkstra_path_length(G, 0, **b))),
    "dijkstra_path": (
        "dijkstra_path(G, 0, n - 1)",
        lambda nx, G, **b: nx.dijkstra_path(G, 0, len(G) - 1, **b)),
    "dijkstra_path_length": (
        "dijkstra_path_length(G, 0, n - 1)",
        lambda nx, G, **b: nx.dijkstra_path_length(G, 0, len(G) - 1, **b)),
    "has_path": ("has_path(G, 0, n - 1)", lambda nx, G, **b: nx.has_path(G, 0, len(G) - 1, **b)),
    "bfs_edges": ("bfs_edges(G, 0)", lambda nx, G, **b: list(nx.bfs_edges(G, 0, **b))),
    "bfs_tree": ("bfs_tree(G, 0)", lambda nx, G, **b: sorted_edges(nx.bfs_tree(G, 0, **b))),
    "bfs_predecessors": (
        "bfs_predecessors(G, 0)", lambda nx, G, **b: list(nx.bfs_predecessors(G, 0, **b))),
    "bfs_successors": (
        "bfs_successors(G, 0)", lambda nx, G, **b: list(nx.bfs_successors(G, 0, **b))),
    "bfs_layers": ("bfs_layers(G, 0)", lambda nx, G, **b: list(nx.bfs_layers(G, 0, **b))),
    "descendants_at_distance": (
        "descendants_at_distance(G, 0, 2)",
        lambda nx, G, **b: nx.descendants_at_distance(G, 0, 2, **b)),
    "triangles": ("triangles(G)", lambda nx, G, **b: nx.triangles(G, **b)),
    "transitivity": ("transitivity(G)", lambda nx, G, **b: nx.transitivity(G, **b)),
    "clustering": ("clustering(G)", lambda nx, G, **b: nx.clustering(G, **b)),
    "average_clustering": (
        "average_clustering(G)", lambda nx, G, **b: nx.average_clustering(G, **b)),
    "core_number": ("core_number(G)", lambda nx, G, **b: nx.core_number(G, **b)),
    "k_core": ("k_core(G)", lambda nx, G, **b: sorted_edges(nx.k_core(G, **b))),
    "label_propagation_communities": (
        "community.label_propagation_communities(G)",
        lambda nx, G, **b: [set(c) for c in nx.community.label_propagation_communities(G, **b)]),
}


def preparation(function: str):
    """The preparation of the graph ``function``'s call takes (the third
    element of its :data:`CALLS` entry, such as :func:`directed`), or None."""
    _, _, *prepare = CALLS[function]
    return prepare[0] if prepare else None
