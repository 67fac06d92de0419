"""Semi-synchronous label propagation communities (Cordasco and Gargano),
step for step as ``networkx.label_propagation_communities``.

Every vertex starts with its own id as label. The vertices are coloured
greedily (:mod:`primitives.coloring`, NetworkX's ``largest_first``
colouring), so no two neighbours share a colour. A sweep updates the
colour classes one after another, each class all at once: a vertex takes
the label most frequent among its neighbours (each neighbour counted once,
as NetworkX's ``G[v]`` lists it), keeping its own when that is one of the
most frequent and else taking the largest of them (Prec-Max). Sweeps repeat
until every vertex with neighbours has a most frequent label. Neighbours
never share a class, so updating a class at once is the same as NetworkX's
one vertex after another, and the result is NetworkX's exactly.

One step updates one class: an ``advance`` collects the class's out-edges,
which are then grouped by source and label with a sort. NetworkX checks
before each sweep whether every vertex is settled, a pass over all edges as
costly as a sweep. A sweep moves no vertex exactly when that check would
pass (when one vertex is not settled, the sweep moves it, or an earlier
class of the sweep moved another first), so the check is needed only to
stop without one more sweep: it is made only after a sweep that moved at
most :data:`CHECK_AFTER_MOVES` of the vertices, where it is likely to pass,
and a sweep that moves nothing ends the run too. Either way the labels are
NetworkX's; most checks, each a pass over every edge, are saved, and the
last sweep, which on a GPU costs a step per colour, mostly too.
On several devices ``labels`` is an ``"owner"`` array: a vertex's owner sees
all its edges, and copies take their owners' labels between steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

import frontier as fr

from .coloring import greedy_color

#: The fraction of the vertices a sweep may move at most to be followed by
#: NetworkX's check (a step over every vertex) rather than by the next
#: sweep alone: the check saves a sweep where it passes and wastes a pass
#: where it fails. On a 200,000-node Barabasi-Albert graph the sweeps moved
#: 81%, 23%, 43%, 49%, 5% and 0% of the vertices, on Kronecker 16 68%, 50%,
#: 2.3% and 0%.
CHECK_AFTER_MOVES = 1 / 16


@dataclass
class LabelPropagationResult(fr.Result):
    """``labels[v]``: the community label of ``v`` (a vertex id; equal labels,
    same community)."""

    labels: object

    vertex_fields = ("labels",)


class LabelPropagation(fr.Primitive):
    parameters = ("color", "num_colors")
    communicate = {"labels": "owner"}

    def setup(self):
        self.labels = self.vertex_ids().astype(np.int64)
        self.color = self.vertex_array(self.params["color"], np.int64)
        self.num_colors = self.params["num_colors"]
        self.everyone = self.all_vertices()
        self.next_class = 0
        self.moved = self.vertex_array(False, bool)  # by this sweep so far
        self.check_next = False
        self.done = self.num_vertices == 0

    def initial_frontier(self):
        return self.everyone

    def step(self, frontier, iteration):
        if self.check_next:  # NetworkX's check: done if every vertex is settled
            self.update(self.everyone, write=False)
            self.done = self.take_moves() == 0
            self.check_next = False
            return frontier
        color, c = self.color, self.next_class
        self.update(fr.filter(self.everyone, lambda v: color[v] == c), write=True)
        if c + 1 < self.num_colors:
            self.next_class = c + 1
            return frontier
        moves = self.take_moves()  # the sweep's end
        self.next_class = 0
        self.done = moves == 0
        self.check_next = 0 < moves <= CHECK_AFTER_MOVES * self.num_vertices
        return frontier

    def take_moves(self) -> int:
        """How many vertices ``moved`` marks over all devices, the marks
        cleared for the next sweep or check."""
        moves = int(self.vertex_sum(self.moved))
        self.moved[:] = False
        return moves

    def update(self, vertices, write: bool):
        """Prec-Max over ``vertices``' neighbours: the vertices it would
        move are marked in ``moved`` and, with ``write`` (``vertices`` one
        colour class), moved.

        The advance hands the functor whole vertices a batch (its
        ``chunk_edges``), so each batch is decided on its own and no array
        spans all edges: a pass over every vertex peaked at 60.5 GB on
        Kronecker 24 when the batches were grouped after the advance. A
        batch changes no label another batch reads: the vertices of a class
        are not neighbours."""
        def prec_max(src, dst, edge, weight):
            best, largest, moves = self.most_frequent(src, dst)
            movers = best[moves]
            if write:
                self.labels[movers] = largest[moves]
            self.moved[movers] = True
            return self.xp.zeros(len(dst), bool)

        fr.advance(self.graph, vertices, prec_max)

    def most_frequent(self, src, dst):
        """For the sources of the edges ``src -> dst`` (whole vertices):
        each source, the largest of its neighbours' most frequent labels,
        and whether that is a move (its own label is not among them)."""
        xp, labels = self.xp, self.labels
        source, target = src.astype(np.int64), dst
        if not self.graph.is_simple():  # each neighbour once, as NetworkX's G[v] lists it
            slots = len(labels)
            pair = xp.sort(source * slots + dst)
            pair = pair[xp.concatenate([xp.ones(1, bool), pair[1:] != pair[:-1]])]
            source, target = pair // slots, pair % slots
        n = self.num_vertices  # labels are vertex ids
        key = xp.sort(source * n + labels[target])
        first = xp.concatenate([xp.ones(1, bool), key[1:] != key[:-1]])
        starts = xp.flatnonzero(first)
        run_key = key[starts]
        count = xp.diff(xp.concatenate([starts, xp.asarray([len(key)])]))
        vertex, label = run_key // n, run_key % n
        # the last run of each vertex by (count, label): most frequent, largest
        # label. The runs are in (vertex, label) order, so a stable sort by
        # (vertex, count) keeps labels in order among equal counts: the order
        # of a lexsort by (vertex, count, label), for a fraction of its time.
        order = xp.argsort(vertex * (count.max() + 1) + count, kind="stable")
        ordered = vertex[order]
        last = order[xp.concatenate([ordered[1:] != ordered[:-1], xp.ones(1, bool)])]
        best, best_count, largest = vertex[last], count[last], label[last]
        own_key = best * n + labels[best]
        own_run = xp.minimum(xp.searchsorted(run_key, own_key), len(run_key) - 1)
        own_count = xp.where(run_key[own_run] == own_key, count[own_run], 0)
        return best, largest, own_count < best_count

    def converged(self, frontier, iteration):
        return self.done

    def result(self):
        return LabelPropagationResult(self.labels)


def label_propagation(G: fr.Graph, **options) -> LabelPropagationResult:
    """Community labels by semi-synchronous label propagation, as
    ``networkx.label_propagation_communities`` finds the communities.

    Parameters
    ----------
    G : frontier.Graph
        Undirected (NetworkX raises ``NetworkXNotImplemented`` for directed
        graphs, and so does this). Parallel edges count once, as neighbours
        do in a NetworkX multigraph; a self loop makes a vertex its own
        neighbour.
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`); the colouring and
        the propagation are two runs with the same options.

    Returns
    -------
    LabelPropagationResult
        ``labels`` (int64): vertices with equal labels form one of
        NetworkX's communities; each label is a vertex id.

    Raises
    ------
    networkx.NetworkXNotImplemented
        If ``G`` is directed.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import label_propagation
    >>> G = fr.Graph.from_edges([0, 0, 1, 3, 3, 4, 2], [1, 2, 2, 4, 5, 5, 3], device="cpu")
    >>> label_propagation(G).labels.tolist()
    [3, 3, 3, 5, 5, 5]
    """
    if G.directed:
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    color = fr.to_numpy(greedy_color(G, **options).color)
    return fr.enact(LabelPropagation, G, color=color,
                    num_colors=int(color.max()) + 1 if len(color) else 0, **options)
