"""Replayed steps (:mod:`frontier.replay`): a BFS whose levels run several at a
time (one kernel on a GPU, SciPy's search on the CPU) against the same BFS
level by level, DOBFS whose push levels run on in the levels kernels (its
rule decided on the device) against DOBFS level by level, and the check
that catches a wrong ``replayable``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from checks import assert_bfs_tree, assert_shortest_path_tree
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from frontier import loop
from frontier.multi import joint_levels
from frontier.operators import host_levels
from frontier.primitive import DeclarationError
from primitives.bfs import BFS
from primitives.dobfs import DOBFS
from primitives.sssp import SSSP


class LevelByLevelBFS(BFS):
    replayable = False


class MislabelledBFS(BFS):
    """Declares replayable, but its labels grow by two a level."""

    def step(self, frontier, iteration):
        visit = fr.functors.ClaimUnvisited(self.depth, 2 * iteration + 1, self.predecessor)
        return fr.advance(self.graph, frontier, visit)


class FilteredBFS(BFS):
    """Declares replayable, but drops part of the advance's output."""

    def step(self, frontier, iteration):
        found = super().step(frontier, iteration)
        return fr.filter(found, lambda ids: ids % 3 != 0)


class LevelByLevelSSSP(SSSP):
    replayable = False


class FilteredSSSP(SSSP):
    """Declares replayable, but drops part of the advance's output."""

    def step(self, frontier, iteration):
        return fr.filter(super().step(frontier, iteration), lambda ids: ids % 4 != 1)


def _both(G, source, **options):
    replayed = fr.enact(BFS, G, source=source, **options)
    plain = fr.enact(LevelByLevelBFS, G, source=source, **options)
    return replayed, plain


def _assert_same_levels(G, source, replayed, plain):
    assert replayed.iterations == plain.iterations
    np.testing.assert_array_equal(fr.to_numpy(replayed.depth), fr.to_numpy(plain.depth))
    assert_bfs_tree(G, source, replayed.depth, replayed.predecessor)
    assert plain.replayed_levels == 0


def _path(n: int, device):
    return fr.Graph.from_edges(np.arange(n - 1), np.arange(1, n), num_vertices=n,
                               directed=False, device=device)


def _grid(rows: int, cols: int, device):
    return fr.Graph.from_networkx(nx.convert_node_labels_to_integers(
        nx.grid_2d_graph(rows, cols)), device=device)


@settings(max_examples=40)
@given(edges=edge_lists(max_vertices=60, max_edges=150), data=st.data())
@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
@pytest.mark.parametrize("primitive", ["bfs", "dobfs"])
def test_replayed_traversals_are_the_same_level_by_level(device, primitive, edges, data):
    """BFS, and DOBFS under a drawn rule or direction (its push levels run
    on in the levels kernels on a GPU), against themselves level by level."""
    G = edges.graph(device)
    source = data.draw(st.integers(0, G.num_vertices - 1))
    if primitive == "dobfs":
        _assert_same_dobfs(G, source, data.draw(st.sampled_from(DOBFS_SETTINGS)))
        return
    replayed, plain = _both(G, source)
    _assert_same_levels(G, source, replayed, plain)


SHAPES = ["path", "grid", "broom", "directed"]


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
@pytest.mark.parametrize("shape", SHAPES)
def test_thousands_of_levels(device, shape):
    """Deep graphs, where batches of levels matter: a 1 x 5000 path, a 40 x
    120 grid (a wide frontier), a hub with long tails (a warp per vertex on
    a GPU, which large degrees call for) and a random directed graph."""
    _deep_graph_levels(device, shape)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("limits", [(16, 1 << 18), (8, 64)])
def test_gpu_levels_kernels_hand_over(shape, limits, monkeypatch):
    """Small limits make the one-block kernel, the grid's and level-by-level
    launches take turns within one run (block items, grid edges)."""
    from frontier.operators import fused

    monkeypatch.setattr(fused, "LEVELS_BLOCK_ITEMS", limits[0])
    monkeypatch.setattr(fused, "LEVELS_MAX_EDGES", limits[1])
    monkeypatch.setattr(fused, "LEVELS_MAX_DEGREE", 32)
    _deep_graph_levels("cuda:0", shape)


