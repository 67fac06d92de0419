"""Strongly connected components by trimming, colouring and backward
reachability (the coloring algorithm of Orzan, and of Hong et al. for GPUs).

Every vertex starts unassigned (``labels[v] = -1``). A round does three
things on the unassigned vertices, each a few steps of the loop:

* trimming: a vertex without an in-edge or without an out-edge from or to
  another unassigned vertex is a component of its own;
* colouring: every vertex starts with its own id as colour and colours flow
  forward along edges, each vertex keeping the smallest it is offered (a
  scatter-min, frontier by frontier, like SSSP). Then ``color[v]`` is the
  smallest id that reaches ``v``, and the vertex ``c`` whose colour is its
  own id is the smallest vertex of its component;
* backward reachability: each such root ``c`` takes label ``c``, and level
  by level every vertex of colour ``c`` with an out-edge into a vertex
  labelled ``c`` takes it too. Those are exactly the vertices of colour
  ``c`` that reach ``c``: its component.

Each round assigns at least every root, so the run ends; every label is the
smallest vertex id of its component, as in :mod:`primitives.cc`.

On several devices labels merge with ``"max"`` (a vertex is assigned once,
from -1) and colours with ``"min"``. A device sees all in- and out-edges of
the vertices it owns but not of its copies of remote ones, so a count made
over a copy's edges can miss edges: trimming therefore writes its degrees to
``"owner"`` arrays in one step and trims from them in the next, when every
copy holds its owner's count. The backward step needs no such care: a
missing edge can only hide a vertex that its owner then finds.
"""

from __future__ import annotations

from dataclasses import dataclass

import frontier as fr


@dataclass
class SCCResult(fr.Result):
    """``labels[v]``: the smallest vertex id of ``v``'s strongly connected
    component."""

    labels: object

    vertex_fields = ("labels",)


class StronglyConnectedComponents(fr.Primitive):
    parameters = ()
    communicate = {"labels": "max", "color": "min", "has_in": "owner", "has_out": "owner"}

    def setup(self):
        n = self.num_vertices
        self.ids = self.vertex_ids()
        self.labels = self.vertex_array(-1, fr.index_dtype(n))
        self.color = self.vertex_array(-1, fr.index_dtype(n))
        self.has_in = self.vertex_array(False, bool)
        self.has_out = self.vertex_array(False, bool)
        self.phase = "count degrees" if n else "done"

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        return getattr(self, self.phase.replace(" ", "_"))(frontier)

    def converged(self, frontier, iteration):
        return self.phase == "done"

    def result(self):
        return SCCResult(self.labels)

    # the phases: each is one step and names the next -------------------------------

    def count_degrees(self, frontier):
        """Whether each vertex has an in-edge and an out-edge joining it to
        another unassigned vertex (read in the next step)."""
        labels = self.labels

        def joins(src, dst, edge, weight):
            return (labels[src] == -1) & (labels[dst] == -1) & (src != dst)

        self.has_in = fr.neighbor_reduce(self.graph, joins, "any")
        self.has_out = fr.neighbor_reduce(self.graph, joins, "any", direction="push")
        self.phase = "trim"
        return frontier

    def trim(self, frontier):
        """Trim, then start colouring the vertices left: each its own colour."""
        unassigned = self.labels == -1
        alone = unassigned & ~(self.has_in & self.has_out)
        self.labels[alone] = self.ids[alone]
        unassigned &= ~alone
        self.color[unassigned] = self.ids[unassigned]
        self.phase = "spread colors"
        return fr.Frontier.from_mask(unassigned)

    def spread_colors(self, frontier):
        """Push colours one level further; at a fixed point, mark the roots."""
        if self.reduce(frontier.size) == 0:
            return self.mark_roots()
        labels, color, xp = self.labels, self.color, self.xp

        def offer(src, dst, edge, weight):
            open_ = (labels[src] == -1) & (labels[dst] == -1)
            improved = xp.zeros(len(dst), bool)
            improved[open_] = fr.scatter_min(color, dst[open_], color[src[open_]])
            return improved

        return fr.advance(self.graph, frontier, offer)

    def mark_roots(self):
        roots = (self.labels == -1) & (self.color == self.ids)
        self.labels[roots] = self.ids[roots]
        self.phase = "reach backward"
        return self.all_vertices()

    def reach_backward(self, frontier):
        """Label every vertex with an out-edge into its colour's component;
        when none is left, start the next round or stop."""
        labels, color = self.labels, self.color

        def into_component(src, dst, edge, weight):
            return labels[dst] == color[src]

        reached = fr.neighbor_reduce(self.graph, into_component, "any", direction="push")
        reached &= labels == -1
        labels[reached] = color[reached]
        if int(self.vertex_sum(reached)) == 0:
            left = int(self.vertex_sum(labels == -1))
            self.phase = "count degrees" if left else "done"
        return frontier


def strongly_connected_components(G: fr.Graph, **options) -> SCCResult:
    """Label every vertex with the smallest vertex id of its strongly
    connected component.

    Parameters
    ----------
    G : frontier.Graph
        Directed (an undirected graph's strongly connected components are
        its connected components, and come out as such).
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    NetworkX's ``strongly_connected_components`` yields one set of vertices
    per component; this returns a label per vertex, the same information in
    one array (the NetworkX backend, ``backend="frontier"``, gives
    NetworkX's form).

    Returns
    -------
    SCCResult
        ``labels`` (the graph's index dtype): ``labels[u] == labels[v]``
        exactly when ``u`` and ``v`` reach each other, and each label is the
        smallest vertex id of its component.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import strongly_connected_components
    >>> G = fr.Graph.from_edges([0, 1, 2, 3], [1, 2, 1, 4], num_vertices=5,
    ...                         directed=True, device="cpu")
    >>> strongly_connected_components(G).labels.tolist()
    [0, 1, 1, 3, 4]
    """
    return fr.enact(StronglyConnectedComponents, G, **options)
