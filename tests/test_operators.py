"""advance, filter, compute and neighbor_reduce against plain-Python references
on random graphs, including small chunk sizes and hubs."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from frontier.device import to_numpy

CHUNKS = st.sampled_from([1, 3, 7, 1 << 24])


# references ---------------------------------------------------------------------------


def host_csr(G):
    weights = None if G.weights is None else to_numpy(G.weights).tolist()
    return to_numpy(G.offsets).tolist(), to_numpy(G.columns).tolist(), weights


def out_edges(G, v):
    """``[(v, dst, edge, weight)]``: the out-edges of ``v`` by CSR id."""
    offsets, columns, weights = host_csr(G)
    return [(v, columns[e], e, None if weights is None else weights[e])
            for e in range(offsets[v], offsets[v + 1])]


def in_edges(G, v):
    """``[(src, v, edge, weight)]``: the in-edges of ``v``. The edge id is the
    CSR arc ``src -> v``, or for an undirected graph its mirror ``v -> src``."""
    offsets, columns, weights = host_csr(G)
    if not G.directed:
        return [(u, v, e, w) for _, u, e, w in out_edges(G, v)]
    found = []
    for u in range(G.num_vertices):
        for e in range(offsets[u], offsets[u + 1]):
            if columns[e] == v:
                found.append((u, v, e, None if weights is None else weights[e]))
    return found


def record(calls):
    """A functor that keeps every edge it is offered and accepts all."""
    def functor(src, dst, edge, weight):
        host = [to_numpy(a).tolist() for a in (src, dst, edge)]
        host.append([None] * len(host[0]) if weight is None else to_numpy(weight).tolist())
        calls.extend(zip(*host, strict=True))
        return dst == dst
    return functor


def keep_rule(src, dst, edge):
    """The filtering functor's test, on Python ints."""
    return (3 * src + dst + edge) % 4 != 0


def keep(src, dst, edge, weight):
    return (3 * src + dst + edge) % 4 != 0


def sorted_ids(frontier):
    return sorted(to_numpy(frontier.ids).tolist())


@st.composite
def graphs_and_frontiers(draw, **options):
    edges = draw(edge_lists(**options))
    n = edges.num_vertices
    ids = draw(st.lists(st.integers(0, n - 1), max_size=n + 3))
    return edges, ids


# advance push -------------------------------------------------------------------------


@with_device
@given(graphs_and_frontiers(), CHUNKS, st.booleans())
def test_push_vs_reference(device, case, chunk_edges, dense):
    edges, ids = case
    G = edges.graph(device)
    n = G.num_vertices
    frontier = fr.Frontier.from_ids(np.asarray(ids, dtype=np.int64), n, device)
    if dense:
        frontier = frontier.to_dense()
    entries = to_numpy(frontier.ids).tolist()  # the dense form has no repeats
    expected = [edge for v in entries for edge in out_edges(G, v)]

    plain = fr.advance(G, frontier, chunk_edges=chunk_edges)
    assert sorted_ids(plain) == sorted(dst for _, dst, _, _ in expected)

    calls = []
    recorded = fr.advance(G, frontier, record(calls), chunk_edges=chunk_edges)
    assert sorted(calls, key=repr) == sorted(expected, key=repr)
    assert sorted_ids(recorded) == sorted_ids(plain)

    filtered = fr.advance(G, frontier, keep, chunk_edges=chunk_edges)
    assert sorted_ids(filtered) == sorted(d for s, d, e, _ in expected if keep_rule(s, d, e))
    assert filtered.num_vertices == n and filtered.device == fr.get_device(device)


@with_device
@given(graphs_and_frontiers(weighted=True), CHUNKS)
def test_push_weights_reach_the_functor(device, case, chunk_edges):
    edges, ids = case
    G = edges.graph(device)
    heavy = fr.advance(G, np.asarray(ids, dtype=np.int64),
                       lambda s, d, e, w: w > 5, chunk_edges=chunk_edges)
    expected = [d for v in ids for _, d, _, w in out_edges(G, v) if w > 5]
    assert sorted_ids(heavy) == sorted(expected)


