"""Workloads of the primitives of issue 32 and of their NetworkX peers.

``--primitives`` names them ``kcore`` (``core_number``), ``triangles``,
``scc``, ``label_propagation``, ``hits``, ``eigenvector``, ``katz``,
``edge_bc`` (one sampled source, as ``bc``), ``paths``
(``single_source_shortest_path``) and ``dijkstra``
(``single_source_dijkstra``, on the weighted graph); the last two are timed
from each root. Frontier and NetworkX get the same settings
(:func:`settings_for`).

Every Frontier answer is checked outside the timed region by the cheap
checks of :mod:`frontier.bench.answers` on any graph, SCC labels against
SciPy's ``connected_components(connection="strong")`` on any graph, and
core numbers, triangle counts, communities and edge betweenness against
NetworkX's answer (computed once) on graphs of at most
:data:`REFERENCE_MAX_VERTICES` vertices. NetworkX's paths get the same
checks as Frontier's; its other answers are timed only.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import numpy as np

import frontier as fr

from ..device import to_numpy
from ..graph import Graph
from ..result import Result
from .answers import (
    check_core_numbers,
    check_eigenvector,
    check_hits,
    check_katz,
    check_labels,
    check_same_partition,
    check_settled,
    check_tree_arcs,
    check_triangle_counts,
    smallest_member,
    tree_of_paths,
    triangle_sample,
    triangles_through,
)
from .checks import check_distances
from .workload import Outcome, Workload, multi_device_fields

#: graphs up to this many vertices are also checked against NetworkX's answer
REFERENCE_MAX_VERTICES = 2**16
#: most iterations of HITS and eigenvector centrality (NetworkX's 100 is too few
#: for a Kronecker graph's slowly separating leading vectors)
MAX_ITER = 1000


def katz_alpha(graph: Graph) -> float:
    """``1 / (1 + largest degree)``: below ``1 / lambda_max`` on any graph (the
    spectral radius is at most the largest degree), so Katz's series
    converges; NetworkX's default 0.1 diverges on a Kronecker graph.

    Examples
    --------
    >>> import frontier as fr
    >>> katz_alpha(fr.Graph.from_edges([0, 0, 0], [1, 2, 3], device="cpu"))
    0.25
    """
    degree = graph.degree()
    return 1.0 / (1 + (int(degree.max()) if len(degree) else 0))


def settings_for(primitive: str, graph: Graph, seed: int) -> dict:
    """The keyword arguments every implementation of ``primitive`` gets."""
    if primitive == "katz":
        return {"alpha": katz_alpha(graph), "beta": 1.0, "max_iter": MAX_ITER, "tol": 1e-6}
    return {
        "hits": {"max_iter": MAX_ITER, "tol": 1e-8},
        "eigenvector": {"max_iter": MAX_ITER, "tol": 1e-6},
        "edge_bc": {"k": 1, "seed": seed},
    }.get(primitive, {})


def _outcome(result) -> Outcome:
    """Iterations, set-up time and multi-device fields of a :class:`frontier.Result`
    (nothing for an answer that is a plain array or dict)."""
    if not isinstance(result, Result):
        return Outcome()
    return Outcome(iterations=result.iterations or None, setup_ms=result.setup_s * 1e3,
                   extra=multi_device_fields(result))


def _by_vertex(mapping: dict, n: int, fill=0, dtype=np.int64) -> np.ndarray:
    values = np.full(n, fill, dtype=dtype)
    values[list(mapping)] = list(mapping.values())
    return values


def _reference(inputs, compute: Callable) -> Callable | None:
    """``compute(networkx_graph)`` once, on first use; None on graphs too large."""
    if inputs.graph.num_vertices > REFERENCE_MAX_VERTICES:
        return None
    return functools.cache(lambda: compute(inputs.networkx))


def _named(validation: str, reference) -> str:
    return validation + ("+networkx" if reference else "")


# the checks of each primitive: (inspect(answer, root) -> Outcome, validation) -----------


def _with_reference(inputs, graph, read: Callable, check: Callable, validation: str,
                    compare: Callable, compute: Callable, what: str):
    """An inspection that applies ``check(graph, answer)`` to ``read(result)``
    and, on graphs small enough, ``compare(answer, reference, what)`` with
    ``compute(networkx_graph)`` (once)."""
    expected = _reference(inputs, compute)

    def inspect(result, _):
        answer = read(result)
        check(graph, answer)
        if expected:
            compare(answer, expected(), f"{what} against NetworkX")
        return _outcome(result)

    return inspect, _named(validation, expected)


def _kcore(graph, inputs, settings):
    import networkx as nx

    n = graph.num_vertices
    return _with_reference(inputs, graph, lambda result: result.core, check_core_numbers,
                           "h-index", check_labels,
                           lambda g: _by_vertex(nx.core_number(g), n), "core numbers")


def _triangles(graph, inputs, settings):
    import networkx as nx

    n = graph.num_vertices
    sample = triangle_sample(inputs.host)
    direct = triangles_through(inputs.host, sample)

    def check(graph, counts):
        check_triangle_counts(graph, counts, sample, direct)

    return _with_reference(inputs, graph, lambda counts: counts, check, "bounds+sampled",
                           check_labels, lambda g: _by_vertex(nx.triangles(g), n), "triangles")


def _scc(graph, inputs, settings):
    from scipy.sparse import csgraph

    @functools.cache
    def expected():
        _, labels = csgraph.connected_components(inputs.scipy_matrix, directed=True,
                                                 connection="strong")
        return smallest_member(labels)

    def inspect(result, _):
        check_labels(result.labels, expected(), "SCC labels against SciPy")
        return _outcome(result)

    return inspect, "scipy"


def _label_propagation(graph, inputs, settings):
    import networkx as nx

    n = graph.num_vertices

    def communities(g):
        labels = np.empty(n, dtype=np.int64)
        for index, members in enumerate(nx.community.label_propagation_communities(g)):
            labels[list(members)] = index
        return labels

    return _with_reference(inputs, graph, lambda result: result.labels, check_settled,
                           "settled", check_same_partition, communities, "communities")


def _hits(graph, inputs, settings):
    def inspect(result, _):
        check_hits(graph, result.hub, result.authority, settings["tol"])
        return _outcome(result)

    return inspect, "residual"


def _eigenvector(graph, inputs, settings):
    def inspect(result, _):
        check_eigenvector(graph, result.centrality, settings["tol"])
        return _outcome(result)

    return inspect, "residual"


def _katz(graph, inputs, settings):
    def inspect(result, _):
        check_katz(graph, result.centrality, settings["alpha"], settings["beta"],
                   settings["tol"])
        return _outcome(result)

    return inspect, "residual"


def _edge_bc(graph, inputs, settings):
    """From one sampled source ``s``, each shortest path to ``t`` adds up to
    its ``d(s, t)`` edges: the centralities sum to ``sum_t d(s, t) / (n - 1)``
    (NetworkX's normalization by ``k (n - 1)`` pairs, ``k = 1``)."""
    import networkx as nx
    from networkx.utils import create_py_random_state

    from primitives import bfs

    n = graph.num_vertices
    (source,) = create_py_random_state(settings["seed"]).sample(range(n), settings["k"])
    depth = to_numpy(bfs(graph, source, devices=graph.device).depth)
    total = float(depth[depth > 0].sum()) / max(n - 1, 1)

    def keys(u, v):  # one int64 key per edge; an undirected edge's ends in either order
        u, v = np.asarray(u, dtype=np.int64), np.asarray(v, dtype=np.int64)
        if not graph.directed:
            u, v = np.minimum(u, v), np.maximum(u, v)
        return u * max(n, 1) + v

    def values(g):  # NetworkX's values, sorted by edge key
        found = nx.edge_betweenness_centrality(g, **settings)
        ends = np.array(list(found), dtype=np.int64).reshape(-1, 2)
        key = keys(ends[:, 0], ends[:, 1])
        order = np.argsort(key)
        return key[order], np.fromiter(found.values(), np.float64, len(found))[order]

    expected = _reference(inputs, values)

    def inspect(result, _):
        centrality = to_numpy(result.centrality)
        if not np.isclose(centrality.sum(), total, rtol=1e-9, atol=1e-12):
            raise ValueError(f"edge betweenness sums to {centrality.sum()}; the paths from "
                             f"source {source} give {total}")
        if expected:
            known, reference = expected()
            src, dst = to_numpy(result.src), to_numpy(result.dst)
            key = keys(src, dst)
            at = np.minimum(np.searchsorted(known, key), max(len(known) - 1, 0))
            want = np.where(known[at] == key, reference[at], np.nan) if len(known) \
                else np.full(len(key), np.nan)
            wrong = np.flatnonzero(~np.isclose(centrality, want, rtol=1e-9, atol=1e-12))
            if len(wrong):
                i = int(wrong[0])
                raise ValueError(f"edge ({src[i]}, {dst[i]}): betweenness {centrality[i]}, "
                                 f"NetworkX {want[i]} (nan: no such edge)")
        return _outcome(result)

    return inspect, _named("path-sum", expected)


def _paths(graph, inputs, settings):
    def inspect(paths, root):
        hops, parent = tree_of_paths(paths, graph.num_vertices, root)
        xp = graph.xp
        fr.validate.graph500_bfs(graph, root, xp.asarray(hops.astype(np.int32)),
                                 xp.asarray(parent))
        return Outcome()

    return inspect, "graph500"


def _dijkstra(graph, inputs, settings):
    def inspect(answer, root):
        lengths, paths = answer
        if lengths.keys() != paths.keys():
            raise ValueError("the lengths and the paths reach different nodes")
        _, parent = tree_of_paths(paths, graph.num_vertices, root)
        distance = _by_vertex(lengths, graph.num_vertices, np.inf, np.float64)
        check_distances(graph, root, graph.xp.asarray(distance))
        check_tree_arcs(graph, parent, distance)
        return Outcome()

    return inspect, "distances"


_CHECKS = {"kcore": _kcore, "triangles": _triangles, "scc": _scc,
           "label_propagation": _label_propagation, "hits": _hits,
           "eigenvector": _eigenvector, "katz": _katz, "edge_bc": _edge_bc,
           "paths": _paths, "dijkstra": _dijkstra}
ROOTED = ("paths", "dijkstra")


def frontier_analytics(primitive: str, function: Callable, inputs, seed: int) -> Workload:
    """Frontier's ``primitive`` (a key of :data:`frontier.bench.workload.ANALYTICS`)
    as a workload: ``function`` is the primitive with its device options,
    ``inputs`` the :class:`~frontier.bench.peers.PeerInputs` of the graph
    (NetworkX's and SciPy's answers for the checks come from it), ``seed``
    the sampled source's (``edge_bc``). Vertex ids are the nodes: a file's
    labels are set aside."""
    graph = inputs.graph
    if graph.node_labels is not None:
        graph = dataclasses.replace(graph, node_labels=None)
    settings = settings_for(primitive, graph, seed)
    inspect, validation = _CHECKS[primitive](graph, inputs, settings)
    if primitive in ROOTED:
        def run(root):
            return function(graph, root, **settings)
    else:
        def run(_):
            return function(graph, **settings)
    return Workload(primitive, "frontier", graph, graph.device, run, inspect,
                    primitive in ROOTED, graph.storage_bytes, validation)


def networkx_analytics(group: str, inputs, seed: int) -> Workload:
    """NetworkX's function for ``group`` on ``inputs.networkx``, with the
    settings Frontier gets; its paths are checked as Frontier's are."""
    import networkx as nx

    host, g = inputs.host, inputs.networkx
    settings = settings_for(group, host, seed)
    components = nx.strongly_connected_components if g.is_directed() \
        else nx.connected_components  # an undirected graph's strong components
    calls = {
        "kcore": lambda _: nx.core_number(g),
        "triangles": lambda _: nx.triangles(g),
        "scc": lambda _: list(components(g)),
        "label_propagation": lambda _: list(nx.community.label_propagation_communities(g)),
        "hits": lambda _: nx.hits(g, **settings),
        "eigenvector": lambda _: nx.eigenvector_centrality(g, **settings),
        "katz": lambda _: nx.katz_centrality(g, **settings),
        "edge_bc": lambda _: nx.edge_betweenness_centrality(g, **settings),
        "paths": lambda root: nx.single_source_shortest_path(g, root),
        "dijkstra": lambda root: nx.single_source_dijkstra(g, root),
    }
    if group in ROOTED:
        inspect, validation = _CHECKS[group](host, inputs, settings)
    else:
        inspect, validation = (lambda output, _: Outcome()), None
    return Workload(group, "networkx", host, host.device, calls[group], inspect,
                    group in ROOTED, lambda: None, validation)
