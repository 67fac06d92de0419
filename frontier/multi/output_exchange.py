"""The boundary of a primitive whose declared arrays change only at its
step's output frontier: split, package, push, combine (Gunrock's design).

A primitive that sets ``changes_only_in_output = True`` promises that its
step writes the arrays it declares in ``communicate`` only at vertices of
the frontier the step returns, and only in the direction of their combiner
(smaller for ``"min"``, larger for ``"max"``, from unset or smaller for
``"earliest"``, absorbed for a function). Then
no slot outside that frontier needs a look, and after each step, on every
device:

1. **split**: the output frontier's slots by owner (one device read of
   the counts per owner; on GPUs two kernels that count, then place each
   slot in its owner's bucket, :mod:`frontier.kernels.boundary`; NumPy
   sorts by owner);
2. **package and push**: the slots owned elsewhere go to their owners with
   their declared values, as the owner's slots (one all-to-all);
3. **combine**: each owner merges what it receives with the declared
   combiner (:mod:`frontier.multi.merge`);
4. **refresh**: the owned slots that changed (the owned output, plus those
   an offer changed) go to the devices that keep a copy, which overwrite
   theirs (one all-to-all);
5. **next frontier**: those same owned slots (on GPUs gathered once each
   from the marks the split and the merges set, clearing them: one kernel
   per list and one read).

A proxy that offered keeps what it wrote: with a combiner that only moves
one way, the owner's value after the merge is at least as far along as the
offer, and if it is further along the owner changed, so its refresh comes.
Every pass covers the frontier and the messages, never every slot, and no
snapshot of the declared arrays is kept.

A primitive that also declares ``copies_may_lag = True`` (SSSP) does not
need step 4: its answer does not depend on copies being current, and a copy
that lags behind its owner costs at most an offer the owner turns down. Its
boundary sends offers only, as Gunrock's does; the copies keep what their
device wrote (and what the first boundary sent).

``FRONTIER_CHECK_DECLARATIONS=1`` (the test suite sets it) keeps a snapshot
anyway and checks each step against the declaration: a write outside the
output frontier, or against its combiner's direction, raises
:class:`DeclarationError` instead of giving a wrong answer. Under it, a
primitive with ``copies_may_lag`` gets the refreshes of a random half of
the changed owned slots (a seeded draw per device and boundary), so that
its copies lag by varying amounts, between none and what a run without
refreshes leaves; the tests compare its answers with one device's both
ways.
"""

from __future__ import annotations

import time

import numpy as np

from ..communicate import ONE_WAY, declarations
from ..frontier import Frontier
from ..graph import index_dtype
from ..kernels import boundary, compact
from ..primitive import DeclarationError
from .exchange import Exchange
from .joint_levels import joint_levels
from .merge import as_unsigned, merge
from .messages import differs

#: GPUs split the output and collect the next frontier with the kernels of
#: :mod:`frontier.kernels.boundary` (two launches and one read each), and
#: make a refresh's bitmap with one launch, instead of whole-array CuPy;
#: False: the whole-array code (tests compare the two).
FUSED_BOUNDARY = True


def applies(primitive: type, communication: str) -> bool:
    """Whether ``primitive``'s boundary can work from its output frontier:
    it declares ``changes_only_in_output`` and routes are selective
    (broadcast, the baseline, keeps the snapshot boundary).

    Raises
    ------
    ValueError
        If the primitive declares it with a combiner that is not one-way
        (``"sum"``, ``"owner"``): those need the snapshot boundary.
    """
    if not getattr(primitive, "changes_only_in_output", False):
        return False
    shared_arrays = declarations(primitive)
    for shared in shared_arrays:
        if shared.combine not in ONE_WAY and not callable(shared.combine):
            raise ValueError(
                f"{primitive.__name__}.changes_only_in_output needs 'min', 'max', 'earliest' "
                f"or function combiners; {shared.name!r} is declared {shared.combine!r}")
    return bool(shared_arrays) and communication == "selective"