def _deep_graph_levels(device, shape):
    G, source = _deep_graph(device, shape)
    replayed, plain = _both(G, source)
    _assert_same_levels(G, source, replayed, plain)
    assert replayed.replayed_levels > 0


def _deep_graph(device, shape):
    """A graph of thousands of levels, and a source."""
    if shape == "path":
        G, source = _path(5000, device), 0
    elif shape == "grid":
        G, source = _grid(40, 120, device), 17
    elif shape == "broom":  # a hub of degree 2000, each neighbour a tail of 3
        tails = np.arange(1, 2001)
        src = np.concatenate([np.zeros(2000, int), tails, tails + 2000, tails + 4000])
        dst = np.concatenate([tails, tails + 2000, tails + 4000, tails + 6000])
        G, source = fr.Graph.from_edges(src, dst, directed=False, device=device), 6001
    else:
        rng = np.random.default_rng(7)
        n = 3000
        src = np.concatenate([np.arange(n - 1), rng.integers(0, n, 600)])
        dst = np.concatenate([np.arange(1, n), rng.integers(0, n, 600)])
        G, source = fr.Graph.from_edges(src, dst, num_vertices=n + 5, device=device), 0
    return G, source


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
def test_max_iterations_bounds_a_batch(device):
    G = _path(300, device)
    with pytest.raises(RuntimeError, match="did not converge in 120 iterations"):
        fr.enact(BFS, G, source=0, max_iterations=120)
    done = fr.enact(BFS, G, source=0, max_iterations=300)
    assert done.iterations == 300 and int(fr.to_numpy(done.depth).max()) == 299


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
def test_batches_end_and_continue_level_by_level(device, monkeypatch):
    """A batch allowed fewer levels than the graph has stops with the last
    level's frontier, and the next batch goes on from there."""
    monkeypatch.setattr(loop, "LEVELS_PER_BATCH", 7)
    monkeypatch.setattr(loop, "HOST_LEVELS_PER_BATCH", 7)
    G = _grid(9, 30, device)
    replayed, plain = _both(G, 4)
    _assert_same_levels(G, 4, replayed, plain)
    assert 0 < replayed.replayed_levels < replayed.iterations


@pytest.mark.parametrize("shape", ["path", "grid"])
@pytest.mark.parametrize("beyond", [-1, 0, 1])
def test_a_batch_of_about_the_depth(shape, beyond, monkeypatch):
    """A batch allowed one level fewer than the graph is deep, as many, or
    one more: the first batch ends with the deepest level's frontier, or with
    the empty one after it (CPU: SciPy's search, cut at the batch)."""
    G, source = (_path(60, "cpu"), 0) if shape == "path" else (_grid(7, 11, "cpu"), 0)
    deepest = 59 if shape == "path" else 16
    monkeypatch.setattr(loop, "HOST_LEVELS_PER_BATCH", deepest + beyond)
    replayed, plain = _both(G, source)
    _assert_same_levels(G, source, replayed, plain)
    assert plain.iterations == deepest + 1
    # one batch of all levels and the empty one after; or a batch, then a
    # step to the empty level (and before it, to the deepest)
    assert replayed.replayed_levels == {1: deepest, 0: deepest - 1, -1: deepest - 2}[beyond]


def test_a_cpu_batch_runs_all_of_scipys_levels():
    """On the CPU a batch is not cut at a GPU's LEVELS_PER_BATCH: a path
    deeper than that runs in one step (then the empty level)."""
    G = _path(loop.LEVELS_PER_BATCH + 904, "cpu")
    replayed, plain = _both(G, 0)
    _assert_same_levels(G, 0, replayed, plain)
    assert replayed.iterations == G.num_vertices
    assert replayed.replayed_levels == G.num_vertices - 1


