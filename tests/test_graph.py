"""The CSR graph: construction, CSC in-edges, degrees, conversions, bad input."""

from __future__ import annotations

from collections import defaultdict

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from networkx_graphs import ThinGraph, ThinMultiGraph, networkx_graphs, networkx_views
from strategies import EdgeList, edge_lists, with_device

import frontier as fr
from frontier import networkx_arcs, object_addresses
from frontier.device import to_numpy
from frontier.networkx_arcs import neighbour_positions


def reference_arcs(edges: EdgeList, deduplicate=False, remove_self_loops=False):
    """Plain-Python adjacency: ``{u: sorted [(v, w), ...]}`` of stored arcs."""
    weights = edges.weights if edges.weights is not None else [None] * len(edges.src)
    arcs = defaultdict(list)
    for u, v, w in zip(edges.src.tolist(), edges.dst.tolist(), list(weights), strict=True):
        if remove_self_loops and u == v:
            continue
        arcs[u].append((v, w))
        if not edges.directed and u != v:
            arcs[v].append((u, w))
    if deduplicate:
        for u, row in arcs.items():
            lightest = {}
            for v, w in row:
                if v not in lightest or (w is not None and w < lightest[v]):
                    lightest[v] = w
            arcs[u] = list(lightest.items())
    key = (lambda a: a[0]) if edges.weights is None else None
    return {u: sorted(row, key=key) for u, row in arcs.items() if row}


def csr_rows(G: fr.Graph):
    """``{u: [(v, w), ...]}`` in stored order, from the CSR arrays."""
    offsets, columns = to_numpy(G.offsets), to_numpy(G.columns)
    weights = None if G.weights is None else to_numpy(G.weights)
    rows = {}
    for u in range(G.num_vertices):
        span = range(offsets[u], offsets[u + 1])
        if len(span):
            rows[u] = [(int(columns[e]), None if weights is None else weights[e].item())
                       for e in span]
    return rows


def check_csr(G: fr.Graph, edges: EdgeList, **options):
    assert G.offsets.dtype == np.int64
    assert G.columns.dtype == np.int32
    assert len(G.offsets) == edges.num_vertices + 1
    rows = csr_rows(G)
    for row in rows.values():
        cols = [v for v, _ in row]
        assert cols == sorted(cols)
    expected = reference_arcs(edges, **options)
    if edges.weights is None:
        assert rows == expected
    else:
        assert {u: sorted(row) for u, row in rows.items()} == expected


@given(edge_lists())
def test_csr_matches_reference(edges):
    G = edges.graph()
    check_csr(G, edges)
    assert G.directed == edges.directed
    assert G.is_weighted == (edges.weights is not None)
    assert G.num_edges == len(edges.src)
    assert G.num_arcs == int(G.offsets[-1])


@given(edge_lists(), st.booleans(), st.booleans())
def test_csr_options_match_reference(edges, deduplicate, remove_self_loops):
    G = edges.graph(deduplicate=deduplicate, remove_self_loops=remove_self_loops)
    check_csr(G, edges, deduplicate=deduplicate, remove_self_loops=remove_self_loops)
    if deduplicate:
        oracle = edges.networkx(multigraph=False)
        if remove_self_loops:
            oracle.remove_edges_from(list(nx.selfloop_edges(oracle)))
        assert G.num_edges == oracle.number_of_edges()


@with_device
@given(edge_lists(weighted=False), st.booleans(), st.sampled_from([2.5, 7, np.float32(0.5)]))
def test_equal_weights_sort_as_no_weights(device, edges, deduplicate, weight):
    """Weights that are all equal take the unweighted sort: the arcs of the
    graph without weights, each with that weight, in the weights' dtype."""
    weights = np.full(len(edges.src), weight)
    G = fr.Graph.from_edges(edges.src, edges.dst, weights, edges.num_vertices, edges.directed,
                            deduplicate=deduplicate, device=device)
    plain = fr.Graph.from_edges(edges.src, edges.dst, None, edges.num_vertices, edges.directed,
                                deduplicate=deduplicate, device=device)
    np.testing.assert_array_equal(to_numpy(G.offsets), to_numpy(plain.offsets))
    np.testing.assert_array_equal(to_numpy(G.columns), to_numpy(plain.columns))
    assert G.weights.dtype == weights.dtype
    assert (to_numpy(G.weights) == weight).all() and len(G.weights) == G.num_arcs


