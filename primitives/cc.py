"""Connected components by hooking and pointer jumping (Shiloach-Vishkin style).

Every vertex starts as the root of its own tree, ``labels[v] = v``. One
iteration does two things:

* hooking: every edge ``(u, v)`` whose endpoints have different roots
  lowers the larger root's label to the smaller root (a scatter-min, so the
  lowest offer wins when several edges hook the same root);
* pointer jumping: ``labels[v] = labels[labels[v]]`` for all vertices until
  every vertex points straight at its root.

Labels only go down and always name a vertex of the same component, so a
component's smallest vertex keeps its own label and, once no edge joins two
different roots, every vertex is labelled with its component's smallest id.

An edge can only still join two roots if one of its endpoints changed root in
the previous iteration, so each iteration after the first hooks only the edges
of those vertices: the frontier is the set of vertices whose label changed.

Labels are the caller's vertex ids (``self.vertex_ids()``). On several
devices a root may live on another device: the jump then stops at it for
this iteration (``slot_of`` gives -1), and ``HookRoots`` also passes labels
along each edge, so the labels still settle on each component's smallest id.
"""

from __future__ import annotations

from dataclasses import dataclass

import frontier as fr


@dataclass
class CCResult(fr.Result):
    """``labels[v]``: the smallest vertex id of ``v``'s component (weakly
    connected component for a directed graph)."""

    labels: object

    vertex_fields = ("labels",)


class ConnectedComponents(fr.Primitive):
    parameters = ()
    communicate = {"labels": "min"}
    # A step returns exactly the vertices whose label went down.
    changes_only_in_output = True
    # Every copy starts with its vertex's own id as its label.
    uniform_setup = True

    def setup(self):
        self.labels = self.vertex_ids().copy()
        self.everyone = self.all_vertices()

    def initial_frontier(self):
        return self.everyone

    def step(self, frontier, iteration):
        before = self.labels.copy()
        hook = fr.functors.HookRoots(self.labels)
        fr.advance(self.graph, frontier, hook)
        if self.graph.directed and iteration > 0:
            # Weak connectivity also follows edges into the frontier; in the
            # first iteration the out-edges of all vertices are every edge.
            fr.advance(self.graph, self.everyone, hook, direction="pull", among=frontier)
        fr.compute(self.everyone, fr.functors.PointToRoots(self.labels), graph=self.graph)
        return fr.filter(self.everyone, lambda ids: self.labels[ids] != before[ids])

    def result(self):
        return CCResult(self.labels)


def connected_components(G: fr.Graph, **options) -> CCResult:
    """Label every vertex with the smallest vertex id of its component.

    Parameters
    ----------
    G : frontier.Graph
        For a directed graph the components are weakly connected ones (edge
        directions are ignored).
    **options
        Enactor options: ``devices``, ``partition``, ``duplication``,
        ``communication`` (see :func:`frontier.enact`).

    NetworkX's ``connected_components`` yields one set of vertices per
    component; this returns a label per vertex, which holds the same
    information in one array (the NetworkX backend, ``backend="frontier"``,
    gives NetworkX's form).

    Returns
    -------
    CCResult
        ``labels`` (the graph's index dtype): ``labels[u] == labels[v]``
        exactly when ``u`` and ``v`` are in the same component, and each
        label is the smallest vertex id of its component (so an isolated
        vertex is labelled with itself).

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import connected_components
    >>> G = fr.Graph.from_edges([3, 1], [2, 4], num_vertices=6, device="cpu")
    >>> connected_components(G).labels.tolist()
    [0, 1, 2, 2, 1, 5]
    """
    return fr.enact(ConnectedComponents, G, **options)
