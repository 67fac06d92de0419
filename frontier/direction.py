"""Push or pull, chosen level by level: the direction rule of an advance.

A claiming traversal (BFS) may walk a level in either direction: *push*
walks the out-edges of the frontier, *pull* lets every unvisited vertex look
over its in-edges for a parent in the frontier and stop at the first. Push
costs the frontier's out-edges; pull costs at most the unvisited vertices'
in-edges, usually far fewer since most find a parent early. Beamer et al.
switch to pull on the large middle levels of a power-law graph and back to
push on the small ones at the end.

:class:`AutoDirection` holds the rule and the state it keeps across the
levels of one traversal. Pass the same object to every ``advance`` of the
traversal (``direction=switch``); the operator then decides each level from
counts of the frontier it already has on the device: its size, its
out-edges and in-edges. A primitive makes one with
:meth:`frontier.Primitive.auto_direction`, which also makes the counts
global on several devices. ``rule="beamer"`` (default) counts edges:

    m_f = out-edges of the frontier           what a push walks
    m_u = in-edges of the unvisited vertices  what a pull walks at most

and switches from push to pull when ``m_f > m_u / alpha``, and from pull
back to push for good when the frontier has fewer than ``n / beta``
vertices. ``rule="gunrock"`` is the rule of Gunrock's multi-GPU DOBFS, with
``Q`` the frontier, ``U`` the unvisited and ``P`` the visited vertices
(frontier included)::

    FV = |Q| * |E| / |V|        edges a push would walk
    BV = |U| * |V| / |P|        edges a pull would walk before finding a parent

It starts pushing, switches to pull when ``FV > BV * do_a``, and from pull
returns to push for good when ``FV < BV * do_b``.

Either rule takes at most one pull phase. The visited vertices are those of
the frontiers the traversal has seen (the first one included): a claim
visits each vertex once, so each frontier's vertices are new.
"""

from __future__ import annotations

import math
from collections.abc import Callable

DIRECTIONS = ("push", "pull")
RULES = ("beamer", "gunrock")