def test_deduplicate_keeps_lightest():
    G = fr.Graph.from_edges([0, 0, 0, 1], [1, 1, 1, 0], [5.0, 2.0, 7.0, 1.5], directed=True,
                            deduplicate=True, device="cpu")
    assert csr_rows(G) == {0: [(1, 2.0)], 1: [(0, 1.5)]}
    U = fr.Graph.from_edges([0, 1, 2], [1, 0, 2], [4, 3, 9], deduplicate=True, device="cpu")
    assert csr_rows(U) == {0: [(1, 3)], 1: [(0, 3)], 2: [(2, 9)]}
    assert U.num_edges == 2


def test_num_vertices_and_counts():
    G = fr.Graph.from_edges([0, 1, 1], [1, 1, 2], num_vertices=6, device="cpu")
    assert (G.num_vertices, G.num_edges, G.num_arcs) == (6, 3, 5)
    np.testing.assert_array_equal(G.out_degree(), [1, 3, 1, 0, 0, 0])
    D = fr.Graph.from_edges([0, 1, 1], [1, 1, 2], directed=True, device="cpu")
    assert (D.num_vertices, D.num_edges, D.num_arcs) == (3, 3, 3)


def test_int_columns_and_weight_dtypes():
    G = fr.Graph.from_edges(np.array([0, 2], np.int64), np.array([1, 0], np.uint16),
                            np.array([3, 4], np.int32), device="cpu")
    assert G.columns.dtype == np.int32
    assert G.weights.dtype == np.int32
    assert fr.index_dtype(10) == np.int32
    assert fr.index_dtype(2**31 - 1) == np.int32
    assert fr.index_dtype(2**31) == np.int64


def reference_in_arcs(G: fr.Graph):
    """``{v: sorted [(u, w), ...]}`` of arcs ``u -> v``, from the CSR."""
    incoming = defaultdict(list)
    for u, row in csr_rows(G).items():
        for v, w in row:
            incoming[v].append((u, w))
    return {v: sorted(row) for v, row in incoming.items()}


@given(edge_lists())
def test_in_edges_match_reference(edges):
    G = edges.graph()
    ie = G.in_edges()
    offsets, sources = to_numpy(ie.offsets), to_numpy(ie.sources)
    columns, csr_offsets = to_numpy(G.columns), to_numpy(G.offsets)
    weights = None if G.weights is None else to_numpy(G.weights)
    assert offsets.dtype == np.int64 and len(offsets) == G.num_vertices + 1
    if edges.directed:
        edge_ids = to_numpy(ie.edge_ids)
    else:
        assert ie.edge_ids is None  # the CSR is its own CSC
        edge_ids = np.arange(G.num_arcs)
    got = defaultdict(list)
    for v in range(G.num_vertices):
        for p in range(offsets[v], offsets[v + 1]):
            u, e = int(sources[p]), int(edge_ids[p])
            row_of_e = int(np.searchsorted(csr_offsets, e, side="right")) - 1
            if edges.directed:
                # the CSR arc e is exactly u -> v
                assert (row_of_e, int(columns[e])) == (u, v)
            else:
                # the CSR arc at the same position is v -> u, the mirror of u -> v
                assert (row_of_e, int(columns[e])) == (v, u)
            got[v].append((u, None if weights is None else weights[e].item()))
    assert {v: sorted(row) for v, row in got.items()} == reference_in_arcs(G)
    assert G.in_edges() is ie  # cached


