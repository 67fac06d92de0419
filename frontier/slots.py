"""Vertex slots of a part of a graph and the caller's ids they stand for.

On one device a vertex's slot in every vertex array is its id. A
multi-device run with ``duplication="one_hop"`` gives each device a part of
the graph whose slots are its owned vertices first, then its proxies (remote
neighbours), each in increasing caller id; a :class:`SlotTable` maps between
the two numberings without an array of the whole graph's size.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .device import Device, array_namespace, to_numpy


class SlotTable:
    """The caller's id of every vertex slot of a part.

    Parameters
    ----------
    ids : int64 array
        ``ids[slot]``: the caller's vertex id held in ``slot``; slots
        ``0..num_owned-1`` are sorted, and so are the rest.
    num_owned : int
        How many slots, from the first, hold the part's owned vertices.
    """

    def __init__(self, ids, num_owned: int):
        self.ids = ids
        self.num_owned = int(num_owned)

    def __len__(self) -> int:
        return len(self.ids)

    def slot_of(self, vertices):
        """The slot of each caller id in ``vertices`` (an array), -1 where the
        vertex has no slot here."""
        xp = array_namespace(self.ids)
        vertices = xp.asarray(vertices).astype(self.ids.dtype, copy=False)
        slots = xp.full(vertices.shape, -1, dtype=np.int64)
        for start, stop in ((0, self.num_owned), (self.num_owned, len(self.ids))):
            if stop == start:
                continue
            run = self.ids[start:stop]
            position = xp.minimum(xp.searchsorted(run, vertices), len(run) - 1)
            slots = xp.where(run[position] == vertices, position + start, slots)
        return slots

    def to(self, device: Device) -> SlotTable:
        """This table with its ids on ``device``."""
        return SlotTable(device.asarray(to_numpy(self.ids)), self.num_owned)


def for_graph(functor, graph):
    """``functor`` ready to run on ``graph``: a built-in functor that stores
    vertex ids (it has a ``vertex_slots`` field) gets the graph's slot table
    when the graph is a part of a larger one."""
    if graph.vertex_slots is not None and dataclasses.is_dataclass(functor) \
            and getattr(functor, "vertex_slots", False) is None:
        return dataclasses.replace(functor, vertex_slots=graph.vertex_slots)
    return functor
