"""Betweenness centrality: Brandes' algorithm, frontier-parallel, NetworkX semantics.

For every source ``s`` (all vertices, or ``k`` sampled ones):

* forward: a BFS from ``s``, level by level. Advancing a level claims the
  next one; at the start of the next step each vertex of that level pulls
  its shortest-path count ``sigma[v] = sum of sigma[u]`` over its in-edges.
  Only in-neighbours on the previous level have a count yet, so the sum
  needs no mask.
* backward: the levels in reverse. Each vertex of a level sums
  ``coefficient[w] = (1 + delta[w]) / sigma[w]`` over its out-neighbours
  ``w`` whose level is done (only the next level's can be), and
  ``delta[v] = sigma[v] * that sum`` is added to ``v``'s centrality.

With ``weight``, shortest paths are weighted: the forward pass first
relaxes distances from ``s`` (Bellman-Ford over frontiers), then walks the
shortest-path DAG (the "tight" edges, ``distance[u] + w == distance[v]``) in
rounds: a vertex joins a round once all its tight in-edges have been
released by earlier rounds; the backward pass takes those rounds in reverse
and sums over tight out-edges.

Every step completes what the previous one found before reading it (a level
is whole before its counts are pulled), and every decision (next phase,
next source) is taken on global counts, so the same module runs on several
devices: ``sigma`` and ``coefficient`` are computed by each vertex's owner
and copied to the devices that read them. A forward step returns the level
whose counts it pulled with the level it claimed, and a backward step the
level whose coefficients it set, so that unweighted Brandes writes its
shared arrays only at the vertices it returns (``changes_only_in_output``:
several devices then exchange those alone); between sources the arrays are
refilled (``refill``), alike on every device.

Path counts see each neighbour once, as NetworkX's Brandes does (it iterates
``G[v]``): the primitive runs on a copy of the graph without parallel edges
(the lightest is kept) and without self loops, which lie on no shortest path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from networkx.utils import create_py_random_state

import frontier as fr


@dataclass
class BCResult(fr.Result):
    """``centrality[v]``: the betweenness centrality of ``v`` (float64)."""

    centrality: object


class Brandes(fr.Primitive):
    """Brandes over BFS levels (unweighted shortest paths)."""

    parameters = ("sources", "endpoints", "scale")

    # Depth: as in BFS, an offer only ever replaces -1 (unreached). A count
    # and a coefficient are set once per source, up from 0, by the owner.
    communicate = {"depth": "max", "sigma": "max", "coefficient": "max"}
    # A step writes them only at the vertices it returns (the refills
    # between sources are alike on every device).
    changes_only_in_output = True
    # Fills, and the source's entries put wherever it has a slot: alike on every part.
    uniform_setup = True
    # Each source's dependencies are found on their own and added to centrality.
    independent_items = "sources"
    first_phase = "forward"

    def setup(self):
        self.sources = list(self.params["sources"])
        self.endpoints = self.params["endpoints"]
        self.depth = self.vertex_array(-1, np.int32)
        self.sigma = self.vertex_array(0.0, np.float64)  # shortest paths from the source
        # (1 + delta[w]) / sigma[w] for the vertices whose dependency is final, else 0
        self.coefficient = self.vertex_array(0.0, np.float64)
        self.centrality = self.vertex_array(0.0, np.float64)
        self.done_sources = 0

    def initial_frontier(self):
        return self.begin_source()

    def converged(self, frontier, iteration):
        return self.done_sources == len(self.sources)

    def begin_source(self):
        """The next source's frontier, or an empty one when all are done."""
        if self.done_sources == len(self.sources):
            return self.frontier_of([])
        self.source = self.local_slots([self.sources[self.done_sources]], name="source")
        self.put(self.sigma, self.source, 1.0)
        self.levels = []     # frontiers of the forward pass, popped by the backward pass
        self.finished = []   # ids of the levels whose dependencies are final
        self.phase = self.first_phase
        self.mark_source()
        return self.frontier_of(self.source)

    def mark_source(self):
        self.put(self.depth, self.source, 0)

    def step(self, frontier, iteration):
        if self.phase == "forward":
            return self.discover(frontier)
        return self.accumulate()

    def discover(self, frontier):
        """Forward: complete the level the last step found, then find the next."""
        level = self.settled(frontier)
        if self.reduce(level.size) == 0:
            self.phase = "backward"
            return self.accumulate()
        if self.levels:  # the source's count is set
            self.sigma[level.ids] = fr.neighbor_reduce(
                self.graph, self.path_counts(), "sum", vertices=level)
        self.levels.append(level)
        return self.discovered(level, self.next_level(level))

    def settled(self, frontier):
        """The vertices of ``frontier`` whose shortest-path count is due:
        those of the newest level (the last step returned the level before
        it too)."""
        newest = len(self.levels)
        return fr.filter(frontier, lambda ids: self.depth[ids] == newest)

    def discovered(self, level, found):
        """What a forward step returns: the ``level`` whose counts it set
        and the next level it ``found``."""
        return level.joined(found, disjoint=True)

    def next_level(self, level):
        return fr.advance(self.graph, level,
                          fr.functors.ClaimUnvisited(self.depth, len(self.levels)))

    def path_counts(self):
        """Functor: the count an in-edge brings to its destination."""
        return fr.functors.SourceValue(self.sigma)

    def successor_coefficients(self):
        """Functor: the coefficient an out-edge brings to its source."""
        return fr.functors.DestinationValue(self.coefficient)

    def accumulate(self):
        """Backward: final dependencies of the deepest level not yet done."""
        level = self.levels.pop()
        if not self.levels:
            return self.finish_source()
        ids = level.ids
        successors = fr.neighbor_reduce(self.graph, self.successor_coefficients(), "sum",
                                        vertices=level, direction="push")
        sigma = self.sigma[ids]
        delta = sigma * successors
        self.coefficient[ids] = (1.0 + delta) / sigma
        # With endpoints, the path from the source to v also counts for v.
        self.centrality[ids] += delta + (1.0 if self.endpoints else 0.0)
        self.finished.append(ids)
        return level

    def finish_source(self):
        """Count the source as an endpoint if asked, reset its data, go on."""
        if self.endpoints:
            self.centrality[self.source] += self.reduce(sum(len(ids) for ids in self.finished))
        self.reset(self.xp.concatenate(self.finished + [self.source]))
        self.done_sources += 1
        return self.begin_source()

    def reset(self, reached):
        """The shared arrays back to their fills, at least at ``reached``."""
        self.refill(self.depth, -1, reached)
        self.refill(self.sigma, 0.0, reached)
        self.refill(self.coefficient, 0.0, reached)

    def absorb(self, other):
        self.centrality += other.centrality

    def result(self):
        factor, sampled_factor = self.params["scale"]
        centrality = self.centrality * factor
        if sampled_factor is not None:
            sampled = self.local_slots(list(self.params["sources"]))
            centrality[sampled] = self.centrality[sampled] * sampled_factor
        return BCResult(centrality)