@given(edge_lists())
def test_degrees_match_networkx(edges):
    G = edges.graph()
    oracle = edges.networkx()
    n = edges.num_vertices
    np.testing.assert_array_equal(to_numpy(G.degree()), [oracle.degree(v) for v in range(n)])
    if edges.directed:
        np.testing.assert_array_equal(to_numpy(G.out_degree()),
                                      [oracle.out_degree(v) for v in range(n)])
        np.testing.assert_array_equal(to_numpy(G.in_degree()),
                                      [oracle.in_degree(v) for v in range(n)])
    assert G.num_edges == oracle.number_of_edges()


def edge_multiset(graph, weight="weight"):
    """Sorted ``(u, v, w)`` of every edge (``u <= v`` by repr if undirected; a
    missing weight counts as 1, NetworkX's convention)."""
    found = []
    for u, v, data in graph.edges(data=True):
        if not graph.is_directed():
            u, v = sorted((u, v), key=repr)
        found.append((repr(u), repr(v), float(data.get(weight, 1))))
    return sorted(found)


@given(edge_lists())
def test_networkx_round_trip(edges):
    oracle = edges.networkx()
    G = fr.Graph.from_networkx(oracle, device="cpu")
    back = G.to_networkx()
    assert back.is_directed() == oracle.is_directed()
    assert list(back.nodes) == list(oracle.nodes)
    assert edge_multiset(back) == edge_multiset(oracle)
    has_parallel = len({tuple(sorted(e[:2])) if not edges.directed else e[:2]
                        for e in oracle.edges}) < oracle.number_of_edges()
    assert back.is_multigraph() == has_parallel


def test_networkx_labels_and_weights():
    g = nx.MultiGraph()
    g.add_nodes_from(["c", "a", "lonely"])
    g.add_edge("c", "a", weight=2.5)
    g.add_edge("a", "c", weight=1.0)
    g.add_edge("a", "a")  # no weight attribute: NetworkX's default of 1
    G = fr.Graph.from_networkx(g, device="cpu")
    assert G.node_labels == ["c", "a", "lonely"]
    assert (G.num_vertices, G.num_edges) == (3, 3)
    assert csr_rows(G) == {0: [(1, 1.0), (1, 2.5)], 1: [(0, 1.0), (0, 2.5), (1, 1.0)]}
    back = G.to_networkx()
    assert isinstance(back, nx.MultiGraph)
    assert list(back.nodes) == ["c", "a", "lonely"]
    assert edge_multiset(back) == edge_multiset(g)
    unweighted = fr.Graph.from_networkx(g, weight=None, device="cpu")
    assert not unweighted.is_weighted
    assert isinstance(unweighted.to_networkx(), nx.MultiGraph)


def test_networkx_directed_simple():
    # Nodes 0..n-1 inserted out of order keep their values as vertex ids.
    g = nx.DiGraph([(2, 0), (0, 1)])
    G = fr.Graph.from_networkx(g, device="cpu")
    assert G.node_labels is None
    assert csr_rows(G) == {0: [(1, 1)], 2: [(0, 1)]}
    assert G.directed and G.is_weighted
    back = G.to_networkx()
    assert type(back) is nx.DiGraph
    assert sorted(back.edges) == [(0, 1), (2, 0)]


def test_networkx_integer_nodes_that_are_not_ids_are_labels():
    for nodes in ([5, 0, 1], [1, 2, 3], [0, True, 2], [0, 1.0, 2], [0, 2**70, 1]):
        g = nx.DiGraph()
        g.add_nodes_from(nodes)
        g.add_edge(nodes[0], nodes[1])
        G = fr.Graph.from_networkx(g, device="cpu")
        assert G.node_labels == nodes
        assert csr_rows(G) == {0: [(1, 1)]}
    numpy_ids = nx.path_graph([np.int64(2), np.int32(0), np.uint8(1)])
    assert fr.Graph.from_networkx(numpy_ids, device="cpu").node_labels is None


