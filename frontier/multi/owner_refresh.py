"""The boundary of a primitive whose every step rewrites every vertex and
whose declared arrays are all ``"owner"`` (PageRank, HITS, power
iteration): each owner sends the values of all the slots a peer keeps a
copy of, and the copies take them.

With ``"owner"`` arrays nothing is offered: what a step writes to a copy
is dropped, and the copy takes its owner's value at the boundary. The
snapshot boundary (:class:`~.exchange.Exchange`) finds that value's
changes by comparing each shared list with a snapshot, puts the copies
back to the snapshot, and sends the changed entries. Under
``dense_steps`` nearly every entry changed, so the comparison finds what
is known already, and its count is a device read per list. Here instead
every boundary sends every shared owned slot's values as a dense message
(no selector; :mod:`.messages`), in the lists' order, and each copy takes
its owner's value: no snapshot is kept, nothing is compared, and a
boundary reads nothing from the device. The copies end as the snapshot
boundary leaves them, because every copy slot is on the refresh list of
its owner (:mod:`.routes`, checked in tests), and the same bytes travel
where every value changed.
"""

from __future__ import annotations

import time

from ..communicate import declarations
from ..frontier import Frontier
from .exchange import Exchange


def applies(primitive: type) -> bool:
    """Whether ``primitive`` declares ``dense_steps`` and only ``"owner"``
    arrays (at least one): then its boundary refreshes every copy."""
    shared_arrays = declarations(primitive)
    return bool(primitive.dense_steps and shared_arrays
                and all(shared.combine == "owner" for shared in shared_arrays))


class OwnerRefresh(Exchange):
    """Every copy gets its owner's values at every boundary (see the module
    docstring)."""

    def keeps_snapshot(self) -> bool:
        return False

    def synchronize(self, frontier: Frontier) -> Frontier:
        begin = time.perf_counter()
        arrays = self.arrays()
        xp = self.part.graph.xp
        following = self._next_frontier(frontier, None)
        outgoing, packed = {}, {}  # a list shared by several peers is gathered once
        for peer, lists in self.lists.items():
            slots = lists.refreshes_out
            if len(slots) == 0:
                continue
            if id(slots) not in packed:
                packed[id(slots)] = [xp.empty(0, dtype=bool),  # dense: every entry
                                     *(arrays[name][slots] for name in self.names)]
            outgoing[peer] = packed[id(slots)]
        size = None if self.votes else following.size
        for peer, message in self._alltoall(outgoing, size).items():
            lists = self.lists[peer]
            slots, values = self._received(message[0], message[1:], lists.refreshes_in,
                                           lists.drops)
            if slots is not None:
                for name, value in zip(self.names, values):
                    arrays[name][slots] = value
        self.seconds += time.perf_counter() - begin
        return following
