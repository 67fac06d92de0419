"""Fast paths, second round: the all-vertex edge list reads nothing from the
device, the fused SSSP relaxation is exact for either sign, and the general
path cuts its edges into chunks that fit the edge budget."""

from __future__ import annotations

import importlib
import os
import re
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from frontier.kernels.edges import edges_of
from frontier.operators import fused as kernels

# the modules (frontier.operators.advance is also the name of the function)
expand_module = importlib.import_module("frontier.operators.expand")
BUDGET = expand_module.BUDGET_ENVIRONMENT
# Larger than any test graph: the general path then takes one chunk.
ONE_CHUNK = 1 << 30


# edges_of(graph, None): no device read -------------------------------------------------


class NoScalarReads(np.ndarray):
    """An offsets array that fails on reading one element (a device-to-host
    sync on a GPU); slices and gathers still work."""

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)):
            raise AssertionError(f"scalar read offsets[{key}]")
        return super().__getitem__(key)


@given(edges=edge_lists(max_vertices=60, max_edges=300))
def test_all_vertex_edge_list_counts_arcs_without_reading_offsets(edges):
    G = edges.graph("cpu")
    ids = np.arange(G.num_vertices)[::2]
    assert edges_of(G, ids).total == int(np.diff(G.offsets)[ids].sum())  # an id list: one read
    in_edges = G.in_edges()
    expected_ends = G.offsets[1:].copy()
    G.offsets = G.offsets.view(NoScalarReads)
    in_edges.offsets = in_edges.offsets.view(NoScalarReads)
    for incoming in (False, True):
        listed = edges_of(G, None, incoming=incoming)
        assert listed.total == G.num_arcs and listed.count == G.num_vertices
        assert listed.vertices is None
    np.testing.assert_array_equal(edges_of(G, None).ends, expected_ends)


# fused RelaxMin: any sign ------------------------------------------------------------


def plain_relax_min(distance, predecessor):
    """``RelaxMin`` as a user function: the general path, on any device."""
    def relax(src, dst, edge, weight):
        step = 1 if weight is None else weight
        improved = fr.scatter_min(distance, dst, distance[src] + step)
        predecessor[dst[improved]] = src[improved]
        return improved
    return relax


def signed_case(edges, seed, weight_dtype, distance_dtype, integral, device):
    """A graph with weights of both signs (``None`` if unweighted), starting
    distances of both signs (some ``inf``) and a random frontier."""
    rng = np.random.default_rng(seed)
    n = edges.num_vertices
    draw = (lambda size: rng.integers(-6, 7, size)) if integral \
        else (lambda size: rng.uniform(-10.0, 10.0, size))
    weights = None if edges.weights is None else draw(len(edges.src)).astype(weight_dtype)
    G = fr.Graph.from_edges(edges.src, edges.dst, weights, n, edges.directed, device=device)
    start = np.full(n, np.inf, dtype=distance_dtype)
    known = rng.random(n) < 0.8
    start[known] = draw(int(known.sum()))
    active = rng.random(n) < rng.uniform(0.1, 1.0)
    return G, start, active


@with_device
@given(edges=edge_lists(max_vertices=200, max_edges=1500), seed=st.integers(0, 2**31),
       weight_dtype=st.sampled_from([np.float32, np.float64]),
       distance_dtype=st.sampled_from([np.float32, np.float64]),
       integral=st.booleans(), dense=st.booleans(), small=st.booleans())
