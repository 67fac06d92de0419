"""Direction-optimizing breadth-first search (Beamer et al., as in Gunrock).

While the frontier is small, its vertices push over their out-edges and claim
unvisited destinations, exactly as :func:`~primitives.bfs` does. Once the
frontier is large, the work flips: every unvisited vertex pulls, looking over
its in-edges for a parent in the frontier, which costs less than pushing over
the many edges that lead back into visited territory.

Before each iteration a switch rule compares the work each direction would
do; every count is over the whole graph. The default, Beamer's rule
(``rule="beamer"``), counts edges:

    m_f = out-edges of the frontier           what a push walks
    m_u = in-edges of the unvisited vertices  what a pull walks at most

and switches from push to pull when ``m_f > m_u / alpha``, and from pull
back to push for good when the frontier has fewer than ``n / beta``
vertices. It
pulls on the hub level of a power-law graph, where pushing re-walks most
edges into visited territory.

``rule="gunrock"`` is the rule of Gunrock's multi-GPU DOBFS, with ``Q`` the
frontier, ``U`` the unvisited and ``P`` the visited vertices (frontier
included)::

    FV = |Q| * |E| / |V|        edges a push would walk
    BV = |U| * |V| / |P|        edges a pull would walk before finding a parent

A run starts pushing, switches to pull when ``FV > BV * do_a``, and from pull
returns to push for good when ``FV < BV * do_b``. On a Kronecker graph it
keeps the hub level in push (``|P| = 1`` there makes ``BV`` huge).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import frontier as fr

from .bfs import BFS, BFSResult

DIRECTIONS = ("push", "pull")
RULES = ("beamer", "gunrock")


@dataclass
class DOBFSResult(BFSResult):
    """:class:`~primitives.bfs.BFSResult`'s ``depth`` and ``predecessor``.

    ``directions`` (not an array, so not a field) holds ``"push"`` or
    ``"pull"`` for each iteration, in order.
    """

    def __post_init__(self):
        super().__post_init__()
        self.directions: tuple[str, ...] = ()


class DOBFS(BFS):
    """BFS's data and first frontier, plus the direction switch."""

    parameters = ("source", "rule", "alpha", "beta", "do_a", "do_b", "direction")
    # Not BFS's replayable: each step chooses a direction and records it.
    replayable = False

    def setup(self):
        super().setup()
        self.rule = self.params["rule"]
        if self.rule not in RULES:
            raise ValueError(f"rule={self.rule!r}: expected one of {RULES}")
        self.alpha = _check_factor("alpha", self.params["alpha"])
        self.beta = _check_factor("beta", self.params["beta"])
        self.do_a = _check_factor("do_a", self.params["do_a"])
        self.do_b = _check_factor("do_b", self.params["do_b"])
        self.out_degree = self.graph.out_degree()
        self.in_degree = self.graph.in_degree()
        self.unexplored_edges = self.num_arcs  # m_u: in-edges of unvisited vertices
        self.forced = self.params["direction"]
        if self.forced is not None and self.forced not in DIRECTIONS:
            raise ValueError(f"direction={self.forced!r}: expected None, 'push' or 'pull'")
        # Pull candidates, kept up to date from each iteration's frontier (the
        # vertices found in the one before) rather than rescanning the depths.
        self.unvisited = self.vertex_array(True, bool)
        self.num_visited = 0
        self.direction = "push"
        self.has_pulled = False
        self.directions = []

    def step(self, frontier, iteration):
        if frontier.kind == "dense":  # a pull's output: no id list to build
            self.xp.logical_and(self.unvisited, ~frontier.mask, out=self.unvisited)
        else:
            self.unvisited[frontier.ids] = False
        level_size = self.reduce(frontier.size)
        self.num_visited += level_size
        if self.rule == "beamer":
            ids = frontier.ids
            frontier_edges = self.reduce(int(self.out_degree[ids].sum()))
            self.unexplored_edges -= self.reduce(int(self.in_degree[ids].sum()))
            direction = self.forced or self.beamer_direction(level_size, frontier_edges)
        else:
            direction = self.forced or self.choose_direction(level_size)
        self.directions.append(direction)
        visit = fr.functors.ClaimUnvisited(self.depth, iteration + 1, self.predecessor)
        if direction == "push":
            return fr.advance(self.graph, frontier, visit)
        # Pull looks for parents on the current level by depth, which also
        # covers the copies of remote vertices a part holds.
        level = fr.Frontier.from_mask(self.depth == iteration)
        candidates = fr.Frontier.from_mask(self.unvisited)
        return fr.advance(self.graph, level, visit, direction="pull", among=candidates)

    def beamer_direction(self, frontier_size: int, frontier_edges: int) -> str:
        """Beamer's rule (module docstring)."""
        # Products, not quotients: alpha or beta may be 0. One pull phase: a
        # tail of small levels pulls no cheaper than it pushes.
        if self.direction == "push" and not self.has_pulled \
                and frontier_edges * self.alpha > self.unexplored_edges:
            self.direction, self.has_pulled = "pull", True
        elif self.direction == "pull" and frontier_size * self.beta < self.num_vertices:
            self.direction = "push"
        return self.direction

    def choose_direction(self, frontier_size: int) -> str:
        """Gunrock's rule (module docstring): push, then at most one pull phase."""
        n, arcs = self.num_vertices, self.num_arcs
        forward = frontier_size * arcs / n
        backward = (n - self.num_visited) * n / self.num_visited
        if self.direction == "push" and not self.has_pulled and forward > backward * self.do_a:
            self.direction, self.has_pulled = "pull", True
        elif self.direction == "pull" and forward < backward * self.do_b:
            self.direction = "push"
        return self.direction

    def result(self):
        result = DOBFSResult(self.depth, self.predecessor)
        result.directions = tuple(self.directions)
        return result