def reference_from_networkx(graph, weight="weight"):
    """Graph.from_networkx as it was before it read NetworkX's dicts in C: a
    Python loop over ``graph.edges``, with today's numbering (nodes that are
    exactly 0..n-1 are the ids, other nodes labels in ``graph.nodes`` order)."""
    nodes = list(graph.nodes)
    is_id = [isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in nodes]
    labels = None if all(is_id) and set(nodes) == set(range(len(nodes))) else nodes
    index = {node: node if labels is None else i for i, node in enumerate(nodes)}
    src = np.array([index[u] for u, _ in graph.edges()], dtype=np.int64)
    dst = np.array([index[v] for _, v in graph.edges()], dtype=np.int64)
    weights = None
    if weight is not None and len(src):
        weights = np.asarray([data.get(weight, 1) for *_, data in graph.edges(data=True)])
        if weights.dtype == object or weights.dtype.kind not in "iuf":
            weights = weights.astype(np.float64)
    G = fr.Graph.from_edges(src, dst, weights, len(nodes), graph.is_directed(), device="cpu")
    G.node_labels = labels
    return G


def assert_same_graph(G: fr.Graph, expected: fr.Graph) -> None:
    assert (G.directed, G.num_edges, G.node_labels) == \
        (expected.directed, expected.num_edges, expected.node_labels)
    for name in ("offsets", "columns", "weights"):
        found, wanted = getattr(G, name), getattr(expected, name)
        assert (found is None) == (wanted is None), name
        if found is not None:
            assert found.dtype == wanted.dtype, name
            np.testing.assert_array_equal(found, wanted, err_msg=name)


@given(networkx_graphs(), st.sampled_from(["weight", None, "absent"]))
def test_networkx_conversion_matches_the_edge_loop(g, weight):
    assert_same_graph(fr.Graph.from_networkx(g, weight=weight, device="cpu"),
                      reference_from_networkx(g, weight))


@given(networkx_graphs())
def test_networkx_conversion_without_address_tables(g):
    # Objects spread over much memory: nodes found by a binary search in
    # their addresses, an undirected graph's neighbours looked up.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(object_addresses.AddressIndex, "TABLE_BASE", 0)
        patch.setattr(object_addresses.AddressIndex, "TABLE_PER_ENTRY", 0)
        patch.setattr(object_addresses, "PARTNER_TABLE_BASE", 0)
        patch.setattr(object_addresses, "PARTNER_TABLE_PER_ENTRY", 0)
        assert_same_graph(fr.Graph.from_networkx(g, device="cpu"), reference_from_networkx(g))


@given(edge_lists(directed=False, max_vertices=8, max_edges=12),
       st.sampled_from([ThinGraph, ThinMultiGraph]))
def test_networkx_graphs_whose_edges_share_a_data_dict(edges, cls):
    g = cls()
    ThinMultiGraph.all_key_dict = {}
    g.add_edges_from(zip(edges.src.tolist(), edges.dst.tolist()))
    assert_same_graph(fr.Graph.from_networkx(g, device="cpu"), reference_from_networkx(g))
    for pairs in ([(0, 1)], [(0, 0)], [(0, 0), (1, 1)], [(0, 0), (1, 1), (2, 2)]):
        g = ThinGraph(pairs)
        assert_same_graph(fr.Graph.from_networkx(g, device="cpu"), reference_from_networkx(g))


@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph])
def test_networkx_adjacency_out_of_node_order(cls):
    # Rows are read in the adjacency dict's own order only where it is the
    # nodes' order: a graph whose _adj was reordered by hand is looked up.
    for nodes in ("abc", [2, 0, 1]):
        a, b, c = nodes
        g = cls([(a, b, {"weight": 3}), (b, c), (c, c)])
        g._adj = dict(reversed(g._adj.items()))
        assert_same_graph(fr.Graph.from_networkx(g, device="cpu"), reference_from_networkx(g))


