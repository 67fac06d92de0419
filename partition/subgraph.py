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

The routing tables are built on the host with NumPy. The sub-graphs, whose
work is a pass or a sort over every arc, are built where the graph is
(``on_device=True`` and a GPU graph: with CuPy, where the arcs already are
and a sort of a billion keys takes a fraction of a second; otherwise on
the host), and moved to the devices by the enactor.
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
    """One device's share of the graph: its sub-graph (on the host, or on
    the graph's GPU where built there) and its routing tables (host arrays)."""

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
                only: int | None = None, on_device: bool = False) -> list[Part]:
    """Split ``graph`` into ``num_parts`` parts by ``owner`` (one part index
    per vertex, host or device array).

    ``only=i`` builds part ``i`` alone (a list of one part), as a process of
    an MPI run does; its routing tables still name every peer.
    ``on_device``: a GPU graph's sub-graphs are built on its GPU (the same
    parts as on the host).

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
    arcs = _Arcs(graph, owner, on_device and graph.device.is_gpu)
    owned_ids = [np.flatnonzero(owner == i) for i in range(num_parts)]
    if duplication == "all":
        return [_shared_ids_part(arcs, i, owned_ids[i], num_parts) for i in indices]
    keeps = [arcs.of_part(i) for i in range(num_parts)]
    # Border of each part: the remote vertices its arcs touch.
    borders = [arcs.remote_ends(keep, i) for i, keep in enumerate(keeps)]
    rank = np.empty(graph.num_vertices, dtype=np.int64)
    for ids in owned_ids:
        rank[ids] = np.arange(len(ids))
    return [_one_hop_part(arcs, i, keeps[i], owned_ids, borders, rank) for i in indices]


class _Arcs:
    """A graph's arcs (sources, destinations, weights) and its vertices'
    owners, in the array library the parts' sub-graphs are built with: the
    graph's own on its GPU (``on_device``), else NumPy on the host."""

    def __init__(self, graph: Graph, owner: np.ndarray, on_device: bool):
        self.graph = graph
        self.device = graph.device if on_device else Device("cpu", 0)
        if on_device:
            self.xp = graph.xp
            self.src = graph.arc_sources()
            self.dst, self.weights = graph.columns, graph.weights
            self.owner = self.xp.asarray(owner)
        else:
            self.xp = np
            src, dst, self.weights = graph.edges()
            self.src = src.astype(np.int64, copy=False)
            self.dst = dst.astype(np.int64, copy=False)
            self.owner = owner
        #: every vertex's owning part, on the host
        self.host_owner = owner

    def of_part(self, part: int):
        """Mask of the arcs part ``part`` stores: its owned vertices'
        out-arcs, and in a directed graph their in-arcs too."""
        keep = self.owner[self.src] == part
        if self.graph.directed:
            keep |= self.owner[self.dst] == part
        return keep

    def remote_ends(self, keep, part: int) -> np.ndarray:
        """The distinct vertices not owned by ``part`` among the ends of the
        arcs ``keep``, increasing, on the host (a bitmap: cheaper than
        sorting or hashing the ends)."""
        seen = self.xp.zeros(len(self.owner), dtype=bool)
        seen[self.src[keep]] = True
        seen[self.dst[keep]] = True
        seen &= self.owner != part
        return to_numpy(self.xp.flatnonzero(seen))

    def sub_graph(self, keep, num_slots: int, local=None, slots=None) -> Graph:
        """The CSR of the arcs ``keep`` over ``num_slots`` vertices, their
        ends renumbered by ``local`` (None: kept). Kept numbers keep the
        graph's (source, destination) order, a renumbering needs a sort."""
        xp = self.xp
        src, dst = self.src[keep], self.dst[keep]
        weights = None if self.weights is None else self.weights[keep]
        if local is not None:
            src, dst = local[src], local[dst]
            width = max(num_slots, 1)
            key = src * width + dst
            if weights is None:  # identical parallel arcs: any order, sort in place
                key.sort()
                src, dst = key // width, key % width
            else:  # stable: parallel arcs keep their (lightest first) order
                order = xp.argsort(key, kind="stable") if xp is np else xp.argsort(key)
                src, dst, weights = src[order], dst[order], weights[order]
            del key
        offsets = xp.zeros(num_slots + 1, dtype=np.int64)
        xp.cumsum(xp.bincount(src, minlength=num_slots), out=offsets[1:])
        num_arcs = len(dst)
        graph = self.graph
        num_edges = num_arcs if graph.directed else \
            (num_arcs + int(xp.count_nonzero(src == dst))) // 2
        return Graph(offsets, dst.astype(graph.columns.dtype, copy=False), weights,
                     graph.directed, self.device, num_edges, _simple=graph._simple,
                     vertex_slots=slots)


def _shared_ids_part(arcs: _Arcs, part: int, owned, num_parts: int) -> Part:
    """A part of ``duplication="all"``: every vertex has its own id as slot,
    and every peer keeps a copy of every owned vertex."""
    sub = arcs.sub_graph(arcs.of_part(part), arcs.graph.num_vertices)
    mirrors = {peer: (owned, owned) for peer in range(num_parts) if peer != part}
    return Part(part, sub, owned, owned, arcs.host_owner.copy(), None, mirrors)


def _one_hop_part(arcs: _Arcs, part: int, keep, owned_ids, borders, rank) -> Part:
    """A part of ``duplication="one_hop"``: owned slots, then proxies."""
    owned, proxies = owned_ids[part], borders[part]
    ids = np.concatenate([owned, proxies])
    local = np.full(arcs.graph.num_vertices, -1, dtype=np.int64)
    local[ids] = np.arange(len(ids))
    sub = arcs.sub_graph(keep, len(ids), arcs.xp.asarray(local),
                         SlotTable(arcs.xp.asarray(ids), len(owned)))
    owner = arcs.host_owner
    slot_owner = np.concatenate([np.full(len(owned), part, dtype=np.int32), owner[proxies]])
    slot_on_owner = np.concatenate([np.arange(len(owned)), rank[proxies]])
    mirrors = {}
    for peer, border in enumerate(borders):
        if peer != part:
            at = np.flatnonzero(owner[border] == part)
            # The peer's proxy slots follow its owned ones, in border order.
            mirrors[peer] = (rank[border[at]], len(owned_ids[peer]) + at)
    return Part(part, sub, np.arange(len(owned)), owned, slot_owner, slot_on_owner, mirrors)