# advance pull -------------------------------------------------------------------------


@st.composite
def pull_cases(draw):
    edges, ids = draw(graphs_and_frontiers())
    n = edges.num_vertices
    among = draw(st.none() | st.sets(st.integers(0, n - 1)).map(sorted))
    return edges, ids, among


@with_device
@given(pull_cases(), CHUNKS, st.sampled_from(["ids", "mask", "frontier"]))
def test_pull_vs_reference(device, case, chunk_edges, among_form):
    edges, ids, among = case
    G = edges.graph(device)
    n = G.num_vertices
    active = set(ids)
    candidates = range(n) if among is None else among
    expected = [edge for v in candidates for edge in in_edges(G, v) if edge[0] in active]
    if among is None or among_form == "ids":
        among_arg = among
    elif among_form == "mask":
        among_arg = np.isin(np.arange(n), among)
    else:
        among_arg = fr.Frontier.from_ids(np.asarray(among, dtype=np.int64), n, device)
    frontier = fr.Frontier.from_ids(np.asarray(ids, dtype=np.int64), n, device)

    def pull(functor):
        return fr.advance(G, frontier, functor, direction="pull", among=among_arg,
                          chunk_edges=chunk_edges)

    assert sorted_ids(pull(None)) == sorted({dst for _, dst, _, _ in expected})
    calls = []
    recorded = pull(record(calls))
    assert sorted(calls, key=repr) == sorted(expected, key=repr)
    assert sorted_ids(recorded) == sorted({dst for _, dst, _, _ in expected})
    filtered = pull(keep)
    assert sorted_ids(filtered) == sorted({d for s, d, e, _ in expected if keep_rule(s, d, e)})


def test_pull_output_has_no_repeats(device):
    G = fr.Graph.from_edges([0, 1, 2, 0], [3, 3, 3, 3], directed=True, device=device)
    out = fr.advance(G, [0, 1, 2], direction="pull")
    assert to_numpy(out.ids).tolist() == [3]


# hubs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("chunk_edges", [1, 7, 64, 1 << 24])
def test_hub_push_and_pull(device, chunk_edges):
    rng = np.random.default_rng(5)
    n, hub_degree = 400, 350
    src = np.concatenate([np.zeros(hub_degree, np.int64), rng.integers(1, n, 300),
                          np.full(200, 7)])
    dst = np.concatenate([rng.integers(0, n, hub_degree), rng.integers(0, n, 300),
                          rng.integers(0, n, 200)])
    G = fr.Graph.from_edges(src, dst, num_vertices=n, directed=True, device=device)
    frontier = np.array([5, 0, 7, 9, 0], dtype=np.int64)
    calls = []
    fr.advance(G, frontier, record(calls), chunk_edges=chunk_edges)
    expected = [edge for v in frontier.tolist() for edge in out_edges(G, v)]
    assert sorted(calls) == sorted(expected)
    pulled = fr.advance(G, frontier, keep, direction="pull", chunk_edges=chunk_edges)
    assert sorted_ids(pulled) == sorted({
        d for v in range(n) for s, d, e, _ in in_edges(G, v)
        if s in {0, 5, 7, 9} and keep_rule(s, d, e)})


# bad functors and arguments ----------------------------------------------------------


@pytest.mark.parametrize("direction", ["push", "pull"])
@pytest.mark.parametrize("functor", [
    lambda s, d, e, w: (d % 2).astype(np.int64),        # wrong dtype
    lambda s, d, e, w: (d == d)[:1],                    # wrong shape
    lambda s, d, e, w: True,                            # a scalar
    lambda s, d, e, w: None,                            # nothing
], ids=["int", "short", "scalar", "none"])
def test_bad_functor_result(device, functor, direction):
    G = fr.Graph.from_edges([0, 0, 1], [1, 2, 2], device=device)
    with pytest.raises(TypeError, match="must return a boolean array of shape"):
        fr.advance(G, [0, 1], functor, direction=direction)