def test_undirected_neighbours_are_read_off_the_shared_edge_data(monkeypatch):
    # An undirected graph's own dicts need no neighbour lookups; a graph
    # whose edges share a data dict, a view and a directed graph do.
    looked_up = []

    def lookups(rows, count, nodes, *ids):
        looked_up.append(count)
        return neighbour_positions(rows, count, nodes, *ids)

    monkeypatch.setattr(networkx_arcs, "neighbour_positions", lookups)
    g = nx.MultiGraph([("a", "b"), ("b", "a"), ("b", "b"), ("c", "a")])
    assert_same_graph(fr.Graph.from_networkx(g, device="cpu"), reference_from_networkx(g))
    assert looked_up == []
    for other in (ThinGraph([("a", "b"), ("c", "c"), ("d", "d")]), g.subgraph("ab"),
                  nx.DiGraph(g)):
        assert_same_graph(fr.Graph.from_networkx(other, device="cpu"),
                          reference_from_networkx(other))
    assert looked_up == [4, 3, 5]


def test_shared_edge_data_is_detected():
    # Rows that NetworkX's own classes never build: their neighbours must be
    # looked up, not read off the arc that holds the same object.
    def mirrored(rows):
        values = np.fromiter((d for row in rows for d in row.values()), object)
        src = np.repeat(np.arange(len(rows)), [len(row) for row in rows])
        return networkx_arcs.mirrored_arcs(values, src, rows, range(len(rows)))

    shared, other = {"weight": 1}, {"weight": 2}
    partner, dst = mirrored([{1: shared}, {0: shared, 1: other}])
    assert partner.tolist() == [1, 0, 2] and dst.tolist() == [1, 0, 1]
    assert mirrored([{1: shared}, {0: shared, 2: shared}, {1: shared}]) is None  # 4 arcs
    assert mirrored([{1: shared, 2: shared}, {}, {}]) is None  # two in one row
    assert mirrored([{1: shared}, {}]) is None  # alone, not a self loop


def test_partners_of_repeated_addresses():
    found = np.array([16, 32, 16, 48, 64, 32], np.uintp)
    assert object_addresses.partners(found).tolist() == [2, 5, 0, 3, 4, 1]
    assert object_addresses.partners(np.array([16, 16, 16], np.uintp)) is None
    assert object_addresses.partners(np.zeros(0, np.uintp)).tolist() == []
    # Units of 16 bytes over 2**40: a table of 2**36 entries is too many, so
    # they are sorted.
    spread = np.array([16 + 2**40, 32, 16 + 2**40, 16, 48], np.uintp)
    assert object_addresses.partners(spread).tolist() == [2, 1, 0, 3, 4]
    assert object_addresses.partners(np.append(spread, spread[0])) is None
    # Units of 2**40 (the alignment all offsets share): a table of 2.
    assert object_addresses.partners(np.array([16, 16 + 2**40], np.uintp)).tolist() == [0, 1]


@given(st.lists(st.integers(0, 40), max_size=60), st.sampled_from([1, 16, 2**20]),
       st.booleans())
def test_partners_are_the_other_occurrence(picks, scale, spread_out):
    # Against a plain loop: each address's other occurrence (its own when
    # alone), None when one occurs three times or more; through the table,
    # and through the sort where the addresses span too much for one.
    found = np.array([16 + scale * p for p in picks], np.uintp)
    at = defaultdict(list)
    for i, address in enumerate(found.tolist()):
        at[address].append(i)
    if any(len(places) > 2 for places in at.values()):
        expected = None
    else:
        expected = [next((j for j in at[a] if j != i), i) for i, a in enumerate(found.tolist())]
    with pytest.MonkeyPatch.context() as patch:
        if spread_out:
            patch.setattr(object_addresses, "PARTNER_TABLE_BASE", 0)
            patch.setattr(object_addresses, "PARTNER_TABLE_PER_ENTRY", 0)
        partner = object_addresses.partners(found)
    assert (None if partner is None else partner.tolist()) == expected


@given(st.lists(st.sampled_from(range(12)), max_size=60), st.integers(1, 12))
def test_neighbour_positions_are_the_index_lookups(picks, n):
    # Rows of neighbours, each either the node's own object or an equal copy.
    nodes = [("n", i) for i in range(n)]
    rows = [{}, {}, {}]
    for j, pick in enumerate(p % n for p in picks):
        rows[j % 3][nodes[pick] if j % 2 else ("n", pick)] = None
    index = {node: i for i, node in enumerate(nodes)}
    expected = [index[v] for row in rows for v in row]
    np.testing.assert_array_equal(neighbour_positions(rows, len(expected), nodes), expected)



