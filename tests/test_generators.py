"""Generators: the Graph500 Kronecker edge list and graph, R-MAT and grids."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import frontier as fr
from frontier.device import to_numpy
from frontier.generators import grid, kronecker, kronecker_edges, rmat


def quadrant_frequencies(src, dst, size: int):
    counts = np.zeros((size, size))
    np.add.at(counts, (to_numpy(src), to_numpy(dst)), 1)
    return counts / len(src)


def assert_simple_undirected(G):
    """Loop-free, no parallel arcs, and every arc has its reverse with the same weight."""
    src, dst, weights = G.edges()
    assert not G.directed and not (src == dst).any()
    keys = src.astype(np.int64) * G.num_vertices + dst
    assert len(np.unique(keys)) == len(keys)
    reverse = dst.astype(np.int64) * G.num_vertices + src
    order, match = np.argsort(keys), np.argsort(reverse)
    np.testing.assert_array_equal(keys[order], reverse[match])
    if weights is not None:
        np.testing.assert_array_equal(weights[order], weights[match])


def test_kronecker_edges_size_range_and_dtype(device):
    src, dst = kronecker_edges(7, edgefactor=5, seed=3, device=device)
    assert len(src) == len(dst) == 5 * 2**7
    assert src.dtype == dst.dtype == np.int32
    both = np.concatenate([to_numpy(src), to_numpy(dst)])
    assert both.min() >= 0 and both.max() < 2**7
    # Duplicates and self loops are kept in the raw list: at this density some occur.
    keys = to_numpy(src).astype(np.int64) * 2**7 + to_numpy(dst)
    assert len(np.unique(keys)) < len(keys)


def test_kronecker_edges_is_deterministic_per_seed(device):
    first = kronecker_edges(8, seed=11, device=device)
    again = kronecker_edges(8, seed=11, device=device)
    other = kronecker_edges(8, seed=12, device=device)
    for mine, same in zip(first, again):
        np.testing.assert_array_equal(to_numpy(mine), to_numpy(same))
    assert not np.array_equal(to_numpy(first[0]), to_numpy(other[0]))


@pytest.mark.parametrize("a, b, c", [(0.57, 0.19, 0.19), (0.1, 0.2, 0.3)])
def test_one_bit_picks_quadrants_with_the_initiator_probabilities(a, b, c):
    # With scale 1 the vertex permutation either keeps or swaps the two labels.
    src, dst = kronecker_edges(1, edgefactor=100_000, seed=5, a=a, b=b, c=c, device="cpu")
    freq = quadrant_frequencies(src, dst, 2)
    initiator = np.array([[a, b], [c, 1 - a - b - c]])
    assert min(np.abs(freq - initiator).max(), np.abs(freq - initiator[::-1, ::-1]).max()) < 0.01


def test_two_bits_are_independent_kronecker_levels():
    src, dst = kronecker_edges(2, edgefactor=100_000, seed=9, device="cpu")
    freq = quadrant_frequencies(src, dst, 4)
    initiator = np.array([[0.57, 0.19], [0.19, 0.05]])
    # Vertex (hi, lo) = 2*hi + lo: bit 0 is the first Kronecker level, bit 1 the second.
    expected = np.kron(initiator, initiator)
    best = min(np.abs(freq[np.ix_(p, p)] - expected).max()
               for p in map(list, itertools.permutations(range(4))))
    assert best < 0.01


def test_edge_order_is_permuted():
    src, _ = kronecker_edges(10, seed=1, device="cpu")
    assert not (np.diff(src) >= 0).all() and not (np.diff(src) <= 0).all()


def test_kronecker_graph_is_the_cleaned_edge_list(device):
    G = kronecker(9, edgefactor=8, seed=4, device=device)
    assert G.num_vertices == 2**9 and not G.directed
    assert_simple_undirected(G)
    src, dst = kronecker_edges(9, edgefactor=8, seed=4, device=device)
    expected = fr.Graph.from_edges(src, dst, num_vertices=2**9, deduplicate=True,
                                   remove_self_loops=True, device=device)
    np.testing.assert_array_equal(to_numpy(G.offsets), to_numpy(expected.offsets))
    np.testing.assert_array_equal(to_numpy(G.columns), to_numpy(expected.columns))
    # Graph500 degree skew: the hub has far more than the mean degree.
    degree = to_numpy(G.out_degree())
    assert degree.max() > 10 * degree.mean()


def test_kronecker_weights_are_symmetric_and_in_range(device):
    G = kronecker(8, seed=2, weights=(1, 64), device=device)
    assert_simple_undirected(G)
    weights = to_numpy(G.weights)
    assert weights.dtype.kind == "i" and weights.min() >= 1 and weights.max() <= 64
    assert len(np.unique(weights)) == 64
    same = kronecker(8, seed=2, weights=(1, 64), device=device)
    np.testing.assert_array_equal(weights, to_numpy(same.weights))


def test_rmat_directed_and_degenerate_probabilities(device):
    G = rmat(8, a=0.45, b=0.15, c=0.15, seed=1, directed=True, device=device)
    assert G.directed and G.num_vertices == 256 and G.num_edges > 0
    src, dst, _ = G.edges()
    keys = src.astype(np.int64) * 256 + dst
    assert not (src == dst).any() and len(np.unique(keys)) == len(keys)
    # a = 1 puts every edge in quadrant (0, 0) at every level: all self loops, dropped.
    assert rmat(6, a=1.0, b=0.0, c=0.0, device=device).num_edges == 0
    # d = 1 (a = b = c = 0) does the same with the last vertex.
    assert rmat(6, a=0.0, b=0.0, c=0.0, device=device).num_edges == 0
    # b = 1 gives only edges from the all-zero id to the all-one id, a single edge.
    assert rmat(6, a=0.0, b=1.0, c=0.0, device=device).num_edges == 1


@pytest.mark.parametrize("kwargs, message", [
    ({"a": -0.1, "b": 0.2, "c": 0.2}, "a=-0.1 must be a probability"),
    ({"a": 0.5, "b": 1.5, "c": 0.0}, "b=1.5 must be a probability"),
    ({"a": 0.5, "b": 0.3, "c": 0.3}, "a + b + c = 1.1"),
    ({"a": 0.5, "b": 0.2, "c": float("nan")}, "c=nan must be a probability"),
])
def test_rmat_rejects_bad_probabilities(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("+", r"\+")):
        rmat(4, device="cpu", **kwargs)


@pytest.mark.parametrize("call, message", [
    (lambda: kronecker(-1), "scale=-1 must be a non-negative integer"),
    (lambda: kronecker(2.5), "scale=2.5 must be a non-negative integer"),
    (lambda: kronecker(True), "scale=True"),
    (lambda: kronecker(4, edgefactor=0), "edgefactor=0 must be an integer >= 1"),
    (lambda: kronecker_edges(4, edgefactor=1.5), "edgefactor=1.5"),
    (lambda: kronecker(4, weights=(5, 1)), r"weights=\(5, 1\) must be integers with low <= high"),
    (lambda: kronecker(4, weights=(1.0, 2)), "must be integers"),
    (lambda: kronecker(4, weights=(1,)), r"weights=\(1,\) must be a \(low, high\) pair"),
    (lambda: kronecker(4, weights=(0, 2**40)), "must fit in int32"),
    (lambda: grid(0, 3), "rows=0 must be a positive integer"),
    (lambda: grid(3, "4"), "cols='4' must be a positive integer"),
])
def test_argument_validation(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_grid_degree_pattern(device):
    rows, cols = 5, 7
    G = grid(rows, cols, device=device)
    assert (G.num_vertices, G.num_edges) == (35, rows * (cols - 1) + (rows - 1) * cols)
    assert_simple_undirected(G)
    degree = to_numpy(G.out_degree()).reshape(rows, cols)
    expected = np.full((rows, cols), 4)
    expected[[0, -1], :] -= 1
    expected[:, [0, -1]] -= 1
    np.testing.assert_array_equal(degree, expected)
    src, dst, _ = G.edges()
    assert set(np.abs(dst - src).tolist()) == {1, cols}


def test_grid_small_shapes_and_weights(device):
    assert grid(1, 1, device=device).num_edges == 0
    path = grid(1, 5, device=device)
    assert to_numpy(path.out_degree()).tolist() == [1, 2, 2, 2, 1]
    W = grid(6, 6, weights=(3, 9), seed=1, device=device)
    assert_simple_undirected(W)
    weights = to_numpy(W.weights)
    assert weights.min() >= 3 and weights.max() <= 9 and len(np.unique(weights)) == 7


# the counter-based edge stream and the chunked CSR build ---------------------------------


def test_edge_ranges_are_slices_of_the_whole_list(device):
    src, dst = kronecker_edges(9, edgefactor=4, seed=7, device=device)
    for start, stop in [(0, 1), (5, 700), (1000, 2048), (2048, 2048)]:
        part_src, part_dst = kronecker_edges(9, edgefactor=4, seed=7, start=start, stop=stop,
                                             device=device)
        np.testing.assert_array_equal(to_numpy(part_src), to_numpy(src)[start:stop])
        np.testing.assert_array_equal(to_numpy(part_dst), to_numpy(dst)[start:stop])


@pytest.mark.parametrize("start, stop", [(-1, 3), (3, 2), (0, 2**9 * 4 + 1), (0.5, 3)])
def test_edge_range_outside_the_list_is_an_error(start, stop):
    with pytest.raises(ValueError, match="need 0 <= start <= stop <= 2048"):
        kronecker_edges(9, edgefactor=4, start=start, stop=stop, device="cpu")


@pytest.mark.gpu
@pytest.mark.parametrize("scale, weights", [(0, None), (5, (1, 64)), (17, (-3, 3)), (33, None)])
def test_gpu_stream_kernel_equals_the_numpy_stream(scale, weights):
    """The fused CUDA generator computes exactly the NumPy path's integers."""
    import cupy

    from frontier.kronecker import KroneckerStream

    stream = KroneckerStream(scale, 50_000, seed=scale, a=0.45, b=0.2, c=0.15, weights=weights)
    for start, stop in [(0, 50_000), (12_345, 20_000)]:
        on_gpu = stream.edges(cupy, start, stop)
        on_cpu = stream.edges(np, start, stop)
        for gpu_array, cpu_array in zip(on_gpu, on_cpu):
            if cpu_array is None:
                assert gpu_array is None
            else:
                assert gpu_array.dtype == cpu_array.dtype
                np.testing.assert_array_equal(gpu_array.get(), cpu_array)