def test_bad_advance_arguments(device):
    G = fr.Graph.from_edges([0], [1], device=device)
    with pytest.raises(ValueError, match="unknown direction 'sideways'"):
        fr.advance(G, [0], direction="sideways")
    with pytest.raises(ValueError, match="among="):
        fr.advance(G, [0], among=[1])
    with pytest.raises(ValueError, match="vertex 2 is out of range"):
        fr.advance(G, [2])


def test_advance_of_empty_frontier(device):
    G = fr.Graph.from_edges([0], [1], device=device)
    for direction in ("push", "pull"):
        out = fr.advance(G, fr.Frontier.empty(2, device), direction=direction)
        assert out.is_empty() and out.num_vertices == 2
    assert fr.advance(G, [], direction="push").is_empty()


# filter and compute ------------------------------------------------------------------


@given(st.lists(st.integers(0, 49), max_size=80))
def test_filter_vs_reference(ids):
    frontier = fr.Frontier.from_ids(np.asarray(ids, dtype=np.int64), 50, "cpu")
    odd = fr.filter(frontier, lambda v: v % 2 == 1)
    assert odd.kind == "sparse"
    assert to_numpy(odd.ids).tolist() == [v for v in ids if v % 2 == 1]
    unique_odd = fr.filter(frontier, lambda v: v % 2 == 1, unique=True)
    assert sorted_ids(unique_odd) == sorted({v for v in ids if v % 2 == 1})
    assert to_numpy(fr.filter(frontier).ids).tolist() == ids
    assert sorted_ids(fr.filter(frontier, unique=True)) == sorted(set(ids))


def test_filter_and_compute_on_device(device):
    xp = fr.get_device(device).xp
    rank = xp.zeros(6)
    frontier = fr.Frontier.from_mask(xp.asarray([True, False, True, True, False, True]))

    def touch(ids):
        rank[ids] = ids * 2.0
        return ids.sum()

    assert int(fr.compute(frontier, touch)) == 0 + 2 + 3 + 5
    assert to_numpy(rank).tolist() == [0.0, 0.0, 4.0, 6.0, 0.0, 10.0]
    kept = fr.filter(frontier, lambda ids: rank[ids] > 5)
    assert kept.kind == "sparse" and to_numpy(kept.ids).tolist() == [3, 5]


@with_device
@given(st.lists(st.integers(0, 5000), max_size=300), st.integers(1, 7))
def test_filter_keeps_order_and_knows_when_ids_are_distinct(device, ids, modulus):
    """A filter keeps the ids' order on every device (the GPU compacts with
    its own kernel) and is distinct exactly when what it filtered was, so
    unique() after it is free."""
    on = fr.get_device(device)
    frontier = fr.Frontier.from_ids(on.asarray(np.asarray(ids, dtype=np.int64)), 5001)
    kept = fr.filter(frontier, lambda v: v % modulus == 0)
    assert to_numpy(kept.ids).tolist() == [v for v in ids if v % modulus == 0]
    assert not kept.distinct or len(set(ids)) == len(ids)
    once = frontier.unique()
    assert once.distinct and sorted_ids(once) == sorted(set(ids))
    kept_once = fr.filter(once, lambda v: v % modulus == 0)
    assert kept_once.distinct and kept_once.unique() is kept_once
    assert sorted_ids(kept_once) == sorted({v for v in ids if v % modulus == 0})


def test_filter_predicate_must_return_mask():
    frontier = fr.Frontier.from_ids([1, 2], 3, "cpu")
    with pytest.raises(TypeError, match="boolean array of shape"):
        fr.filter(frontier, lambda ids: ids)
    with pytest.raises(TypeError, match="boolean array of shape"):
        fr.filter(frontier, lambda ids: True)



@with_device
@given(st.lists(st.integers(0, 9000), max_size=6000), st.integers(1, 7), st.booleans(),
       st.sampled_from([np.int32, np.int64]))
