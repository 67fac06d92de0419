"""The backend's graph: a NetworkX graph converted once for Frontier primitives.

Nodes are numbered ``0..n-1`` in ``G`` order (``nodes`` maps back, ``index``
forward). Besides the edge list a :class:`frontier.Graph` is built from, the
conversion keeps each node's neighbours *in NetworkX's iteration order*
(``successors``, and ``predecessors`` of a directed graph): BFS results whose
order NetworkX defines are put in that order from the depths a Frontier
primitive computes (see :mod:`.order`).

Edge weights are kept per attribute name (the ``edge_attrs`` NetworkX asks
for), together with what their Python types make NetworkX's sums: all
integers (lengths are ints), all floats, a mix, or something that is not a
finite number.

A conversion, or a build of a :class:`frontier.Graph`, that keeps a call
waiting over a second says so, phase by phase (:mod:`.long_task`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import numpy as np

import frontier as fr
from frontier import split_runs
from frontier.networkx_arcs import (
    attribute_values,
    fresh_dicts,
    key_values,
    lengths,
    mirrored_arcs,
    neighbour_positions,
    neighbours_as_ints,
    no_attributes,
    node_ids,
    plain_data,
    row_values,
    rows_in_order,
)

from . import cold_start
from .long_task import LongTask

_INTEGERS = (bool, int, np.integer)
_FLOATS = (float, np.floating)


#: Conversions of graphs of this many nodes, and builds of this many edges,
#: are watched by a timer thread that reports a long phase while it runs
#: (:class:`.long_task.LongTask`).
WATCH_FROM_SIZE = 20_000


class Declined(NotImplementedError):
    """The backend cannot reproduce NetworkX's answer for this input; NetworkX's
    dispatcher then runs the next backend (NetworkX itself when it falls back)."""


@dataclass
class Adjacency:
    """Neighbours in NetworkX's order: ``neighbors[offsets[v]:offsets[v+1]]``."""

    offsets: np.ndarray
    neighbors: np.ndarray


@dataclass
class EdgeWeights:
    """One weight attribute over ``BackendGraph.edge_src``/``edge_dst``.

    ``kind`` is ``"int"``, ``"float"`` or ``"mixed"`` (Python types, as
    NetworkX's sums would see them); ``problem`` says why the values cannot be
    used (``values`` is then ``None``).
    """

    values: np.ndarray | None
    kind: str
    problem: str | None = None


