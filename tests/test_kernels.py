"""Fused GPU kernels against the general path on random graphs.

Each built-in functor is run twice on the GPU: as itself (the operators
dispatch to a fused kernel) and wrapped in a plain lambda (the general path
of vectorized array operations). The answers must agree.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from frontier.operators import fused as kernels
from frontier.operators.fused import fused_advance, fused_neighbor_reduce

pytestmark = pytest.mark.gpu


def general(functor):
    """The same functor, hidden from the fused-kernel dispatch."""
    return lambda src, dst, edge, weight: functor(src, dst, edge, weight)


def host(array):
    return fr.to_numpy(array)


def random_frontier(rng, n, size):
    return rng.choice(n, size=min(size, n), replace=False)


@settings(max_examples=30, deadline=None)
@given(edges=edge_lists(max_vertices=300, max_edges=2000), seed=st.integers(0, 2**31),
       chunk=st.sampled_from([1, 7, 1 << 24]), path=st.sampled_from(["small", "queue", "dense"]))
def test_claim_push_matches_general_path(edges, seed, chunk, path):
    """Each fused push kernel -- one thread per vertex for small low-degree
    frontiers, tiled with an output queue, tiled with a dense output for large
    levels -- against the general path."""
    small = kernels.SMALL_MAX_EDGES if path == "small" else 0
    large = 0 if path == "queue" else 1 << 40
    with mock.patch.object(kernels, "SMALL_MAX_EDGES", small), \
            mock.patch.object(kernels, "LARGE_LEVEL", large), \
            mock.patch.object(kernels, "DENSE_MIN_VERTICES", 0):
        check_claim_push(edges, seed, chunk)


def check_claim_push(edges, seed, chunk):
    G = edges.graph("cuda:0")
    xp = G.xp
    rng = np.random.default_rng(seed)
    n = G.num_vertices
    ids = random_frontier(rng, n, rng.integers(1, n + 1))
    start = np.full(n, -1, np.int32)
    start[ids] = 0
    start[rng.choice(n, n // 3)] = 5  # some already visited
    results = []
    for wrap in (lambda f: f, general):
        labels = xp.asarray(start)
        pred = xp.full(n, -1, dtype=np.int64)
        functor = fr.functors.ClaimUnvisited(labels, 1, pred)
        out = fr.advance(G, xp.asarray(ids), wrap(functor), chunk_edges=chunk)
        results.append((host(labels), host(pred), np.sort(host(out.ids))))
    (fused_labels, fused_pred, fused_out), (labels, pred, out) = results
    np.testing.assert_array_equal(fused_labels, labels)
    np.testing.assert_array_equal(np.unique(fused_out), out)
    assert len(np.unique(fused_out)) == len(fused_out)
    claimed = np.flatnonzero(fused_pred >= 0)
    np.testing.assert_array_equal(claimed, np.flatnonzero(pred >= 0))
    # any frontier vertex with an edge to the claimed vertex is a valid predecessor
    src, dst, _ = G.edges()
    edge_set = set(zip(src.tolist(), dst.tolist()))
    frontier_set = set(ids.tolist())
    for v in claimed.tolist():
        assert fused_pred[v] in frontier_set and (fused_pred[v], v) in edge_set


# (WARP_PULL_MIN, HUB_PULL_MIN): which candidates a thread, a warp or the
# grid scans (one in-degree bound each)
PULL_SCANS = {"thread": (1 << 40, 1 << 40), "warp": (0, 1 << 40), "hub": (0, 0),
              "mixed": (3, 10)}


@settings(max_examples=30, deadline=None)
@given(edges=edge_lists(max_vertices=300, max_edges=2000), seed=st.integers(0, 2**31),
       use_among=st.booleans(), scan=st.sampled_from(sorted(PULL_SCANS)))
def test_claim_pull_matches_general_path(edges, seed, use_among, scan):
    """The pull kernels claim what the general path claims, whether each
    candidate's in-edges are scanned by a thread, a warp or the whole grid."""
    with pull_scans(scan):
        check_claim_pull(edges, seed, use_among)


def pull_scans(scan: str):
    """The pull kernels' degree bounds set for ``scan`` (a context manager)."""
    warp_min, hub_min = PULL_SCANS[scan]
    return mock.patch.multiple(kernels, WARP_PULL_MIN=warp_min, HUB_PULL_MIN=hub_min)