def test_relax_min_of_either_sign_matches_general_path(device, edges, seed, weight_dtype,
                                                       distance_dtype, integral, dense, small):
    """One advance of the built-in ``RelaxMin`` (the fused kernel on a GPU) and
    of a plain function calling ``scatter_min`` (the general path) give the
    same distances and the same output set, with negative weights and
    distances; every improved vertex's predecessor offers its new distance."""
    G, start, active = signed_case(edges, seed, weight_dtype, distance_dtype, integral, device)
    xp, n = G.xp, G.num_vertices
    frontier_ids = np.flatnonzero(active)
    results = []
    for builtin in (True, False):
        distance = xp.asarray(start).copy()  # np.asarray would share start
        predecessor = xp.full(n, -1, dtype=np.int64)
        functor = fr.functors.RelaxMin(distance, predecessor) if builtin \
            else plain_relax_min(distance, predecessor)
        frontier = fr.Frontier.from_mask(xp.asarray(active)) if dense \
            else fr.Frontier.from_ids(xp.asarray(frontier_ids), n)
        # small: a GPU's thread-per-vertex kernels where they fit; else the tiled ones
        with mock.patch.object(kernels, "_relax_push", wraps=kernels._relax_push) as fused, \
                mock.patch.object(kernels, "SMALL_MAX_EDGES",
                                  kernels.SMALL_MAX_EDGES if small else 0):
            out = fr.advance(G, frontier, functor, chunk_edges=ONE_CHUNK)
        assert fused.call_count == (1 if builtin and G.device.is_gpu else 0)
        ids = fr.to_numpy(out.ids)
        assert len(np.unique(ids)) == len(ids)
        results.append((fr.to_numpy(distance), np.sort(ids), fr.to_numpy(predecessor)))
    (fused_distance, fused_out, fused_pred), (distance, out, _) = results
    np.testing.assert_array_equal(fused_distance, distance)
    assert fused_distance.dtype == distance.dtype == np.dtype(distance_dtype)
    np.testing.assert_array_equal(fused_out, out)
    np.testing.assert_array_equal(out, np.flatnonzero(distance < start))
    src, dst, weights = G.edges()
    weights = np.ones(len(src)) if weights is None else weights.astype(np.float64)
    offer = (start[src].astype(np.float64) + weights).astype(distance_dtype)
    for v in fused_out.tolist():
        p = fused_pred[v]
        assert p >= 0 and active[p]
        assert ((src == p) & (dst == v) & (offer == fused_distance[v])).any()
    assert (fused_pred[np.setdiff1d(np.arange(n), fused_out)] == -1).all()


def test_sssp_still_rejects_negative_weights(device):
    from primitives import sssp

    G = fr.Graph.from_edges([0, 1], [1, 2], weights=[1.0, -0.5], device=device)
    with pytest.raises(ValueError, match="sssp needs non-negative weights"):
        sssp(G, 0)


# the general path's edge budget ---------------------------------------------------------


def recorder(calls, accept):
    """A functor that records every batch it sees and accepts by ``accept``."""
    def functor(src, dst, edge, weight):
        calls.append((src.copy(), dst.copy(), edge.copy(),
                      None if weight is None else weight.copy()))
        return accept(src, dst, edge)
    return functor


def batches_joined(calls):
    """Sources, destinations, edge ids and (if any) weights of all calls, in order."""
    return [np.concatenate([call[i] for call in calls]) for i in range(4)
            if calls[0][i] is not None]


@given(edges=edge_lists(max_vertices=80, max_edges=600), seed=st.integers(0, 2**31),
       direction=st.sampled_from(["push", "pull"]), budget=st.sampled_from(["1", "150", "1K"]))