@given(st.permutations(range(6)), st.lists(st.tuples(st.integers(0, 5), st.integers(0, 4)),
                                           max_size=40))
def test_neighbour_positions_of_integer_nodes(nodes, picks):
    # Nodes 0..n-1 in any order; neighbours equal to a node in any form
    # NetworkX could hold (the node, a float, a NumPy int, a bool, a
    # complex): the position of the node each one equals.
    forms = (int, float, np.int64, lambda k: bool(k) if k < 2 else k, complex)
    rows = [{}, {}, {}]
    for j, (pick, form) in enumerate(picks):
        rows[j % 3][forms[form](pick)] = None
    index = {node: i for i, node in enumerate(nodes)}
    expected = [index[v] for row in rows for v in row]
    np.testing.assert_array_equal(neighbour_positions(rows, len(expected), list(nodes)),
                                  expected)

@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=12), st.booleans())
def test_no_attributes_is_every_kept_dict_empty(entries, masked):
    # the first kept dict is looked at alone first: the answer must not change
    data = np.empty(len(entries), dtype=object)
    data[:] = [{"weight": 1} if full else {} for full, _ in entries]
    keep = np.array([kept for _, kept in entries], dtype=bool) if masked else None
    chosen = data if keep is None else data[keep]
    assert networkx_arcs.no_attributes(data, keep) == (not any(len(d) for d in chosen))


def test_networkx_weights_must_be_numbers():
    for value in ("heavy", {"kg": 1}):
        g = nx.Graph([(0, 1, {"weight": value})])
        with pytest.raises(ValueError, match="edge attribute 'weight' must hold numbers"):
            fr.Graph.from_networkx(g, device="cpu")
    with pytest.raises(ValueError, match="weight of edge 0 is nan"):  # NumPy reads None as NaN
        fr.Graph.from_networkx(nx.Graph([(0, 1, {"weight": None})]), device="cpu")
    with pytest.raises(TypeError, match="expected a NetworkX graph, got dict"):
        fr.Graph.from_networkx({0: [1]}, device="cpu")


def test_networkx_views_convert_like_their_graphs():
    g = nx.MultiDiGraph([(0, 1), (1, 2), (1, 2), (2, 2), (3, 0)])
    view = nx.subgraph_view(g, filter_node=lambda v: v != 3)
    copy = nx.MultiDiGraph(view)
    assert_same_graph(fr.Graph.from_networkx(view, device="cpu"),
                      fr.Graph.from_networkx(copy, device="cpu"))
    reverse = g.reverse(copy=False)
    assert_same_graph(fr.Graph.from_networkx(reverse, device="cpu"),
                      reference_from_networkx(reverse))


@given(networkx_graphs(), st.sampled_from(["weight", None]))
def test_networkx_views_match_the_edge_loop(g, weight):
    # The undirected view of a directed graph holds u -> v and v -> u as
    # one edge whose data is either's: the conversion takes what its edges give.
    for view in networkx_views(g):
        assert_same_graph(fr.Graph.from_networkx(view, weight=weight, device="cpu"),
                          reference_from_networkx(view, weight))


def test_from_scipy():
    sparse = pytest.importorskip("scipy.sparse")
    matrix = sparse.csr_matrix(np.array([[0, 2.0, 0], [0, 0, 3.0], [1.5, 0, 0]]))
    G = fr.Graph.from_scipy(matrix, device="cpu")
    assert G.directed
    assert csr_rows(G) == {0: [(1, 2.0)], 1: [(2, 3.0)], 2: [(0, 1.5)]}
    plain = fr.Graph.from_scipy(matrix, weighted=False, device="cpu")
    assert not plain.is_weighted
    symmetric = matrix + matrix.T
    U = fr.Graph.from_scipy(symmetric, directed=False, device="cpu")
    assert U.num_edges == 3
    assert csr_rows(U) == {0: [(1, 2.0), (2, 1.5)], 1: [(0, 2.0), (2, 3.0)],
                           2: [(0, 1.5), (1, 3.0)]}
    with pytest.raises(ValueError, match="symmetric"):
        fr.Graph.from_scipy(matrix, directed=False, device="cpu")
    with pytest.raises(ValueError, match=r"\(2, 3\)"):
        fr.Graph.from_scipy(sparse.csr_matrix((2, 3)), device="cpu")


