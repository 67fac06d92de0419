"""Where offers and refreshes go: aligned slot lists, one set per peer.

An offer is a proxy's update for the vertex's owner; a refresh is an
owner's new value for the devices that keep copies. Both travel as
positions in lists that the two devices agreed on before the first
iteration: entry ``k`` of the sender's outgoing list and entry ``k`` of the
receiver's incoming list are the same vertex, so a message carries list
positions (or a bitmap, or nothing but values: :mod:`frontier.multi.messages`),
never vertex ids, and nothing is looked up while the run goes.

``selective`` sends each update to the devices that need it: offers to the
owner only, refreshes to the devices that keep a copy. ``broadcast`` sends
every update to every peer, and each receiver keeps what concerns it
(simpler routing, more bytes: a baseline).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..graph import index_dtype
from ..kernels import compact


@dataclass
class PeerLists:
    """The slot lists this device shares with one peer (its own slots)."""

    #: the slots whose changes this device offers to the peer
    offers_out: object
    #: this device's slot for each entry of the peer's ``offers_out``
    #: (-1: not owned here, dropped)
    offers_in: object
    #: the owned slots whose changes this device sends the peer
    refreshes_out: object
    #: this device's slot for each entry of the peer's ``refreshes_out``
    #: (-1: no copy here, dropped)
    refreshes_in: object
    #: whether the incoming lists hold -1 entries
    drops: bool = False


def selective(part, peers: list[int], communicator) -> dict[int, PeerLists]:
    """Offers to the owner, refreshes to the devices keeping copies.

    A peer's proxies of this device's vertices are, in the peer's slot
    order, this device's ``part.copied_by[peer]``; the proxies here that the
    peer owns, in slot order, are its ``copied_by`` of this device. So both
    lists are known locally and nothing is exchanged to build them."""
    dtype = index_dtype(part.num_slots)
    lists = {}
    for peer in peers:
        proxies = compact.flatnonzero(part.slot_owner == peer, dtype)
        copied = part.copied_by[peer]
        lists[peer] = PeerLists(proxies, copied, copied, proxies)
    return lists


def broadcast(part, peers: list[int], communicator) -> dict[int, PeerLists]:
    """Every offer and refresh to every peer: offers of all proxies, refreshes
    of all owned slots. The lists are aligned once by exchanging the caller's
    ids of both with every peer."""
    xp = part.graph.xp
    dtype = index_dtype(part.num_slots)
    table = part.graph.vertex_slots
    proxies = compact.flatnonzero(~part.is_owned, dtype)
    owned = part.owned.astype(dtype, copy=False)

    def caller_ids(slots):
        return slots if table is None else table.ids[slots]

    def held(ids, owned: bool):
        slots = ids if table is None else table.slot_of(ids)
        found = slots >= 0
        found[found] = part.is_owned[slots[found]] == owned
        return xp.where(found, slots, -1).astype(dtype, copy=False)

    outgoing = [None if rank == communicator.rank else [caller_ids(proxies), caller_ids(owned)]
                for rank in range(communicator.size)]
    incoming = communicator.alltoall(outgoing)
    return {peer: PeerLists(proxies, held(incoming[peer][0], True), owned,
                            held(incoming[peer][1], False), drops=True)
            for peer in peers}


ROUTES = {"selective": selective, "broadcast": broadcast}