@pytest.mark.parametrize("scan", sorted(PULL_SCANS))
def test_claim_pull_finds_the_last_in_edge(scan):
    """A candidate whose only frontier in-neighbour is the last of 100 is
    claimed from it, however its in-edges are scanned (for a warp the hit
    comes in a late round)."""
    sources = np.arange(1, 101)
    G = fr.Graph.from_edges(sources, np.zeros(100, dtype=np.int64), directed=True,
                            device="cuda:0")
    labels = G.xp.full(G.num_vertices, -1, dtype=np.int32)
    labels[100] = 0
    pred = G.xp.full(G.num_vertices, -1, dtype=np.int32)
    with pull_scans(scan):
        out = fr.advance(G, G.xp.asarray([100]), fr.functors.ClaimUnvisited(labels, 1, pred),
                         direction="pull")
    assert host(out.ids).tolist() == [0] and out.size == 1
    assert int(labels[0]) == 1 and int(pred[0]) == 100
    assert (host(labels)[1:100] == -1).all()


def check_claim_pull(edges, seed, use_among):
    G = edges.graph("cuda:0")
    xp = G.xp
    rng = np.random.default_rng(seed)
    n = G.num_vertices
    active = random_frontier(rng, n, rng.integers(1, n + 1))
    start = np.full(n, -1, np.int32)
    start[active] = 0
    among = (start == -1) & (rng.random(n) < 0.7) if use_among else None
    results = []
    for wrap in (lambda f: f, general):
        labels = xp.asarray(start)
        pred = xp.full(n, -1, dtype=np.int32)
        functor = fr.functors.ClaimUnvisited(labels, 1, pred)
        out = fr.advance(G, xp.asarray(active), wrap(functor), direction="pull",
                         among=None if among is None else xp.asarray(among))
        results.append((host(labels), host(pred), np.sort(host(out.ids)), out.size))
    (fused_labels, fused_pred, fused_out, fused_size), (labels, _, out, size) = results
    np.testing.assert_array_equal(fused_labels, labels)
    np.testing.assert_array_equal(fused_out, out)
    assert fused_size == size == len(out)
    in_edges = set(zip(*[a.tolist() for a in G.edges()[:2]]))
    for v in fused_out.tolist():
        assert fused_pred[v] in set(active.tolist()) and (fused_pred[v], v) in in_edges


@settings(max_examples=30, deadline=None)
@given(edges=edge_lists(max_vertices=300, max_edges=2000, weighted=True),
       seed=st.integers(0, 2**31), path=st.sampled_from(["small", "tiled"]))
def test_relax_push_matches_general_path(edges, seed, path):
    """Each relaxation step, and so the fixed point, gives the same distances
    on both paths (offers use the distances from the start of the step), for
    the thread-per-vertex kernels of small frontiers and the tiled ones."""
    small = kernels.SMALL_MAX_EDGES if path == "small" else 0
    with mock.patch.object(kernels, "SMALL_MAX_EDGES", small):
        check_relax_push(edges, seed)


def check_relax_push(edges, seed):
    G = edges.graph("cuda:0")
    xp = G.xp
    rng = np.random.default_rng(seed)
    n = G.num_vertices
    ids = random_frontier(rng, n, rng.integers(1, n + 1))
    start = np.full(n, np.inf)
    start[ids] = rng.integers(0, 20, len(ids))
    results = []
    for wrap in (lambda f: f, general):
        distance = xp.asarray(start)
        pred = xp.full(n, -1, dtype=np.int64)
        frontier = fr.Frontier.from_ids(xp.asarray(ids), n)
        steps = []
        while not frontier.is_empty():
            frontier = fr.advance(G, frontier, wrap(fr.functors.RelaxMin(distance, pred)))
            assert len(np.unique(host(frontier.ids))) == frontier.size or wrap is general
            frontier = frontier.unique()
            steps.append(host(distance))
        results.append((host(distance), host(pred), steps))
    (fused_dist, fused_pred, fused_steps), (dist, _, steps) = results
    assert len(fused_steps) == len(steps)
    for fused_step, step in zip(fused_steps, steps):
        np.testing.assert_array_equal(fused_step, step)
    src, dst, weights = G.edges()
    weight_of = {}
    for s, d, w in zip(src.tolist(), dst.tolist(), weights.tolist()):
        weight_of.setdefault((s, d), []).append(w)
    for v in np.flatnonzero(fused_pred >= 0).tolist():  # predecessor gives the distance
        p = int(fused_pred[v])
        assert any(fused_dist[p] + w == fused_dist[v] for w in weight_of[(p, v)])
    assert (fused_pred[fused_dist < start] >= 0).all()  # every improved vertex has one


