"""Checks of the answers of the primitives of issue 32, outside every timed region.

Each check tests a property that the true answer has and a wrong one
(almost always) lacks, in whole-array NumPy/CuPy code on the graph's device
unless it says otherwise, so it stays cheap on the largest graphs:

* core numbers: each is the h-index of its neighbours' core numbers
  (:func:`check_core_numbers`);
* triangle counts: bounds by degree, a sum that is a multiple of 3, and
  exact counts at sampled vertices (:func:`check_triangle_counts`);
* component labels: equal to a reference's partition, each label the
  smallest vertex of its part (:func:`smallest_member`, :func:`check_labels`,
  :func:`check_same_partition`);
* label propagation: every vertex holds a most frequent label of its
  neighbours, NetworkX's stopping rule (:func:`check_settled`);
* HITS, eigenvector and Katz centrality: one more iteration of the
  method moves the answer by no more than the stopping rule allows
  (:func:`check_hits`, :func:`check_eigenvector`, :func:`check_katz`);
* paths: every path ends at its node and extends its predecessor's path
  (:func:`tree_of_paths`); the tree is then checked as BFS trees and SSSP
  distances are.

On small graphs the bench also compares with NetworkX's answer
(:mod:`frontier.bench.analytics`).
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np

import frontier as fr

from ..device import to_numpy
from ..graph import ARC_BATCH, Graph

#: one more iteration may move an answer by this many times the stopping rule's bound
STOP_SLACK = 10.0


def _neighbour_counts(graph: Graph, value, offset: int):
    """Per vertex, the neighbours ``u`` with ``value[u] >= value[v] + offset``;
    an arc counts at both ends of a directed graph (NetworkX's degree)."""
    xp = graph.xp
    counts = xp.zeros(graph.num_vertices, dtype=np.int64)
    for tails, heads, _ in graph.arc_batches(ARC_BATCH):
        counts += xp.bincount(tails[value[heads] >= value[tails] + offset],
                              minlength=graph.num_vertices)
        if graph.directed:
            counts += xp.bincount(heads[value[tails] >= value[heads] + offset],
                                  minlength=graph.num_vertices)
    return counts


def check_core_numbers(graph: Graph, core) -> None:
    """Check core numbers: each vertex's is the h-index of its neighbours'
    (at least ``c`` neighbours have core number ``c`` or more, at most ``c``
    have more than ``c``). The first half proves that every vertex of core
    number ``c`` lies in a subgraph of minimum degree ``c``, so no number is
    too large; the second rejects a number below its neighbours' evidence.
    (A set of vertices all left one below the truth together can pass: the
    bench compares with NetworkX where it runs.)

    Parameters
    ----------
    graph : frontier.Graph
        Self loops are ignored and parallel edges count once.
    core : integer array, one per vertex

    Raises
    ------
    ValueError
        Naming the first vertex whose number is wrong.

    Examples
    --------
    >>> import numpy as np, frontier as fr
    >>> G = fr.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], device="cpu")
    >>> check_core_numbers(G, np.array([2, 2, 2, 1]))
    >>> check_core_numbers(G, np.array([2, 2, 2, 2]))
    Traceback (most recent call last):
    ...
    ValueError: core number 2 of vertex 3: only 1 neighbours have one as large
    >>> check_core_numbers(G, np.array([2, 2, 2, 0]))
    Traceback (most recent call last):
    ...
    ValueError: core number 0 of vertex 3: 1 neighbours have a larger one
    """
    xp = graph.xp
    simple = graph.simplified()
    core = xp.asarray(core).astype(np.int64)
    at_least = _neighbour_counts(simple, core, 0)
    above = _neighbour_counts(simple, core, 1)
    for bad, counts, what in ((at_least < core, at_least, "only {} neighbours have one as large"),
                              (above > core, above, "{} neighbours have a larger one")):
        found = xp.flatnonzero(bad)
        if len(found):
            v = int(found[0])
            raise ValueError(f"core number {int(core[v])} of vertex {v}: "
                             + what.format(int(counts[v])))


#: vertices whose triangles are counted directly, drawn with probability
#: proportional to their degree among those with at most this many neighbours
TRIANGLE_SAMPLE, TRIANGLE_SAMPLE_MAX_DEGREE = 32, 1024


def triangles_through(graph: Graph, vertices) -> np.ndarray:
    """The triangles through each of ``vertices`` of an undirected graph,
    counted directly as the edges among its neighbours (self loops ignored,
    parallel edges once). Host work over the neighbours' adjacency lists:
    meant for a few vertices of moderate degree.

    Examples
    --------
    >>> import frontier as fr
    >>> G = fr.Graph.from_edges([0, 1, 2, 3, 0], [1, 2, 3, 0, 2], device="cpu")
    >>> triangles_through(G, [0, 1, 2, 3]).tolist()
    [2, 1, 2, 1]
    """
    simple = graph.simplified()
    offsets, columns = to_numpy(simple.offsets), to_numpy(simple.columns)
    counts = []
    for v in vertices:
        neighbours = columns[offsets[v]:offsets[v + 1]]
        arcs = [columns[offsets[u]:offsets[u + 1]] for u in neighbours.tolist()]
        among = int(np.isin(np.concatenate(arcs), neighbours).sum()) if arcs else 0
        counts.append(among // 2)  # each edge among them is seen from both ends
    return np.array(counts, dtype=np.int64)


def triangle_sample(graph: Graph, seed: int = 0) -> np.ndarray:
    """Up to :data:`TRIANGLE_SAMPLE` vertices with 2 to
    :data:`TRIANGLE_SAMPLE_MAX_DEGREE` distinct neighbours, drawn with
    probability proportional to that number (so most close triangles)."""
    distinct = to_numpy(graph.simplified().degree()).astype(np.int64)
    candidates = np.flatnonzero((distinct >= 2) & (distinct <= TRIANGLE_SAMPLE_MAX_DEGREE))
    if len(candidates) == 0:
        return candidates
    weights = distinct[candidates] / distinct[candidates].sum()
    return np.sort(np.random.default_rng(seed).choice(
        candidates, min(TRIANGLE_SAMPLE, len(candidates)), replace=False, p=weights))


def check_triangle_counts(graph: Graph, counts, sample, direct) -> None:
    """Check triangle counts: ``0 <= t <= d (d - 1) / 2`` for ``d`` distinct
    neighbours, a sum that is a multiple of 3, and ``counts[sample]`` equal to
    ``direct`` (from :func:`triangles_through`).

    Raises
    ------
    ValueError
        Naming the first vertex whose count is wrong.
    """
    counts = to_numpy(counts)
    distinct = to_numpy(graph.simplified().degree()).astype(np.int64)
    over = np.flatnonzero((counts < 0) | (2 * counts > distinct * (distinct - 1)))
    if len(over):
        v = int(over[0])
        raise ValueError(f"{counts[v]} triangles through vertex {v} of {distinct[v]} "
                         "neighbours")
    if int(counts.sum()) % 3:
        raise ValueError(f"the triangle counts sum to {int(counts.sum())}, not a multiple of 3")
    check_labels(counts[sample], direct, "triangles counted directly at sampled vertices")


def smallest_member(labels) -> np.ndarray:
    """Relabel a partition (any labels) so that each vertex is labelled with
    the smallest vertex of its part, as Frontier's components are.

    Examples
    --------
    >>> import numpy as np
    >>> smallest_member(np.array([5, 2, 5, 2, 9])).tolist()
    [0, 1, 0, 1, 4]
    """
    labels = np.asarray(labels)
    parts, first = np.unique(labels, return_index=True)  # first occurrence: the smallest id
    return first[np.searchsorted(parts, labels)]


def check_labels(found, expected, what: str) -> None:
    """Raise ValueError naming the first vertex where ``found`` and
    ``expected`` (host or device arrays) differ."""
    found, expected = to_numpy(found), to_numpy(expected)
    if found.shape != expected.shape:
        raise ValueError(f"{what}: {found.shape[0]} labels, expected {expected.shape[0]}")
    differ = np.flatnonzero(found != expected)
    if len(differ):
        v = int(differ[0])
        raise ValueError(f"{what}: vertex {v} has {found[v]}, expected {expected[v]}")


def check_same_partition(found, expected, what: str) -> None:
    """Raise ValueError unless two labellings make the same parts (whatever
    the labels).

    Examples
    --------
    >>> import numpy as np
    >>> check_same_partition(np.array([7, 7, 3]), np.array([0, 0, 1]), "parts")
    """
    check_labels(smallest_member(to_numpy(found)), smallest_member(to_numpy(expected)), what)


def check_settled(graph: Graph, labels) -> None:
    """Check NetworkX's stopping rule of label propagation: every vertex with
    neighbours holds one of the labels most frequent among them (each
    neighbour counted once; a self loop makes a vertex its own neighbour).

    Raises
    ------
    ValueError
        Naming the first vertex whose label is not a most frequent one.

    Examples
    --------
    >>> import numpy as np, frontier as fr
    >>> G = fr.Graph.from_edges([0, 0, 1], [1, 2, 2], device="cpu")
    >>> check_settled(G, np.array([4, 4, 4]))
    >>> check_settled(G, np.array([4, 4, 9]))
    Traceback (most recent call last):
    ...
    ValueError: vertex 2 holds label 9, which 0 of its neighbours hold; 2 hold label 4
    """
    xp = graph.xp
    labels = xp.asarray(labels).astype(np.int64)
    n = max(graph.num_vertices, int(labels.max()) + 1 if len(labels) else 1)
    tails, heads = graph.arc_sources(), graph.columns.astype(np.int64)
    if not graph.is_simple():  # each neighbour once
        arcs = xp.unique(tails * n + heads)
        tails, heads = arcs // n, arcs % n
    pairs, counts = xp.unique(tails * n + labels[heads], return_counts=True)
    owner = pairs // n
    fewest = xp.zeros(graph.num_vertices, dtype=np.int64)
    fr.scatter_min(fewest, owner, -counts.astype(np.int64))  # a scatter-max, negated
    most = -fewest
    own = xp.bincount(tails[labels[heads] == labels[tails]], minlength=graph.num_vertices)
    wrong = xp.flatnonzero(own < most)
    if len(wrong):
        v = int(wrong[0])
        top = to_numpy(pairs[(owner == v) & (counts == most[v])])[0] % n
        raise ValueError(f"vertex {v} holds label {int(labels[v])}, which {int(own[v])} of "
                         f"its neighbours hold; {int(most[v])} hold label {int(top)}")


def in_sum(graph: Graph, x):
    """``A^T x``: per vertex, the sum of ``x`` over its in-neighbours (parallel
    edges add up)."""
    return fr.neighbor_reduce(graph, fr.functors.SourceValue(x), "sum")


def out_sum(graph: Graph, x):
    """``A x``: per vertex, the sum of ``x`` over its out-neighbours."""
    return fr.neighbor_reduce(graph, lambda src, dst, edge, weight: x[dst], "sum",
                              direction="push")


def _moved(what: str, step, bound: float) -> None:
    if not step <= bound:
        raise ValueError(f"{what}: one more iteration moves it by {step:.3g} in L1 norm, "
                         f"more than {bound:.3g}")


def check_eigenvector(graph: Graph, x, tol: float) -> None:
    """Check an eigenvector centrality of NetworkX's kind: unit Euclidean norm,
    and one more of NetworkX's iterations (``x + A^T x``, normalized) moves it
    by at most ``STOP_SLACK`` times the stopping rule's ``N * tol``."""
    xp = graph.xp
    x = xp.asarray(x, dtype=np.float64)
    norm = float(xp.linalg.norm(x))
    if abs(norm - 1.0) > 1e-6:
        raise ValueError(f"eigenvector centrality has Euclidean norm {norm}, expected 1")
    following = x + in_sum(graph, x)
    following /= xp.linalg.norm(following)
    _moved("eigenvector centrality", float(xp.abs(following - x).sum()),
           STOP_SLACK * graph.num_vertices * tol)


def check_katz(graph: Graph, x, alpha: float, beta: float, tol: float) -> None:
    """Check a normalized Katz centrality: some multiple ``s x`` of it (the
    unnormalized answer; ``s`` fitted by least squares) solves
    ``s x = alpha A^T (s x) + beta`` up to ``STOP_SLACK`` times the stopping
    rule's ``N * tol`` in L1 norm."""
    xp = graph.xp
    x = xp.asarray(x, dtype=np.float64)
    residual = x - alpha * in_sum(graph, x)
    scale = beta * float(residual.sum()) / float((residual * residual).sum())
    _moved("Katz centrality", float(xp.abs(scale * residual - beta).sum()),
           STOP_SLACK * graph.num_vertices * tol)


def check_hits(graph: Graph, hub, authority, tol: float) -> None:
    """Check HITS scores normalized to sum 1: the authorities are the
    normalized ``A^T hub`` and the hubs the normalized ``A authority``, each
    to within ``STOP_SLACK * tol`` (at least 1e-9) in L1 norm."""
    xp = graph.xp
    hub, authority = xp.asarray(hub, dtype=np.float64), xp.asarray(authority, dtype=np.float64)
    bound = max(STOP_SLACK * tol, 1e-9)
    for name, scores, following in (("authorities", authority, in_sum(graph, hub)),
                                    ("hubs", hub, out_sum(graph, authority))):
        if abs(float(scores.sum()) - 1.0) > 1e-9:
            raise ValueError(f"HITS {name} sum to {float(scores.sum())}, expected 1")
        _moved(f"HITS {name}", float(xp.abs(following / following.sum() - scores).sum()), bound)


#: paths compared whole with their predecessors' (evenly spaced); every path's
#: ends and length are checked
PATH_SAMPLE = 1 << 16


def tree_of_paths(paths: dict, num_vertices: int, source: int) -> tuple[np.ndarray, np.ndarray]:
    """The hops and predecessors (host int64, -1 where unreached) of a dict
    ``node -> path from source`` whose nodes are vertex ids, checking that it
    is a tree of paths: each path starts at ``source``, ends at its node,
    and is its predecessor's path and the node (at every node its ends and
    length; the whole list at up to :data:`PATH_SAMPLE` nodes, since at
    Kronecker 24 comparing millions of lists would take longer than the
    call timed).

    Raises
    ------
    ValueError
        Naming the first node whose path breaks the rule.

    Examples
    --------
    >>> tree_of_paths({0: [0], 1: [0, 1], 2: [0, 1, 2]}, 4, 0)[1].tolist()
    [-1, 0, 1, -1]
    >>> tree_of_paths({0: [0], 2: [0, 1, 2]}, 4, 0)
    Traceback (most recent call last):
    ...
    ValueError: the path to 2 goes through 1, which has no path
    """
    count = len(paths)
    nodes = np.fromiter(paths, dtype=np.int64, count=count)
    values = list(paths.values())
    size = np.fromiter(map(len, values), dtype=np.int64, count=count)
    if not size.all():
        raise ValueError(f"the path to {nodes[np.flatnonzero(size == 0)[0]]} is empty")
    first = np.fromiter(map(itemgetter(0), values), dtype=np.int64, count=count)
    last = np.fromiter(map(itemgetter(-1), values), dtype=np.int64, count=count)
    before = np.full(count, -1, dtype=np.int64)
    stepped = np.flatnonzero(size > 1)
    before[stepped] = np.fromiter(map(itemgetter(-2), map(values.__getitem__, stepped.tolist())),
                                  dtype=np.int64, count=len(stepped))
    wrong = np.flatnonzero((first != source) | (last != nodes))
    if len(wrong):
        i = int(wrong[0])
        raise ValueError(f"the path to {nodes[i]} runs from {first[i]} to {last[i]}")
    hops = np.full(num_vertices, -1, dtype=np.int64)
    parent = np.full(num_vertices, -1, dtype=np.int64)
    hops[nodes] = size - 1
    parent[nodes[stepped]] = before[stepped]
    inside = (before[stepped] >= 0) & (before[stepped] < num_vertices)
    known = np.zeros(len(stepped), dtype=bool)
    known[inside] = hops[before[stepped][inside]] >= 0
    if not known.all():
        i = int(stepped[np.flatnonzero(~known)[0]])
        raise ValueError(f"the path to {nodes[i]} goes through {before[i]}, which has no path")
    step = hops[before[stepped]] == size[stepped] - 2  # as long as its predecessor's and one
    if not step.all():
        i = int(stepped[np.flatnonzero(~step)[0]])
        raise ValueError(f"the path to {nodes[i]} does not extend the path to {before[i]}")
    # the whole list against its predecessor's at sampled nodes (all up to PATH_SAMPLE)
    sample = stepped[::max(1, -(-len(stepped) // PATH_SAMPLE))].tolist()
    broken = [i for i in sample if paths[before[i]] != values[i][:-1]]
    if broken:
        i = broken[0]
        raise ValueError(f"the path to {nodes[i]} does not extend the path to {before[i]}")
    if hops[source] != 0:
        raise ValueError(f"the source {source} has no path [{source}]")
    return hops, parent


def check_tree_arcs(graph: Graph, parent, distance) -> None:
    """Check that every tree step ``parent[v] -> v`` is an arc of ``graph``
    of weight ``distance[v] - distance[parent[v]]`` (a step of a shortest
    path once the distances are right). One pass over the arcs, on the
    graph's device.

    Raises
    ------
    ValueError
        Naming the first vertex whose step is no such arc.

    Examples
    --------
    >>> import numpy as np, frontier as fr
    >>> G = fr.Graph.from_edges([0, 1, 0], [1, 2, 2], [1.0, 1.0, 5.0], device="cpu")
    >>> check_tree_arcs(G, np.array([-1, 0, 1]), np.array([0.0, 1.0, 2.0]))
    >>> check_tree_arcs(G, np.array([-1, 0, 0]), np.array([0.0, 1.0, 2.0]))
    Traceback (most recent call last):
    ...
    ValueError: the path to 2 steps from 0 by no arc of weight 2.0
    """
    xp = graph.xp
    parent = xp.asarray(parent).astype(np.int64)
    distance = xp.asarray(distance, dtype=np.float64)
    stepped = xp.zeros(graph.num_vertices, dtype=bool)
    for tails, heads, weights in graph.arc_batches(ARC_BATCH):
        steps = xp.flatnonzero(parent[heads] == tails)  # tree arcs: both ends reached
        weight = 1.0 if weights is None else weights[steps].astype(np.float64)
        heads = heads[steps]
        step = distance[heads] - distance[tails[steps]]
        stepped[heads[xp.abs(step - weight) <= 1e-9 * xp.maximum(1.0, xp.abs(step))]] = True
    wrong = xp.flatnonzero((parent >= 0) & ~stepped)
    if len(wrong):
        v = int(wrong[0])
        raise ValueError(f"the path to {v} steps from {int(parent[v])} by no arc of weight "
                         f"{float(distance[v] - distance[int(parent[v])])}")
