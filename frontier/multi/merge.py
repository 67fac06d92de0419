"""Merging offers into owned vertex data, one rule per combiner.

Each function takes the owner's arrays, the slots the offers are for
(repeats allowed: several devices may offer for one vertex) and the offered
values, updates the arrays in place and returns the slots whose value
changed.
"""

from __future__ import annotations

from ..device import array_namespace
from ..operators.updates import first_occurrence


def merge(shared, arrays: list, slots, values: list):
    """Merge offers for one declared array (``arrays[0]``) and its followers
    (``arrays[1:]``), by ``shared.combine``."""
    if len(slots) == 0:
        return slots
    if shared.combine in ("min", "max"):
        return _extreme(arrays, slots, values, shared.combine)
    if shared.combine == "sum":
        return _sum(arrays[0], slots, values[0])
    return _function(arrays[0], slots, values[0], shared.combine)


def _extreme(arrays, slots, values, op: str):
    """Keep the smallest (largest) offer per slot if it beats the owner's
    value; followers take their values from the same offer."""
    xp = array_namespace(slots)
    order = xp.argsort(values[0], kind="stable")
    order = order[xp.argsort(slots[order], kind="stable")]
    run_starts = slots[order][1:] != slots[order][:-1]
    true = xp.ones(1, dtype=bool)
    # Sorted by slot, then value: the first (last) offer of each slot is its min (max).
    ends = xp.concatenate([true, run_starts]) if op == "min" \
        else xp.concatenate([run_starts, true])
    pick = order[ends]
    target = slots[pick]
    current = arrays[0][target]
    better = values[0][pick] < current if op == "min" else values[0][pick] > current
    win = pick[better]
    target = slots[win]
    for array, offered in zip(arrays, values):
        array[target] = offered[win]
    return target


def _sum(array, slots, amounts):
    """Add every contribution; the slots that received a non-zero one changed."""
    xp = array_namespace(slots)
    xp.add.at(array, slots, amounts.astype(array.dtype, copy=False))
    return xp.unique(slots[amounts != 0])


def _function(array, slots, offers, combine):
    """Apply ``combine(current, offer)`` for each offer, at most one per
    slot at a time (so each offer is seen once)."""
    xp = array_namespace(slots)
    changed = []
    while len(slots):
        once = first_occurrence(slots)
        target = slots[once]
        before = array[target]
        after = xp.asarray(combine(before, offers[once])).astype(array.dtype, copy=False)
        array[target] = after
        changed.append(target[after != before])
        slots, offers = slots[~once], offers[~once]
    return xp.unique(xp.concatenate(changed)) if changed else slots