def test_to_device(device):
    G = fr.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], directed=True, device="cpu")
    G.in_edges()
    moved = G.to(device)
    assert moved.device == fr.get_device(device)
    assert moved.xp is fr.get_device(device).xp
    assert csr_rows(moved) == csr_rows(G)
    np.testing.assert_array_equal(to_numpy(moved.in_edges().edge_ids),
                                  to_numpy(G.in_edges().edge_ids))
    assert moved.to(device) is moved
    back = moved.to("cpu")
    assert csr_rows(back) == csr_rows(G)


@with_device
@given(networkx_graphs(), st.booleans())
def test_conversions_on_a_device_match_the_cpu(device, g, relabel):
    # from_networkx and from_edges(relabel=True) built on the device (CSR
    # offsets by binary search there, by counts on the host).
    G = fr.Graph.from_networkx(g, device=device)
    assert_same_graph(G.to("cpu"), fr.Graph.from_networkx(g, device="cpu"))
    if relabel and g.number_of_edges():
        src, dst, _ = G.to("cpu").edges()
        sparse = np.array([-5, 3, 10**12])[np.arange(G.num_vertices) % 3] * \
            (np.arange(G.num_vertices) + 1)
        for dedupe in (False, True):
            built = [fr.Graph.from_edges(sparse[src], sparse[dst], directed=True, relabel=True,
                                         deduplicate=dedupe, device=name).to("cpu")
                     for name in (device, "cpu")]
            assert_same_graph(*built)


def test_edgeless_and_single_vertex():
    empty = fr.Graph.from_edges([], [], device="cpu")
    assert (empty.num_vertices, empty.num_edges, empty.num_arcs) == (0, 0, 0)
    assert empty.to_networkx().number_of_nodes() == 0
    isolated = fr.Graph.from_edges([], [], num_vertices=4, directed=True, device="cpu")
    assert isolated.num_vertices == 4 and isolated.num_arcs == 0
    np.testing.assert_array_equal(isolated.degree(), [0, 0, 0, 0])
    np.testing.assert_array_equal(isolated.in_edges().offsets, [0, 0, 0, 0, 0])
    single = fr.Graph.from_edges([], [], num_vertices=1, device="cpu")
    assert single.num_vertices == 1 and single.degree().tolist() == [0]
    loop = fr.Graph.from_edges([0], [0], device="cpu")
    assert (loop.num_vertices, loop.num_edges, loop.num_arcs) == (1, 1, 1)
    assert loop.degree().tolist() == [2]


@pytest.mark.parametrize("src, dst, kwargs, message", [
    ([0, 3], [1, 2], {"num_vertices": 3}, "endpoint 3 is out of range for num_vertices=3"),
    ([0, 1], [1, 5], {"num_vertices": 5}, "endpoint 5 is out of range"),
    ([0, -1], [1, 2], {}, "endpoint -1 is negative"),
    ([0, 1], [-4, 2], {"num_vertices": 5}, "endpoint -4 is negative"),
    ([0, 1], [1, 2, 0], {}, "differ in length: 2 != 3"),
    ([0.0, 1.0], [1, 2], {}, "src must hold integer vertex ids, got dtype float64"),
    ([0, 1], [1.5, 2.0], {}, "dst must hold integer vertex ids, got dtype float64"),
    ([True], [False], {}, "dtype bool"),
    ([0, 1], [1, 2], {"weights": [1.0, np.nan]}, "weight of edge 1 is nan"),
    ([0, 1], [1, 2], {"weights": [np.inf, 1.0]}, "weight of edge 0 is inf"),
    ([0, 1], [1, 2], {"weights": [1.0]}, r"weights has shape \(1,\), expected \(2,\)"),
    ([0, 1], [1, 2], {"weights": ["a", "b"]}, "weights must be integer or floating point"),
    ([0], [1], {"num_vertices": -1}, "num_vertices=-1"),
    ([[0, 1]], [[1, 2]], {}, "must be 1-D"),
])
def test_bad_input(src, dst, kwargs, message):
    with pytest.raises(ValueError, match=message):
        fr.Graph.from_edges(src, dst, device="cpu", **kwargs)