def test_separate_is_filter_and_its_negation(device, ids, modulus, distinct, dtype):
    """separate gives what filter gives with the predicate and with its
    negation: the same ids in the same order, distinct alike (lists of
    either side of one compaction tile, 4,096 ids, and both id types)."""
    on = fr.get_device(device)
    ids = sorted(set(ids)) if distinct else ids
    frontier = fr.Frontier.from_ids(on.asarray(np.asarray(ids, dtype=dtype)), 9001)
    if distinct:
        frontier = frontier.unique()

    def test(v):
        return v % modulus == 0

    kept, rest = fr.separate(frontier, test)
    for got, expected in ((kept, fr.filter(frontier, test)),
                          (rest, fr.filter(frontier, lambda v: ~test(v)))):
        assert got.kind == "sparse" and got.distinct == expected.distinct
        assert to_numpy(got.ids).tolist() == to_numpy(expected.ids).tolist()
    assert len(kept.ids) + len(rest.ids) == len(ids)


def test_separate_predicate_must_return_mask():
    frontier = fr.Frontier.from_ids([1, 2], 3, "cpu")
    with pytest.raises(TypeError, match="separate predicate must return a boolean array"):
        fr.separate(frontier, lambda ids: ids)
    with pytest.raises(TypeError, match="separate takes a Frontier, got list"):
        fr.separate([0, 1], lambda ids: ids > 0)

# neighbor_reduce ---------------------------------------------------------------------


def edge_value(src, dst, edge, weight):
    value = 3.0 * src - dst + 0.5 * edge
    return value if weight is None else value + weight


def edge_value_host(src, dst, edge, weight):
    return 3.0 * src - dst + 0.5 * edge + (0 if weight is None else weight)


REDUCTIONS = {
    "sum": (edge_value, edge_value_host, sum, 0.0),
    "min": (edge_value, edge_value_host, min, math.inf),
    "max": (edge_value, edge_value_host, max, -math.inf),
    "any": (lambda s, d, e, w: (s + e) % 3 == 0, lambda s, d, e, w: (s + e) % 3 == 0,
            any, False),
}


@st.composite
def reduce_cases(draw):
    edges = draw(edge_lists())
    n = edges.num_vertices
    vertices = draw(st.none() | st.lists(st.integers(0, n - 1), max_size=n + 3))
    return edges, vertices


def reference_reduce(G, vertices, direction, value, combine, identity):
    n = G.num_vertices
    result = []
    for v in range(n) if vertices is None else vertices:
        edges = in_edges(G, v) if direction == "pull" else out_edges(G, v)
        values = [value(*edge) for edge in edges]
        result.append(combine(values) if values else identity)
    return result


@with_device
@given(reduce_cases(), st.sampled_from(sorted(REDUCTIONS)), st.sampled_from(["pull", "push"]),
       CHUNKS)
def test_neighbor_reduce_builtin_ops(device, case, op, direction, chunk_edges):
    edges, vertices = case
    G = edges.graph(device)
    functor, host_value, combine, identity = REDUCTIONS[op]
    arg = None if vertices is None else np.asarray(vertices, dtype=np.int64)
    got = fr.neighbor_reduce(G, functor, op, vertices=arg, direction=direction,
                             chunk_edges=chunk_edges)
    expected = reference_reduce(G, vertices, direction, host_value, combine, identity)
    got = to_numpy(got)
    assert got.shape == (len(expected),)
    if op == "any":
        assert got.dtype == bool and got.tolist() == expected
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-12)


@with_device
@given(reduce_cases(), st.sampled_from(["pull", "push"]), CHUNKS)
def test_neighbor_reduce_user_combiners(device, case, direction, chunk_edges):
    edges, vertices = case
    G = edges.graph(device)
    xp = G.xp
    arg = None if vertices is None else np.asarray(vertices, dtype=np.int64)

    def run(functor, op, identity):
        return to_numpy(fr.neighbor_reduce(G, functor, op, vertices=arg, direction=direction,
                                           identity=identity, chunk_edges=chunk_edges))

    biggest = run(edge_value, lambda a, b: xp.maximum(a, b), -1e9)
    np.testing.assert_allclose(
        biggest, reference_reduce(G, vertices, direction, edge_value_host, max, -1e9))
    # bitwise-or of one bit per neighbour: associative, commutative, exact
    bits = run(lambda s, d, e, w: xp.left_shift(1, s % 31).astype(np.int64),
               lambda a, b: a | b, 0)
    expected_bits = reference_reduce(
        G, vertices, direction, lambda s, d, e, w: 1 << (s % 31),
        lambda values: int(np.bitwise_or.reduce(values)), 0)
    assert bits.tolist() == expected_bits


