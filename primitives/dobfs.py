"""Direction-optimizing breadth-first search (Beamer et al., as in Gunrock).

BFS with an automatic direction: while the frontier is small, its vertices
push over their out-edges and claim unvisited destinations, exactly as
:func:`~primitives.bfs` does. Once the frontier is large, the work flips:
every unvisited vertex pulls, looking over its in-edges for a parent in the
frontier, which costs less than pushing over the many edges that lead back
into visited territory. The advance operator makes the switch
(:class:`frontier.AutoDirection`, whose docstring gives both rules); this
module only chooses the rule and its settings:

* ``rule="beamer"`` (default) pulls when the frontier's out-edges exceed the
  unvisited vertices' in-edges divided by ``alpha``, and pushes again when
  the frontier has fewer than ``n / beta`` vertices. It pulls on the hub
  level of a power-law graph, where pushing re-walks most edges into
  visited territory.
* ``rule="gunrock"`` is the rule of Gunrock's multi-GPU DOBFS (``do_a``,
  ``do_b``); on a Kronecker graph it keeps the hub level in push.
"""

from __future__ import annotations

from dataclasses import dataclass

import frontier as fr

from .bfs import BFS, BFSResult


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
    """BFS whose advance chooses its direction by a rule with these settings."""

    parameters = ("source", "rule", "alpha", "beta", "do_a", "do_b", "direction")
    defaults = {}
    # its pulls look for parents among the copies of other devices' vertices
    copies_may_lag = False
    # BFS's replayable holds: the operator records the direction of every
    # level it runs, on the host or on the device.

    def traversal_direction(self):
        params = self.params
        return self.auto_direction(params["rule"], alpha=params["alpha"], beta=params["beta"],
                                   do_a=params["do_a"], do_b=params["do_b"],
                                   force=params["direction"])

    def result(self):
        return self.with_directions(DOBFSResult(self.depth, self.predecessor))


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
