"""What one exchange message says, and how it says it in the fewest bytes.

Two devices that talk share aligned slot lists (:mod:`frontier.multi.routes`):
entry ``k`` of the sender's list and entry ``k`` of the receiver's name the
same vertex. A message about some entries of such a list is a *selector*
followed by one value array per declared array, and the selector is the
smallest of

* **positions**: the changed entries' positions in the list (int32 for
  lists under 2^31 entries): ``c * (4 + v)`` bytes for ``c`` changed
  entries of ``v`` bytes each;
* **bitmap**: one bit per list entry: ``n / 8 + c * v`` bytes for a list of
  ``n``, smaller once more than 1 entry in 32 changed;
* **dense**: no selector (an empty bool array), values for every entry:
  ``n * v`` bytes, for lists where nearly everything changed (refreshes
  only: an offer is merged, and unchanged offers would only be rejected).

The receiver tells them apart by the selector's dtype (bool, uint8, or an
integer type), so no header and no device read is needed.
"""

from __future__ import annotations

import numpy as np

from ..device import array_namespace
from ..graph import index_dtype
from ..kernels import changes, compact


def differs(array, snapshot):
    """``array != snapshot`` element-wise, with NaN equal to NaN."""
    changed = array != snapshot
    if array.dtype.kind == "f":
        changed &= ~(array != array)
    return changed


def changed(slots, arrays: list, snapshots: list):
    """Mask over ``slots``: where any of ``arrays`` differs from its snapshot."""
    xp = array_namespace(slots)
    if xp is not np and changes.fits(arrays):
        return changes.changed_mask(slots, arrays, snapshots)
    mask = differs(arrays[0][slots], snapshots[0][slots])
    for array, snapshot in zip(arrays[1:], snapshots[1:]):
        mask |= differs(array[slots], snapshot[slots])
    return mask


def select(mask, item_bytes: int, dense: bool):
    """``(selector, positions)`` of the cheapest message about the entries
    where ``mask`` is true, or None if there are none. ``positions`` is None
    for a dense message (every entry), which only ``dense=True`` allows.
    One device read: the number of positions (:mod:`frontier.kernels.compact`)."""
    xp = array_namespace(mask)
    length = len(mask)
    position_type = np.dtype(index_dtype(length))
    positions = compact.flatnonzero(mask, position_type)
    count = len(positions)
    if count == 0:
        return None
    sizes = {"positions": count * (position_type.itemsize + item_bytes),
             "bitmap": -(-length // 8) + count * item_bytes}
    if dense and length * item_bytes < min(sizes.values()):
        return xp.empty(0, dtype=bool), None
    if sizes["bitmap"] < sizes["positions"]:
        return xp.packbits(mask), positions
    return positions, positions


def positions_of(selector, length: int, count: int):
    """The list positions a received selector names (None: all ``length``);
    ``count``, the number of values that came with it, spares a device read."""
    if selector.dtype == np.bool_:
        return None
    if selector.dtype == np.uint8:
        return compact.bit_positions(selector, length, count=count)
    return selector


def nothing(xp, count: int) -> list:
    """A message part that names no entry, with ``count`` empty value arrays."""
    return [xp.empty(0, dtype=np.int32)] + [xp.empty(0, dtype=np.int8)] * count