def test_without_scipy_the_cpu_runs_level_by_level():
    """SciPy is optional: where it cannot be imported, BFS and SSSP from a
    source run level by level on the CPU, with the same depths and
    distances (``pip install .`` alone; the README's demo)."""
    code = textwrap.dedent("""
        import json, sys
        sys.modules["scipy"] = None  # an import of SciPy fails
        import frontier as fr
        from primitives import bfs, sssp
        G = fr.generators.grid(12, 9, weights=(1, 5), seed=3, device="cpu")
        b, s = bfs(G, 0), sssp(G, 0)
        print(json.dumps([b.depth.tolist(), s.distance.tolist(), b.replayed_levels,
                          s.replayed_steps]))
    """)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    depth, distance, bfs_replayed, sssp_replayed = json.loads(done.stdout)
    G = fr.generators.grid(12, 9, weights=(1, 5), seed=3, device="cpu")
    with_scipy_bfs, with_scipy_sssp = fr.enact(BFS, G, source=0), fr.enact(
        SSSP, G, source=0, delta=16.0 * float(G.weights.mean()))
    assert with_scipy_bfs.replayed_levels > 0 and bfs_replayed == 0
    assert with_scipy_sssp.replayed_steps == 1 and sssp_replayed == 0  # Dijkstra, or not
    np.testing.assert_array_equal(depth, with_scipy_bfs.depth)
    np.testing.assert_array_equal(distance, with_scipy_sssp.distance)


class CountingBFS(BFS):
    """Declares replayable, but records each step it runs."""

    def setup(self):
        super().setup()
        self.steps = []

    def step(self, frontier, iteration):
        self.steps.append(iteration)
        return super().step(frontier, iteration)

    def result(self):
        result = super().result()
        result.steps = tuple(self.steps)
        return result


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
@pytest.mark.parametrize("wrong", [MislabelledBFS, FilteredBFS, CountingBFS])
def test_a_wrong_declaration_is_caught(device, wrong):
    G = _path(400, device)
    with pytest.raises(DeclarationError, match="replayable"):
        fr.enact(wrong, G, source=0)


def test_the_declaration_is_checked_only_when_asked(monkeypatch):
    monkeypatch.setenv("FRONTIER_CHECK_DECLARATIONS", "0")
    result = fr.enact(MislabelledBFS, _path(50, "cpu"), source=0)
    assert result.replayed_levels > 0  # unchecked, it keeps what the batch did


def test_several_devices_run_level_by_level_without_joint_levels(monkeypatch):
    """Parts replay a claim's levels only jointly, each level with its
    boundary (tests/test_joint_levels.py); without that, level by level."""
    monkeypatch.setattr(joint_levels, "JOINT_LEVELS", False)
    G = _path(200, "cpu")
    result = fr.enact(BFS, G, source=0, devices=["cpu:0", "cpu:1"])
    assert result.replayed_levels == 0 and result.iterations == 200


@settings(max_examples=30)
@given(n=st.integers(1, 3000), seed=st.integers(0, 2**32 - 1), levels=st.integers(1, 5000),
       unreached=st.integers(0, 5))
def test_level_ends_from_a_search_order(n, seed, levels, unreached):
    """Where each level ends in SciPy's search order, against NetworkX's
    hops, on random trees of all depths (paths among them) with a few
    unreached vertices, up to a batch's ``levels``."""
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import breadth_first_order

    rng = np.random.default_rng(seed)
    # a random recursive tree, made deeper by attaching near the newest vertices
    parents = np.maximum(0, np.arange(1, n) - 1 - rng.integers(0, 4, n - 1))
    g = nx.Graph(zip(parents.tolist(), range(1, n)))
    g.add_nodes_from(range(n + unreached))
    G = fr.Graph.from_networkx(g, device="cpu")
    size = G.num_vertices
    adjacency = csr_array((np.ones(G.num_arcs), G.columns, G.offsets), shape=(size, size))
    order, parent = breadth_first_order(adjacency, 0, directed=True, return_predecessors=True)
    ends = host_levels._level_ends(order.astype(np.intp), parent, levels)
    hops = np.bincount(list(nx.single_source_shortest_path_length(g, 0).values()))
    expected = np.cumsum(hops)[:levels + 1]
    assert ends == expected.tolist()