def test_small_edge_budget_gives_many_chunks_and_the_same_answer(edges, seed, direction,
                                                                  budget):
    G = edges.graph("cpu")
    rng = np.random.default_rng(seed)
    frontier = np.flatnonzero(rng.random(G.num_vertices) < 0.7)
    accept = lambda src, dst, edge: (src + 2 * dst + edge) % 3 == 0  # noqa: E731
    runs = []
    for environment, chunk_edges in (({BUDGET: budget}, None), ({}, ONE_CHUNK)):
        calls = []
        with mock.patch.dict(os.environ, environment):
            out = fr.advance(G, frontier, recorder(calls, accept), direction=direction,
                             chunk_edges=chunk_edges)
        runs.append((calls, np.sort(out.ids)))
    (small_calls, small_out), (one_calls, one_out) = runs
    np.testing.assert_array_equal(small_out, one_out)
    assert len(one_calls) <= 1
    if not one_calls:
        assert not small_calls
        return
    for small, one in zip(batches_joined(small_calls), batches_joined(one_calls)):
        np.testing.assert_array_equal(small, one)
    chunk = max(1, fr.memory.memory_limit(budget) // expand_module.edge_bytes(G, 1))
    # a batch is whole vertices: under `chunk` edges before its last vertex
    biggest = chunk + int(np.diff(G.offsets).max(initial=0)) + \
        int(np.diff(G.in_edges().offsets).max(initial=0))
    assert all(len(call[1]) <= biggest for call in small_calls)
    edge_count = len(batches_joined(one_calls)[1])
    if edge_count > biggest:
        assert len(small_calls) > 1


@given(edges=edge_lists(max_vertices=80, max_edges=600), direction=st.sampled_from(
    ["push", "pull"]))
def test_neighbor_reduce_under_a_small_edge_budget(edges, direction):
    G = edges.graph("cpu")
    values = np.random.default_rng(0).random(G.num_vertices)
    calls = []

    def neighbour_value(src, dst, edge, weight):
        calls.append(len(edge))
        return values[src if direction == "pull" else dst]

    with mock.patch.dict(os.environ, {BUDGET: "100"}):
        small = fr.neighbor_reduce(G, neighbour_value, "min", direction=direction)
    assert len(calls) >= min(1, G.num_arcs) and sum(calls) == G.num_arcs
    one = fr.neighbor_reduce(G, neighbour_value, "min", direction=direction,
                             chunk_edges=ONE_CHUNK)
    np.testing.assert_array_equal(small, one)


def test_default_budget_is_a_share_of_free_memory_read_once_per_call():
    G = fr.Graph.from_edges(np.arange(999), np.arange(1, 1000), device="cpu")
    per_edge = expand_module.edge_bytes(G, 1)
    free = 8 * 50 * per_edge  # an eighth of it: 50 edges
    calls = []
    with mock.patch.dict(os.environ), \
            mock.patch.object(expand_module, "free_bytes", return_value=free) as read:
        os.environ.pop(BUDGET, None)
        assert expand_module.default_chunk_edges(G, 1) == 50
        read.reset_mock()
        with mock.patch.object(expand_module, "SMALL_EXPANSION_EDGES", 0):
            fr.advance(G, np.arange(1000), recorder(calls, lambda s, d, e: d > s))
        assert read.call_count == 1
        assert len(calls) > 20 and max(len(call[1]) for call in calls) <= 52
        read.return_value = 1 << 50  # capped
        assert expand_module.default_chunk_edges(G, 1) == expand_module.DEFAULT_CHUNK_EDGES
        read.return_value = None  # unknown free memory
        assert expand_module.default_chunk_edges(G, 1) == expand_module.DEFAULT_CHUNK_EDGES
        read.return_value = 1  # never below one edge
        assert expand_module.default_chunk_edges(G, 1) == 1


def test_a_small_push_is_one_chunk_without_reading_the_free_memory():
    """A push over at most SMALL_EXPANSION_EDGES edges (frontier size times
    the largest degree) skips the free-memory look, which on the CPU opens
    /proc/meminfo; a budget set by hand still cuts it; a pull still looks."""
    G = fr.Graph.from_edges(np.arange(999), np.arange(1, 1000), device="cpu")
    calls = []
    with mock.patch.dict(os.environ), \
            mock.patch.object(expand_module, "free_bytes", return_value=1) as read:
        os.environ.pop(BUDGET, None)
        fr.advance(G, np.arange(1000), recorder(calls, lambda s, d, e: d > s))
        assert read.call_count == 0 and len(calls) == 1
        with mock.patch.object(expand_module, "SMALL_EXPANSION_EDGES", 1999):
            fr.advance(G, np.arange(1000), recorder(calls, lambda s, d, e: d > s))
        assert read.call_count == 1  # 1000 x 2 edges may exceed 1999
        fr.advance(G, [0], recorder(calls, lambda s, d, e: d > s), direction="pull")
        assert read.call_count == 2
        calls.clear()
        os.environ[BUDGET] = str(10 * expand_module.edge_bytes(G, 1))
        fr.advance(G, np.arange(1000), recorder(calls, lambda s, d, e: d > s))
        assert read.call_count == 2 and len(calls) > 100


def test_edge_budget_counts_the_bytes_of_each_edge():
    unweighted = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    weighted = fr.Graph.from_edges([0, 1], [1, 2], weights=[1.0, 2.0], device="cpu")
    assert expand_module.edge_bytes(unweighted, 1) == 4 * 8 + 4 + 1
    assert expand_module.edge_bytes(weighted, 8) == 4 * 8 + 4 + 8 + 8
    with mock.patch.dict(os.environ, {BUDGET: "1M"}):
        assert expand_module.default_chunk_edges(weighted, 8) == 2**20 // 52
    with mock.patch.dict(os.environ, {BUDGET: "64G"}):  # a budget set by hand is not capped
        assert expand_module.default_chunk_edges(unweighted, 1) == 64 * 2**30 // 37


@pytest.mark.parametrize("bad", ["lots", "-5", "0", "8X", "1.5.2M"])
def test_bad_edge_budget_is_a_clear_value_error(bad):
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    with mock.patch.dict(os.environ, {BUDGET: bad}):
        message = re.escape(f"FRONTIER_EDGE_BUDGET={bad!r}: expected a positive number of bytes")
        with pytest.raises(ValueError, match=message):
            fr.advance(G, [0], lambda src, dst, edge, weight: dst > src)
        with pytest.raises(ValueError, match="FRONTIER_EDGE_BUDGET"):
            fr.neighbor_reduce(G, lambda src, dst, edge, weight: dst, "sum")
