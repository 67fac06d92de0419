"""The per-iteration pipeline of a multi-device run: split, package, push,
combine, refresh.

After each step, on every device:

1. **split**: every proxy slot whose declared data changed in the step is
   an offer for the vertex's owner (for ``"sum"``, the change itself);
   proxies go back to the values they had;
2. **package and push**: offers go out as positions in the slot lists the
   devices share (:mod:`frontier.multi.routes`), in the cheapest encoding
   (:mod:`frontier.multi.messages`), in one all-to-all; a peer with nothing
   to hear gets no message;
3. **combine**: each owner merges the offers it receives with the declared
   combiner (:mod:`frontier.multi.merge`);
4. **refresh**: every owned slot whose data changed, in the step or by an
   offer, is sent to the devices keeping a copy, which overwrite theirs;
5. **next frontier**: the owned vertices of the step's output frontier, plus
   those an offer changed.

So at every boundary each vertex's slots hold its owner's values, and a
primitive reads its neighbours as on one device.

"Changed" is "differs from the snapshot taken at the last boundary", found
by one fused pass over each shared list (:mod:`frontier.kernels.changes` on
GPUs); nothing is sorted and no pass covers slots no peer shares.
"""

from __future__ import annotations

import time

import numpy as np

from ..communicate import declarations
from ..device import to_numpy
from ..frontier import Frontier
from ..kernels import compact
from ..kernels.fill import fill
from ..primitive import DeclarationError, Primitive, checking_declarations
from .merge import merge
from .messages import changed, differs, nothing, positions_of, select

#: A frontier of at most this many slots (a source or a few) is cut to its
#: owned slots by a read of their owners instead of a mask's compaction.
FEW = 32