def test_the_kept_scipy_matrix_follows_the_graphs_arrays():
    """A graph's next search reuses SciPy's matrix of its arcs; a graph
    given other arrays gets a new one (and the right levels)."""
    G = _grid(6, 9, "cpu")
    assert host_levels._adjacency(G) is host_levels._adjacency(G)
    path = _path(G.num_vertices, "cpu")
    G.offsets, G.columns, G.num_edges = path.offsets, path.columns, path.num_edges
    G._max_out_degree = G._in_edges = None
    matrix = host_levels._adjacency(G)
    assert matrix.nnz == path.num_arcs
    replayed, plain = _both(G, 0)
    _assert_same_levels(G, 0, replayed, plain)
    assert replayed.iterations == G.num_vertices


def test_frontier_run_hints_at_the_cpu_for_long_host_bound_gpu_runs():
    from frontier.cli import DEEP_RUN_STEPS, deep_run_hint

    result = fr.enact(BFS, _path(50, "cpu"), source=0)
    result.iterations, result.replayed_levels = DEEP_RUN_STEPS + 10, 5
    result.elapsed_s = 0.04 * 1e-3 * (DEEP_RUN_STEPS + 5)  # 40 us a round trip
    assert deep_run_hint(result, "sssp") is None  # it ran on the CPU
    result.devices = ("cuda:0",)
    hint = deep_run_hint(result, "sssp")
    assert hint.startswith(f"{DEEP_RUN_STEPS + 5} iterations of 40 us each")
    assert "--devices cpu" in hint
    result.replayed_levels = 20  # most levels ran on the device: fewer round trips
    assert deep_run_hint(result, "sssp") is None
    result.replayed_levels, result.elapsed_s = 5, 1.0  # long iterations: the GPU's work
    assert deep_run_hint(result, "sssp") is None


def _weighted(G, seed: int):
    """``G`` with random integer weights 1..9 on its arcs (both directions of
    an undirected edge may differ: an undirected graph keeps one arc each)."""
    src, dst, _ = G.edges()
    weights = np.random.default_rng(seed).integers(1, 10, len(src)).astype(np.float64)
    return fr.Graph.from_edges(src, dst, weights, num_vertices=G.num_vertices,
                               directed=True, device=G.device)


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
@pytest.mark.parametrize("shape", SHAPES)
def test_replayed_sssp_has_the_distances_of_sssp_level_by_level(device, shape):
    """On the CPU the step runs on in SciPy's Dijkstra; on a GPU the levels
    run in relax_levels, except on the broom, whose hub's degree is too
    large for it."""
    G, source = _deep_graph(device, shape)
    G = _weighted(G, seed=len(shape))
    for delta in (None, float("inf")):
        replayed = fr.enact(SSSP, G, source=source, delta=_delta(G, delta))
        plain = fr.enact(LevelByLevelSSSP, G, source=source, delta=_delta(G, delta))
        np.testing.assert_array_equal(fr.to_numpy(replayed.distance),
                                      fr.to_numpy(plain.distance))
        assert_shortest_path_tree(G, source, replayed.distance, replayed.predecessor)
        if not G.device.is_gpu:
            assert replayed.replayed_steps > 0  # Dijkstra
        elif shape != "broom":
            assert replayed.replayed_levels > 0


