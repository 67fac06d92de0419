"""The per-iteration pipeline of a multi-device run: split, package, push,
combine, refresh.

After each step, on every device:

1. **split**: every proxy slot whose declared data changed in the step is
   an offer for the vertex's owner (for ``"sum"``, the change itself);
   proxies go back to the values they had;
2. **package and push**: offers are sent by the communication strategy
   (:mod:`frontier.multi.routes`) in one all-to-all;
3. **combine**: each owner merges the offers it receives with the declared
   combiner (:mod:`frontier.multi.merge`);
4. **refresh**: every owned slot whose data changed, in the step or by an
   offer, is sent to the devices keeping a copy, which overwrite theirs;
5. **next frontier**: the owned vertices of the step's output frontier, plus
   those an offer changed.

So at every boundary each vertex's slots hold its owner's values, and a
primitive reads its neighbours as on one device.
"""

from __future__ import annotations

import time

from ..communicate import declarations
from ..frontier import Frontier
from .merge import merge


def _differs(array, snapshot):
    changed = array != snapshot
    if array.dtype.kind == "f":
        changed &= ~(array != array)  # NaN == NaN here
    return changed


class Exchange:
    """Keeps one device's declared vertex data consistent with the others'.

    Each boundary compares every declared array once with the last
    boundary's snapshot; offers, merges and refreshes then work on slot
    lists taken from those masks, and nothing is sorted."""

    def __init__(self, run, part, communicator, route):
        self.run = run
        self.part = part
        self.comm = communicator
        self.route = route
        self.shared = declarations(type(run))
        self.offering = [shared for shared in self.shared if shared.offers]
        self.names = [name for shared in self.shared for name in (shared.name, *shared.followers)]
        self.snapshot: dict = {}
        #: the proxy slots (copies of other devices' vertices), computed once
        self.is_remote = ~part.is_owned
        self.sent_bytes = 0
        self.seconds = 0.0

    def arrays(self) -> dict:
        """The declared arrays by name, checked to be vertex arrays of this part."""
        arrays = {name: getattr(self.run, name, None) for name in self.names}
        for name, array in arrays.items():
            if getattr(array, "shape", None) != (self.part.num_slots,):
                raise TypeError(
                    f"{type(self.run).__name__}.communicate names {name!r}, which must be a "
                    f"vertex array of {self.part.num_slots} entries (got "
                    f"{getattr(array, 'shape', type(array).__name__)})")
        return arrays

    def start(self, frontier: Frontier) -> Frontier:
        """First boundary: copies get their owners' values; nothing is offered."""
        begin = time.perf_counter()
        if self.names:
            arrays = self.arrays()
            self._refresh(arrays, self.part.owned)
            self.snapshot = {name: array.copy() for name, array in arrays.items()}
        self.seconds += time.perf_counter() - begin
        return self._next_frontier(frontier, None)

    def synchronize(self, frontier: Frontier) -> Frontier:
        if not self.names:
            return self._next_frontier(frontier, None)
        begin = time.perf_counter()
        xp = self.part.graph.xp
        arrays = self.arrays()
        changed = {name: _differs(array, self.snapshot[name])
                   for name, array in arrays.items()}
        merged = self._offer_and_merge(arrays, changed)
        refresh = _any(changed.values())
        refresh &= self.part.is_owned
        if merged is not None:
            refresh[merged] = True
        self._refresh(arrays, xp.flatnonzero(refresh))
        self.seconds += time.perf_counter() - begin
        return self._next_frontier(frontier, merged)

    def agree(self, stop: bool) -> bool:
        """``stop`` if every device decided the same; RuntimeError otherwise."""
        votes = self.comm.allreduce(int(stop), "sum")
        if 0 < votes < self.comm.size:
            raise RuntimeError(
                f"{type(self.run).__name__}.converged() decided differently on different "
                f"devices ({votes} of {self.comm.size} would stop): base it on global values "
                "(self.reduce(...), self.vertex_sum(...)), not on this device's frontier")
        return votes == self.comm.size

    # steps --------------------------------------------------------------------------

    def _offer_and_merge(self, arrays: dict, changed: dict):
        """Steps 1-3; returns the owned slots the offers changed (repeats
        possible), or None."""
        xp = self.part.graph.xp
        outgoing: dict[int, list] = {peer: [] for peer in self.route.peers}
        for shared in self.shared:
            names = (shared.name, *shared.followers)
            changed_proxies = _any(changed[name] for name in names)
            changed_proxies &= self.is_remote
            slots = xp.flatnonzero(changed_proxies)
            if shared.offers:  # "owner" data is only put back: its owner decides
                offered = [arrays[name][slots] for name in names]
                if shared.combine == "sum":
                    offered[0] = offered[0] - self.snapshot[shared.name][slots]
            for name in names:
                arrays[name][slots] = self.snapshot[name][slots]
            if not shared.offers:
                continue
            for peer, ids, at in self.route.offers(slots):
                outgoing[peer].extend([ids, *(offered if at is None
                                              else [values[at] for values in offered])])
        if not self.offering:
            return None
        # Each message lists, per offering declaration, ids then values; a peer
        # with no offer at all gets nothing.
        positions = self._id_positions()
        for peer in [peer for peer, message in outgoing.items()
                     if not any(len(message[i]) for i in positions)]:
            del outgoing[peer]
        merged = []
        for message in self._alltoall(outgoing):
            position = 0
            for shared in self.offering:
                width = 2 + len(shared.followers)
                ids, values = message[position], message[position + 1:position + width]
                position += width
                if len(ids) == 0:
                    continue
                at, slots = self.route.accept_offers(ids)
                if at is not None:
                    values = [offered[at] for offered in values]
                merged.append(merge(shared, [arrays[n] for n in (shared.name, *shared.followers)],
                                    slots, values))
        return xp.concatenate(merged) if merged else None

    def _id_positions(self) -> list[int]:
        """Where the id arrays sit in an offer message."""
        positions, position = [], 0
        for shared in self.offering:
            positions.append(position)
            position += 2 + len(shared.followers)
        return positions

    def _refresh(self, arrays: dict, slots) -> None:
        """Step 4: send changed owned values to the copies; take in others'."""
        outgoing = {peer: [ids, *[array[local] for array in arrays.values()]]
                    for peer, ids, local in self.route.refreshes(slots) if len(ids)}
        if self.snapshot:
            for name, array in arrays.items():
                self.snapshot[name][slots] = array[slots]
        for message in self._alltoall(outgoing):
            at, received = self.route.accept_refreshes(message[0])
            for (name, array), values in zip(arrays.items(), message[1:]):
                array[received] = values if at is None else values[at]
                if self.snapshot:
                    self.snapshot[name][received] = array[received]

    def _alltoall(self, outgoing: dict) -> list:
        messages = [outgoing.get(peer) for peer in range(self.comm.size)]
        self.sent_bytes += sum(array.nbytes for message in messages if message
                               for array in message)
        return [message for message in self.comm.alltoall(messages) if message]

    def _next_frontier(self, frontier: Frontier, merged) -> Frontier:
        """Step 5: the owned part of the step's output, plus what offers changed."""
        part = self.part
        if frontier.kind == "dense":
            mask = frontier.mask & part.is_owned
            if merged is not None:
                mask[merged] = True
            return Frontier(part.num_slots, frontier.device, mask=mask)
        ids = frontier.ids
        ids = ids[part.is_owned[ids]]
        if merged is None:
            return Frontier(part.num_slots, frontier.device, ids=ids)
        # The union as a mask: no sort, and dense is what a large level wants.
        mask = part.graph.xp.zeros(part.num_slots, dtype=bool)
        mask[ids] = True
        mask[merged] = True
        return Frontier(part.num_slots, frontier.device, mask=mask)


def _any(masks):
    """The element-wise or of boolean arrays."""
    masks = iter(masks)
    result = next(masks).copy()
    for mask in masks:
        result |= mask
    return result