class Exchange:
    """Keeps one device's declared vertex data consistent with the others'."""

    def __init__(self, run, part, communicator, route):
        self.run = run
        self.part = part
        self.comm = communicator
        self.lists = routed(route, part, communicator)
        self.shared = declarations(type(run))
        self.offering = [shared for shared in self.shared if shared.offers]
        self.names = [name for shared in self.shared for name in (shared.name, *shared.followers)]
        self.snapshot: dict = {}
        # The default ``converged`` decides on a reduction: the same answer everywhere.
        self.votes = not _decides_globally(type(run))
        self.sent_bytes = 0
        self.seconds = 0.0
        self.refills = 0  # Primitive.refill calls (every device's count must agree)
        #: the levels a claim may run with its peers (only the output boundary's)
        self.joint = None
        #: copies equal their owners after setup: no first refresh (checked)
        self.uniform = type(run).uniform_setup
        self.checking = checking_declarations()
        if self._checks_change_collectives():
            self.checking = communicator.agreed(self.checking)

    def refilled(self, array, value) -> None:
        """The run set ``array`` back to ``value`` at every slot, as every
        device does in the same step (:meth:`Primitive.refill`): so is its
        snapshot, where one is kept. Counted: the devices' counts must
        agree at the end of the run (``gather_result``)."""
        self.refills += 1
        for name, snapshot in self.snapshot.items():
            if getattr(self.run, name, None) is array:
                fill(snapshot, value)

    def _checks_change_collectives(self) -> bool:
        """Whether checking the declarations changes the collectives this
        boundary makes (the first refresh under ``uniform_setup``): then
        every rank must check, or none."""
        return self.uniform

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
        """First boundary: copies get their owners' values; nothing is
        offered. Where the primitive declares ``uniform_setup`` they have
        them already, and nothing is sent (unless the declaration is
        checked: then the refresh must change nothing)."""
        begin = time.perf_counter()
        if self.names:
            arrays = self.arrays()
            if not self.uniform or self.checking:
                before = {name: array.copy() for name, array in arrays.items()} \
                    if self.uniform else None
                self._refresh(arrays, everything=True, fills=self.run.fills_of(arrays))
                if before is not None:
                    self._check_uniform(arrays, before)
            if self.keeps_snapshot():
                self.snapshot = {name: array.copy() for name, array in arrays.items()}
        self.seconds += time.perf_counter() - begin
        return self._next_frontier(frontier, None)

    def _check_uniform(self, arrays: dict, before: dict) -> None:
        """Raise :class:`DeclarationError` on every rank if the first
        refresh changed a copy on any: the primitive's ``setup`` did not
        write it as its owner's did, against ``uniform_setup``."""
        found = None
        for name, array in arrays.items():
            moved = differs(array, before[name])
            if bool(moved.any()):
                slot = int(to_numpy(moved.nonzero()[0][:1])[0])
                found = (f"{name}[{slot}] was {to_numpy(before[name][slot:slot + 1])[0]} "
                         f"on part {self.comm.rank}, its owner's is "
                         f"{to_numpy(array[slot:slot + 1])[0]}")
                break
        if self.comm.allreduce(int(found is not None), "max"):
            raise DeclarationError(
                f"{type(self.run).__name__} declares uniform_setup, but its setup wrote a "
                f"copy unlike its owner: {found or 'on another part'}")

    def keeps_snapshot(self) -> bool:
        """Whether the boundary compares the declared arrays with a copy
        taken at the last boundary (this one finds changes that way)."""
        return True

    def synchronize(self, frontier: Frontier) -> Frontier:
        if not self.names:
            return self._next_frontier(frontier, None)
        begin = time.perf_counter()
        arrays = self.arrays()
        updated = self._offer_and_merge(arrays)
        following = self._next_frontier(frontier, updated)
        # With the default converged, the next frontier's size travels with
        # the refreshes (on a GPU a dense one's count is the read its
        # conversion to ids makes anyway, only earlier).
        self._refresh(arrays, size=None if self.votes else following.size)
        self.seconds += time.perf_counter() - begin
        return following

    def agree(self, stop: bool) -> bool:
        """``stop`` if every device decided the same; RuntimeError otherwise.
        A primitive with the default ``converged`` (a reduction of the
        frontier sizes) decides the same everywhere, so no vote is taken."""
        if not self.votes:
            return stop
        return self.comm.vote(stop, self._disagreement)

    def _disagreement(self, votes: int) -> RuntimeError:
        return RuntimeError(
            f"{type(self.run).__name__}.converged() decided differently on different "
            f"devices ({votes} of {self.comm.size} would stop): base it on global values "
            "(self.reduce(...), self.vertex_sum(...)), not on this device's frontier")

    # steps --------------------------------------------------------------------------

    def _changes(self, arrays: dict, names, attribute: str, *, encode: bool = True,
                 dense: bool = False) -> dict:
        """For each peer, ``(selector, slots)`` of the entries of its
        ``attribute`` list whose ``names`` data changed, or None if none did
        (no selector unless ``encode``). A list shared by several peers is
        compared once."""
        item_bytes = sum(arrays[name].itemsize for name in names)
        found: dict = {}
        result = {}
        for peer, peer_lists in self.lists.items():
            slots = getattr(peer_lists, attribute)
            if id(slots) not in found:
                found[id(slots)] = self._select(arrays, names, slots, item_bytes, encode, dense)
            result[peer] = found[id(slots)]
        return result

    def _select(self, arrays, names, slots, item_bytes: int, encode: bool, dense: bool):
        if len(slots) == 0:
            return None
        mask = changed(slots, [arrays[n] for n in names], [self.snapshot[n] for n in names])
        if not encode:
            positions = compact.flatnonzero(mask)
            return (None, slots[positions]) if len(positions) else None
        selected = select(mask, item_bytes, dense)
        if selected is None:
            return None
        selector, positions = selected
        return selector, slots if positions is None else slots[positions]

    def _offer_and_merge(self, arrays: dict):
        """Steps 1-3; returns a mask over the slots, true where an offer
        changed an owned value, or None if no offer came."""
        xp = self.part.graph.xp
        outgoing = {peer: [] for peer in self.lists}
        speaks = set()  # the peers that get at least one offer
        for shared in self.shared:
            names = (shared.name, *shared.followers)
            offers = self._changes(arrays, names, "offers_out", encode=shared.offers)
            if shared.offers:
                for peer, offer in offers.items():
                    if offer is None:
                        outgoing[peer].extend(nothing(xp, len(names)))
                        continue
                    selector, slots = offer
                    values = [arrays[name][slots] for name in names]
                    if shared.combine == "sum":
                        values[0] = values[0] - self.snapshot[shared.name][slots]
                    outgoing[peer].extend([selector, *values])
                    speaks.add(peer)
            # The proxies go back to the owner's values (each changed list once).
            for _, slots in {id(offer): offer for offer in offers.values() if offer}.values():
                for name in names:
                    arrays[name][slots] = self.snapshot[name][slots]
        if not self.offering:
            return None
        updated = None
        outgoing = {peer: outgoing[peer] for peer in speaks}
        for peer, message in self._alltoall(outgoing).items():
            incoming = self.lists[peer]
            position = 0
            for shared in self.offering:
                width = 2 + len(shared.followers)
                selector, values = message[position], message[position + 1:position + width]
                position += width
                slots, values = self._received(selector, values, incoming.offers_in,
                                               incoming.drops)
                if slots is not None:
                    if updated is None:
                        updated = xp.zeros(self.part.num_slots, dtype=bool)
                    names = (shared.name, *shared.followers)
                    merge(shared, [arrays[n] for n in names], slots, values, updated)
        return updated

    def _refresh(self, arrays: dict, everything: bool = False, size: int | None = None,
                 fills: dict | None = None) -> None:
        """Step 4: send changed owned values to the copies; take in others'.
        ``everything``: every shared owned slot, changed or not (the first
        boundary, before any snapshot); with ``fills`` (``{name: fill}`` of
        arrays :meth:`Primitive.vertex_array` made) the owner sends its fills
        and only the shared entries that differ from them, and each copy is
        set to its owner's fill before they land: the copies end the same,
        whatever setup wrote to them, even where parts' fills differ (a
        BFS sends the source's entry, not every shared slot). ``size``: the
        next frontier's, to sum with the refreshes (:meth:`_alltoall`)."""
        if fills is not None and not everything:
            raise ValueError("fills describe the first boundary's refresh (everything=True)")
        names = list(arrays)
        xp = self.part.graph.xp
        heads = [] if fills is None else [xp.asarray([fills[name]], dtype=arrays[name].dtype)
                                          for name in names]
        if everything:
            whole = {id(lists.refreshes_out): self._first_refresh(arrays, heads,
                                                                  lists.refreshes_out)
                     for lists in self.lists.values() if len(lists.refreshes_out)}
            refreshes = {peer: whole.get(id(lists.refreshes_out))
                         for peer, lists in self.lists.items()}
        else:
            refreshes = self._changes(arrays, names, "refreshes_out", dense=True)
        outgoing, packed = {}, {}  # a list shared by several peers is gathered once
        for peer, refresh in refreshes.items():
            if refresh is None:
                continue
            if id(refresh) not in packed:
                selector, slots = refresh
                values = [arrays[name][slots] for name in names]
                packed[id(refresh)] = [selector, *heads, *values]
                if self.snapshot:
                    for name, value in zip(names, values):
                        self.snapshot[name][slots] = value
            outgoing[peer] = packed[id(refresh)]
        for peer, message in self._alltoall(outgoing, size).items():
            lists = self.lists[peer]
            if heads:  # the copies start from their owner's fills
                copies = lists.refreshes_in[lists.refreshes_in >= 0] if lists.drops \
                    else lists.refreshes_in
                for name, head in zip(names, message[1:1 + len(heads)]):
                    arrays[name][copies] = head
            slots, values = self._received(message[0], message[1 + len(heads):],
                                           lists.refreshes_in, lists.drops)
            if slots is None:
                continue
            for name, value in zip(names, values):
                arrays[name][slots] = value
                if self.snapshot:
                    self.snapshot[name][slots] = value

    def _first_refresh(self, arrays: dict, heads: list, refresh_list):
        """``(selector, slots)`` of the first boundary's refresh of
        ``refresh_list``: all of it (no ``heads``), or the entries that
        differ from the fills in ``heads`` (perhaps none: the fills still
        travel)."""
        xp = self.part.graph.xp
        if not heads:
            return xp.empty(0, dtype=bool), refresh_list
        names = list(arrays)
        mask = differs(arrays[names[0]][refresh_list], heads[0])
        for name, head in zip(names[1:], heads[1:]):
            mask |= differs(arrays[name][refresh_list], head)
        selected = select(mask, sum(arrays[name].itemsize for name in names), dense=True)
        if selected is None:
            return xp.empty(0, dtype=bool), refresh_list[:0]
        selector, positions = selected
        return selector, refresh_list if positions is None else refresh_list[positions]

    def _received(self, selector, values: list, incoming, drops: bool):
        """``(slots, values)`` a message names here, or ``(None, None)``."""
        count = len(values[0])  # the entries named: no device read
        if count == 0:
            return None, None
        positions = positions_of(selector, len(incoming), count)
        slots = incoming if positions is None else incoming[positions]
        if drops:
            kept = compact.flatnonzero(slots >= 0)
            if len(kept) == 0:
                return None, None
            slots, values = slots[kept], [value[kept] for value in values]
        return slots, values

    def _alltoall(self, outgoing: dict, frontier_size: int | None = None) -> dict:
        """Send ``outgoing[peer]`` (a list of arrays) to each peer; the
        messages received, by sender. ``frontier_size``: this device's next
        frontier size, summed over the devices in the same collective and
        handed to the view for the default ``converged`` (its reduction is
        then not another collective)."""
        if frontier_size is None:
            return _by_sender(self.comm.alltoall(self._messages(outgoing)))
        incoming, total = self._alltoall_and_sum(outgoing, frontier_size)
        self.run.view.prepay(frontier_size, total)
        return incoming

    def _alltoall_and_sum(self, outgoing: dict, value: int) -> tuple[dict, int]:
        """:meth:`_alltoall`'s messages received, and ``value`` summed over
        the devices in the same collective."""
        incoming, total = self.comm.alltoall_and_sum(self._messages(outgoing), value)
        return _by_sender(incoming), total

    def _messages(self, outgoing: dict) -> list:
        """``outgoing`` as a message per rank (None for none), counted in
        :attr:`sent_bytes`."""
        messages = [outgoing.get(peer) for peer in range(self.comm.size)]
        self.sent_bytes += sum(array.nbytes for message in messages if message
                               for array in message)
        return messages

    def _next_frontier(self, frontier: Frontier, updated) -> Frontier:
        """Step 5: the owned part of the step's output, plus the slots offers
        changed (``updated``, a mask over owned slots, or None)."""
        part = self.part
        if frontier.kind == "dense":
            mask = frontier.mask & part.is_owned
            if updated is not None:
                mask |= updated
            return Frontier(part.num_slots, frontier.device, mask=mask)
        ids = frontier.ids
        if updated is None:
            if len(ids) <= FEW:  # a source: one read, not a mask's compaction
                owned = np.flatnonzero(to_numpy(part.is_owned[ids])) if len(ids) else ()
                if len(owned) < len(ids):
                    ids = ids[part.graph.xp.asarray(owned, dtype=np.int64)]
                return Frontier(part.num_slots, frontier.device, ids=ids)
            return Frontier(part.num_slots, frontier.device, ids=ids[part.is_owned[ids]])
        # The union as a mask: no sort and no device read. ``updated`` holds
        # owned slots only, so a copy's id is written false and stays false.
        updated[ids] = part.is_owned[ids]
        return Frontier(part.num_slots, frontier.device, mask=updated)


def routed(route, part, communicator) -> dict:
    """``route``'s slot lists of ``part`` with every peer: made at a part's
    first run (an ``O(slots)`` pass and a device read per peer) and kept
    with it for the next."""
    key = ("routes", route.__name__)
    if key not in part.derived:
        peers = [peer for peer in range(communicator.size) if peer != communicator.rank]
        part.derived[key] = route(part, peers, communicator)
    return part.derived[key]


def _by_sender(incoming: list) -> dict:
    """The messages an all-to-all delivered, by sender, the empty ones left out."""
    return {peer: message for peer, message in enumerate(incoming) if message}


def _decides_globally(primitive: type) -> bool:
    """Whether ``primitive`` stops by :meth:`Primitive.converged` as given,
    which compares a reduction over the devices, so every device decides
    alike without a vote."""
    return primitive.converged is Primitive.converged and primitive.reduce is Primitive.reduce
