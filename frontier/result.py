"""Result objects: named arrays plus run statistics."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from .device import to_numpy


@dataclasses.dataclass
class Result:
    """Base of every primitive's result: a dataclass whose fields are arrays.

    After a run, ``iterations`` holds the number of enactor iterations,
    ``elapsed_s`` the wall time of the run (device work included) and
    ``setup_s`` the part of it spent before the first iteration (allocating
    and initialising the primitive's data). ``devices`` names the devices it
    ran on; a multi-device run also sets ``partition`` (the partition's
    metrics, :meth:`partition.Partition.to_dict`), ``exchanged_bytes`` (bytes
    sent between devices), ``exchange_s`` (time spent exchanging, summed
    over devices) and ``part_bytes`` (the most bytes one part held on its
    device at the end: its graph, slot tables and the primitive's and the
    boundary's arrays; :func:`frontier.multi.enactor.part_bytes`).
    ``node_labels`` are the graph's (``None``: vertex ``k`` is the caller's
    node ``k``), for :meth:`to_dict`. ``replayed_levels``
    counts the iterations a replayable step ran without a host round trip
    of their own, ``replayed_steps`` the steps that ran on past one level
    (:mod:`frontier.replay`). A run split over a list of independent items
    on the CPU's cores (:mod:`frontier.split_runs`) sets ``pieces``, the
    runs it was split into. Other non-field
    attributes a subclass sets (DOBFS's ``directions``) travel with the
    result too.
    """

    #: the fields whose values are vertex ids (a predecessor, a component's
    #: smallest vertex), which :meth:`to_dict` gives as nodes
    vertex_fields: ClassVar[tuple[str, ...]] = ()
    #: the fields with one entry per arc of the graph the primitive ran on
    #: (its CSR order), not per vertex. On several devices each part's field
    #: has an entry per arc of the part; the arcs that leave the part's owned
    #: vertices are the ones kept (an owned vertex's row holds all its
    #: out-arcs), placed in the whole graph's order
    #: (:func:`frontier.multi.enactor.gather_result`)
    arc_fields: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self):
        self.iterations = 0
        self.elapsed_s = 0.0
        self.setup_s = 0.0
        self.devices: tuple[str, ...] = ()
        self.partition: dict | None = None
        self.exchanged_bytes = 0
        self.exchange_s = 0.0
        self.node_labels: list | None = None
        self.replayed_levels = 0
        self.replayed_steps = 0

    def arrays(self) -> dict:
        """The result's arrays by field name."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    def to_numpy(self) -> Result:
        """A copy of this result with every array on the host (NumPy)."""
        host = dataclasses.replace(self, **{k: to_numpy(v) for k, v in self.arrays().items()})
        fields = {field.name for field in dataclasses.fields(self)}
        host.__dict__.update({k: v for k, v in self.__dict__.items() if k not in fields})
        return host

    def to_dict(self, name: str) -> dict:
        """The result array ``name`` keyed by node, as NetworkX gives results.

        The keys are the caller's nodes, in vertex order: the graph's
        ``node_labels`` when it has them, else the vertex ids ``0 .. n-1``.
        Values are Python numbers, except in the fields the result names in
        ``vertex_fields`` (a predecessor, a component label), whose vertex
        ids become nodes too, and -1 (no vertex) ``None``.

        Raises
        ------
        ValueError
            If ``name`` is not one of the result's arrays, or holds a
            different number of entries than the graph has nodes.

        Examples
        --------
        >>> import networkx as nx
        >>> import frontier as fr
        >>> from primitives import bfs
        >>> G = fr.Graph.from_networkx(nx.path_graph(["a", "b", "c"]), device="cpu")
        >>> r = bfs(G, source="b")
        >>> r.to_dict("depth"), r.to_dict("predecessor")
        ({'a': 1, 'b': 0, 'c': 1}, {'a': 'b', 'b': None, 'c': 'b'})
        """
        arrays = self.arrays()
        if name not in arrays:
            raise ValueError(f"{type(self).__name__} has no array {name!r}: it has "
                             f"{sorted(arrays)}")
        values = to_numpy(arrays[name]).tolist()
        nodes = range(len(values)) if self.node_labels is None else self.node_labels
        if len(values) != len(nodes):
            raise ValueError(f"{name!r} has {len(values)} entries, not one for each of the "
                             f"{len(nodes)} nodes")
        if name in self.vertex_fields:
            values = [None if vertex < 0 else nodes[vertex] for vertex in values]
        return dict(zip(nodes, values))