def test_neighbor_reduce_mask_vertices_and_constant_functor(device):
    G = fr.Graph.from_edges([0, 0, 1, 3], [1, 2, 2, 3], directed=True, device=device)
    xp = G.xp
    mask = xp.asarray([False, True, True, True])
    in_degree = fr.neighbor_reduce(G, lambda s, d, e, w: 1, "sum", vertices=mask)
    assert to_numpy(in_degree).tolist() == [1, 2, 1]
    out_degree = fr.neighbor_reduce(G, lambda s, d, e, w: 1, "sum", direction="push")
    assert to_numpy(out_degree).tolist() == [2, 1, 0, 1]


def test_neighbor_reduce_without_edges(device):
    G = fr.Graph.from_edges([], [], num_vertices=3, device=device)
    zero = fr.neighbor_reduce(G, edge_value, "sum")
    assert zero.dtype == np.float64 and to_numpy(zero).tolist() == [0.0] * 3
    nothing = fr.neighbor_reduce(G, edge_value, "any")
    assert nothing.dtype == bool and not bool(nothing.any())
    low = fr.neighbor_reduce(G, edge_value, "min", dtype=np.int32)
    assert to_numpy(low).tolist() == [np.iinfo(np.int32).max] * 3
    user = fr.neighbor_reduce(G, edge_value, lambda a, b: a + b, identity=-2.0)
    assert to_numpy(user).tolist() == [-2.0] * 3


@pytest.mark.parametrize("edgeless", [False, True])
def test_neighbor_reduce_bad_arguments(device, edgeless):
    G = fr.Graph.from_edges([], [], num_vertices=2, device=device) if edgeless \
        else fr.Graph.from_edges([0], [1], device=device)
    with pytest.raises(ValueError, match="unknown reduction 'prod'"):
        fr.neighbor_reduce(G, edge_value, "prod")
    with pytest.raises(ValueError, match="unknown direction 'up'"):
        fr.neighbor_reduce(G, edge_value, direction="up")
    with pytest.raises(ValueError, match="identity="):
        fr.neighbor_reduce(G, edge_value, lambda a, b: a + b)


def test_filter_and_compute_name_a_non_frontier_argument():
    with pytest.raises(TypeError, match="filter takes a Frontier, got list"):
        fr.filter([0, 1])
    with pytest.raises(TypeError, match="compute takes a Frontier, got list"):
        fr.compute([0, 1], lambda ids: ids)


@with_device  # its settings let the monkeypatch fixture serve every example
@given(edges=edge_lists(), data=st.data())
def test_cpu_claim_pull_fast_path_equals_the_general_path(edges, data, monkeypatch):
    """The early-exit pull of the built-in claim (frontier/operators/host_pull.py)
    claims what the general path claims, each from an in-neighbour in the frontier."""
    import importlib

    # the module (frontier.operators.advance is also the name of the function)
    advance_module = importlib.import_module("frontier.operators.advance")

    from frontier.operators import host_pull

    G = edges.graph("cpu")
    n = G.num_vertices
    active = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    among = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    start = np.where(np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n))),
                     -1, 3).astype(np.int32)
    # Few single-edge rounds and small chunks, so that small graphs reach the chunks.
    monkeypatch.setattr(host_pull, "ROUNDS", data.draw(st.integers(0, 3)))
    monkeypatch.setattr(host_pull, "FIRST_CHUNK", data.draw(st.integers(1, 3)))
    monkeypatch.setattr(host_pull, "GROWTH", data.draw(st.integers(1, 4)))
    results = []
    for fast in (True, False):
        monkeypatch.setattr(advance_module, "_host_claim_fits", lambda functor, f=fast: f)
        labels, predecessor = start.copy(), np.full(n, -1, dtype=np.int64)
        out = fr.advance(G, fr.Frontier.from_mask(active),
                         fr.functors.ClaimUnvisited(labels, 7, predecessor), direction="pull",
                         among=fr.Frontier.from_mask(among))
        results.append((np.sort(out.ids), labels, predecessor))
    (fast_ids, fast_labels, fast_parent), (ids, labels, _) = results
    np.testing.assert_array_equal(fast_ids, ids)
    np.testing.assert_array_equal(fast_labels, labels)
    src, dst, _ = G.edges()
    arcs = set(zip(src.tolist(), dst.tolist()))
    for v in fast_ids.tolist():
        assert active[fast_parent[v]] and (int(fast_parent[v]), v) in arcs