class OutputExchange(Exchange):
    """Keeps one device's declared vertex data consistent with the others',
    working from each step's output frontier (see the module docstring)."""

    def __init__(self, run, part, communicator, route):
        super().__init__(run, part, communicator, route)
        self.updated = None  # a mask over the slots, all false between boundaries
        self.ticket = None   # a scratch index per slot, for removing repeats
        self.own_marked = False
        self.slot_type = index_dtype(part.num_slots)
        self.lagging = run.copies_may_lag  # no refreshes (it may depend on the parameters)
        # no refresh for the default converged's sum to travel with: a stop hint instead
        self.hinting = self.lagging and not self.votes
        # checking copies_may_lag: which changed slots get a refresh
        self.draws = np.random.default_rng(communicator.rank) \
            if self.lagging and self.checking else None
        self.joint = joint_levels(self, communicator)

    def keeps_snapshot(self) -> bool:
        return self.checking

    def _checks_change_collectives(self) -> bool:
        # checking copies_may_lag sends refreshes and reduces at every boundary
        return super()._checks_change_collectives() or self.run.copies_may_lag

    def synchronize(self, frontier: Frontier) -> Frontier:
        begin = time.perf_counter()
        arrays = self.arrays()
        # each slot once: a refresh's bitmap has one bit per slot for all its
        # values (a claim's output is distinct already: no work then)
        ids = frontier.unique().ids
        self.own_marked = False  # whether the split marked the owned output
        if self.checking:
            self._check(arrays, ids)
        own, offers = self._split(ids)
        outgoing = {peer: [slots, *(arrays[name][local] for name in self.names)]
                    for peer, (local, slots) in offers.items()}
        if self.hinting:
            incoming, hint = self._alltoall_and_sum(outgoing, self._stop_hint(own, offers))
        else:
            incoming = self._alltoall(outgoing)
        changed = self._changed(own, self._combine(arrays, incoming))
        if not self.lagging:
            self._push_refreshes(arrays, changed)
        elif self.checking:
            half = self.draws.random(len(changed)) < 0.5
            self._push_refreshes(arrays, changed, changed[self.part.graph.xp.asarray(half)],
                                 carry_size=False)
        if self.hinting:
            self._prepay_from_hint(len(changed), hint)
        if self.checking:
            for name, array in arrays.items():
                self.snapshot[name] = array.copy()
        self.seconds += time.perf_counter() - begin
        return Frontier(self.part.num_slots, frontier.device, ids=changed)

    # steps --------------------------------------------------------------------------

    def _split(self, ids):
        """Step 1: this device's own output slots, and for each peer that
        owns some, ``(local slots, the owner's slots)``."""
        part, xp = self.part, self.part.graph.xp
        size, rank = self.comm.size, self.comm.rank
        if len(ids) == 0 or size == 1:
            return ids, {}
        # slots travel in the part's index type (int32 below 2^31 slots)
        ids = ids.astype(self.slot_type, copy=False)
        if self._fused():
            counts, local, there = boundary.split_by_owner(
                ids, part.slot_owner, size, rank, part.slot_on_owner, self._marks())
            self.own_marked = True
        else:
            owners = part.slot_owner[ids]
            counts = _host(xp.bincount(owners, minlength=size)).tolist()  # the one read
            if counts[rank] == len(ids):
                return ids, {}
            local, there = ids[xp.argsort(owners)], None
        ends = np.cumsum(counts)
        starts = ends - counts
        offers = {}
        for peer in range(size):
            if peer != rank and counts[peer]:
                bucket = slice(starts[peer], ends[peer])
                offers[peer] = (local[bucket], there[bucket] if there is not None
                                else self._on_owner(local[bucket]))
        return local[starts[rank]:ends[rank]], offers

    def _on_owner(self, slots):
        """``slots`` (proxies here) as their owner's slot numbers."""
        on_owner = self.part.slot_on_owner
        return slots if on_owner is None else on_owner[slots]

    def _fused(self) -> bool:
        """Whether this boundary splits and collects with the kernels of
        :mod:`frontier.kernels.boundary` (GPUs, unless
        :data:`FUSED_BOUNDARY` is off)."""
        return FUSED_BOUNDARY and self.part.graph.xp is not np

    def _marks(self):
        """The mask over the slots (all false between boundaries)."""
        if self.updated is None:
            self.updated = self.part.graph.xp.zeros(self.part.num_slots, dtype=bool)
        return self.updated

    def _combine(self, arrays: dict, incoming: dict) -> list:
        """Step 3: merge the offers received; the slots they were for."""
        if not incoming:
            return []
        self._marks()
        received = []
        for message in incoming.values():
            slots, values = message[0], message[1:]
            position = 0
            for shared in self.shared:
                width = 1 + len(shared.followers)
                merge(shared, [arrays[name] for name in (shared.name, *shared.followers)],
                      slots, values[position:position + width], self.updated)
                position += width
            received.append(slots)
        return received

    def _changed(self, own, received: list):
        """Step 5: the owned output and the slots an offer changed, each once."""
        updated = self.updated
        if self._fused():
            if not received:  # clear what the split marked
                if self.own_marked:
                    updated[own] = False
                return own
            return boundary.collect_marked([own, *received], updated)
        if not received:
            return own
        xp = self.part.graph.xp
        updated[own] = True
        candidates = xp.concatenate([own, *received])
        if self.ticket is None:
            self.ticket = xp.empty(self.part.num_slots, dtype=np.int64)
        positions = xp.arange(len(candidates), dtype=np.int64)
        self.ticket[candidates] = positions  # one position per slot wins
        keep = updated[candidates] & (self.ticket[candidates] == positions)
        changed = compact.where(candidates, keep)
        updated[candidates] = False
        return changed

    def _stop_hint(self, own, offers: dict) -> int:
        """What this device adds to the offers' all-to-all under
        ``copies_may_lag`` with the default ``converged``: its owned output's
        size times ``size + 1``, plus 1 if it offers anything. Summed over
        the devices, it says whether the next frontiers are all empty
        before the merges have run (:meth:`_prepay_from_hint`)."""
        return len(own) * (self.comm.size + 1) + int(bool(offers))

    def _prepay_from_hint(self, next_size: int, hint: int) -> None:
        """Answer the default ``converged`` from the summed :meth:`_stop_hint`
        where it can, without a collective: some device's owned output is
        in its next frontier (the sum of the owned outputs' sizes, a
        positive lower bound of the frontiers' total), or no device kept or
        offered anything (0). Where only offers were made, whether one was
        taken is known after the merges: ``converged`` then reduces. Under
        the declaration checks every boundary makes that reduction, checks
        the hint against it and hands ``converged`` its exact sum."""
        owned, offering = divmod(hint, self.comm.size + 1)
        if self.checking:
            total = self.comm.allreduce(next_size, "sum")
            if (owned > 0 and total == 0) or (owned == offering == 0 and total != 0):
                raise RuntimeError(f"the stop hint (owned outputs {owned}, {offering} devices "
                                   f"offering) disagrees with the next frontiers' {total}")
            self.run.view.prepay(next_size, total)
        elif owned > 0:
            self.run.view.prepay(next_size, owned)
        elif offering == 0:
            self.run.view.prepay(next_size, 0)

    def _push_refreshes(self, arrays: dict, changed, refreshed=None,
                        carry_size: bool = True) -> None:
        """Step 4: the changed owned slots' values to the devices keeping
        copies (``refreshed``: only these of them). With the default
        ``converged``, the sum of the next frontiers' sizes travels with
        them (unless not ``carry_size``; without refreshes, under
        ``copies_may_lag``, :meth:`_stop_hint` travels with the offers)."""
        refreshed = changed if refreshed is None else refreshed
        outgoing = self._refresh_messages(arrays, refreshed) \
            if len(refreshed) and self.lists else {}
        size = None if self.votes or not carry_size else len(changed)
        for peer, message in self._alltoall(outgoing, size).items():
            slots = message[0]
            if slots.dtype == np.uint8:  # a bitmap over the peer's owned slots
                owned = self.lists[peer].refreshes_in  # here in the same ascending order
                slots = owned[compact.bit_positions(slots, len(owned), owned.dtype,
                                                    count=len(message[1]))]
            for name, value in zip(self.names, message[1:]):
                arrays[name][slots] = value

    def _refresh_messages(self, arrays: dict, refreshed) -> dict:
        """Each peer's refresh of the owned slots ``refreshed``: the slots
        it keeps copies of, as its own slot numbers, with their values."""
        part = self.part
        if part.copy_slots is None:  # shared ids: every peer, the same slots
            message = self._owned_refresh(arrays, refreshed)
            return {peer: message for peer in self.lists}
        values = [arrays[name][refreshed] for name in self.names]
        outgoing = {}
        for peer in self.lists:
            there = part.copy_slots[peer][refreshed]
            kept = compact.flatnonzero(there >= 0)
            if len(kept):
                outgoing[peer] = [there[kept], *(value[kept] for value in values)]
        return outgoing

    def _owned_refresh(self, arrays: dict, changed) -> list:
        """The refresh of the owned slots ``changed`` under shared ids (every
        peer copies every owned slot, in ascending order): the slots and
        their values, or where more than one owned slot in ``8 x`` the
        bytes of a slot changed, a bitmap over the owned slots and the
        values in its order, 1/8 byte a slot instead of 4 (a BFS's large
        levels)."""
        owned = self.part.owned  # every peer's refresh list under shared ids
        if len(changed) * 8 * changed.itemsize <= len(owned):
            return [changed, *(arrays[name][changed] for name in self.names)]
        if self._fused():  # the bitmap in one kernel, the slots in its order from it
            bits = boundary.owned_bits(changed, owned)
            ordered = owned[compact.bit_positions(bits, len(owned), owned.dtype,
                                                  count=len(changed))]
        else:
            xp = self.part.graph.xp
            ordered = xp.sort(changed)
            mask = xp.zeros(len(owned), dtype=bool)
            mask[xp.searchsorted(owned, ordered)] = True
            bits = xp.packbits(mask)
        return [bits, *(arrays[name][ordered] for name in self.names)]

    def _check(self, arrays: dict, ids) -> None:
        """Raise :class:`DeclarationError` if the step wrote a declared array
        outside ``ids`` or against its combiner's direction."""
        xp = self.part.graph.xp
        where = type(self.run).__name__
        in_output = xp.zeros(self.part.num_slots, dtype=bool)
        in_output[ids] = True
        for shared in self.shared:
            for name in (shared.name, *shared.followers):
                slot = _first(differs(arrays[name], self.snapshot[name]) & ~in_output)
                if slot is not None:
                    raise DeclarationError(
                        f"{where} declares changes_only_in_output, but its step changed "
                        f"{name}[{slot}] (from {_host(self.snapshot[name][slot])} to "
                        f"{_host(arrays[name][slot])}), a slot outside the frontier it returned")
            array, before = arrays[shared.name], self.snapshot[shared.name]
            if shared.combine == "min":
                backwards = array > before
            elif shared.combine == "earliest":
                backwards = as_unsigned(array) > as_unsigned(before)
            elif shared.combine == "max":
                backwards = array < before
            else:
                merged = xp.asarray(shared.combine(before, array))
                backwards = differs(merged, array)
            slot = _first(backwards)
            if slot is not None:
                raise DeclarationError(
                    f"{where} declares changes_only_in_output, but its step moved "
                    f"{shared.name}[{slot}] against its combiner {shared.combine!r} (from "
                    f"{_host(before[slot])} to {_host(array[slot])})")


def _first(mask) -> int | None:
    """The first true position of a device or host mask, or None."""
    if not bool(mask.any()):
        return None
    return int(_host(mask.nonzero()[0][0]))


def _host(value):
    """A device scalar or array on the host."""
    return value.get() if hasattr(value, "get") else value