def _check_factor(name: str, value) -> float:
    """A switch factor as a float, or ValueError unless it is finite and >= 0."""
    try:
        factor = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r} must be a number") from None
    if not (math.isfinite(factor) and factor >= 0):
        raise ValueError(f"{name}={value!r} must be a finite number >= 0")
    return factor


def dobfs(G: fr.Graph, source: int = 0, *, rule: str = "beamer", alpha: float = 14.0,
          beta: float = 24.0, do_a: float = 0.1, do_b: float = 0.2,
          direction: str | None = None, **options) -> DOBFSResult:
    """Direction-optimizing breadth-first search from ``source``.

    Gives the same depths as :func:`~primitives.bfs`; the predecessor tree
    may differ where a vertex has several parents one level up.

    Parameters
    ----------
    G : frontier.Graph
        Directed or undirected; pull walks in-edges (``G.in_edges()``).
    source : int or node
        The start vertex: a node of ``G.node_labels`` when ``G`` has them.
    rule : ``"beamer"`` or ``"gunrock"``
        The switch rule (see the module docstring).
    alpha, beta : float
        Beamer's rule: pull when ``m_f > m_u / alpha``, push again when the
        frontier has fewer than ``n / beta`` vertices (Beamer et al.'s 14, 24).
    do_a : float
        Gunrock's rule: switch from push to pull when ``FV > BV * do_a``.
        Larger values pull later; 0 pulls from the start.
    do_b : float
        Gunrock's rule: switch from pull back to push when ``FV < BV * do_b``.
    direction : None, ``"push"`` or ``"pull"``
        ``None`` chooses per iteration; a name forces that direction.
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    Returns
    -------
    DOBFSResult
        ``depth`` (int32, -1 = unreached), ``predecessor`` (-1 for the source
        and unreached vertices) and ``directions``, one per iteration.

    Raises
    ------
    ValueError
        If ``source`` is not a vertex of ``G``, ``alpha``, ``beta``, ``do_a``
        or ``do_b`` is not a finite number >= 0, or ``rule`` or ``direction``
        is not one of the above.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import dobfs
    >>> G = fr.Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], device="cpu")
    >>> dobfs(G, source=0).depth.tolist()
    [0, 1, 1, 2]
    >>> dobfs(G, source=0, direction="pull").directions
    ('pull', 'pull', 'pull')

    References
    ----------
    S. Beamer, K. Asanović, D. Patterson, "Direction-optimizing breadth-first
    search", SC 2012. Y. Pan, Y. Wang, Y. Wu, C. Yang, J. D. Owens,
    "Multi-GPU graph analytics", IPDPS 2017 (the switch rule).
    """
    return fr.enact(DOBFS, G, source=source, rule=rule, alpha=alpha, beta=beta, do_a=do_a,
                    do_b=do_b, direction=direction, **options)