@pytest.mark.parametrize("first_chunk", [1, 2, 16])
def test_cpu_claim_pull_finds_a_parent_past_the_rounds(first_chunk, monkeypatch):
    from frontier.operators import host_pull

    monkeypatch.setattr(host_pull, "FIRST_CHUNK", first_chunk)
    # vertex 0 has in-neighbours 1..20; only 15 and 18 are in the frontier
    G = fr.Graph.from_edges(np.arange(1, 21), np.zeros(20, dtype=np.int64), num_vertices=21,
                            directed=True, device="cpu")
    active = np.zeros(21, dtype=bool)
    active[[15, 18]] = True
    labels, predecessor = np.full(21, -1, dtype=np.int32), np.full(21, -1, dtype=np.int64)
    labels[1:] = 0
    out = fr.advance(G, fr.Frontier.from_mask(active),
                     fr.functors.ClaimUnvisited(labels, 1, predecessor), direction="pull")
    assert out.ids.tolist() == [0] and labels[0] == 1
    assert predecessor[0] == 15  # the first frontier in-neighbour in in-edge order


@with_device  # its settings let the monkeypatch fixture serve every example
@given(edges=edge_lists(), data=st.data())
def test_cpu_claim_push_fast_path_equals_the_general_path(edges, data, monkeypatch):
    """The push of the built-in claim on the CPU (frontier/operators/host_push.py)
    claims what the general path claims, each from an in-neighbour in the frontier,
    with frontiers that repeat vertices, in batches of a few arcs (a later
    batch sees the earlier ones' claims)."""
    import importlib

    advance_module = importlib.import_module("frontier.operators.advance")
    monkeypatch.setattr(importlib.import_module("frontier.operators.host_push"),
                        "BATCH_ARCS", data.draw(st.integers(1, 8)))
    G = edges.graph("cpu")
    n = G.num_vertices
    frontier_ids = np.array(data.draw(st.lists(st.integers(0, n - 1), max_size=2 * n)),
                            dtype=np.int64)
    start = np.where(np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n))),
                     -1, 3).astype(np.int32)
    results = []
    for fast in (True, False):
        monkeypatch.setattr(advance_module, "_host_claim_fits", lambda functor, f=fast: f)
        labels, predecessor = start.copy(), np.full(n, -1, dtype=np.int64)
        out = fr.advance(G, fr.Frontier.from_ids(frontier_ids, n),
                         fr.functors.ClaimUnvisited(labels, 7, predecessor))
        results.append((np.sort(out.ids), labels, predecessor))
    (fast_ids, fast_labels, fast_parent), (ids, labels, _) = results
    np.testing.assert_array_equal(fast_ids, ids)
    np.testing.assert_array_equal(fast_labels, labels)
    assert len(np.unique(fast_ids)) == len(fast_ids)
    src, dst, _ = G.edges()
    arcs = set(zip(src.tolist(), dst.tolist()))
    members = set(frontier_ids.tolist())
    for v in fast_ids.tolist():
        assert fast_parent[v] in members and (int(fast_parent[v]), v) in arcs
