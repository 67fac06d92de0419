"""Graph500 validation of a BFS result (depth and predecessor arrays).

The five checks of the Graph500 specification, vectorized (NumPy or CuPy):

1. *tree*: the predecessors form a tree rooted at the source; following
   them from any vertex in the tree reaches the source (no cycles);
2. *tree levels*: each tree edge joins vertices whose depths differ by one;
3. *edge levels*: every edge between two reached vertices joins depths that
   differ by at most one (directed: ``depth[dst] <= depth[src] + 1``);
4. *spanning*: the tree holds exactly the vertices reachable from the source
   (no edge leads from a reached vertex to an unreached one, and a vertex
   has a depth exactly when it is in the tree);
5. *tree edges exist*: every ``(predecessor[v], v)`` is an edge of the graph.

Conventions (see :mod:`primitives.bfs`): ``depth[v] = -1`` and
``predecessor[v] = -1`` for unreached vertices; the source has depth 0 and
predecessor -1.
"""

from __future__ import annotations

import math

from .graph import ARC_BATCH, Graph

CHECKS = {1: "tree", 2: "tree levels", 3: "edge levels", 4: "spanning",
          5: "tree edges exist"}


class BFSValidationError(ValueError):
    """A BFS result failed Graph500 check ``check`` at vertex ``vertex``."""

    def __init__(self, check: int, vertex: int, detail: str):
        self.check, self.vertex = check, vertex
        super().__init__(f"check {check} ({CHECKS[check]}) fails at vertex {vertex}: {detail}")




def graph500_bfs(G: Graph, source: int, depth, predecessor, *,
                 arc_batch: int = ARC_BATCH) -> None:
    """Validate a BFS tree of ``G`` from ``source`` with the Graph500 checks.

    Parameters
    ----------
    G : Graph
        The searched graph (directed or undirected).
    source : int
        The BFS source.
    depth, predecessor : NumPy or CuPy integer arrays of length ``G.num_vertices``
        ``-1`` marks unreached vertices; the source's predecessor is ``-1``.
    arc_batch : int
        Arcs examined at a time: the checks' memory is a few vertex arrays
        plus about 40 bytes per arc of a batch.

    Raises
    ------
    BFSValidationError
        On the first failing check, naming it and one offending vertex.
    ValueError
        If the arrays have the wrong length or ``source`` is not a vertex.

    Examples
    --------
    >>> import frontier as fr
    >>> from primitives import bfs
    >>> G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    >>> r = bfs(G, source=0)
    >>> fr.validate.graph500_bfs(G, 0, r.depth, r.predecessor)

    The checks run with ``G``'s device current (see :func:`edge_levels`).
    """
    with G.device.activate():
        _graph500_bfs(G, source, depth, predecessor, arc_batch)


def _graph500_bfs(G: Graph, source: int, depth, predecessor, arc_batch: int) -> None:
    xp, n = G.xp, G.num_vertices
    depth = G.device.asarray(depth).astype("int64")
    parent = G.device.asarray(predecessor).astype("int64")
    for name, array in (("depth", depth), ("predecessor", parent)):
        if array.shape != (n,):
            raise ValueError(f"{name} has shape {array.shape}, expected ({n},)")
    if not 0 <= int(source) < n:
        raise ValueError(f"source={source} is not a vertex of a graph of {n} vertices")
    source = int(source)
    has_parent = parent != -1
    children = xp.flatnonzero(has_parent)
    _check_tree(xp, source, depth, parent, has_parent, children)
    _fail_at(2, children, depth[children] != depth[parent[children]] + 1,
             "its depth is not its predecessor's depth + 1")
    _edge_levels(G, depth, arc_batch)
    reached = depth >= 0
    in_tree = has_parent.copy()
    in_tree[source] = True
    _fail_at(4, xp.arange(n), reached != in_tree,
             "it has a depth but is not in the tree, or the reverse")
    _check_tree_edges(G, parent, children)