@settings(max_examples=30)
@given(edges=edge_lists(max_vertices=60, max_edges=150, weighted=True), data=st.data())
@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
def test_replayed_sssp_on_random_graphs(device, edges, data):
    G = edges.graph(device)
    if G.weights is not None and float(fr.to_numpy(G.weights).min(initial=0)) < 0:
        return
    source = data.draw(st.integers(0, G.num_vertices - 1))
    replayed = fr.enact(SSSP, G, source=source, delta=_delta(G, None))
    plain = fr.enact(LevelByLevelSSSP, G, source=source, delta=_delta(G, None))
    np.testing.assert_array_equal(fr.to_numpy(replayed.distance), fr.to_numpy(plain.distance))
    assert_shortest_path_tree(G, source, replayed.distance, replayed.predecessor)


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
def test_a_wrong_relaxation_declaration_is_caught(device):
    G = _weighted(_grid(20, 20, device), seed=3)
    with pytest.raises(DeclarationError, match="replayable"):
        fr.enact(FilteredSSSP, G, source=0, delta=_delta(G, None))


def _delta(G, delta):
    from primitives.sssp import _default_delta

    return _default_delta(G) if delta is None else delta


class LevelByLevelDOBFS(DOBFS):
    replayable = False


#: DOBFS settings: Beamer's rule (checked on the device while it pushes),
#: one that pulls early, Gunrock's rule (decided on the host until it has
#: pulled), and forced directions
DOBFS_SETTINGS = [{}, {"alpha": 0.5}, {"alpha": 200.0, "beta": 2.0}, {"rule": "gunrock"},
                  {"direction": "push"}, {"direction": "pull"}]


def _assert_same_dobfs(G, source, settings_):
    """DOBFS with its push levels run on against DOBFS level by level: the
    same depths, iterations and directions, and a BFS tree; the levels run
    on (``replayed_levels``)."""
    replayed = fr.enact(DOBFS, G, source=source, **{**DOBFS_DEFAULTS, **settings_})
    plain = fr.enact(LevelByLevelDOBFS, G, source=source, **{**DOBFS_DEFAULTS, **settings_})
    np.testing.assert_array_equal(fr.to_numpy(replayed.depth), fr.to_numpy(plain.depth))
    assert replayed.directions == plain.directions
    assert replayed.iterations == plain.iterations == len(plain.directions)
    assert_bfs_tree(G, source, replayed.depth, replayed.predecessor)
    assert plain.replayed_levels == 0
    return replayed


DOBFS_DEFAULTS = {"rule": "beamer", "alpha": 14.0, "beta": 24.0, "do_a": 0.1, "do_b": 0.2,
                  "direction": None}


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("settings_", DOBFS_SETTINGS)
def test_dobfs_push_levels_run_on_the_gpu(shape, settings_):
    """Deep graphs: the push levels run in the levels kernels, the rule
    checked on the device where it can still pull (the broom's hub level
    pulls under Beamer's rule: the kernel must stop before it)."""
    G, source = _deep_graph("cuda:0", shape)
    replayed = _assert_same_dobfs(G, source, settings_)
    pushes_on = settings_.get("direction") == "push" or (
        settings_.get("rule", "beamer") == "beamer" and settings_.get("direction") != "pull")
    if pushes_on:
        assert replayed.replayed_levels > 0
    if settings_.get("direction") == "pull":
        assert replayed.replayed_levels == 0


@pytest.mark.gpu
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("limits", [(16, 1 << 18), (8, 64)])
def test_gpu_dobfs_levels_kernels_hand_over(shape, limits, monkeypatch):
    """Small limits: the one-block kernel, the grid's and the host take turns
    within one DOBFS; a kernel that starts a batch's later launch checks the
    rule on its first level too."""
    from frontier.operators import fused

    monkeypatch.setattr(fused, "LEVELS_BLOCK_ITEMS", limits[0])
    monkeypatch.setattr(fused, "LEVELS_MAX_EDGES", limits[1])
    monkeypatch.setattr(fused, "LEVELS_MAX_DEGREE", 32)
    G, source = _deep_graph("cuda:0", shape)
    for settings_ in ({}, {"alpha": 0.5}):
        _assert_same_dobfs(G, source, settings_)