def test_repr_and_storage():
    G = fr.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0], directed=True, device="cpu")
    assert repr(G) == "Graph(3 vertices, 2 edges, directed, weighted, device=cpu)"
    before = G.storage_bytes()
    G.in_edges()
    assert G.storage_bytes() > before


@given(edges=edge_lists())
def test_simplified_drops_loops_and_parallel_arcs_keeping_the_lightest(edges):
    G = edges.graph()
    simple = G.simplified()
    src, dst, weights = simple.edges()
    assert not np.any(src == dst)
    assert len(set(zip(src.tolist(), dst.tolist()))) == len(src)
    assert simple.is_simple()
    assert (simple is G) == G.is_simple()
    oracle = edges.networkx(multigraph=False)
    oracle.remove_edges_from(list(nx.selfloop_edges(oracle)))
    expected = simple.to_networkx()
    assert nx.utils.edges_equal(expected.edges, oracle.edges)
    if weights is not None:
        for u, v, w in expected.edges(data="weight"):
            assert w == oracle[u][v]["weight"]


@pytest.mark.parametrize("devices", [None, 3])
def test_forced_int64_vertex_ids_give_the_same_answers(devices):
    from primitives import (
        betweenness_centrality,
        bfs,
        connected_components,
        dobfs,
        pagerank,
        sssp,
    )

    rng = np.random.default_rng(5)
    src, dst = rng.integers(0, 60, 200), rng.integers(0, 60, 200)
    weights = rng.integers(1, 9, 200)
    options = {} if devices is None else {"devices": devices, "duplication": "one_hop"}
    runs = (lambda G: bfs(G, 7, **options).depth, lambda G: dobfs(G, 7, **options).depth,
            lambda G: sssp(G, 7, **options).distance,
            lambda G: connected_components(G, **options).labels,
            lambda G: betweenness_centrality(G, **options).centrality,
            lambda G: pagerank(G, **options).rank)
    for directed in (False, True):
        narrow = fr.Graph.from_edges(src, dst, weights, 60, directed, device="cpu")
        wide = fr.Graph.from_edges(src, dst, weights, 60, directed, vertex_dtype=np.int64,
                                   device="cpu")
        assert narrow.columns.dtype == np.int32 and wide.columns.dtype == np.int64
        assert wide.simplified().columns.dtype == np.int64
        for run in runs:
            np.testing.assert_allclose(run(wide), run(narrow), rtol=0, atol=1e-12)


def test_vertex_dtype_is_checked():
    with pytest.raises(ValueError, match="vertex_dtype=int16: expected int32 or int64"):
        fr.Graph.from_edges([0], [1], vertex_dtype=np.int16, device="cpu")


@given(st.lists(st.integers(0, 4), max_size=12), st.integers(0, 5), st.data())
def test_row_ids_on_the_host_equal_a_search_per_arc(degrees, base, data):
    """The host's row ids (a repeat of each row over the arcs asked for)
    equal the GPU's way, a binary search per arc, for any arc range of any
    row offsets, empty rows and offsets of a slice (not from 0) included."""
    from frontier.graph import _row_ids

    offsets = base + np.concatenate([[0], np.cumsum(degrees, dtype=np.int64)])
    start = data.draw(st.integers(int(offsets[0]), int(offsets[-1])))
    stop = data.draw(st.integers(start, int(offsets[-1])))
    want = np.searchsorted(offsets[1:], np.arange(start, stop, dtype=np.int64), side="right")
    got = _row_ids(np, offsets, start, stop)
    assert got.dtype == np.int64
    assert got.tolist() == want.tolist()
