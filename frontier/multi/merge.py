"""Merging offers into owned vertex data, one rule per combiner.

Each function takes the owner's arrays, the slots the offers are for
(repeats allowed: several devices may offer for one vertex), the offered
values and a mask over the slots; it updates the arrays in place and sets
the mask where a value changed. On GPUs ``"min"``, ``"max"``,
``"earliest"`` and ``"sum"`` data merge without a device read
(:mod:`frontier.kernels.merge`); the NumPy code below is the reference
they are tested against.
"""

from __future__ import annotations

import numpy as np

from ..device import array_namespace
from ..graph import index_dtype
from ..kernels import compact
from ..kernels import merge as gpu_merge
from ..operators.updates import first_occurrence


def merge(shared, arrays: list, slots, values: list, changed) -> None:
    """Merge offers for one declared array (``arrays[0]``) and its followers
    (``arrays[1:]``), by ``shared.combine``; ``changed[s]`` becomes true for
    every slot ``s`` whose value changed."""
    if len(slots) == 0:
        return
    gpu = array_namespace(slots) is not np
    combine = shared.combine
    if combine == "earliest":
        # -1 (all bits set) is the largest unsigned value: the unsigned minimum
        arrays = [as_unsigned(arrays[0], shared.name), *arrays[1:]]
        values = [as_unsigned(values[0], shared.name), *values[1:]]
        combine = "min"
    if combine in ("min", "max"):
        if gpu and gpu_merge.fits(arrays, slots, values, shared.combine == "earliest"):
            gpu_merge.merge_extreme(arrays, slots, values, combine == "max", changed)
        else:
            changed[_extreme(arrays, slots, values, combine)] = True
    elif combine == "sum":
        _sum(arrays[0], slots, values[0], changed)
    else:
        changed[_function(arrays[0], slots, values[0], shared.combine)] = True


def as_unsigned(array, name: str = "array"):
    """A signed integer ``array`` viewed as unsigned integers of its size:
    the order of ``"earliest"``, in which a negative value (unset, -1) comes
    after every other.

    Raises
    ------
    TypeError
        If ``array`` does not hold signed integers.
    """
    if array.dtype.kind != "i":
        raise TypeError(f"{name!r} is combined by 'earliest', which needs signed integers "
                        f"(-1 for unset), not {array.dtype}")
    return array.view(np.dtype(f"u{array.dtype.itemsize}"))


def _extreme(arrays, slots, values, op: str):
    """Keep the smallest (largest) offer per slot if it beats the owner's
    value; followers take their values from one winning offer. No sorting:
    an exact atomic min (max) per offer, then a ticket per slot picks one
    winner among equal offers."""
    xp = array_namespace(slots)
    array, offered = arrays[0], values[0]
    beats = compact.flatnonzero(offered < array[slots] if op == "min" else offered > array[slots])
    target, offered = slots[beats], offered[beats]
    _scatter_extreme(array, target, offered, op)
    won = compact.flatnonzero(array[target] == offered)
    if len(arrays) > 1 and len(won):
        ticket = xp.empty(len(array), dtype=index_dtype(len(won)))
        ticket[target[won]] = won  # one of the equal offers per slot stays
        won = won[compact.flatnonzero(ticket[target[won]] == won)]
        for follower, follower_offers in zip(arrays[1:], values[1:]):
            follower[target[won]] = follower_offers[beats[won]]
    return target[won]


def _scatter_extreme(array, slots, values, op: str) -> None:
    """``array[slots] = min(array[slots], values)`` (or max), repeats included,
    exactly on NumPy and CuPy."""
    if array_namespace(array) is np:
        (np.minimum if op == "min" else np.maximum).at(array, slots, values)
        return
    from ..operators.fused import scatter_extreme

    scatter_extreme(array, slots, values, larger=op == "max")


def _sum(array, slots, amounts, changed) -> None:
    """Add every contribution; the slots that received a non-zero one changed."""
    xp = array_namespace(slots)
    amounts = amounts.astype(array.dtype, copy=False)
    xp.add.at(array, slots, amounts)
    if xp is not np and gpu_merge.fits([array], slots, [amounts]):
        gpu_merge.mark_nonzero(changed, slots, amounts)
    else:
        changed[slots[amounts != 0]] = True


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