@pytest.mark.gpu
def test_same_seed_same_graph_on_cpu_and_gpu():
    on_cpu = kronecker(10, seed=3, weights=(1, 9), device="cpu")
    on_gpu = kronecker(10, seed=3, weights=(1, 9), device="cuda:0")
    for name in ("offsets", "columns", "weights"):
        np.testing.assert_array_equal(getattr(on_cpu, name), to_numpy(getattr(on_gpu, name)))
    assert on_cpu.num_edges == on_gpu.num_edges


@settings(max_examples=40)
@given(scale=st.integers(0, 7), edgefactor=st.integers(1, 6), seed=st.integers(0, 99),
       directed=st.booleans(), weighted=st.booleans(), simple=st.booleans(),
       chunk_edges=st.integers(1, 300), sort_arcs=st.integers(1, 300))
def test_chunked_build_equals_from_edges(scale, edgefactor, seed, directed, weighted, simple,
                                         chunk_edges, sort_arcs):
    """Chunks and sort batches of any size give Graph.from_edges's arrays."""
    run_chunked_build_check("cpu", scale, edgefactor, seed, directed, weighted, simple,
                            chunk_edges, sort_arcs)


@pytest.mark.gpu
@pytest.mark.parametrize("directed, weighted", list(itertools.product([False, True], repeat=2)))
def test_chunked_build_on_gpu_equals_from_edges(directed, weighted):
    run_chunked_build_check("cuda:0", 12, 8, 5, directed, weighted, True, 10_000, 7_000)
    run_chunked_build_check("cuda:0", 9, 3, 6, directed, weighted, False, 1_000, 100)


