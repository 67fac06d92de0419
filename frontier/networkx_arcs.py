"""A NetworkX graph's nodes and edges as arrays, for :meth:`Graph.from_networkx`.

NetworkX keeps a graph as dicts of dicts: node -> neighbour -> edge data,
with one more level (edge key -> edge data) in a multigraph. Every pass
below walks those dicts with ``map``, ``itertools.chain`` and
``operator.methodcaller``, which iterate in C: no Python bytecode runs per
edge, only per call. A neighbour is usually the very object that is its
node's key, so its vertex id is found by its address (``id``) in a sorted
array of the nodes' addresses, without hashing it; the others (an equal
but distinct object, such as a large int built twice) are looked up by
value. (NetworkX's own ``to_scipy_sparse_array`` runs a generator per
edge, and sums parallel edges, which Frontier keeps apart.)
"""

from __future__ import annotations

import ctypes
from itertools import chain, compress, repeat
from operator import itemgetter, methodcaller

import numpy as np

_VALUES = methodcaller("values")


def node_ids(nodes: list) -> np.ndarray | None:
    """The nodes as an int64 array when they are exactly the integers
    ``0 .. n-1`` in some order (Python or NumPy integers, not bools), else
    ``None``: such nodes are their own vertex ids."""
    if not all(map(isinstance, nodes, repeat((int, np.integer)))) \
            or any(map(isinstance, nodes, repeat(bool))):
        return None
    try:
        ids = np.fromiter(nodes, np.int64, len(nodes))
    except OverflowError:  # beyond int64, so not an id
        return None
    # Nodes are distinct, so n of them inside 0..n-1 are all of 0..n-1.
    if len(ids) and (ids.min() < 0 or ids.max() >= len(ids)):
        return None
    return ids


def networkx_arcs(graph, weight: str | None):
    """The nodes and edges of the NetworkX ``graph`` as :meth:`Graph.from_edges` takes them.

    Returns
    -------
    labels : list or None
        ``None`` when the nodes are the integers ``0 .. n-1`` (node ``k`` is
        vertex ``k``); otherwise the nodes in ``graph.nodes`` order (vertex
        ``i`` is ``labels[i]``).
    src, dst : int64 arrays
        One entry per edge: each edge of a multigraph apart (parallel edges
        kept), an undirected edge once, a self loop once. ``src`` is
        nondecreasing.
    weights : array or None
        With ``weight`` set and at least one edge, each edge's ``weight``
        attribute, 1 where it has none (NetworkX's default): int64 when
        every value is an integer, else float64.

    Raises
    ------
    TypeError
        If ``graph`` is not a NetworkX graph.
    ValueError
        If a weight is a value that NumPy cannot read as a number (a string
        such as ``"2.5"`` reads as 2.5).
    """
    import networkx as nx

    if not isinstance(graph, nx.Graph):
        raise TypeError(f"expected a NetworkX graph, got {type(graph).__name__}")
    nodes = list(graph)
    ids = node_ids(nodes)
    labels = None if ids is not None else nodes
    rows = _rows(graph, labels is None)
    degree = np.fromiter(map(len, rows), np.int64, len(rows))
    count = int(degree.sum())
    src = np.repeat(np.arange(len(rows), dtype=np.int64), degree)
    dst = np.fromiter(chain.from_iterable(rows), np.int64, count) if labels is None \
        else neighbour_positions(rows, count, nodes)
    edges = rows  # the dicts whose values are the edges' data dicts
    if graph.is_multigraph():
        edges = list(chain.from_iterable(map(_VALUES, rows)))  # neighbour -> key -> data
        parallel = np.fromiter(map(len, edges), np.int64, len(edges))
        src, dst = np.repeat(src, parallel), np.repeat(dst, parallel)
    once = None
    if not graph.is_directed():
        # An undirected edge is in the rows of both its ends, a self loop in
        # one. Keep it in the row of the end first in node order, as
        # graph.edges() gives it (the undirected view of a directed graph
        # may hold different data in the two rows).
        if ids is None:
            once = src <= dst
        else:
            position = _node_order(ids)
            once = position[src] <= position[dst]
        src, dst = src[once], dst[once]
        once = once.tolist()
    weights = None
    if weight is not None and len(src):
        def edge_data():
            data = chain.from_iterable(map(_VALUES, edges))
            return data if once is None else compress(data, once)

        weights = np.asarray(_weights(edge_data, weight))
        if weights.dtype == object or weights.dtype.kind not in "iuf":
            try:
                weights = weights.astype(np.float64)
            except (TypeError, ValueError) as error:
                raise ValueError(f"edge attribute {weight!r} must hold numbers: {error}") \
                    from error
    return labels, src, dst, weights


def _node_order(ids: np.ndarray) -> np.ndarray:
    """The position of each vertex id in node order (``ids`` in that order)."""
    order = np.empty_like(ids)
    order[ids] = np.arange(len(ids))
    return order