class WeightedBrandes(Brandes):
    """Brandes over the shortest-path DAG of positive edge weights."""

    communicate = {"distance": "min", "released": "sum", "sigma": "owner",
                   "coefficient": "owner"}
    # Released counts are summed, which needs the snapshot boundary.
    changes_only_in_output = False
    first_phase = "distance"

    def setup(self):
        super().setup()
        self.distance = self.vertex_array(np.inf, np.float64)
        # Tight in-edges of each vertex, and how many of them earlier rounds
        # released; int32 because GPU atomic adds take it.
        self.tight_in = self.vertex_array(0, np.int32)
        self.released = self.vertex_array(0, np.int32)

    def mark_source(self):
        self.put(self.distance, self.source, 0.0)

    def step(self, frontier, iteration):
        if self.phase == "distance":
            return self.relax(frontier)
        return super().step(frontier, iteration)

    def relax(self, frontier):
        """Bellman-Ford over frontiers; once distances settle, count each
        vertex's tight in-edges and start the DAG walk at the source."""
        if self.reduce(frontier.size) > 0:
            return fr.advance(self.graph, frontier, fr.functors.RelaxMin(self.distance)).unique()
        reached = fr.Frontier.from_mask(self.xp.isfinite(self.distance))
        self.tight_in[reached.ids] = fr.neighbor_reduce(
            self.graph, self.tight_edges, "sum", vertices=reached, dtype=np.int32)
        self.phase = "forward"
        return self.frontier_of(self.source)

    def tight(self, src, dst, edge, weight):
        """Whether an edge lies on a shortest path from the source."""
        return self.distance[src] + weight == self.distance[dst]

    def tight_edges(self, src, dst, edge, weight):
        return self.tight(src, dst, edge, weight).astype(np.int32)

    def settled(self, frontier):
        return fr.filter(frontier, lambda ids: self.released[ids] == self.tight_in[ids],
                         unique=True)

    def discovered(self, level, found):
        return found

    def next_level(self, level):
        released = self.released

        def release(src, dst, edge, weight):
            # Release the round's tight out-edges; their heads are candidates
            # for the next round (settled() keeps those with none left).
            along = self.tight(src, dst, edge, weight)
            fr.scatter_add(released, dst[along], 1)
            return along

        return fr.advance(self.graph, level, release)

    def path_counts(self):
        def tight_count(src, dst, edge, weight):
            return self.xp.where(self.tight(src, dst, edge, weight), self.sigma[src], 0.0)

        return tight_count

    def successor_coefficients(self):
        def tight_coefficient(src, dst, edge, weight):
            return self.xp.where(self.tight(src, dst, edge, weight), self.coefficient[dst], 0.0)

        return tight_coefficient

    def reset(self, reached):
        super().reset(reached)
        self.refill(self.distance, np.inf, reached)
        self.refill(self.tight_in, 0, reached)
        self.refill(self.released, 0, reached)