def run_chunked_build_check(device, scale, edgefactor, seed, directed, weighted, simple,
                            chunk_edges, sort_arcs):
    from frontier.build import csr_from_stream
    from frontier.device import get_device
    from frontier.kronecker import KroneckerStream

    dev = get_device(device)
    stream = KroneckerStream(scale, edgefactor << scale, seed,
                             weights=(1, 4) if weighted else None)
    built = csr_from_stream(stream, directed=directed, deduplicate=simple,
                            remove_self_loops=simple, device=dev, chunk_edges=chunk_edges,
                            sort_arcs=sort_arcs)
    src, dst, weights = stream.edges(dev.xp, 0, stream.num_edges)
    expected = fr.Graph.from_edges(src, dst, weights, stream.num_vertices, directed,
                                   deduplicate=simple, remove_self_loops=simple, device=dev)
    for name in ("offsets", "columns", "weights"):
        mine, theirs = getattr(built, name), getattr(expected, name)
        if theirs is None:
            assert mine is None
        else:
            assert mine.dtype == theirs.dtype
            np.testing.assert_array_equal(to_numpy(mine), to_numpy(theirs))
    assert built.num_edges == expected.num_edges
    assert built.is_simple() == expected.is_simple()


def test_chunked_build_checks_the_memory_limit(monkeypatch):
    monkeypatch.setenv("FRONTIER_MEMORY_LIMIT", "100K")
    with pytest.raises(fr.DeviceMemoryError,
                       match=r"the CSR of (up to )?\d+ arcs does not fit on cpu"):
        kronecker(12, device="cpu")
    monkeypatch.setenv("FRONTIER_MEMORY_LIMIT", "1G")
    assert kronecker(12, device="cpu").num_vertices == 4096
    # the chunked path checks again once it knows the number of arcs
    monkeypatch.setenv("FRONTIER_MEMORY_LIMIT", "600K")
    from frontier.build import csr_from_stream
    from frontier.device import get_device
    from frontier.kronecker import KroneckerStream

    with pytest.raises(fr.DeviceMemoryError, match=r"the CSR of \d+ arcs does not fit"):
        csr_from_stream(KroneckerStream(12, 16 << 12, 0), directed=False, deduplicate=True,
                        remove_self_loops=True, device=get_device("cpu"), chunk_edges=1000)
