"""Frontiers: the set of active vertices of one iteration.

A frontier is stored either sparse (an array of vertex ids) or dense (one
boolean per vertex). Operators accept both and ask for the form they need
through :attr:`Frontier.ids` and :attr:`Frontier.mask`; the conversion is done
once and cached. A sparse frontier may hold a vertex more than once (an
advance's raw output does); :meth:`Frontier.unique` removes repeats.
"""

from __future__ import annotations

import numpy as np

from .device import Device, array_namespace, device_of, get_device
from .graph import index_dtype
from .kernels import compact
from .kernels.fill import fill

#: A device array of at most this many ids is checked on the host (one copy).
FEW_IDS = 64
SPARSE = "sparse"
DENSE = "dense"


class Frontier:
    """A set of active vertices out of ``num_vertices``.

    Create one with :meth:`from_ids`, :meth:`from_mask`, :meth:`empty` or
    :meth:`all`.
    """

    __slots__ = ("num_vertices", "device", "_kind", "_ids", "_mask", "_size", "_distinct")

    def __init__(self, num_vertices: int, device: Device, ids=None, mask=None, *,
                 distinct: bool = False):
        """Low-level constructor (the classmethods check their input, this does
        not). ``distinct=True`` promises that ``ids`` has no repeats, as the
        output of a claiming kernel has, so :meth:`unique` can skip its sort."""
        if (ids is None) == (mask is None):
            raise ValueError("a Frontier needs exactly one of ids= or mask=")
        self.num_vertices = int(num_vertices)
        self.device = device
        # The form it was created in; the other form may be cached alongside.
        self._kind = SPARSE if ids is not None else DENSE
        self._ids = ids
        self._mask = mask
        self._size = None
        self._distinct = distinct or mask is not None

    # construction -------------------------------------------------------------------

    @classmethod
    def from_ids(cls, ids, num_vertices: int, device=None) -> Frontier:
        """A sparse frontier holding the vertex ids ``ids`` (any int array or list).

        Raises ValueError for an id outside ``[0, num_vertices)``.
        """
        on_host = array_namespace(ids) is np  # a list, a range, a NumPy array
        dev = get_device(device) if device is not None or not hasattr(ids, "dtype") \
            else device_of(ids)
        if on_host:  # checked before the copy, so a GPU frontier costs no read
            ids = np.asarray(ids)
        if ids.ndim != 1:
            ids = ids.reshape(-1)
        if len(ids) == 0 and ids.dtype.kind not in "iu":
            # An empty list arrives as float64, which cannot index the mask.
            ids = ids.astype(np.int64)
        _check_ids(ids, num_vertices)
        return cls(num_vertices, dev, ids=dev.asarray(ids) if on_host else ids)

    @classmethod
    def from_mask(cls, mask, device=None) -> Frontier:
        """A dense frontier: vertex ``v`` is active where ``mask[v]`` is true."""
        dev = device_of(mask) if device is None else get_device(device)
        mask = dev.asarray(mask, dtype=bool)
        return cls(len(mask), dev, mask=mask)

    @classmethod
    def empty(cls, num_vertices: int, device=None) -> Frontier:
        """A frontier with no vertex."""
        dev = get_device(device)
        return cls(num_vertices, dev, ids=dev.xp.zeros(0, dtype=np.int64))

    @classmethod
    def all(cls, num_vertices: int, device=None) -> Frontier:
        """A dense frontier holding every vertex."""
        dev = get_device(device)
        mask = dev.xp.empty(num_vertices, dtype=bool)
        fill(mask, True)
        frontier = cls(num_vertices, dev, mask=mask)
        frontier._size = int(num_vertices)
        return frontier

    # views --------------------------------------------------------------------------

    @property
    def xp(self):
        return self.device.xp

    @property
    def kind(self) -> str:
        """``"sparse"`` or ``"dense"``: how the frontier was created."""
        return self._kind

    @property
    def ids(self):
        """Active vertex ids (sorted, int32 below 2^31 vertices, when converted
        from the dense form; with no device read where the size is known)."""
        if self._ids is None:
            self._ids = compact.flatnonzero(self._mask, index_dtype(self.num_vertices),
                                            self._size)
        return self._ids

    @property
    def mask(self):
        """One boolean per vertex, true for active vertices."""
        if self._mask is None:
            mask = self.xp.zeros(self.num_vertices, dtype=bool)
            mask[self._ids] = True
            self._mask = mask
        return self._mask

    @property
    def size(self) -> int:
        """Number of entries: ids (with repeats) if sparse, active vertices if dense.

        Reading it costs one scalar device-to-host copy for a dense frontier:
        on a GPU that of converting it to ids (:attr:`ids`), which the next
        step nearly always needs, so the mask is scanned and read once.
        """
        if self._size is None:
            if self.kind == SPARSE:
                self._size = len(self._ids)
            elif self.xp is np:
                self._size = int(np.count_nonzero(self._mask))
            else:
                self._size = len(self.ids)
        return self._size

    def __len__(self) -> int:
        return self.size

    def is_empty(self) -> bool:
        return self.size == 0

    @property
    def distinct(self) -> bool:
        """Whether the ids are known to hold no repeats (a dense frontier's,
        a claiming kernel's output, :meth:`unique`'s, or a filter of those)."""
        return self._distinct

    def unique(self) -> Frontier:
        """The same set without repeated ids."""
        if self.kind == DENSE or self._distinct:
            return self
        if self.size > self.num_vertices // 64:
            return Frontier(self.num_vertices, self.device, mask=self.mask)
        return Frontier(self.num_vertices, self.device, ids=self.xp.unique(self._ids),
                        distinct=True)

    def joined(self, other: Frontier, *, disjoint: bool = False) -> Frontier:
        """A sparse frontier of this one's ids followed by ``other``'s (of
        the same graph and device). A vertex in both is listed twice unless
        ``disjoint`` promises that none is: the result is then
        :attr:`distinct` where both are (two BFS levels)."""
        if other.num_vertices != self.num_vertices or other.device != self.device:
            raise ValueError(f"joining a frontier of {self.num_vertices} vertices on "
                             f"{self.device} and one of {other.num_vertices} on {other.device}")
        return Frontier(self.num_vertices, self.device,
                        ids=self.xp.concatenate([self.ids, other.ids.astype(self.ids.dtype,
                                                                          copy=False)]),
                        distinct=disjoint and self.distinct and other.distinct)

    def to_dense(self) -> Frontier:
        return self if self.kind == DENSE else \
            Frontier(self.num_vertices, self.device, mask=self.mask)

    def to_sparse(self) -> Frontier:
        return self if self.kind == SPARSE else \
            Frontier(self.num_vertices, self.device, ids=self.ids)

    def __repr__(self) -> str:
        return f"Frontier({self.kind}, size={self.size}, of {self.num_vertices} vertices)"