def _rows(graph, by_id: bool) -> list:
    """The graph's adjacency rows (dicts: neighbour -> edge data, or a
    multigraph's key -> edge data) in vertex order: node order, or the
    order of the ids 0..n-1 with ``by_id``.

    A graph's own dicts are read as they are (``graph._adj``, not
    ``graph.adj``, whose rows wrap each row in Python code run per edge). A
    view's filtered rows are copied into dicts first, a Python step per
    edge: their lengths need not match what they yield (a multigraph's
    edge subgraph).
    """
    adjacency = graph._adj
    rows = adjacency.values() if not by_id else map(adjacency.__getitem__, range(len(graph)))
    if isinstance(adjacency, dict):
        return list(rows)
    if graph.is_multigraph():
        return [{v: dict(keys) for v, keys in row.items() if keys} for row in rows]
    return [dict(row) for row in rows]


def neighbour_positions(rows, count: int, nodes: list) -> np.ndarray:
    """The position in ``nodes`` of each of the ``count`` neighbours that
    the adjacency ``rows`` hold (NetworkX's dicts keyed by neighbour), in
    row order: ``[index[v] for row in rows for v in row]`` with ``index``
    the position of each node, without a Python step per neighbour.

    A neighbour that is the node object itself is found by its address;
    each other one (equal to a node, not the same object) by a dict lookup.
    Nodes and neighbours are alive throughout, so equal addresses are the
    same object.

    Raises
    ------
    ValueError
        If the rows hold fewer than ``count`` neighbours.
    KeyError
        If a neighbour is not one of ``nodes``.
    """
    neighbours = np.fromiter(chain.from_iterable(rows), object, count)
    positions, found = _AddressIndex(nodes).find(_addresses(neighbours))
    if not found.all():
        index = dict(zip(nodes, range(len(nodes))))
        missing = ~found
        positions[missing] = np.fromiter(map(index.__getitem__, neighbours[missing]),
                                         np.int64, int(np.count_nonzero(missing)))
    return positions


def _addresses(objects: np.ndarray) -> np.ndarray:
    """The address of each object of an object array (what ``id`` gives),
    read from the array's buffer of pointers rather than one ``id`` call
    (and one Python int) per object."""
    if not len(objects):
        return np.zeros(0, np.uintp)
    pointers = (ctypes.c_size_t * len(objects)).from_address(objects.ctypes.data)
    return np.ctypeslib.as_array(pointers).view(np.uintp).copy()


class _AddressIndex:
    """Positions of objects by address: a table indexed by the address's
    offset from the lowest (in units of the alignment all the addresses
    share) when the nodes' addresses span few enough units, else a binary
    search in the sorted addresses."""

    #: the most table entries: TABLE_BASE + TABLE_PER_NODE per node
    TABLE_BASE = 1 << 20
    TABLE_PER_NODE = 64

    def __init__(self, nodes: list):
        objects = np.fromiter(nodes, object, len(nodes))
        self.addresses = _addresses(objects)
        self.low = int(self.addresses.min()) if len(nodes) else 0
        offsets = self.addresses - np.uintp(self.low)
        spread = int(np.bitwise_or.reduce(offsets)) if len(nodes) else 0
        self.shift = (spread & -spread).bit_length() - 1 if spread else 0
        span = (spread >> self.shift) + 1  # an upper bound of the highest unit + 1
        self.table = None
        if span <= self.TABLE_BASE + self.TABLE_PER_NODE * len(nodes):
            self.table = np.full(int((offsets >> np.uintp(self.shift)).max(initial=0)) + 1,
                                 -1, np.int64)
            self.table[offsets >> np.uintp(self.shift)] = np.arange(len(nodes))
        else:
            self.order = np.argsort(self.addresses)
            self.sorted = self.addresses[self.order]

    def find(self, wanted: np.ndarray):
        """The position of each address in ``wanted`` among the nodes', and
        whether it is there at all (positions are 0 where it is not)."""
        if not len(self.addresses):
            return np.zeros(len(wanted), np.int64), np.zeros(len(wanted), bool)
        if self.table is not None:
            units = (wanted - np.uintp(self.low)) >> np.uintp(self.shift)  # wraps below low
            inside = (wanted >= np.uintp(self.low)) & (units < len(self.table))
            positions = self.table[np.where(inside, units, 0)]
            positions[~inside] = -1
        else:
            at = np.minimum(np.searchsorted(self.sorted, wanted), len(self.sorted) - 1)
            positions = self.order[at]
        found = (positions >= 0) & (self.addresses[np.maximum(positions, 0)] == wanted)
        positions[~found] = 0
        return positions, found


def _weights(edge_data, weight: str) -> list:
    """Each edge's ``weight`` attribute, 1 where it has none, from the
    edges' data dicts that each call of ``edge_data`` yields."""
    try:  # a third faster than dict.get, when every edge has the attribute
        return list(map(itemgetter(weight), edge_data()))
    except KeyError:
        return list(map(methodcaller("get", weight, 1), edge_data()))
