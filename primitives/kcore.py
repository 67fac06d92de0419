"""k-cores: core numbers by peeling, and the k-core subgraph.

The k-core is the largest subgraph whose vertices all have degree at least
``k``; a vertex's core number is the largest ``k`` of a core holding it.
Peeling finds every core number at once. With ``k = 0`` at first, repeat:

* peel: every remaining vertex of degree at most ``k`` gets core number
  ``k`` and leaves; each edge to a remaining neighbour lowers that
  neighbour's degree by one (``count_down``);
* the neighbours whose degree this took down to ``k`` are the next frontier
  (``count_down`` reports each once): every other remaining vertex of
  degree at most ``k`` was in this frontier and is peeled. When a frontier
  has nothing left to peel, ``k`` rises to the smallest remaining degree
  and every remaining vertex of that degree is the frontier.

The run ends when no vertex remains. It is Batagelj and Zaversnik's order,
a level (all vertices of degree at most ``k``) at a time instead of one
vertex at a time, so it needs a step per peeling round, not per vertex.

On several devices ``degree`` is combined with ``"sum"``: a device that
peels a vertex lowers its neighbours' degrees on their copies, and each
owner adds up the decrements. Peeling decisions are taken on the owned
vertices of each frontier, whose degrees are whole after the boundary.

For a directed graph NetworkX's degree is in-degree plus out-degree (a
reciprocated pair counts twice), so the primitive peels the undirected
multigraph with an edge per arc.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

import frontier as fr


@dataclass
class CoreResult(fr.Result):
    """``core[v]``: the core number of ``v`` (int64)."""

    core: object


class CoreNumbers(fr.Primitive):
    parameters = ()
    # Decrements of a neighbour on another device reach its owner once;
    # core numbers are set by the owner only.
    communicate = {"degree": "sum", "core": "owner"}

    def setup(self):
        self.degree = self.vertex_array(0, np.int32)  # int32: GPU atomic adds take it
        self.degree[:] = self.graph.degree().astype(np.int32)  # whole on owners only
        self.core = self.vertex_array(-1, np.int64)    # -1 while the vertex remains
        self.k = 0

    def initial_frontier(self):
        return self.all_vertices()

    def converged(self, frontier, iteration):
        return int(self.vertex_sum((self.core < 0).astype(np.int64))) == 0

    def remaining_below(self, frontier, k):
        degree, core = self.degree, self.core
        return fr.filter(frontier, lambda ids: (core[ids] < 0) & (degree[ids] <= k))

    def step(self, frontier, iteration):
        peel = self.remaining_below(frontier, self.k)
        if self.reduce(peel.size) == 0:
            return self.next_level()
        self.core[peel.ids] = self.k
        degree, core, k = self.degree, self.core, self.k

        def lower(src, dst, edge, weight):
            # the remaining neighbours lose a degree; those it takes down to
            # k are the next to peel (each reported once)
            return fr.count_down(degree, dst, where=core[dst] < 0, to=k)

        return fr.advance(self.graph, peel, lower)

    def next_level(self):
        """Raise ``k`` to the smallest remaining degree; its vertices are the frontier."""
        remaining = fr.filter(self.all_vertices(), lambda ids: self.core[ids] < 0)
        lowest = self.degree[remaining.ids].min() if remaining.size else np.iinfo(np.int32).max
        self.k = max(self.k, int(self.reduce(int(lowest), "min")))
        return self.remaining_below(remaining, self.k)

    def result(self):
        return CoreResult(self.core)


def _peeling_graph(G: fr.Graph) -> fr.Graph:
    """The undirected graph whose degrees are NetworkX's: ``G`` without
    parallel edges, and for a directed ``G`` one undirected edge per arc."""
    if G.num_arcs and bool(fr.to_numpy(G.arc_sources() == G.columns).any()):
        raise nx.NetworkXNotImplemented(
            "Input graph has self loops which is not permitted; "
            "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")
    simple = G.simplified()
    if not G.directed:
        return simple
    src, dst, _ = simple.edges()
    return G.with_edges(src, dst, directed=False)


def core_number(G: fr.Graph, **options) -> CoreResult:
    """The core number of every vertex, as ``networkx.core_number``.

    Parameters
    ----------
    G : frontier.Graph
        Undirected, or directed (the degree is then in-degree plus
        out-degree). Parallel edges count once, as in a NetworkX ``Graph``
        or ``DiGraph`` built from the same edges.
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Returns
    -------
    CoreResult
        ``core`` (int64, one per vertex; 0 for an isolated vertex).

    Raises
    ------
    networkx.NetworkXNotImplemented
        If ``G`` has a self loop (NetworkX refuses them too).

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import core_number
    >>> G = fr.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], num_vertices=5, device="cpu")
    >>> core_number(G).core.tolist()
    [2, 2, 2, 1, 0]
    """
    return _core_numbers(G, options)


def _core_numbers(G: fr.Graph, options: dict) -> CoreResult:
    return fr.enact(CoreNumbers, _peeling_graph(G), **options)


def _given_cores(G: fr.Graph, core_number) -> np.ndarray:
    """Core numbers per vertex from NetworkX's dict by node or an array."""
    if isinstance(core_number, dict):
        core = np.full(G.num_vertices, np.iinfo(np.int64).min, dtype=np.int64)
        for node, value in core_number.items():
            try:
                core[G.vertex_id(node)] = value
            except ValueError:  # not a node of G: NetworkX's subgraph drops it
                continue
        return core
    core = np.asarray(fr.to_numpy(core_number)).reshape(-1)
    if len(core) != G.num_vertices:
        raise ValueError(f"core_number has {len(core)} entries, expected one per "
                         f"vertex ({G.num_vertices})")
    return core


