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
its owner's value, as the first boundary's refresh does
(:meth:`~.exchange.Exchange._refresh` with ``everything``): no snapshot is
kept, nothing is compared, and a boundary reads nothing from the device.
The copies end as the snapshot boundary leaves them, because every copy
slot is on the refresh list of its owner (:mod:`.routes`, checked in
tests), and the same bytes travel where every value changed.
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
        following = self._next_frontier(frontier, None)
        # the first boundary's refresh of every shared owned slot, as a dense message
        self._refresh(self.arrays(), everything=True,
                      size=None if self.votes else following.size)
        self.seconds += time.perf_counter() - begin
        return following
