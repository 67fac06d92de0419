"""SSSP against NetworkX's Dijkstra: distances exact for integer weights and to
1e-9 relative for floats, predecessors consistent with the distances."""

from __future__ import annotations

import math
import re
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from checks import assert_shortest_path_tree
from conftest import DEVICES
from graphs import DATASETS, named_graphs
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from primitives import sssp

DELTAS = [None, math.inf, 0.5, 3, 1e6]


def oracle_distances(graph, nodes, source) -> np.ndarray:
    """Dijkstra's distances from NetworkX, inf for unreached, in ``nodes`` order."""
    lengths = nx.single_source_dijkstra_path_length(graph, nodes[source], weight="weight")
    return np.array([lengths.get(node, np.inf) for node in nodes], dtype=np.float64)


def assert_distances(actual, expected, exact: bool) -> None:
    actual = fr.to_numpy(actual)
    assert actual.dtype == np.float64
    np.testing.assert_array_equal(np.isinf(actual), np.isinf(expected))
    if exact:
        np.testing.assert_array_equal(actual, expected)
    else:
        finite = np.isfinite(expected)
        np.testing.assert_allclose(actual[finite], expected[finite], rtol=1e-9, atol=0)


@with_device
@given(edge_lists(), st.sampled_from(DELTAS), st.data())
def test_random_graphs_match_networkx(device, edges, delta, data):
    source = data.draw(st.integers(0, edges.num_vertices - 1), label="source")
    G = edges.graph(device)
    result = sssp(G, source, delta=delta).to_numpy()
    expected = oracle_distances(edges.networkx(), list(range(edges.num_vertices)), source)
    exact = edges.weights is None or edges.weights.dtype.kind in "iu"
    assert_distances(result.distance, expected, exact)
    assert_shortest_path_tree(G, source, result.distance, result.predecessor)


@given(edge_lists(weighted=True, integer_weights=True), st.data())
def test_every_delta_gives_the_same_answer(edges, data):
    source = data.draw(st.integers(0, edges.num_vertices - 1), label="source")
    G = edges.graph("cpu")
    plain = sssp(G, source, delta=math.inf, devices="cpu")
    for delta in (0.25, 1, 7):
        result = sssp(G, source, delta=delta, devices="cpu")
        np.testing.assert_array_equal(result.distance, plain.distance)
        assert_shortest_path_tree(G, source, result.distance, result.predecessor)


@pytest.mark.parametrize("name,graph", named_graphs().items(), ids=list(named_graphs()))
def test_named_graphs(device, name, graph):
    # Edges without a weight attribute weigh 1, as in NetworkX.
    G = fr.Graph.from_networkx(graph, weight="weight", device=device)
    nodes = list(graph.nodes)
    exact = G.weights.dtype.kind in "iu"
    for source in range(0, len(nodes), 5):
        result = sssp(G, nodes[source])  # on a labelled graph a source is a node
        assert_distances(result.distance, oracle_distances(graph, nodes, source), exact)
        assert_shortest_path_tree(G, source, result.distance, result.predecessor)


@pytest.mark.parametrize("delta", [4.0, math.inf])
def test_a_stop_test_and_its_step_meet_the_other_devices_once(monkeypatch, delta):
    """On two devices the near and far totals are summed in one collective
    per frontier, which ``converged`` and the step share; only a turn to
    the far pile adds one (the closest waiting distance)."""
    import threading

    from frontier.multi.communicator import LocalCommunicator
    from primitives.sssp import SSSP

    made = {"each": 0, "single": 0, "turns": 0, "tests": 0}
    inside = threading.local()  # a rank's thread in SSSP's step or converged
    real = {name: getattr(SSSP, name) for name in ("step", "converged")}
    real_each, real_single = LocalCommunicator.allreduce_each, LocalCommunicator.allreduce

    def step(self, frontier, iteration):
        _, near_total, far_total = self.split_near_far(frontier)  # converged's, kept
        made["turns"] += near_total == 0 and far_total > 0  # on both devices alike
        inside.yes = True
        try:
            return real["step"](self, frontier, iteration)
        finally:
            inside.yes = False

    def converged(self, frontier, iteration):
        made["tests"] += 1
        inside.yes = True
        try:
            return real["converged"](self, frontier, iteration)
        finally:
            inside.yes = False

    def counted(kind, real):
        def collective(self, *args):
            made[kind] += self.rank == 0 and getattr(inside, "yes", False)
            return real(self, *args)
        return collective

    G = fr.generators.kronecker(8, 8, seed=4, weights=(1, 16))
    one = sssp(G, 0, delta=delta)
    monkeypatch.setattr(SSSP, "step", step)
    monkeypatch.setattr(SSSP, "converged", converged)
    monkeypatch.setattr(LocalCommunicator, "allreduce_each", counted("each", real_each))
    monkeypatch.setattr(LocalCommunicator, "allreduce", counted("single", real_single))
    many = sssp(G, 0, delta=delta, devices=["cpu:0", "cpu:1"])
    np.testing.assert_array_equal(many.distance, one.distance)
    assert made["tests"] == 2 * (many.iterations + 1)  # before each step and after the last
    assert made["each"] == many.iterations + 1
    assert 2 * made["single"] == made["turns"]


def test_zero_weights_and_self_loops():
    # 0 -0-> 1 -0-> 2 -0-> 0 is a zero-weight cycle; 2 -5-> 3; 3 has a self loop.
    G = fr.Graph.from_edges([0, 1, 2, 2, 3], [1, 2, 0, 3, 3], weights=[0, 0, 0, 5, 1],
                            directed=True, device="cpu")
    result = sssp(G, 1)
    assert result.distance.tolist() == [0.0, 0.0, 0.0, 5.0]
    assert result.predecessor.tolist() == [2, -1, 1, 2]