def k_core(G: fr.Graph, k: int | None = None, core_number=None, **options) -> fr.Graph:
    """The k-core of ``G``, as ``networkx.k_core``: the subgraph induced by
    the vertices of core number at least ``k``.

    Parameters
    ----------
    G : frontier.Graph
    k : int, optional
        The order of the core; by default the largest core number (the main core).
    core_number : dict or array-like, optional
        Precomputed core numbers: NetworkX's dict by node (nodes not in ``G``
        are ignored, missing ones are outside every core), or one per vertex
        (else :func:`core_number` runs).
    **options
        Enactor options, for :func:`core_number`.

    Returns
    -------
    frontier.Graph
        The induced subgraph with its weights (of parallel edges the
        lightest, as everywhere else), its vertices renumbered
        ``0..c-1`` in increasing id order; ``node_labels`` holds each one's
        label in ``G`` (its id, or ``G.node_labels``), so ``to_networkx()``
        gives NetworkX's k-core with NetworkX's node names.

    Raises
    ------
    networkx.NetworkXNotImplemented
        If ``G`` has a self loop.
    ValueError
        If an array ``core_number`` does not have one entry per vertex.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import k_core
    >>> G = fr.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], device="cpu")
    >>> k_core(G).node_labels
    [0, 1, 2]
    """
    if core_number is None:
        core = fr.to_numpy(_core_numbers(G, options).core)
    else:
        _peeling_graph(G)  # NetworkX refuses self loops even with core numbers given
        core = _given_cores(G, core_number)
    if k is None:  # NetworkX's main core: the largest core number given
        k = max(core_number.values()) if isinstance(core_number, dict) else \
            (core.max() if len(core) else 0)
    members = np.flatnonzero(core >= k)
    renumber = np.full(G.num_vertices, -1, dtype=np.int64)
    renumber[members] = np.arange(len(members))
    src, dst, weights = G.simplified().edges()  # NetworkX's graph has no parallel edges
    keep = (renumber[src] >= 0) & (renumber[dst] >= 0)
    if not G.directed:
        keep &= src <= dst  # each undirected edge once
    sub = G.with_edges(renumber[src[keep]], renumber[dst[keep]],
                       None if weights is None else weights[keep], len(members))
    labels = G.node_labels
    sub.node_labels = [labels[v] if labels is not None else v for v in members.tolist()]
    return sub
