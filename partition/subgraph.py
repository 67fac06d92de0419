"""Per-device parts of a partitioned graph: sub-graphs and routing tables.

Given an owner (a device index) for every vertex, part ``i`` holds

* a sub-graph with the out-edges of the vertices it owns and, for a
  directed graph, their in-edges too (so that pulls find every in-edge on
  the owner; an undirected graph's out-edges are its in-edges);
* under ``duplication="all"`` a vertex slot for every vertex, numbered as
  the caller numbers them; under ``"one_hop"`` slots for its owned vertices
  first, then for proxies of the remote vertices its edges touch, with a
  :class:`~frontier.slots.SlotTable` back to the caller's ids;
* routing tables: the owner of every slot and the slot on that owner, and
  for each peer the owned slots the peer keeps copies of: its border under
  ``"one_hop"``, every owned vertex under ``"all"`` (where every device
  holds every vertex, so that a read of any vertex, not only of a
  neighbour, sees its owner's value, as pointer jumping needs).

Everything is built on the host with NumPy and moved to devices by the
enactor.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from frontier.device import Device, to_numpy
from frontier.graph import Graph
from frontier.slots import SlotTable

DUPLICATION = ("all", "one_hop")


@dataclass
class Part:
    """One device's share of the graph (host arrays)."""

    index: int
    graph: Graph
    owned: np.ndarray                  # owned slots, increasing
    owned_ids: np.ndarray              # the caller's ids of the owned slots
    slot_owner: np.ndarray             # owning part of every slot
    slot_on_owner: np.ndarray | None   # every slot's slot on its owner (None: ids are shared)
    mirrors: dict                      # peer -> (owned slots the peer copies, their slots there)

    @property
    def num_slots(self) -> int:
        return self.graph.num_vertices


def build_parts(graph: Graph, owner, num_parts: int, duplication: str = "all",
                only: int | None = None) -> list[Part]:
    """Split ``graph`` into ``num_parts`` parts by ``owner`` (one part index
    per vertex, host or device array).

    ``only=i`` builds part ``i`` alone (a list of one part), as a process of
    an MPI run does; its routing tables still name every peer.

    Raises
    ------
    ValueError
        For an unknown ``duplication`` or an ``only`` outside ``0..num_parts-1``.
    """
    if duplication not in DUPLICATION:
        raise ValueError(f"duplication={duplication!r}: expected one of {DUPLICATION}")
    if only is not None and not 0 <= only < num_parts:
        raise ValueError(f"only={only!r}: expected a part index in 0..{num_parts - 1}")
    indices = range(num_parts) if only is None else [only]
    owner = np.asarray(to_numpy(owner), dtype=np.int32)
    src, dst, weights = graph.edges()
    src = src.astype(np.int64, copy=False)
    dst = dst.astype(np.int64, copy=False)
    owned_ids = [np.flatnonzero(owner == i) for i in range(num_parts)]
    if duplication == "all":
        return [_shared_ids_part(graph, owner, src, dst, weights, i,
                                 _arcs_of(graph, owner, src, dst, i), owned_ids[i], num_parts)
                for i in indices]
    arcs = [_arcs_of(graph, owner, src, dst, i) for i in range(num_parts)]
    # Border of each part: the remote vertices its arcs touch.
    borders = [_remote_ends(owner, src[keep], dst[keep], i) for i, keep in enumerate(arcs)]
    rank = np.empty(graph.num_vertices, dtype=np.int64)
    for ids in owned_ids:
        rank[ids] = np.arange(len(ids))
    return [_one_hop_part(graph, owner, src, dst, weights, i, arcs[i], owned_ids, borders, rank)
            for i in indices]


def _arcs_of(graph: Graph, owner, src, dst, part: int):
    """Mask of the arcs part ``part`` stores."""
    keep = owner[src] == part
    if graph.directed:
        keep |= owner[dst] == part
    return keep


def _remote_ends(owner, src, dst, part: int):
    """The distinct vertices not owned by ``part`` among the arcs' ends,
    increasing (a bitmap: cheaper than sorting or hashing the ends)."""
    seen = np.zeros(len(owner), dtype=bool)
    seen[src] = True
    seen[dst] = True
    seen &= owner != part
    return np.flatnonzero(seen)


def _sub_graph(graph: Graph, src, dst, weights, num_slots: int, slots=None, *,
               in_order: bool = False) -> Graph:
    """The CSR of the arcs ``src -> dst`` over ``num_slots`` vertices.
    ``in_order``: the arcs are already sorted by (source, destination), as a
    subsequence of the graph's own CSR is, so no sort is needed."""
    if not in_order:
        width = max(num_slots, 1)
        key = src * width + dst
        if weights is None:  # identical parallel arcs: any order, sort in place
            key.sort()
            src, dst = key // width, key % width
        else:  # stable: parallel arcs keep their (lightest first) order
            order = np.argsort(key, kind="stable")
            src, dst, weights = src[order], dst[order], weights[order]
    offsets = np.zeros(num_slots + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=num_slots), out=offsets[1:])
    num_arcs = len(dst)
    num_edges = num_arcs if graph.directed else \
        (num_arcs + int(np.count_nonzero(src == dst))) // 2
    return Graph(offsets, dst.astype(graph.columns.dtype), weights, graph.directed,
                 Device("cpu", 0), num_edges, _simple=graph._simple, vertex_slots=slots)


def _shared_ids_part(graph, owner, src, dst, weights, part, keep, owned, num_parts) -> Part:
    """A part of ``duplication="all"``: every vertex has its own id as slot,
    and every peer keeps a copy of every owned vertex."""
    sub = _sub_graph(graph, src[keep], dst[keep], None if weights is None else weights[keep],
                     graph.num_vertices, in_order=True)
    mirrors = {peer: (owned, owned) for peer in range(num_parts) if peer != part}
    return Part(part, sub, owned, owned, owner.copy(), None, mirrors)


def _one_hop_part(graph, owner, src, dst, weights, part, keep, owned_ids, borders, rank) -> Part:
    """A part of ``duplication="one_hop"``: owned slots, then proxies."""
    owned, proxies = owned_ids[part], borders[part]
    ids = np.concatenate([owned, proxies])
    local = np.full(graph.num_vertices, -1, dtype=np.int64)
    local[ids] = np.arange(len(ids))
    sub = _sub_graph(graph, local[src[keep]], local[dst[keep]],
                     None if weights is None else weights[keep], len(ids),
                     SlotTable(ids, len(owned)))
    slot_owner = np.concatenate([np.full(len(owned), part, dtype=np.int32), owner[proxies]])
    slot_on_owner = np.concatenate([np.arange(len(owned)), rank[proxies]])
    mirrors = {}
    for peer, border in enumerate(borders):
        if peer != part:
            at = np.flatnonzero(owner[border] == part)
            # The peer's proxy slots follow its owned ones, in border order.
            mirrors[peer] = (rank[border[at]], len(owned_ids[peer]) + at)
    return Part(part, sub, np.arange(len(owned)), owned, slot_owner, slot_on_owner, mirrors)