@settings(max_examples=20, deadline=None)
@given(edges=edge_lists(max_vertices=300, max_edges=2000), seed=st.integers(0, 2**31),
       weighted=st.booleans())
def test_spmv_neighbor_reduce_matches_general_path(edges, seed, weighted):
    G = edges.graph("cuda:0")
    values = G.xp.asarray(np.random.default_rng(seed).random(G.num_vertices))
    functor = fr.functors.SourceValue(values, weighted=weighted)
    fused = fr.neighbor_reduce(G, functor, "sum")
    plain = fr.neighbor_reduce(G, general(functor), "sum")
    np.testing.assert_allclose(host(fused), host(plain), rtol=1e-12, atol=1e-12)


def test_dispatch_declines_user_functors_and_cpu_graphs():
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cuda:0")
    labels = G.xp.full(3, -1, dtype=np.int32)
    user = general(fr.functors.ClaimUnvisited(labels, 1))
    frontier = fr.Frontier.from_ids([0], 3, "cuda:0")
    assert fused_advance(G, frontier, user, "push", None) is None
    assert fused_neighbor_reduce(G, user, "sum", None, "pull", None) is None
    float_labels = G.xp.full(3, -1.0)
    assert fused_advance(G, frontier, fr.functors.ClaimUnvisited(float_labels, 1),
                         "push", None) is None


@settings(max_examples=20, deadline=None)
@given(edges=edge_lists(max_vertices=300, max_edges=2000), seed=st.integers(0, 2**31),
       direction=st.sampled_from(["push", "pull"]), push_too=st.booleans())
def test_neighbour_value_sums_over_subsets_match_general_path(edges, seed, direction, push_too):
    G = edges.graph("cuda:0")
    rng = np.random.default_rng(seed)
    n = G.num_vertices
    values = G.xp.asarray(rng.random(n))
    subset = G.xp.asarray(rng.choice(n, rng.integers(0, n + 1), replace=False))
    cls = fr.functors.SourceValue if direction == "pull" else fr.functors.DestinationValue
    functor = cls(values, weighted=push_too)
    for vertices in (subset, None):
        fused = fr.neighbor_reduce(G, functor, "sum", vertices=vertices, direction=direction)
        plain = fr.neighbor_reduce(G, general(functor), "sum", vertices=vertices,
                                   direction=direction)
        np.testing.assert_allclose(host(fused), host(plain), rtol=1e-12, atol=1e-12)


@settings(max_examples=20, deadline=None)
@given(edges=edge_lists(max_vertices=300, max_edges=2000), seed=st.integers(0, 2**31))
def test_hook_roots_reaches_the_same_fixed_point(edges, seed):
    """Hooking plus pointer jumping until nothing changes labels every vertex
    with its component's smallest id on both paths."""
    G = edges.graph("cuda:0")
    xp = G.xp
    n = G.num_vertices
    everyone = fr.Frontier.all(n, "cuda:0")
    results = []
    for wrap in (lambda f: f, general):
        labels = xp.arange(n, dtype=np.int32)
        while True:
            before = labels.copy()
            fr.advance(G, everyone, wrap(fr.functors.HookRoots(labels)))
            if G.directed:
                fr.advance(G, everyone, wrap(fr.functors.HookRoots(labels)), direction="pull")
            while bool((labels[labels] != labels).any()):
                labels[:] = labels[labels]
            if bool((labels == before).all()):
                break
        results.append(host(labels))
    np.testing.assert_array_equal(results[0], results[1])


def test_output_counters_are_zero_after_their_ring_wraps():
    """The fused kernels' output counters come from a ring zeroed every
    COUNTERS launches: with a ring of 3 (4 for a request of 4 counters), a
    BFS of 60 levels (and a DOBFS, its rule's checks included) still finds
    every depth."""
    from frontier.kernels import workspace
    from primitives import bfs, dobfs

    G = fr.generators.grid(1, 60, device="cuda:0")
    want = np.arange(60)
    with mock.patch.object(workspace, "COUNTERS", 3):
        for run in (bfs, dobfs):
            np.testing.assert_array_equal(host(run(G, source=0).depth), want)