@dataclass(eq=False)
class BackendGraph:
    """A NetworkX graph converted for the ``frontier`` backend.

    Build one with :func:`convert_from_nx` (NetworkX's dispatcher does, and
    caches it in ``G.__networkx_cache__``); :func:`convert_to_nx` goes back.
    """

    __networkx_backend__ = "frontier"

    nodes: list
    directed: bool
    multigraph: bool
    successors: Adjacency
    predecessors: Adjacency
    edge_src: np.ndarray   # one entry per edge (per key of a multigraph), undirected once
    edge_dst: np.ndarray
    weights: dict[str, EdgeWeights]
    graph: dict = field(default_factory=dict)
    __networkx_cache__: dict = field(default_factory=dict, repr=False)
    _built: dict = field(default_factory=dict, repr=False)
    _index: dict | None = field(default=None, repr=False)

    @property
    def index(self) -> dict:
        """Each node's vertex id (its position in ``nodes``), built on first
        use: functions that take no node, such as PageRank, never need it."""
        if self._index is None:
            self._index = dict(zip(self.nodes, range(len(self.nodes))))
        return self._index

    # the little of NetworkX's graph API that decorators and callers use ---------------

    def is_directed(self) -> bool:
        return self.directed

    def is_multigraph(self) -> bool:
        return self.multigraph

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node) -> bool:
        try:
            return node in self.index
        except TypeError:
            return False

    def number_of_nodes(self) -> int:
        return len(self.nodes)

    def number_of_edges(self) -> int:
        return len(self.edge_src)

    # Frontier graphs ------------------------------------------------------------------

    def vertex(self, node) -> int | None:
        """The vertex id of ``node``, or None if it is not in the graph (a
        ``TypeError`` for an unhashable node, as NetworkX raises)."""
        return self.index.get(node)

    def edge_weights(self, weight: str) -> EdgeWeights:
        """The ``weight`` attribute, or :class:`Declined` when it cannot be used."""
        column = self.weights.get(weight)
        if column is None:
            raise Declined(f"the graph was converted without edge attribute {weight!r}; "
                           f"convert it with edge_attrs={{{weight!r}: 1}}")
        if column.problem is not None:
            raise Declined(column.problem)
        return column

    def device(self, passes: int = 1) -> fr.Device:
        """Where a call that passes ``passes`` times over this graph's edges
        runs now: the configured device, or while a GPU's kernels are not
        compiled yet the CPU (:func:`.cold_start.choose`, the one place the
        backend picks a device)."""
        return cold_start.choose(configured_device(), len(self.edge_src), passes)

    def source_passes(self, sources: int) -> int:
        """The ``passes`` of a betweenness run from ``sources`` sources, as
        the CPU would make them: one per source, divided among the threads
        its sources are split into (:mod:`frontier.split_runs`), so that the
        CPU answers a run its threads finish in the time of a smaller one."""
        arcs = len(self.edge_src) * (1 if self.directed else 2)
        return -(-sources // split_runs.piece_count(sources, len(self.nodes), arcs))

    def frontier_graph(self, weight: str | None = None, *, reverse: bool = False,
                       passes: int = 1) -> fr.Graph:
        """A :class:`frontier.Graph` of this graph on :meth:`device` (built
        once per weight, direction and device: the graph NetworkX caches
        serves CPU and GPU calls alike). ``weight=None`` gives one whose
        weights, if any, the caller ignores; ``reverse`` flips directed
        edges; ``passes`` is how often the caller's run passes over the
        edges (the sources of a betweenness run), for :meth:`device`."""
        device = self.device(passes)
        if weight is None:
            for (_, flipped, where), built in self._built.items():
                if flipped == reverse and where == device:
                    return built
        key = (weight, reverse, device)
        if key not in self._built:
            values = None if weight is None else self.edge_weights(weight).values
            src, dst = (self.edge_dst, self.edge_src) if reverse else (self.edge_src, self.edge_dst)
            with LongTask(f"building a frontier.Graph of {len(src)} edges on {device.name}",
                          watch=len(src) >= WATCH_FROM_SIZE):
                self._built[key] = fr.Graph.from_edges(src, dst, values, len(self.nodes),
                                                       self.directed, device=device)
        return self._built[key]

    def __repr__(self) -> str:
        kind = ("Multi" if self.multigraph else "") + ("DiGraph" if self.directed else "Graph")
        return (f"BackendGraph({kind}, {len(self.nodes)} nodes, {len(self.edge_src)} edges, "
                f"weights {sorted(self.weights)})")


def configured_device() -> str | None:
    """``nx.config.backends.frontier.device`` (None: Frontier's default device)."""
    config = nx.config.backends.get("frontier")
    return None if config is None else config.get("device")


def convert_from_nx(graph, *, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                    preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                    graph_name=None) -> BackendGraph:
    """Convert a NetworkX graph, keeping the edge attributes named by
    ``edge_attrs`` (``{name: default}``, NetworkX's dispatch convention).

    Node attributes are not kept (no function of this backend reads them);
    ``preserve_edge_attrs=True`` keeps no attributes either, since every
    function that asks for all of them takes a callable weight, which the
    backend declines.
    """
    if isinstance(graph, BackendGraph):
        return graph
    if not isinstance(graph, nx.Graph):
        raise TypeError(f"expected a NetworkX graph for {graph_name!r} of {name!r}, "
                        f"got {type(graph).__name__}")
    purpose = "" if name is None else f" for {name}"
    with LongTask(f"converting a NetworkX graph of {len(graph)} nodes{purpose}",
                  watch=len(graph) >= WATCH_FROM_SIZE) as task:
        return _convert(graph, edge_attrs, preserve_graph_attrs, task)


def _convert(graph, edge_attrs, preserve_graph_attrs: bool, task: LongTask) -> BackendGraph:
    """The body of :func:`convert_from_nx`, reporting its phases to ``task``.

    NetworkX's dicts are read with C-level iteration, no Python step per
    edge (:mod:`frontier.networkx_arcs`): one pass over the rows takes what
    each arc holds (its data dict, or a multigraph's key dict), from which
    come the weights and the neighbours of an undirected graph whose nodes
    are not the ids ``0..n-1`` (the partner arc holding the same object).
    """
    task.phase("numbering the nodes")
    nodes = list(graph)
    directed, multigraph = graph.is_directed(), graph.is_multigraph()
    task.phase("reading the adjacency")
    rows = _rows(graph._adj, nodes, multigraph)
    # What each arc holds (its data dict, or a multigraph's key dict) is
    # read for weights, parallel edges, or to pair the arcs of an undirected
    # graph's own dicts (its arc in the other direction holds the same
    # object), which gives each neighbour without a lookup. Where nothing
    # else needs the dicts, nodes that are the ids 0..n-1 read their
    # neighbours as ints instead: one pass over the neighbour objects
    # rather than over the dicts and a table of their addresses.
    ids = node_ids(nodes)
    plain = plain_data(graph)
    ints = neighbours_as_ints(graph, ids, rows, bool(edge_attrs))
    # with attributes asked for, none found (plain dicts), without keeping
    # the dicts: each kept edge has the defaults
    absent = bool(edge_attrs) and ints
    own_dicts = not directed and type(graph._adj) is dict and fresh_dicts(graph)
    pair_arcs = own_dicts and not ints
    if pair_arcs or multigraph or (edge_attrs and not absent):
        degree, held = row_values(rows)
    else:
        degree, held = lengths(rows), None
    arc_src = np.repeat(np.arange(len(nodes), dtype=np.int64), degree)
    # None where the dicts do not keep to that (a class sharing one dict).
    mirrored = mirrored_arcs(held, arc_src, rows, nodes) if pair_arcs else None
    partner, neighbors = (None, None) if mirrored is None else mirrored
    successors = _adjacency(rows, nodes, degree, neighbors, ids)
    if directed:
        task.phase("reading the predecessors")
        pred = _rows(graph._pred, nodes, multigraph)
        predecessors = _adjacency(pred, nodes, lengths(pred), ids=ids)
    else:
        predecessors = successors
    arc_dst = successors.neighbors
    # An undirected edge is in both rows (a self loop in one): keep it once.
    keep = np.ones(len(arc_dst), bool) if directed else arc_src <= arc_dst
    data = held
    if multigraph:  # one edge per key
        if edge_attrs:
            multiplicity, data = key_values(held, partner)
        else:
            multiplicity = lengths(held)
        arc_src, arc_dst = np.repeat(arc_src, multiplicity), np.repeat(arc_dst, multiplicity)
        keep = np.repeat(keep, multiplicity)
    # An undirected view of a directed graph reads (u, v) in u's row and (v, u)
    # in v's: their data can differ, and NetworkX weighs such an edge by the
    # direction it walks it in, which one weight per edge cannot reproduce.
    two_sided = not directed and type(graph._adj) is not dict
    weights = {}
    # Each edge's value once where both arcs share one data dict (NetworkX's own
    # undirected storage); a view's two arcs are read, and compared, both.
    read_once = not directed and not two_sided
    if held is not None:
        absent = bool(edge_attrs) and plain and no_attributes(data, keep if read_once else None)
    for attr, default in (edge_attrs or {}).items():
        if absent:  # (no edge at all: no value, as a list of none would give)
            count = int(np.count_nonzero(keep))
            weights[attr] = _edge_weights([default] if count else [], None, attr, count)
            continue
        task.phase(f"reading edge attribute {attr!r}")
        values = attribute_values(data, attr, default, plain, keep if read_once else None)
        weights[attr] = _edge_weights(values, None if read_once else keep, attr)
        if two_sided and _one_sided(arc_src, arc_dst, _keys(rows, multigraph), values):
            weights[attr] = EdgeWeights(None, weights[attr].kind, (
                f"edge attribute {attr!r} differs between the two directions of an edge "
                "of this undirected view"))
    return BackendGraph(nodes, directed, multigraph, successors, predecessors,
                        arc_src[keep], arc_dst[keep], weights,
                        dict(graph.graph) if preserve_graph_attrs else {})


def _rows(adjacency, nodes: list, multigraph: bool) -> list:
    """Each node's row of ``adjacency`` (``G._adj`` or ``G._pred``), a
    graph's own dict's with no lookup per node where it can
    (:func:`frontier.networkx_arcs.rows_in_order`). A view's rows are copied
    into dicts: the length
    NetworkX reports for a row of a filtered view (``edge_subgraph``,
    ``restricted_view``) can count neighbours, or keys, that its edge
    filter hides, and the conversion sizes its arrays by those lengths."""
    if type(adjacency) is dict:
        return rows_in_order(adjacency, nodes)
    rows = [adjacency[node] for node in nodes]
    if multigraph:
        return [{v: dict(keys.items()) for v, keys in row.items()} for row in rows]
    return [dict(row.items()) for row in rows]


def _keys(rows, multigraph: bool):
    """The key of every arc of a multigraph, in row order (None for a graph)."""
    if multigraph:
        return (key for row in rows for keys in row.values() for key in keys)
    return (None for row in rows for _ in row)


def _one_sided(src: np.ndarray, dst: np.ndarray, keys, values: list) -> bool:
    """Whether an undirected edge has different values on its two arcs."""
    first = {}
    for u, v, key, value in zip(src.tolist(), dst.tolist(), keys, values):
        if u != v:
            seen = first.setdefault((min(u, v), max(u, v), key), value)
            if seen is not value and seen != value:
                return True
    return False


def _adjacency(rows, nodes: list, degree: np.ndarray, neighbors: np.ndarray | None = None,
               ids=False) -> Adjacency:
    """Each row's neighbours as positions in ``nodes``, in NetworkX's order,
    with no Python step per edge (``degree``: each row's length):
    ``neighbors`` where they are known (read off the partner arcs,
    :func:`frontier.networkx_arcs.mirrored_arcs`), else looked up
    (:func:`frontier.networkx_arcs.neighbour_positions`; ``ids``: the
    nodes' :func:`~frontier.networkx_arcs.node_ids`, if known)."""
    offsets = np.zeros(len(rows) + 1, np.int64)
    np.cumsum(degree, out=offsets[1:])
    if neighbors is not None:
        return Adjacency(offsets, neighbors)
    return Adjacency(offsets, neighbour_positions(rows, int(offsets[-1]), nodes, ids))


def _edge_weights(values: list, keep: np.ndarray | None, attr: str,
                  repeat: int = 1) -> EdgeWeights:
    """Classify the values of one weight attribute, and pack those of the
    ``keep`` arcs (each edge once; all of them when ``keep`` is None).
    ``repeat``: each of ``values`` stands for that many arcs in turn (one
    default for every edge of a graph whose edges hold no attribute)."""
    kinds = set(map(type, values))
    if all(issubclass(k, _INTEGERS) for k in kinds):
        kind = "int"
    elif all(issubclass(k, _FLOATS) for k in kinds):
        kind = "float"
    elif all(issubclass(k, _INTEGERS + _FLOATS) for k in kinds):
        kind = "mixed"
    else:
        odd = next(k for k in kinds if not issubclass(k, _INTEGERS + _FLOATS))
        return EdgeWeights(None, "other",
                           f"edge attribute {attr!r} has a {odd.__name__} value, not a number")
    try:
        array = np.asarray(values, dtype=np.int64 if kind == "int" else np.float64)
        array = array if repeat == 1 else np.repeat(array, repeat)
        array = array if keep is None else array[keep]
    except OverflowError:
        return EdgeWeights(None, kind, f"edge attribute {attr!r} has an integer beyond int64")
    if kind != "int" and not np.isfinite(array).all():
        return EdgeWeights(None, kind, f"edge attribute {attr!r} has a value that is not finite")
    if kind == "int" and len(array) and np.abs(array.astype(np.float64)).sum() >= 2.0**53:
        return EdgeWeights(None, kind, f"edge attribute {attr!r}: integer path lengths could "
                           "exceed 2**53, beyond exact float64 sums")
    return EdgeWeights(array, kind)


def convert_to_nx(obj):
    """A :class:`BackendGraph` back as the NetworkX graph class it came from
    (with its kept weight attributes); anything else unchanged."""
    if not isinstance(obj, BackendGraph):
        return obj
    cls = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}
    graph = cls[(obj.directed, obj.multigraph)]()
    graph.graph.update(obj.graph)
    graph.add_nodes_from(obj.nodes)
    nodes = obj.nodes
    usable = {attr: column.values.tolist() for attr, column in obj.weights.items()
              if column.values is not None}
    for i, (u, v) in enumerate(zip(obj.edge_src.tolist(), obj.edge_dst.tolist())):
        graph.add_edge(nodes[u], nodes[v], **{attr: values[i] for attr, values in usable.items()})
    return graph