def test_parallel_edges_use_the_lightest():
    G = fr.Graph.from_edges([0, 0, 0], [1, 1, 1], weights=[7.5, 2.25, 9.0], directed=True,
                            device="cpu")
    assert sssp(G, 0).distance.tolist() == [0.0, 2.25]


def test_large_integer_weights_are_exact():
    big = 2**50
    G = fr.Graph.from_edges([0, 1], [1, 2], weights=np.array([big, 3], dtype=np.int64),
                            directed=True, device="cpu")
    assert sssp(G, 0).distance.tolist() == [0.0, float(big), float(big + 3)]


def test_unweighted_counts_hops():
    G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], num_vertices=5, device="cpu")
    result = sssp(G, 1)
    assert result.distance.tolist() == [1.0, 0.0, 1.0, 2.0, math.inf]
    assert result.predecessor.tolist() == [1, -1, 1, 2, -1]


@pytest.mark.parametrize("directed", [True, False])
def test_negative_weight_names_the_edge(directed, device):
    G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], weights=[2.0, -3.5, 1.0], directed=directed,
                            device=device)
    with pytest.raises(ValueError, match=re.escape("edge (1, 2) has weight -3.5")):
        sssp(G, 0)


@pytest.mark.parametrize("device", DEVICES)
@given(weights=st.lists(st.integers(-3, 5), min_size=1, max_size=40),
       floats=st.booleans(), positive=st.booleans())
def test_check_weights_refuses_exactly_the_bad_graphs(device, weights, floats, positive):
    """On random weights, check_weights (one reduction on a GPU) raises
    exactly when some weight is negative (with positive: not positive),
    naming the first such arc of the CSR."""
    n = len(weights) + 1
    values = np.asarray(weights, dtype=np.float64 if floats else np.int64)
    G = fr.Graph.from_edges(np.arange(n - 1), np.arange(1, n), weights=values, directed=True,
                            device=device)
    stored = fr.to_numpy(G.weights)
    bad = np.flatnonzero(stored <= 0 if positive else stored < 0)
    if len(bad) == 0:
        G.check_weights("needs more", positive=positive)
        return
    tail = int(fr.to_numpy(G.arc_sources())[bad[0]])
    head = int(fr.to_numpy(G.columns)[bad[0]])
    with pytest.raises(ValueError, match=re.escape(
            f"edge ({tail}, {head}) has weight {stored[bad[0]].item()}: needs more")):
        G.check_weights("needs more", positive=positive)


@pytest.mark.parametrize("weights,positive,message", [
    ([2, 0, 1], True, "edge (1, 2) has weight 0"),
    ([2, 0, -1], False, "edge (2, 3) has weight -1"),
    ([2.5, 0.0, 1.0], True, "edge (1, 2) has weight 0.0"),
    ([2, 0, 1], False, None),
    ([3.0, 1e-300, 2.0], True, None),
])
def test_check_weights_finds_the_first_bad_arc(weights, positive, message, device):
    """Graph.check_weights (one reduction on a GPU) refuses what it should,
    naming the first bad arc, and passes the rest."""
    G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], weights=weights, directed=True, device=device)
    if message is None:
        G.check_weights("needs more", positive=positive)
        return
    with pytest.raises(ValueError, match=re.escape(message + ": needs more")):
        G.check_weights("needs more", positive=positive)


@pytest.mark.parametrize("kwargs,message", [
    ({"source": 4}, "source=4 is out of range for a graph of 4 vertices"),
    ({"source": -2}, "source=-2 is out of range"),
    ({"source": "0"}, "must be an integer vertex id"),
    ({"delta": 0}, "delta=0 must be a number > 0 or None"),
    ({"delta": -1.0}, "delta=-1.0 must be a number > 0 or None"),
    ({"delta": float("nan")}, "delta=nan must be a number > 0 or None"),
    ({"delta": "wide"}, "delta='wide' must be a number > 0 or None"),
])
def test_bad_input(kwargs, message):
    G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], weights=[1, 2, 3], device="cpu")
    with pytest.raises(ValueError, match=re.escape(message)):
        sssp(G, **kwargs)


def read_dimacs(path: Path):
    """Arcs ``a u v w`` of a DIMACS shortest-path file, as 0-based arrays."""
    with open(path) as lines:
        arcs = np.array([line.split()[1:] for line in lines if line.startswith("a ")],
                        dtype=np.int64)
    return arcs[:, 0] - 1, arcs[:, 1] - 1, arcs[:, 2]


@pytest.mark.skipif(not DATASETS.is_dir(), reason=f"{DATASETS} is not present")
@pytest.mark.parametrize("name,directed,last,eccentricity,reached", [
    # Published and recomputed values from the datasets README.
    ("rome99.gr", True, 30305, 69102, 3353),
    ("rome99.gr", False, 30290, None, 3353),
    ("DE.gr", True, 69204, 106005, 48812),
])
def test_road_networks_match_published_distances(name, directed, last, eccentricity, reached):
    src, dst, weights = read_dimacs(DATASETS / name)
    G = fr.Graph.from_edges(src, dst, weights, directed=directed, device="cpu")
    distance = sssp(G, 0, devices="cpu").distance
    assert distance[-1] == last
    assert np.isfinite(distance).sum() == reached
    if eccentricity is not None:
        assert distance[np.isfinite(distance)].max() == eccentricity
