"""Python objects matched by identity with NumPy, for reading NetworkX's dicts.

An object's address (what ``id`` gives) is read from an object array's
buffer of pointers, with no Python int per object; addresses are then
matched as integers: the position of each object among a list of them
(:class:`AddressIndex`), or the other place an object occurs (:func:`partners`).
Every object involved must stay alive meanwhile (held by the arrays), so
that equal addresses are the same object.

Addresses are matched through a table indexed by the address's offset from
the lowest, in units of the alignment that all of them share, while the
addresses span few enough units (objects allocated together do), and
otherwise by a binary search (:class:`AddressIndex`) or a sort
(:func:`partners`).
"""

from __future__ import annotations

import ctypes

import numpy as np


def addresses(objects: np.ndarray) -> np.ndarray:
    """The address of each item of the object array ``objects`` (uintp)."""
    if not len(objects):
        return np.zeros(0, np.uintp)
    pointers = (ctypes.c_size_t * len(objects)).from_address(objects.ctypes.data)
    return np.ctypeslib.as_array(pointers).view(np.uintp).copy()


def table_units(found: np.ndarray, limit: int):
    """``(low, shift, units)``: each address as ``(address - low) >> shift``,
    distinct for distinct addresses, when the highest unit is below
    ``limit``; else ``None``. ``found`` must not be empty."""
    low = found.min()
    offsets = found - low
    spread = int(np.bitwise_or.reduce(offsets))
    shift = (spread & -spread).bit_length() - 1 if spread else 0
    if (spread >> shift) >= limit:  # spread >> shift bounds the highest unit
        return None
    offsets >>= np.uintp(shift)  # below limit: signed the same
    return low, np.uintp(shift), offsets.view(np.intp)


class AddressIndex:
    """The position of objects in a list of them, by address."""

    #: the most table entries: TABLE_BASE + TABLE_PER_ENTRY per object
    TABLE_BASE = 1 << 20
    TABLE_PER_ENTRY = 64

    def __init__(self, objects: list):
        self.addresses = addresses(np.fromiter(objects, object, len(objects)))
        units = table_units(self.addresses, self.TABLE_BASE + self.TABLE_PER_ENTRY
                            * len(objects)) if len(objects) else None
        self.table = None
        if units is not None:
            self.low, self.shift, at = units
            self.table = np.full(int(at.max()) + 1, -1, np.int64)
            self.table[at] = np.arange(len(objects))
        elif len(objects):
            self.order = np.argsort(self.addresses)
            self.sorted = self.addresses[self.order]

    def find(self, wanted: np.ndarray):
        """The position of each address in ``wanted`` among the objects',
        and whether it is there at all (positions are 0 where it is not)."""
        if not len(self.addresses):
            return np.zeros(len(wanted), np.int64), np.zeros(len(wanted), bool)
        if self.table is not None:
            units = (wanted - self.low) >> self.shift  # wraps around below low
            inside = (wanted >= self.low) & (units < len(self.table))
            positions = self.table[np.where(inside, units, 0)]
            positions[~inside] = -1
        else:
            at = np.minimum(np.searchsorted(self.sorted, wanted), len(self.sorted) - 1)
            positions = self.order[at]
        found = (positions >= 0) & (self.addresses[np.maximum(positions, 0)] == wanted)
        positions[~found] = 0
        return positions, found


#: the most table entries :func:`partners` uses: a base and so many per address
PARTNER_TABLE_BASE = 1 << 20
PARTNER_TABLE_PER_ENTRY = 8


def partners(found: np.ndarray) -> np.ndarray | None:
    """For addresses that each occur once or twice: the position of each
    one's other occurrence (its own where it occurs once); ``None`` where
    an address occurs more than twice."""
    count = len(found)
    if not count:
        return np.zeros(0, np.int64)
    units = table_units(found, PARTNER_TABLE_BASE + PARTNER_TABLE_PER_ENTRY * count)
    if units is not None:
        return _table_partners(units[2])
    partner = _sorted_partners(found)
    # Once or twice: each is its partner's partner (a third occurrence's is not).
    return partner if (partner[partner] == np.arange(count)).all() else None


def _table_partners(at: np.ndarray) -> np.ndarray | None:
    """:func:`partners` through a table of ``at.max() + 1`` slots (``at``:
    each address's unit)."""
    count = len(at)
    index = np.int32 if count <= np.iinfo(np.int32).max else np.int64
    positions = np.arange(count, dtype=index)
    # Which of an address's occurrences a write keeps is not defined: call
    # it the winner, the others losers (one, for an address seen twice).
    winner = np.empty(int(at.max()) + 1, index)  # only the slots written are read
    winner[at] = positions
    won = winner[at]
    losers = np.flatnonzero(won != positions)
    winners = won[losers]
    partner = positions.astype(np.int64)
    partner[losers] = winners
    partner[winners] = losers
    # An address seen three times or more has two losers with one winner,
    # which takes only one of them as its partner.
    return partner if (partner[winners] == losers).all() else None


def _sorted_partners(found: np.ndarray) -> np.ndarray:
    """:func:`partners` by sorting the addresses (for ones too spread for a
    table): equal neighbours in sorted order pair up."""
    order = np.argsort(found, kind="stable")
    ordered = found[order]
    same = np.flatnonzero(ordered[1:] == ordered[:-1])  # i: places i and i + 1 hold one address
    partner_at = np.arange(len(found))
    partner_at[same], partner_at[same + 1] = same + 1, same
    partner = np.empty(len(found), np.int64)
    partner[order] = order[partner_at]
    return partner
