"""What a primitive sees of the whole graph from one device's part.

The multi-device counterpart of :class:`frontier.primitive.WholeGraph`:
global counts, reductions through the communicator, and the translation
between this part's vertex slots and the caller's vertex ids.
"""

from __future__ import annotations

import numpy as np

from ..device import array_namespace, to_numpy
from ..graph import index_dtype
from ..kernels.fill import fill
from ..kernels.masked import masked_sum
from ..primitive import same_slots


def _scalar(value):
    """A Python scalar from a Python, NumPy or 0-d CuPy value."""
    return value.item() if hasattr(value, "item") else value


class PartView:
    """The whole graph as seen from ``part`` (placed on its device)."""

    def __init__(self, part, communicator, num_vertices: int, num_arcs: int):
        self.part = part
        self.comm = communicator
        self.num_vertices = num_vertices
        self.num_arcs = num_arcs
        self._ids = None
        self._prepaid = None  # (this device's value, the sum) of the next reduce
        self.refilled = None  # told of each refill (the boundary's, a weak method)

    @property
    def _table(self):
        return self.part.graph.vertex_slots

    def vertex_ids(self):
        if self._ids is None:
            xp, n = self.part.graph.xp, self.num_vertices
            ids = xp.arange(n) if self._table is None else self._table.ids
            self._ids = ids.astype(index_dtype(n), copy=False)
        return self._ids

    def slot_of(self, vertices):
        xp = self.part.graph.xp
        if self._table is None:
            return xp.asarray(vertices)
        return self._table.slot_of(vertices)

    def local_slots(self, vertices: list):
        """The slots of those of ``vertices`` (caller ids) that have one here."""
        if self._table is None:  # every vertex has its slot here, its id
            return same_slots(self.part.graph, vertices, self.num_vertices)
        slots = self.slot_of(self.part.graph.xp.asarray(vertices, dtype=np.int64))
        return slots[slots >= 0]

    def per_vertex(self, values):
        device = self.part.graph.device
        if self._table is None:
            return device.asarray(values)
        return device.asarray(np.asarray(to_numpy(values))[to_numpy(self._table.ids)])

    def refill(self, array, value, touched) -> None:
        """Every slot, whatever ``touched``: a fill the same on every device."""
        fill(array, value)
        told = self.refilled() if self.refilled is not None else None
        if told is not None:
            told(array, value)

    def prepay(self, value: int, total: int) -> None:
        """The next :meth:`reduce` is ``reduce(value, "sum")`` on every
        device (the default ``converged`` of the frontier the boundary just
        made), and the boundary already summed it: ``total``."""
        self._prepaid = (value, total)

    def reduce(self, value, op: str):
        value = _scalar(value)
        if self._prepaid is not None:
            (expected, total), self._prepaid = self._prepaid, None
            if op != "sum" or value != expected:
                raise RuntimeError(
                    f"the reduction after a boundary was announced as sum({expected}), "
                    f"got {op}({value})")
            return total
        return self.comm.allreduce(value, op)

    def reduce_each(self, values, op: str) -> list:
        """Each of ``values`` combined with ``op``, in one collective."""
        values = [_scalar(value) for value in values]
        if self._prepaid is not None:
            raise RuntimeError(f"the reduction after a boundary was announced as "
                               f"sum({self._prepaid[0]}), got {op} of {len(values)} values")
        return list(self.comm.allreduce_each(values, [op] * len(values)))

    def vertex_sum(self, values):
        return self.comm.allreduce(_scalar(masked_sum(values, self.part.is_owned)), "sum")

    def vertex_sums(self, arrays) -> list:
        """Each array's sum over the owned slots, summed over the devices in
        one collective."""
        totals = _host_scalars([masked_sum(values, self.part.is_owned) for values in arrays])
        return list(self.comm.allreduce_each(totals, ["sum"] * len(totals)))


def _host_scalars(totals: list) -> list:
    """Python scalars of ``totals`` (NumPy scalars, or 0-d device arrays):
    where they are device arrays of one dtype, in one device read (a read
    each otherwise; stacking mixed dtypes would round large integers)."""
    if len(totals) > 1 and all(array_namespace(total) is not np for total in totals) \
            and len({total.dtype for total in totals}) == 1:
        return array_namespace(totals[0]).stack(totals).get().tolist()
    return [_scalar(total) for total in totals]
