"""Built-in functors: common edge updates, declared rather than written.

Each built-in is an ordinary vectorized functor (calling it runs the general
path, so it works everywhere), and it also names what it does (its class
attribute ``fused``) so that the operators can run a fused GPU kernel for it
instead. A user functor that does the same thing must give the same answer;
the tests hold both to that.

Functors that store vertex ids as values (a predecessor, a component root)
store the caller's ids. On a part of a larger graph (``Graph.vertex_slots``)
the operators hand them the part's slot table in ``vertex_slots``; on a whole
graph it stays ``None`` and slots are ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from .device import array_namespace
from .operators.updates import claim, scatter_add, scatter_min
from .slots import SlotTable


def _caller_ids(slots, vertex_slots: SlotTable | None):
    """The caller's ids of vertex ``slots``."""
    return slots if vertex_slots is None else vertex_slots.ids[slots]


@dataclass
class ClaimUnvisited:
    """Visit ``dst`` if it has no label yet: ``labels[dst] = value`` and
    ``predecessor[dst] = src`` for the edge that won (BFS)."""

    fused = "claim_unvisited"

    labels: object
    value: int
    predecessor: object | None = None
    unset: int = -1
    vertex_slots: SlotTable | None = None

    def __call__(self, src, dst, edge, weight):
        won = claim(self.labels, dst, self.value, self.unset)
        if self.predecessor is not None:
            self.predecessor[dst[won]] = _caller_ids(src[won], self.vertex_slots)
        return won


@dataclass
class RelaxMin:
    """Relax ``distance[dst] = min(distance[dst], distance[src] + weight)``
    (weight 1 on an unweighted graph), recording the predecessor of every
    vertex that improved; accepts the improved destinations (SSSP)."""

    fused = "relax_min"

    distance: object
    predecessor: object | None = None
    vertex_slots: SlotTable | None = None

    def __call__(self, src, dst, edge, weight):
        step = 1 if weight is None else weight
        improved = scatter_min(self.distance, dst, self.distance[src] + step)
        if self.predecessor is not None:
            self.predecessor[dst[improved]] = _caller_ids(src[improved], self.vertex_slots)
        return improved


@dataclass
class AddSourceValue:
    """``target[dst] += source[src]`` (times the edge weight if ``weighted``);
    accepts each destination once (BC path counts, PageRank push)."""

    fused = None

    target: object
    source: object
    weighted: bool = False

    def __call__(self, src, dst, edge, weight):
        return scatter_add(self.target, dst, _times_weight(self.source[src], self.weighted, weight))


@dataclass
class SourceValue:
    """The value of an edge's source, ``values[src]`` (times the weight if
    ``weighted``): with ``neighbor_reduce(..., "sum")`` it is a sparse
    matrix-vector product (PageRank pull)."""

    fused = "source_value"

    values: object
    weighted: bool = False

    def __call__(self, src, dst, edge, weight):
        return _times_weight(self.values[src], self.weighted, weight)


@dataclass
class DestinationValue:
    """The value of an edge's destination, ``values[dst]`` (times the weight if
    ``weighted``): with ``neighbor_reduce(..., "sum", direction="push")`` each
    vertex sums over its out-neighbours, a transposed sparse matrix-vector
    product (BC dependency accumulation)."""

    fused = "destination_value"

    values: object
    weighted: bool = False

    def __call__(self, src, dst, edge, weight):
        return _times_weight(self.values[dst], self.weighted, weight)


@dataclass
class HookRoots:
    """Connected-components hooking: the roots of an edge's two endpoints,
    ``labels[src]`` and ``labels[dst]``, each take the smaller of the two
    (scatter-min). Accepts no edge: the caller finds changed labels itself.

    Labels are caller ids. On a part of a larger graph a root may have no
    slot here: then only the roots that do are hooked, and each endpoint
    also takes the other's root directly, so labels still flow along every
    edge."""

    fused = "hook_roots"

    labels: object
    vertex_slots: SlotTable | None = None

    def __call__(self, src, dst, edge, weight):
        labels = self.labels
        src_root, dst_root = labels[src], labels[dst]
        if self.vertex_slots is None:
            scatter_min(labels, src_root, dst_root)
            scatter_min(labels, dst_root, src_root)
        else:
            for root, offer in ((src_root, dst_root), (dst_root, src_root)):
                slot = self.vertex_slots.slot_of(root)
                here = slot >= 0
                scatter_min(labels, slot[here], offer[here])
            scatter_min(labels, src, dst_root)
            scatter_min(labels, dst, src_root)
        return array_namespace(dst).zeros(len(dst), dtype=bool)


@dataclass
class PointToRoots:
    """Pointer jumping for ``compute``: every vertex of the ids takes the root
    of its tree, following ``labels`` (caller ids; a root labels itself)
    until they stop changing. On a part of a larger graph a label with no
    slot here is as far as the jump goes this time.

    Labels must form trees (no cycle but a root's own label), as
    connected-components hooking keeps them."""

    fused = "point_to_roots"

    labels: object
    vertex_slots: SlotTable | None = None

    def __call__(self, ids):
        labels, xp = self.labels, array_namespace(self.labels)
        while True:
            parent = labels[ids]
            slot = parent if self.vertex_slots is None else self.vertex_slots.slot_of(parent)
            grandparent = xp.where(slot >= 0, labels[slot], parent)
            if not bool((grandparent != parent).any()):
                return
            labels[ids] = grandparent


def _times_weight(values, weighted: bool, weight):
    """``values`` times the edges' weights, if asked for and the graph has them."""
    return values * weight if weighted and weight is not None else values