def _scale(n: int, normalized: bool, directed: bool, endpoints: bool, sampled):
    """NetworkX's rescaling (``betweenness._rescale``) as ``(factor,
    sampled_factor)``: every vertex is scaled by ``factor``, except that the
    sampled sources get ``sampled_factor`` when it is not ``None``."""
    pairs = n if endpoints else n - 1  # targets that paths through v can have
    if pairs < 2:
        return 1.0, None
    sources = pairs if sampled is None else len(sampled)
    correction = 1 if directed else 2

    def factor(count):
        if count == 0:
            return math.nan  # NetworkX: no data for a lone sampled source
        return 1 / (count * (pairs - 1)) if normalized else pairs / (count * correction)

    if sampled is None or endpoints:
        return factor(sources), None
    # A sampled source is never a target of its own paths: one fewer source.
    return factor(sources), factor(sources - 1)


def sample_sources(n: int, k, seed) -> list | None:
    """The ``k`` sources NetworkX samples from ``n`` vertices with ``seed``,
    or None for every vertex (``k`` None or ``n``)."""
    if k is None or k == n:  # NetworkX then takes every source, without sampling
        return None
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= n:
        raise ValueError(f"k={k!r} sources: expected an integer in 1..{n}")
    # random.sample draws by length and index: range(n) picks what NetworkX's
    # node list picks, without building an n-element list.
    return create_py_random_state(seed).sample(range(n), int(k))


def check_weights(G: fr.Graph, weight) -> None:
    if not G.is_weighted:
        raise ValueError(f"weight={weight!r} but the graph has no edge weights")
    G.check_weights("weighted betweenness needs positive weights (with zero weights "
                    "NetworkX's path counts depend on its heap order)", positive=True)


def betweenness_centrality(
    G: fr.Graph,
    k: int | None = None,
    normalized: bool = True,
    weight: str | None = None,
    endpoints: bool = False,
    seed=None,
    **options,
) -> BCResult:
    """Betweenness centrality of every vertex, as ``networkx.betweenness_centrality``.

    The betweenness of ``v`` sums, over pairs ``(s, t)``, the fraction of
    shortest ``s``-``t`` paths that pass through ``v``.

    Parameters
    ----------
    G : frontier.Graph
    k : int, optional
        Use ``k`` sampled sources instead of all vertices. They are drawn as
        NetworkX draws them (``seed.sample`` over the vertex list), so for the
        same ``seed`` the result equals NetworkX's.
    normalized : bool
        Divide by the number of pairs, ``(n-1)(n-2)`` (``n`` with endpoints);
        otherwise undirected graphs count each unordered pair once.
    weight : str or None
        ``None`` counts hops; any name uses ``G.weights`` as edge lengths
        (they must be positive).
    endpoints : bool
        Count the endpoints of each path too.
    seed : int, random.Random, numpy Generator or None
        Randomness for sampling ``k`` sources (NetworkX's ``seed``).
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Parallel edges count once (the lightest one when weighted) and self loops
    are ignored, as in NetworkX.

    Returns
    -------
    BCResult
        ``centrality`` (float64, one per vertex). With ``k`` sources sampled,
        ``endpoints=False`` and ``k == 1``, the sampled vertex gets NaN, as in
        NetworkX.

    Raises
    ------
    ValueError
        If ``k`` is not in ``1..n``, if ``weight`` is given but ``G`` has no
        weights, or if a weight is not positive.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import betweenness_centrality
    >>> G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], device="cpu")
    >>> betweenness_centrality(G).centrality.round(4).tolist()
    [0.0, 0.6667, 0.6667, 0.0]
    """
    n = G.num_vertices
    sampled = sample_sources(n, k, seed)
    if weight is not None:
        check_weights(G, weight)
    scale = _scale(n, normalized, G.directed, endpoints, sampled)
    primitive = Brandes if weight is None else WeightedBrandes
    return fr.enact(primitive, G.simplified(),
                    sources=range(n) if sampled is None else sampled,
                    endpoints=endpoints, scale=scale, **options)