def as_frontier(value, num_vertices: int, device: Device) -> Frontier:
    """Accept a Frontier, an id array/list, or a boolean mask, as operators do.

    Raises ValueError for a Frontier or mask sized for another vertex count.
    """
    if isinstance(value, Frontier):
        frontier = value
    elif hasattr(value, "dtype") and value.dtype == bool:
        frontier = Frontier.from_mask(value, device)
    else:
        return Frontier.from_ids(value, num_vertices, device)
    if frontier.num_vertices != num_vertices:
        raise ValueError(f"frontier of {frontier.num_vertices} vertices given for a graph "
                         f"of {num_vertices} vertices")
    return frontier


def _check_ids(ids, num_vertices: int) -> None:
    """ValueError unless ``ids`` (a 1-d array) holds integers in
    ``[0, num_vertices)``. A device array's extremes (or, for at most
    :data:`FEW_IDS` ids, the ids) come back in one read."""
    if len(ids) == 0:
        return
    if ids.dtype.kind not in "iu":
        raise ValueError(f"frontier ids must be integers, got dtype {ids.dtype}")
    if isinstance(ids, np.ndarray):
        low, high = int(ids.min()), int(ids.max())
    elif len(ids) <= FEW_IDS:
        host = ids.get()
        low, high = int(host.min()), int(host.max())
    else:
        low, high = (int(x) for x in array_namespace(ids).stack((ids.min(), ids.max())).get())
    if low < 0 or high >= num_vertices:
        bad = low if low < 0 else high
        raise ValueError(f"vertex {bad} is out of range for {num_vertices} vertices")