class AutoDirection:
    """The direction rule of one traversal and its state between levels.

    Parameters
    ----------
    rule : ``"beamer"`` or ``"gunrock"``
        The switch rule (module docstring).
    alpha, beta : float
        Beamer's rule: pull when ``m_f > m_u / alpha``, push again when the
        frontier has fewer than ``n / beta`` vertices (Beamer et al.'s 14, 24).
    do_a, do_b : float
        Gunrock's rule: pull when ``FV > BV * do_a``, push again when
        ``FV < BV * do_b``.
    force : None, ``"push"`` or ``"pull"``
        A name takes that direction every level (still recorded).
    reduce : callable ``(value, op) -> value``, optional
        Combines a count over all devices (:meth:`frontier.Primitive.reduce`);
        ``None``: one device.
    reduce_each : callable ``(values, op) -> list``, optional
        Combines several counts over all devices in one collective
        (:meth:`frontier.Primitive.reduce_each`): a level's three counts
        then make one meeting of the devices, not three. By default
        ``reduce`` on each.
    num_vertices, num_arcs : int, optional
        Of the whole graph, when the advances see a part of it; by default
        those of the first graph advanced.

    Attributes
    ----------
    directions : list of str
        The direction of every level advanced so far, in order.

    Raises
    ------
    ValueError
        For an unknown ``rule`` or ``force``, or a factor that is not a
        finite number >= 0.
    """

    def __init__(self, rule: str = "beamer", *, alpha: float = 14.0, beta: float = 24.0,
                 do_a: float = 0.1, do_b: float = 0.2, force: str | None = None,
                 reduce: Callable | None = None, num_vertices: int | None = None,
                 num_arcs: int | None = None, reduce_each: Callable | None = None):
        if rule not in RULES:
            raise ValueError(f"rule={rule!r}: expected one of {RULES}")
        if force is not None and force not in DIRECTIONS:
            raise ValueError(f"direction={force!r}: expected None, 'push' or 'pull'")
        self.rule = rule
        self.alpha = check_factor("alpha", alpha)
        self.beta = check_factor("beta", beta)
        self.do_a = check_factor("do_a", do_a)
        self.do_b = check_factor("do_b", do_b)
        self.force = force
        #: combines counts over devices; None on one device
        self.reduce = reduce
        self.reduce_each = reduce_each
        self.num_vertices = num_vertices
        self.num_arcs = num_arcs
        self.directions: list[str] = []
        self._direction = "push"
        self._has_pulled = False
        self._visited = 0
        self._unexplored_edges = None  # m_u
        # The output of the last advance and its counts, which the next
        # level's decision uses when that output is its frontier.
        self._last_output = None
        self._last_counts = None
        #: what the operator keeps between levels (device buffers), dropped
        #: when a frontier is not the last output
        self.operator_state: dict = {}

    @property
    def on_parts(self) -> bool:
        """True when the advances see parts of a graph on several devices."""
        return self.reduce is not None

    def needs_counts(self) -> bool:
        """False when the direction is forced: no counts are taken."""
        return self.force is None

    def needs_edges(self) -> bool:
        """Whether the edge counts of the next frontier matter: only while
        Beamer's rule may still switch to pull (Gunrock's counts vertices;
        after a pull phase the rule only pushes or counts vertices)."""
        return self.force is None and self.rule == "beamer" and not self._has_pulled

    def counts_of(self, frontier):
        """What :meth:`remember` kept for ``frontier``, if it is the last
        output; ``None`` otherwise."""
        return self._last_counts if frontier is self._last_output else None

    def remember(self, output, counts) -> None:
        """Keep the counts of an advance's output (the operator's: its size,
        out-edges and in-edges, and what else it wants back with them)."""
        self._last_output, self._last_counts = output, counts

    def device_rule(self) -> tuple[float, int] | None:
        """What the levels pushed on the device need to decide them as
        :meth:`decide` would, after a level this rule pushed: ``(alpha,
        unexplored in-edges)`` while Beamer's rule has not pulled yet,
        ``(-1.0, 0)`` once every later level pushes (after the pull phase,
        or a forced push); ``None`` where only the host decides (Gunrock's
        rule before it pulls, a forced pull, several devices)."""
        if self.on_parts or self._direction != "push":
            return None
        if self.pushes_for_good():
            return -1.0, 0
        if self.force is None and self.rule == "beamer":
            return self.alpha, self._unexplored_edges
        return None

    def pulls_on_device(self) -> float | None:
        """``beta`` where the levels after a pull :meth:`decide` gave may be
        decided on the device as it would (Beamer's rule, one device), else
        ``None``."""
        if self.on_parts or self.force is not None or self.rule != "beamer" \
                or self._direction != "pull":
            return None
        return self.beta

    def device_phase(self, graph) -> int | None:
        """Where a launch that decides every level on the device as
        :meth:`decide` would (Beamer's rule on one device, not forced;
        :func:`frontier.operators.auto_levels.auto_levels`) starts: 0 before
        the pull phase, 1 in it, 2 after it; ``None`` where that does not
        apply. The rule's totals are taken from ``graph`` if not set yet."""
        if self.on_parts or self.force is not None or self.rule != "beamer":
            return None
        self._start(graph)
        if self._direction == "pull":
            return 1
        return 2 if self._has_pulled else 0

    @property
    def unexplored_edges(self) -> int | None:
        """The in-edges of the vertices not visited yet (``m_u``), once a
        level has been decided or :meth:`device_phase` asked."""
        return self._unexplored_edges

    def decided_all_on_device(self, pulled, visited: int, in_edges: int, phase: int) -> None:
        """Record levels decided on the device from :meth:`device_phase`:
        ``pulled`` (True for a pull) of each in order, whose frontiers held
        ``visited`` vertices and ``in_edges`` in-edges, and the ``phase`` at
        the end."""
        self.directions.extend("pull" if pull else "push" for pull in pulled)
        self._visited += visited
        self._unexplored_edges -= in_edges
        self._direction = "pull" if phase == 1 else "push"
        self._has_pulled = self._has_pulled or phase > 0

    def decided_on_device(self, direction: str, levels: int, visited: int,
                          in_edges: int) -> None:
        """Record ``levels`` levels of ``direction`` decided on the device
        after the one :meth:`decide` gave (:meth:`device_rule`,
        :meth:`pulls_on_device`), whose frontiers held ``visited`` vertices
        and ``in_edges`` in-edges."""
        self.directions.extend([direction] * levels)
        self._visited += visited
        if self._unexplored_edges is not None:
            self._unexplored_edges -= in_edges

    def pushes_for_good(self) -> bool:
        """Whether every later level pushes, whatever its counts: a forced
        push, or a rule that pushes again after its pull phase."""
        return self.force == "push" or (self.force is None and self._has_pulled
                                        and self._direction == "push")

    def pushed(self, levels: int) -> None:
        """Record ``levels`` levels pushed without a decision of their own,
        once :meth:`pushes_for_good`."""
        self.directions.extend(["push"] * levels)

    def decide(self, graph, counts, *, can_pull: bool = True, summed: bool = False) -> str:
        """The direction of the level whose frontier has ``counts`` (its size,
        out-edges and in-edges on this device, or with ``summed`` over all
        devices already; ``None`` when forced), recorded in
        :attr:`directions`. ``can_pull=False`` takes push this level,
        whatever the rule says (the counts still count)."""
        self._start(graph)
        if self.force is not None:
            direction = self.force
        else:
            size, out_edges, in_edges = [int(count) for count in counts] if summed \
                else self._globals(counts)
            self._visited += size
            self._unexplored_edges -= in_edges
            direction = self._beamer(size, out_edges) if self.rule == "beamer" \
                else self._gunrock(size)
        if not can_pull:
            direction = "push"
        self.directions.append(direction)
        return direction

    def _start(self, graph) -> None:
        """Take the rule's totals from ``graph`` where they are not set yet
        (the first level): its vertices and arcs, all of them unexplored."""
        if self.num_vertices is None:
            self.num_vertices, self.num_arcs = graph.num_vertices, graph.num_arcs
        if self._unexplored_edges is None:
            self._unexplored_edges = self.num_arcs

    def _globals(self, counts) -> list[int]:
        """``counts`` summed over the devices."""
        counts = [int(count) for count in counts]
        if self.reduce is None:
            return counts
        if self.reduce_each is not None:
            return [int(total) for total in self.reduce_each(counts, "sum")]
        return [int(self.reduce(count, "sum")) for count in counts]

    def _beamer(self, frontier_size: int, frontier_edges: int) -> str:
        # Products, not quotients: alpha or beta may be 0.
        if self._direction == "push" and not self._has_pulled \
                and frontier_edges * self.alpha > self._unexplored_edges:
            self._direction, self._has_pulled = "pull", True
        elif self._direction == "pull" and frontier_size * self.beta < self.num_vertices:
            self._direction = "push"
        return self._direction

    def _gunrock(self, frontier_size: int) -> str:
        n, arcs = self.num_vertices, self.num_arcs
        forward = frontier_size * arcs / n
        backward = (n - self._visited) * n / max(self._visited, 1)
        if self._direction == "push" and not self._has_pulled and forward > backward * self.do_a:
            self._direction, self._has_pulled = "pull", True
        elif self._direction == "pull" and forward < backward * self.do_b:
            self._direction = "push"
        return self._direction

    def __repr__(self) -> str:
        forced = f", force={self.force!r}" if self.force else ""
        return f"AutoDirection(rule={self.rule!r}{forced}, levels={len(self.directions)})"


def check_factor(name: str, value) -> float:
    """A switch factor as a float, or ValueError unless it is finite and >= 0."""
    try:
        factor = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r} must be a number") from None
    if not (math.isfinite(factor) and factor >= 0):
        raise ValueError(f"{name}={value!r} must be a finite number >= 0")
    return factor
