"""NetworkX's ``networkx.backend_info`` entry point for the ``frontier`` backend.

NetworkX calls :func:`backend_info` while it is imported, to document and list
the functions every installed backend implements. This module is therefore
kept apart from the ``frontier`` package: loading it imports neither Frontier
nor CuPy nor NumPy (only the standard library's ``textwrap``), so ``import
networkx`` stays fast. The backend itself is :mod:`frontier.nx_backend`.
"""

from __future__ import annotations

import textwrap

_DECLINED_WEIGHT = (
    "A ``weight`` that is a function, and weights that are not all numbers "
    "(``None`` hides an edge in NetworkX), are left to NetworkX."
)

# name -> the differences users should know about, shown in NetworkX's docstrings.
FUNCTIONS: dict[str, str] = {
    "bfs_edges": "``sort_neighbors`` is left to NetworkX. Edges come in NetworkX's order.",
    "bfs_tree": "``sort_neighbors`` is left to NetworkX.",
    "bfs_layers": "Layers come in NetworkX's order; several sources run as one search.",
    "bfs_predecessors": "``sort_neighbors`` is left to NetworkX.",
    "bfs_successors": "``sort_neighbors`` is left to NetworkX.",
    "descendants_at_distance": "A ``distance`` that is not a real number is left to NetworkX.",
    "single_source_shortest_path_length": "Lengths come in NetworkX's order.",
    "single_source_shortest_path": "Paths along NetworkX's BFS tree, in its order.",
    "has_path": "",
    "shortest_path_length": (
        "Only with a ``source``; ``method='bellman-ford'`` with a weight is left to "
        "NetworkX. " + _DECLINED_WEIGHT
    ),
    "single_source_dijkstra_path_length": (
        "Negative weights, and integer weights mixed with floats, are left to NetworkX. "
        "Lengths come sorted by length (NetworkX breaks ties by its heap). "
        + _DECLINED_WEIGHT
    ),
    "dijkstra_path_length": (
        "Negative weights, and integer weights mixed with floats, are left to NetworkX. "
        + _DECLINED_WEIGHT
    ),
    "connected_components": "",
    "number_connected_components": "",
    "is_connected": "",
    "node_connected_component": "",
    "weakly_connected_components": "",
    "number_weakly_connected_components": "",
    "betweenness_centrality": (
        "Weighted runs need positive weights (else NetworkX runs); a ``k`` that is not "
        "an integer in 1..n is left to NetworkX. " + _DECLINED_WEIGHT
    ),
    "pagerank": (
        "``nstart`` or ``dangling`` values that sum to 0 over the graph's nodes, "
        "arguments that are not dicts, negative weights, and an ``alpha``, ``tol`` or "
        "``max_iter`` that is not a finite number (or is negative, for the last two) are "
        "left to NetworkX. " + _DECLINED_WEIGHT
    ),
}
FUNCTIONS.update({
    "hits": (
        "A power iteration instead of ARPACK: the same answer where the leading singular "
        "vectors are unique (else the one reached from ``nstart``); graphs without an edge "
        "of non-zero weight, one node, negative weights, and runs that need more than "
        "``max_iter`` power iterations are left to NetworkX."
    ),
    "eigenvector_centrality": "An ``nstart`` that is not a dict over exactly the nodes is "
                              "left to NetworkX. " + _DECLINED_WEIGHT,
    "katz_centrality": "An ``nstart`` that is not a dict over exactly the nodes is left to "
                       "NetworkX. " + _DECLINED_WEIGHT,
    "strongly_connected_components": (
        "Components come in a reverse topological order of the condensation, as in "
        "NetworkX, sinks first level by level, ties by first node; NetworkX's order among "
        "components of one level depends on its depth-first search."
    ),
    "number_strongly_connected_components": "",
    "is_strongly_connected": "",
    "label_propagation_communities": "",
})

# Weighted paths, edge betweenness, k-cores and triangles (frontier/nx_backend/
# paths.py, edge_betweenness.py, cores.py, clustering.py).
_WEIGHTED_PATHS = (
    "Hop-count paths are NetworkX's; with weights, where several paths are shortest "
    "the one returned may differ from NetworkX's. Negative weights, and integer "
    "weights mixed with floats, are left to NetworkX. " + _DECLINED_WEIGHT
)
FUNCTIONS.update({
    "single_source_dijkstra": _WEIGHTED_PATHS,
    "single_source_dijkstra_path": _WEIGHTED_PATHS,
    "dijkstra_path": _WEIGHTED_PATHS,
    "shortest_path": (
        "Paths between all pairs, and ``method='bellman-ford'`` with a weight, are left "
        "to NetworkX. Between a source and a target the path is a shortest one, not "
        "necessarily the one NetworkX's bidirectional search finds. " + _WEIGHTED_PATHS
    ),
    "edge_betweenness_centrality": (
        "Multigraphs, weights <= 0 and a ``k`` that is not an integer in 1..n are left to "
        "NetworkX. " + _DECLINED_WEIGHT
    ),
    "core_number": "",
    "k_core": "Graphs with node or edge attributes (which NetworkX copies) are left to NetworkX.",
    "triangles": "Multigraphs are left to NetworkX.",
    "transitivity": "Multigraphs are left to NetworkX.",
    "clustering": "Weighted clustering and multigraphs are left to NetworkX.",
    "average_clustering": "Weighted clustering and multigraphs are left to NetworkX.",
})

DEFAULT_CONFIG = {
    # Where converted graphs live and primitives run: "cpu", "cuda:N", or None
    # for Frontier's default (the first GPU if CuPy sees one; FRONTIER_DEVICE).
    "device": None,
}


def backend_info() -> dict:
    """The backend's description, in the form NetworkX's dispatcher reads."""
    return {
        "backend_name": "frontier",
        "project": "frontier-graph",
        "package": "frontier",
        "short_summary": "Gunrock-style frontier primitives on NumPy (CPU) and CuPy (GPU).",
        "default_config": dict(DEFAULT_CONFIG),
        "functions": {
            name: {"additional_docs": textwrap.fill(docs, 76)} if docs else {}
            for name, docs in FUNCTIONS.items()
        },
    }
