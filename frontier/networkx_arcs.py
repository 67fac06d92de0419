"""A NetworkX graph's nodes and edges as arrays, for :meth:`Graph.from_networkx`.

NetworkX keeps a graph as dicts of dicts: node -> neighbour -> edge data,
with one more level (edge key -> edge data) in a multigraph. Every pass
below walks those dicts with ``map``, ``itertools.chain`` and
``operator.methodcaller``, which iterate in C: no Python bytecode runs per
edge, only per call. Neighbours are not hashed either
(:mod:`frontier.object_addresses`): in an undirected graph's own dicts an
arc's neighbour is the row of the other arc that holds the same edge data
object; elsewhere a neighbour is usually the very object that is its
node's key, found by its address, and only the others (an equal but
distinct object, such as a large int built twice) are looked up by value.
(NetworkX's own ``to_scipy_sparse_array`` runs a generator per edge, and
sums parallel edges, which Frontier keeps apart.)
"""

from __future__ import annotations

from itertools import chain, repeat
from operator import is_, itemgetter, methodcaller

import numpy as np

from .object_addresses import AddressIndex, addresses, partners

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
    """The nodes and edges of the NetworkX ``graph`` as arrays of arcs.

    Returns
    -------
    labels : list or None
        ``None`` when the nodes are the integers ``0 .. n-1`` (node ``k`` is
        vertex ``k``); otherwise the nodes in ``graph.nodes`` order (vertex
        ``i`` is ``labels[i]``).
    src, dst : int64 arrays
        One entry per arc: each edge of a multigraph apart (parallel edges
        kept), a self loop once. ``src`` is nondecreasing.
    weights : array or None
        With ``weight`` set and at least one arc, each arc's ``weight``
        attribute, 1 where it has none (NetworkX's default): int64 when
        every value is an integer, else float64.
    both_directions : bool
        For an undirected graph, whether each edge other than a self loop
        is there in both directions (the arcs a :class:`Graph` stores, read
        off an undirected graph's own dicts) or once, as
        :meth:`Graph.from_edges` takes it (from a view, or a graph whose
        edges share data dicts).

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
    rows = _rows(graph, nodes, labels is None)
    own_dicts = isinstance(graph._adj, dict) and fresh_dicts(graph)
    if (graph.is_directed() or own_dicts) and neighbours_as_ints(graph, ids, rows,
                                                                 weight is not None):
        # Nodes that are ids, and no edge data to read: the neighbours as
        # ints, each undirected edge in the rows of both its ends (a self
        # loop in one), as the graph's own dicts hold it.
        degree = lengths(rows)
        src = np.repeat(np.arange(len(rows), dtype=np.int64), degree)
        dst = np.fromiter(chain.from_iterable(rows), np.int64, len(src))
        weights = None if weight is None or not len(src) else np.ones(len(src), np.int64)
        return labels, src, dst, weights, not graph.is_directed()
    degree, values = row_values(rows)
    count = len(values)
    src = np.repeat(np.arange(len(rows), dtype=np.int64), degree)
    mirrored = None  # each arc's partner in the other direction, and its neighbour
    if not graph.is_directed() and own_dicts:
        mirrored = mirrored_arcs(values, src, rows, nodes if labels else range(len(rows)))
    if mirrored is not None:
        partner, dst = mirrored
    else:
        partner = None
        dst = np.fromiter(chain.from_iterable(rows), np.int64, count) if labels is None \
            else neighbour_positions(rows, count, nodes, ids)
    if graph.is_multigraph():
        if weight is None:  # the edge data is not read
            parallel = lengths(values)
        else:
            parallel, values = key_values(values, partner)
        src, dst = np.repeat(src, parallel), np.repeat(dst, parallel)
        if partner is not None:  # the j-th key of u -> v is the j-th of v -> u
            start = np.cumsum(parallel) - parallel
            partner = np.repeat(start[partner] - start, parallel) + np.arange(len(src))
    if partner is not None:
        weights = _mirrored_weights(values, partner, weight, plain_data(graph)) \
            if weight is not None and len(src) else None
        return labels, src, dst, weights, True
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
    else:
        once = None
    weights = _weights(values, weight, plain_data(graph), once) \
        if weight is not None and len(src) else None
    return labels, src, dst, weights, False


def row_values(rows: list) -> tuple[np.ndarray, np.ndarray]:
    """Each adjacency row's length (int64), and what the rows hold per
    neighbour in row order (an object array: edge data dicts, or a
    multigraph's key dicts), read in one pass over the rows."""
    degree = lengths(rows)
    return degree, np.fromiter(chain.from_iterable(map(_VALUES, rows)), object,
                               int(degree.sum()))


def lengths(dicts) -> np.ndarray:
    """The length of each of the ``dicts`` (adjacency rows, or a
    multigraph's key dicts: its parallel edges), int64."""
    return np.fromiter(map(len, dicts), np.int64, len(dicts))


def key_values(key_dicts: np.ndarray,
               partner: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A multigraph's key dicts (an object array, one per arc) as the
    number of keys in each, and the edge data dicts they hold: each arc's
    in key order, arc after arc.

    ``partner``: each arc's partner in the other direction, which holds the
    same key dict (:func:`mirrored_arcs`); each key dict is then read once,
    under the first of its two arcs, and copied to the other.
    """
    if partner is None:
        parallel = lengths(key_dicts)
        return parallel, np.fromiter(chain.from_iterable(map(_VALUES, key_dicts)), object,
                                     int(parallel.sum()))
    first, which = read_once(partner)
    counts, data = key_values(key_dicts[first])
    parallel = counts[which]
    start = (np.cumsum(counts) - counts)[which]  # where each arc's data begins in ``data``
    offset = np.cumsum(parallel) - parallel  # and where it begins in arc order
    return parallel, data[np.repeat(start - offset, parallel) + np.arange(int(parallel.sum()))]


def attribute_values(data: np.ndarray, name: str, default, plain: bool = True,
                     keep: np.ndarray | None = None) -> list:
    """The ``name`` attribute of each edge data dict in the object array
    ``data`` (of those where ``keep`` is true, if given), ``default`` where
    it is missing: ``[d.get(name, default) for d in data[keep]]``, in C.

    ``plain``: the dicts are plain ``dict`` objects (the graph class's
    ``edge_attr_dict_factory`` is ``dict``), so that indexing one fails for
    a missing attribute, which is then read with ``get``: a third faster
    than ``get`` when every edge has it. A subclass's ``__missing__`` could
    answer (and insert) instead, so other dicts are read with ``get``.

    The dicts are taken and read :data:`READ_STEP` at a time, so that each
    is still in the CPU's cache when it is read: a graph whose dicts lie in
    memory in another order than its rows (NetworkX's generators build
    such graphs) reads several times faster so. A caller that may read an
    attribute no edge has asks :func:`no_attributes` first.
    """
    if plain:
        try:
            return _read(data, itemgetter(name), keep)
        except KeyError:
            pass
    return _read(data, methodcaller("get", name, default), keep)


def no_attributes(data: np.ndarray, keep: np.ndarray | None = None) -> bool:
    """Whether every edge data dict of ``data`` (those where ``keep`` is
    true, if given) is empty: one truth test per dict, each touched once
    (a dict is a cache miss: NetworkX's lie apart in memory). Reading an
    absent attribute from a million dicts cost 0.12-0.2 s on the
    development CPU; the test, about half that. The first dict is looked
    at alone first: a weighted graph's answers there, without the pass
    (and without taking the ``keep`` dicts out, 23 ms for a million)."""
    if keep is None:
        first = 0 if len(data) else None
    else:
        first = int(np.argmax(keep)) if keep.any() else None
    if first is not None and data[first]:
        return False
    return not any(data if keep is None else data[keep])


def neighbours_as_ints(graph, ids, rows: list, attributes: bool) -> bool:
    """Whether a conversion can read the graph's arcs as its neighbours'
    ints alone: the nodes are the ids ``0..n-1`` (``ids``, from
    :func:`node_ids`), it is not a multigraph, and no edge dict needs
    reading: no ``attributes`` are asked for, or the dicts are plain and
    none holds one (:func:`no_row_attributes`). Where the dicts are read
    anyway, reading the ints too would be a second pass of cache misses."""
    return ids is not None and not graph.is_multigraph() and \
        (not attributes or (plain_data(graph) and no_row_attributes(rows)))


def no_row_attributes(rows: list) -> bool:
    """Whether every edge data dict that the adjacency ``rows`` (a graph's,
    not a multigraph's) hold is empty, in one pass that keeps none of them:
    cheaper than :func:`row_values` and then :func:`no_attributes` where
    nothing else reads the dicts, and it stops at the first attribute."""
    return not any(chain.from_iterable(map(_VALUES, rows)))


#: edge data dicts that :func:`attribute_values` takes at a time
READ_STEP = 1024


def _read(data: np.ndarray, read, keep: np.ndarray | None) -> list:
    """``list(map(read, data[keep]))``, :data:`READ_STEP` items at a time."""
    found = []
    for start in range(0, len(data), READ_STEP):
        step = data[start:start + READ_STEP]
        found.extend(map(read, step if keep is None else step[keep[start:start + READ_STEP]]))
    return found


def plain_data(graph) -> bool:
    """Whether the graph's edge data dicts are plain dicts."""
    return type(graph).edge_attr_dict_factory is dict


def mirrored_arcs(values: np.ndarray, src: np.ndarray, rows: list,
                  row_nodes) -> tuple[np.ndarray, np.ndarray] | None:
    """Each arc's partner in the other direction, and its neighbour (the
    partner's row), found without a lookup: NetworkX keeps one data dict per
    edge (a multigraph: one key dict per pair of ends), stored under both
    its ends, so the arc ``u -> v`` holds the same object as ``v -> u``; a
    self loop's is stored once, and is its own partner.

    ``values`` is what each arc holds, ``src`` its row, ``row_nodes[u]`` the
    node of row ``u``. Returns ``(partner, dst)``, or ``None`` where the
    dicts do not keep to that
    (a subclass whose ``edge_attr_dict_factory`` shares one dict among
    edges, as NetworkX's documentation shows), for the caller to look the
    neighbours up. Shared dicts show as an object under three arcs or more,
    two in one row, or one that is not a self loop's; two self loops that
    share one pass for an edge, which :func:`fresh_dicts` rules out.
    """
    partner = partners(addresses(values))  # None: an object under three arcs or more
    if partner is None:
        return None
    dst = src[partner]
    alone = partner == np.arange(len(partner))
    if np.count_nonzero(dst == src) != np.count_nonzero(alone):  # a pair in one row
        return None
    alone = np.flatnonzero(alone)
    for arc in alone.tolist():  # an object under one arc must be a self loop's
        u = int(src[arc])
        if rows[u].get(row_nodes[u]) is not values[arc]:
            return None
    return partner, dst


def _mirrored_weights(values: np.ndarray, partner: np.ndarray, weight: str,
                      plain: bool) -> np.ndarray:
    """Each arc's weight (see :func:`_weights`), read from one arc of each
    edge (the one before its partner, or a self loop) and copied to the
    other, which holds the same data."""
    first, which = read_once(partner)
    return _weights(values, weight, plain, first)[which]


def read_once(partner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For arcs paired with their ``partner`` (each the other's, a self
    loop its own): which arcs to read (the first of each pair) and, for
    every arc, the position of its pair's among those read."""
    arcs = np.arange(len(partner))
    first = partner >= arcs
    # A pair's first arc is the lower of the two positions.
    return first, (np.cumsum(first) - 1)[np.minimum(arcs, partner, out=arcs)]


def fresh_dicts(graph) -> bool:
    """Whether the graph's class makes a new dict for each edge's data (and
    each multigraph key dict), as NetworkX's classes do."""
    cls = type(graph)
    return cls.edge_attr_dict_factory is dict and \
        (not graph.is_multigraph() or cls.edge_key_dict_factory is dict)


def _node_order(ids: np.ndarray) -> np.ndarray:
    """The position of each vertex id in node order (``ids`` in that order)."""
    order = np.empty_like(ids)
    order[ids] = np.arange(len(ids))
    return order


def _rows(graph, nodes: list, by_id: bool) -> list:
    """The graph's adjacency rows (dicts: neighbour -> edge data, or a
    multigraph's key -> edge data) in vertex order: the order of ``nodes``
    (the graph's), or of the ids 0..n-1 with ``by_id``.

    A graph's own dicts are read as they are (``graph._adj``, not
    ``graph.adj``, whose rows wrap each row in Python code run per edge). A
    view's filtered rows are copied into dicts first, a Python step per
    edge: their lengths need not match what they yield (a multigraph's
    edge subgraph).
    """
    adjacency = graph._adj
    if by_id:
        rows = list(map(adjacency.__getitem__, range(len(nodes))))
    elif isinstance(adjacency, dict):
        rows = rows_in_order(adjacency, nodes)
    else:
        rows = [adjacency[node] for node in nodes]
    if isinstance(adjacency, dict):
        return rows
    if graph.is_multigraph():
        return [{v: dict(keys) for v, keys in row.items() if keys} for row in rows]
    return [dict(row) for row in rows]


def rows_in_order(adjacency: dict, nodes: list) -> list:
    """The rows of a graph's own adjacency dict (``G._adj``, ``G._pred``)
    for ``nodes``, in that order: the dict's values as they are where its
    keys are those very node objects in that order (NetworkX adds a node to
    ``G._node`` and ``G._adj`` together), with no lookup per node; else
    (a dict reordered by hand) each looked up."""
    if len(adjacency) == len(nodes) and all(map(is_, adjacency, nodes)):
        return list(adjacency.values())
    return [adjacency[node] for node in nodes]


def neighbour_positions(rows, count: int, nodes: list, ids=False) -> np.ndarray:
    """The position in ``nodes`` of each of the ``count`` neighbours that
    the adjacency ``rows`` hold (NetworkX's dicts keyed by neighbour), in
    row order: ``[index[v] for row in rows for v in row]`` with ``index``
    the position of each node, without a Python step per neighbour.
    ``ids``: ``node_ids(nodes)``, where the caller has it already.

    Nodes that are the integers ``0 .. n-1`` (:func:`node_ids`) are read
    as int64 values (a neighbour equal to one is that integer), and put
    in node order. Other nodes: a neighbour that is the node object itself
    is found by its address; each other one (equal to a node, not the same
    object) by a dict lookup. Nodes and neighbours are alive throughout, so
    equal addresses are the same object.

    Raises
    ------
    ValueError
        If the rows hold fewer than ``count`` neighbours.
    KeyError
        If a neighbour is not one of ``nodes`` (of nodes other than ids).
    """
    if ids is False:  # not given: found here
        ids = node_ids(nodes)
    if ids is not None:
        try:
            values = np.fromiter(chain.from_iterable(rows), np.int64, count)
        except TypeError:  # a neighbour equal to an id, not a real number (a complex)
            pass
        else:
            in_order = bool((ids == np.arange(len(ids))).all())
            return values if in_order else _node_order(ids)[values]
    neighbours = np.fromiter(chain.from_iterable(rows), object, count)
    positions, found = AddressIndex(nodes).find(addresses(neighbours))
    if not found.all():
        index = dict(zip(nodes, range(len(nodes))))
        missing = ~found
        positions[missing] = np.fromiter(map(index.__getitem__, neighbours[missing]),
                                         np.int64, int(np.count_nonzero(missing)))
    return positions


def _weights(data: np.ndarray, weight: str, plain: bool,
             keep: np.ndarray | None = None) -> np.ndarray:
    """Each edge's ``weight`` attribute from its data dict (an object
    array; those where ``keep`` is true, if given), 1 where it has none:
    int64 when every value is an integer, else float64. ``plain``: as for
    :func:`attribute_values`."""
    if plain and no_attributes(data, keep):  # an unweighted graph: nothing to read
        return np.ones(len(data) if keep is None else int(np.count_nonzero(keep)), np.int64)
    values = np.asarray(attribute_values(data, weight, 1, plain, keep))
    if values.dtype == object or values.dtype.kind not in "iuf":
        try:
            values = values.astype(np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"edge attribute {weight!r} must hold numbers: {error}") from error
    return values
