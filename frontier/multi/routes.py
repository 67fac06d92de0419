"""Where offers and refreshes go: the two communication strategies.

An offer is a proxy's update for the vertex's owner; a refresh is an
owner's new value for the devices that keep copies. ``selective`` sends each
to the devices that need it, addressed by the slot on the receiver;
``broadcast`` sends everything to every peer by the caller's vertex id, and
each receiver keeps what concerns it (simpler tables, more bytes).
"""

from __future__ import annotations


class Selective:
    """Offers to the owner only; refreshes to the devices holding copies."""

    name = "selective"

    def __init__(self, part, peers: list[int]):
        self.part = part
        self.peers = peers

    def offers(self, slots):
        """``(peer, ids on the peer, positions in slots)`` for every peer."""
        part = self.part
        xp = part.graph.xp
        owners = part.slot_owner[slots]
        for peer in self.peers:
            at = xp.flatnonzero(owners == peer)
            ids = slots[at] if part.slot_on_owner is None else part.slot_on_owner[slots[at]]
            yield peer, ids, at

    def accept_offers(self, ids):
        """``(positions, slots)`` of received offers this device owns."""
        return None, ids

    def refreshes(self, slots):
        """``(peer, ids on the peer, local slots)`` of the changed owned
        ``slots`` each peer keeps a copy of."""
        xp = self.part.graph.xp
        for peer in self.peers:
            slot_there = self.part.mirrors[peer]
            if slot_there is None:
                yield peer, slots, slots
                continue
            remote = slot_there[slots]
            kept = xp.flatnonzero(remote >= 0)
            yield peer, remote[kept], slots[kept]

    def accept_refreshes(self, ids):
        return None, ids


class Broadcast:
    """Every offer and every refresh to every peer, by caller vertex id."""

    name = "broadcast"

    def __init__(self, part, peers: list[int]):
        self.part = part
        self.peers = peers

    def _caller_ids(self, slots):
        table = self.part.graph.vertex_slots
        return slots if table is None else table.ids[slots]

    def _slots(self, ids):
        table = self.part.graph.vertex_slots
        return ids if table is None else table.slot_of(ids)

    def offers(self, slots):
        ids = self._caller_ids(slots)
        for peer in self.peers:
            yield peer, ids, None

    def accept_offers(self, ids):
        return self._held(ids, owned=True)

    def refreshes(self, slots):
        ids = self._caller_ids(slots)
        for peer in self.peers:
            yield peer, ids, slots

    def accept_refreshes(self, ids):
        return self._held(ids, owned=False)

    def _held(self, ids, owned: bool):
        """``(positions, slots)`` of the ids held here, owned or copies."""
        slots = self._slots(ids)
        here = self.part.graph.xp.flatnonzero(slots >= 0)
        here = here[self.part.is_owned[slots[here]] == owned]
        return here, slots[here]


ROUTES = {route.name: route for route in (Selective, Broadcast)}