@pytest.mark.parametrize("count", [1, 2, 255, 4095, 4096, 4097, 9000, 16384])
@pytest.mark.parametrize("vertex_dtype", [np.int32, np.int64])
def test_block_degree_scan_matches_cupy_scan(count, vertex_dtype):
    """edges_of's one-block degree scan (chunks of 4096 ids with a carry)
    and its long-list path (list_degrees, then CuPy's cumsum) against the
    host's scan, on a graph with zero-degree vertices and repeated ids in
    the list."""
    from frontier.kernels import edges

    rng = np.random.default_rng(count)
    n = 5000
    src = rng.integers(0, n // 2, 40_000)  # vertices n/2.. have no out-edges
    G = fr.Graph.from_edges(src, rng.integers(0, n, 40_000), num_vertices=n, directed=True,
                            vertex_dtype=vertex_dtype, device="cuda:0")
    assert G.columns.dtype == vertex_dtype
    ids = G.xp.asarray(rng.integers(0, n, count).astype(vertex_dtype))
    block = edges.edges_of(G, ids)
    with mock.patch.object(edges, "BLOCK_SCAN_MAX", 0):
        scanned = edges.edges_of(G, ids)
    want = np.cumsum(host(G.out_degree())[host(ids)])
    np.testing.assert_array_equal(host(block.ends), want)
    np.testing.assert_array_equal(host(scanned.ends), want)
    assert block.total == scanned.total == int(want[-1])


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
@pytest.mark.parametrize("pinned", [True, False])
def test_read_last_reads_the_last_entry(dtype, pinned):
    """workspace.read_last, through pinned memory or CuPy's read, after a
    kernel that wrote the entry (the read waits for the stream)."""
    import cupy

    from frontier.kernels import workspace

    with mock.patch.object(workspace, "PINNED_READS", pinned):
        for length, last in [(1, 0), (5, 123_456_789_012), (3, 2**40 + 7)]:
            array = cupy.arange(length, dtype=dtype)
            array[-1:] += dtype(last)  # a kernel on the stream
            assert workspace.read_last(array) == length - 1 + last
        assert workspace.read_last(cupy.arange(10, dtype=dtype)[2:6]) == 5  # a view
        assert workspace.read_last(cupy.arange(10, dtype=dtype)[::3]) == 9  # strided
        if dtype == np.int64:
            assert workspace.read_last(cupy.asarray([3, -2**40 - 1], dtype=dtype)) == -2**40 - 1


@pytest.mark.parametrize("pinned", [True, False])
def test_counters_read_zero_and_then_what_a_kernel_added(pinned):
    """workspace.counter hands out distinct zeroed device words (an address
    each) and read_counter reads one after the kernels that added to it,
    through pinned memory or a plain copy; with a ring of 3 the fourth
    counter is the first again, zeroed."""
    import cupy

    from frontier.kernels import workspace

    add = cupy.ElementwiseKernel("uint64 address, uint64 amount", "",
                                 "atomicAdd((unsigned long long*)address, amount)",
                                 "test_add_to_counter")
    workspace.release()
    with mock.patch.object(workspace, "PINNED_READS", pinned), \
            mock.patch.object(workspace, "COUNTERS", 3):
        taken = [workspace.counter() for _ in range(3)]
        assert len(set(int(address) for address in taken)) == 3
        for amount, address in enumerate(taken):
            assert workspace.read_counter(address) == 0
            add(cupy.full(5, int(address), dtype=np.uint64),
                cupy.full(5, 2**33 + amount, dtype=np.uint64))
            assert workspace.read_counter(address) == 5 * (2**33 + amount)
        again = workspace.counter()
        assert again == taken[0] and workspace.read_counter(again) == 0
    workspace.release()


@pytest.mark.parametrize("dtype,unset", [(np.int32, -1), (np.bool_, False)])
def test_flags_to_bits_sets_the_bit_of_every_value_but_unset(dtype, unset):
    """The bitmap the fused pushes and pulls build from labels or a mask,
    one thread per 32-value word: 16-byte loads where the values start on a
    16-byte boundary, one value at a time where they do not (a view one
    entry in) and in the last, partial word."""
    from frontier.kernels import workspace

    rng = np.random.default_rng(7)
    for n in (1, 31, 32, 33, 64, 100, 4096, 100_003):
        base = rng.integers(-1, 2, n + 1).astype(dtype) if dtype == np.int32 \
            else rng.random(n + 1) < 0.3
        device_base = fr.get_device("cuda:0").asarray(base)
        for values, device_values in ((base[:n], device_base[:n]),  # aligned,
                                      (base[1:], device_base[1:])):  # then one entry in
            bits = host(kernels._bits_unless(device_values, dtype(unset)))
            want = np.zeros(-(-n // 32) * 32, dtype=bool)
            want[:n] = values != unset
            words = np.packbits(want.reshape(-1, 32)[:, ::-1], axis=1).view(">u4").ravel()
            np.testing.assert_array_equal(bits[:len(words)], words.astype(np.uint32))
    workspace.release()
