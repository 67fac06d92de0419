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
    """Keeps one device's declared vertex data consistent with the others'."""

    def __init__(self, run, part, communicator, route):
        self.run = run
        self.part = part
        self.comm = communicator
        self.route = route
        self.shared = declarations(type(run))
        self.names = [name for shared in self.shared for name in (shared.name, *shared.followers)]
        self.snapshot: dict = {}
        self.sent_bytes = 0
        self.seconds = 0.0

    def arrays(self, names) -> list:
        arrays = [getattr(self.run, name, None) for name in names]
        for name, array in zip(names, arrays):
            if getattr(array, "shape", None) != (self.part.num_slots,):
                raise TypeError(
                    f"{type(self.run).__name__}.communicate names {name!r}, which must be a "
                    f"vertex array of {self.part.num_slots} entries (got "
                    f"{getattr(array, 'shape', type(array).__name__)})")
        return arrays

    def start(self, frontier: Frontier) -> Frontier:
        """First boundary: copies get their owners' values; nothing is offered."""
        begin = time.perf_counter()
        self._refresh(self.part.is_owned)
        self.snapshot = {name: array.copy()
                         for name, array in zip(self.names, self.arrays(self.names))}
        self.seconds += time.perf_counter() - begin
        return self._next_frontier(frontier, None)

    def synchronize(self, frontier: Frontier) -> Frontier:
        begin = time.perf_counter()
        merged = self._offer_and_merge()
        changed = None
        for name, array in zip(self.names, self.arrays(self.names)):
            differs = _differs(array, self.snapshot[name])
            changed = differs if changed is None else changed | differs
        if changed is not None:
            changed &= self.part.is_owned
            self._refresh(changed)
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

    def _offer_and_merge(self):
        """Steps 1-3; returns the owned slots the offers changed."""
        part, xp = self.part, self.part.graph.xp
        outgoing: dict[int, list] = {}
        for index, shared in enumerate(self.shared):
            names = (shared.name, *shared.followers)
            arrays, snapshots = self.arrays(names), [self.snapshot[n] for n in names]
            changed = None
            for array, snapshot in zip(arrays, snapshots):
                differs = _differs(array, snapshot)
                changed = differs if changed is None else changed | differs
            slots = xp.flatnonzero(changed & ~part.is_owned)
            if len(slots) == 0:
                continue
            offered = [array[slots] for array in arrays]
            if shared.combine == "sum":
                offered[0] = offered[0] - snapshots[0][slots]
            for array, snapshot in zip(arrays, snapshots):
                array[slots] = snapshot[slots]
            if not shared.offers:
                continue
            for peer, ids, at in self.route.offers(slots):
                values = offered if at is None else [values[at] for values in offered]
                outgoing.setdefault(peer, []).extend([xp.asarray([index]), ids, *values])
        merged = []
        for message in self._alltoall(outgoing):
            for index, ids, values in self._groups(message):
                shared = self.shared[index]
                at, slots = self.route.accept_offers(ids)
                if at is not None:
                    values = [offered[at] for offered in values]
                arrays = self.arrays((shared.name, *shared.followers))
                merged.append(merge(shared, arrays, slots, values))
        return xp.unique(xp.concatenate(merged)) if merged else None

    def _groups(self, message):
        """Split a received offer message back into (declaration, ids, values)."""
        position = 0
        while position < len(message):
            index = int(message[position][0])
            width = 1 + len(self.shared[index].followers)
            yield index, message[position + 1], message[position + 2:position + 2 + width]
            position += 2 + width

    def _refresh(self, changed) -> None:
        """Step 4: send changed owned values to the copies; take in others'."""
        arrays = self.arrays(self.names)
        outgoing = {peer: [ids, *[array[local] for array in arrays]]
                    for peer, ids, local in self.route.refreshes(changed)}
        for name, array in zip(self.names, arrays):
            if name in self.snapshot:
                self.snapshot[name][changed] = array[changed]
        for message in self._alltoall(outgoing):
            at, slots = self.route.accept_refreshes(message[0])
            for name, array, values in zip(self.names, arrays, message[1:]):
                array[slots] = values if at is None else values[at]
                if name in self.snapshot:
                    self.snapshot[name][slots] = array[slots]

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
        if merged is not None:
            ids = part.graph.xp.unique(part.graph.xp.concatenate([ids, merged]))
        return Frontier(part.num_slots, frontier.device, ids=ids)