def edge_levels(G: Graph, depth, *, arc_batch: int = ARC_BATCH) -> None:
    """Graph500 checks 3 and 4 on every stored arc of ``G`` (both directions
    of an undirected edge), ``arc_batch`` arcs at a time: no arc joins depths
    more than one apart, and none leads from a reached vertex to an
    unreached one. ``depth``: integers, ``-1`` = unreached, on any device
    (copied to ``G``'s).
    Needs no tree, so it also checks each part of a distributed graph.

    The checks run with ``G``'s device current, so their kernels queue behind
    the copy that brought ``depth`` there: a GPU reading another GPU's memory
    does not wait for that GPU's copies (a part on ``cuda:1`` checked from a
    thread where ``cuda:0`` is current once read a depth array still being
    copied, and failed check 3 at Kronecker scale 30).

    Raises
    ------
    BFSValidationError
        For the first arc that fails, naming its tail.
    """
    with G.device.activate():
        _edge_levels(G, G.device.asarray(depth), arc_batch)


def _edge_levels(G: Graph, depth, arc_batch: int) -> None:
    xp = G.xp
    reached = depth >= 0
    for tails, heads, _ in G.arc_batches(arc_batch):
        heads = heads.astype("int64")
        both = reached[tails] & reached[heads]
        gap = depth[heads] - depth[tails]
        too_far = both & ((gap > 1) if G.directed else (xp.abs(gap) > 1))
        _fail_at(3, tails, too_far, "an edge from it skips a BFS level")
        _fail_at(4, tails, reached[tails] & ~reached[heads],
                 "it is reached but has an edge to an unreached vertex")
        del both, gap, too_far


def _check_tree(xp, source, depth, parent, has_parent, children) -> None:
    """Check 1: a tree rooted at the source, every branch ending there."""
    if int(parent[source]) != -1 or int(depth[source]) != 0:
        raise BFSValidationError(1, source, "the source needs depth 0 and predecessor -1")
    n = len(parent)
    _fail_at(1, children, (parent[children] < 0) | (parent[children] >= n),
             "its predecessor is not a vertex")
    # Pointer jumping: after k rounds ancestor[v] is v's 2**k-th ancestor (roots
    # and unreached vertices point to themselves), so log2(n) rounds reach the root.
    ancestor = xp.where(has_parent, parent, xp.arange(n))
    for _ in range(max(1, math.ceil(math.log2(max(n, 2))))):
        ancestor = ancestor[ancestor]
    _fail_at(1, children, ancestor[children] != source,
             "following predecessors from it never reaches the source (a cycle or a "
             "broken branch)")


def _check_tree_edges(G: Graph, parent, children) -> None:
    """Check 5: ``parent[v] -> v`` is an arc, by a binary search for ``v`` in
    the sorted row of ``parent[v]``, all children at once."""
    xp, offsets, columns = G.xp, G.offsets, G.columns
    tails, heads = parent[children], children
    low, high = offsets[tails], offsets[tails + 1]
    end = high.copy()
    if len(children) and G.num_arcs:
        longest = int((high - low).max())
        for _ in range(longest.bit_length()):
            mid = (low + high) // 2
            before = columns[xp.minimum(mid, G.num_arcs - 1)] < heads
            searching = low < high
            low = xp.where(searching & before, mid + 1, low)
            high = xp.where(searching & ~before, mid, high)
        present = (low < end) & (columns[xp.minimum(low, G.num_arcs - 1)] == heads)
    else:
        present = xp.zeros(len(children), dtype=bool)
    _fail_at(5, children, ~present, "the graph has no edge from its predecessor to it")


def _fail_at(check: int, vertices, bad, detail: str) -> None:
    """Raise for the first ``vertices[i]`` where ``bad[i]``."""
    offenders = vertices[bad]
    if len(offenders):
        raise BFSValidationError(check, int(offenders[0]), detail)
