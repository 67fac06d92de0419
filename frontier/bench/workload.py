"""One thing to time: a primitive or a peer, bound to a graph and a device."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..device import Device
from ..graph import Graph
from ..result import Result

#: the six of the Graph500-style comparison, ``--primitives``' default
#: (command-line name -> name in :mod:`primitives`)
SIX = {"bfs": "bfs", "dobfs": "dobfs", "sssp": "sssp", "cc": "connected_components",
       "bc": "betweenness_centrality", "pagerank": "pagerank"}
DEFAULT_PRIMITIVES = tuple(SIX)
#: the primitives of issue 32 (:mod:`frontier.bench.analytics`), named on request
ANALYTICS = {"kcore": "core_number", "triangles": "triangles",
             "scc": "strongly_connected_components", "label_propagation": "label_propagation",
             "hits": "hits", "eigenvector": "eigenvector_centrality", "katz": "katz_centrality",
             "edge_bc": "edge_betweenness_centrality", "paths": "single_source_shortest_path",
             "dijkstra": "single_source_dijkstra"}
#: every command-line name -> name in :mod:`primitives`
PRIMITIVES = {**SIX, **ANALYTICS}
TRAVERSALS = ("bfs", "dobfs", "sssp")
#: timed from each root
ROOTED = TRAVERSALS + ("paths", "dijkstra")
#: run on the graph with Graph500's SSSP weights
WEIGHTED = ("sssp", "dijkstra")
#: run on a generated graph built directed (the same edge stream, arcs kept as drawn)
DIRECTED = ("scc", "hits")
#: NetworkX refuses directed graphs for these: a directed file is skipped
UNDIRECTED_ONLY = ("triangles", "label_propagation")
#: timed for one betweenness source drawn by :func:`frontier.bench.harness.bc_seed`
SAMPLED = ("bc", "edge_bc")


@dataclass
class Outcome:
    """What a checked run tells the harness: the reached vertices of a
    traversal (a boolean array on the workload graph's device), the
    number of iterations and the set-up time before the first iteration,
    where the implementation reports them; ``extra`` holds fields for the
    record (a multi-device run's exchanged bytes, exchange time, edge cut)."""

    reached: Any = None
    iterations: int | None = None
    setup_ms: float = 0.0
    extra: dict = field(default_factory=dict)


@dataclass
class Workload:
    """A timed call and the check of its output.

    Attributes
    ----------
    primitive : str
        The benchmark's primitive name (a key of :data:`PRIMITIVES`).
    implementation : str
        ``frontier`` or a peer's name.
    graph : Graph
        The graph the call runs on, on ``device`` (traversed edges are counted
        on it).
    device : Device
        Where the call runs: it picks the clock and the memory counter.
    run : callable
        ``run(root)`` for rooted workloads, ``run(None)`` otherwise; the only
        code inside the timed region.
    inspect : callable
        ``inspect(output, root) -> Outcome``: checks the output (raising on a
        wrong answer) and reports what it reached. Never timed.
    rooted : bool
        True for workloads timed from each root (BFS, SSSP, paths).
    graph_bytes : callable
        ``graph_bytes()``: bytes of the representation the call reads, or
        ``None`` where unknown; asked after the runs, since a run may build
        more of it (the CSC of a directed graph).
    validation : str or None
        The name of the check ``inspect`` applies, recorded with the result.
    """

    primitive: str
    implementation: str
    graph: Graph
    device: Device
    run: Callable[[int | None], Any]
    inspect: Callable[[Any, int | None], Outcome]
    rooted: bool
    graph_bytes: Callable[[], int | None]
    validation: str | None = None


def pagerank_options(num_vertices: int) -> dict:
    """PageRank settings for every implementation timed: NetworkX's ``alpha``,
    and ``tol = 1e-6 / N`` so that the run stops when the rank vector changes
    by less than 1e-6 in L1 norm whatever the graph's size (NetworkX's stopping
    rule is ``change < N * tol``: with its default ``tol`` a graph of 2^21
    vertices or more stops after one iteration). ``max_iter`` leaves room to
    converge; the time per iteration is reported as well."""
    return {"alpha": 0.85, "tol": 1e-6 / max(num_vertices, 1), "max_iter": 1000}


def multi_device_fields(result) -> dict:
    """What a multi-device run adds to its record (nothing for one device, or
    for an answer that is no :class:`frontier.Result`)."""
    if not isinstance(result, Result) or result.partition is None:
        return {}
    iterations = max(result.iterations, 1)
    return {"exchanged_bytes": result.exchanged_bytes,
            "exchanged_bytes_per_iteration": result.exchanged_bytes / iterations,
            "exchange_ms": result.exchange_s * 1e3,
            "edge_cut": result.partition["edge_cut"],
            "partition": result.partition}
