"""The single-device enactor: option checks, the iteration loop, and a custom
primitive written in the test."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from strategies import edge_lists, with_device

import frontier as fr
from frontier.device import to_numpy
from primitives import bfs


@dataclass
class LabelsResult(fr.Result):
    labels: object


class MinLabel(fr.Primitive):
    """Connected components by min-label propagation: every vertex starts with
    its own id; each step pushes labels over out-edges and keeps the vertices
    whose label went down."""

    communicate = {"labels": "min"}

    def setup(self):
        self.labels = self.xp.arange(self.graph.num_vertices, dtype=np.int64)

    def initial_frontier(self):
        return fr.Frontier.all(self.graph.num_vertices, self.graph.device)

    def step(self, frontier, iteration):
        def lower(src, dst, edge, weight):
            return fr.scatter_min(self.labels, dst, self.labels[src])

        return fr.advance(self.graph, frontier, lower)

    def result(self):
        return LabelsResult(self.labels)


@with_device
@given(edge_lists(directed=False, weighted=False))
def test_custom_primitive(device, edges):
    G = edges.graph(device)
    r = fr.enact(MinLabel, G)
    expected = np.arange(edges.num_vertices)
    for component in nx.connected_components(edges.networkx()):
        expected[list(component)] = min(component)
    np.testing.assert_array_equal(to_numpy(r.labels), expected)
    assert r.iterations >= 1 and r.elapsed_s >= 0


class Countdown(fr.Primitive):
    """Stops through its own converged(): after ``steps`` iterations."""

    def initial_frontier(self):
        return fr.Frontier.all(self.graph.num_vertices, self.graph.device)

    def step(self, frontier, iteration):
        return frontier

    def converged(self, frontier, iteration):
        return iteration == self.params["steps"]

    def result(self):
        return LabelsResult(self.xp.zeros(self.graph.num_vertices))


def test_converged_override_and_params():
    G = fr.Graph.from_edges([0], [1], device="cpu")
    assert fr.enact(Countdown, G, steps=4).iterations == 4
    assert fr.enact(Countdown, G, steps=0).iterations == 0


def path(n, device="cpu"):
    return fr.Graph.from_edges(np.arange(n - 1), np.arange(1, n), device=device)


def test_max_iterations():
    G = path(6)
    with pytest.raises(RuntimeError, match="BFS did not converge in 3 iterations"):
        bfs(G, source=0, max_iterations=3)
    with pytest.raises(RuntimeError, match="Countdown did not converge in 0 iterations"):
        fr.enact(Countdown, G, steps=2, max_iterations=0)
    assert bfs(G, source=0, max_iterations=6).iterations == 6


@pytest.mark.parametrize("option, value", [
    ("duplication", "some"),
    ("communication", "carrier_pigeon"),
    ("partition", "no_such_partitioner"),
])
def test_invalid_options(option, value):
    with pytest.raises(ValueError, match=f"{value!r}"):
        bfs(path(3), source=0, **{option: value})


@pytest.mark.parametrize("option, value", [
    ("duplication", "one_hop"),
    ("communication", "broadcast"),
    ("partition", "random"),
    ("partition", lambda graph, parts, seed: graph.xp.zeros(graph.num_vertices, np.int32)),
])
def test_valid_options_on_one_device(option, value):
    r = bfs(path(3), source=0, **{option: value})
    assert to_numpy(r.depth).tolist() == [0, 1, 2]


def test_several_virtual_devices():
    r = bfs(path(3), source=0, devices=2)
    assert to_numpy(r.depth).tolist() == [0, 1, 2]
    assert r.devices == ("cpu", "cpu:1") and r.partition["num_parts"] == 2
    r = bfs(path(3), source=0, devices=["cpu:0", "cpu:1"])
    assert to_numpy(r.depth).tolist() == [0, 1, 2]


@pytest.mark.parametrize("kind", ["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def test_device_threads_run_with_a_short_switch_interval(monkeypatch, kind):
    """The enactor's switch interval holds while GPU threads run, and
    Python's own comes back afterwards, also when a rank fails; threads of
    virtual CPU devices keep Python's interval."""
    from frontier.multi import enactor

    seen = []

    class Records(fr.Primitive):
        def setup(self):
            self.hops = self.vertex_array(0, np.int32)

        def initial_frontier(self):
            return self.all_vertices()

        def step(self, frontier, iteration):
            seen.append(sys.getswitchinterval())
            if self.params.get("fail"):
                raise RuntimeError("a rank fails")
            return self.frontier_of([])

        def result(self):
            return fr.Result()

    before = sys.getswitchinterval()
    monkeypatch.setattr(enactor, "SWITCH_INTERVAL_S", 3e-4)
    graph = fr.generators.grid(3, 3, device=f"{kind}:0")
    devices = [f"{kind}:0", f"{kind}:0"]
    fr.enact(Records, graph, devices=devices)
    during = 3e-4 if kind == "cuda" else before
    assert seen and all(abs(interval - during) < 1e-9 for interval in seen)
    assert sys.getswitchinterval() == before
    with pytest.raises(RuntimeError, match="a rank fails"):
        fr.enact(Records, graph, devices=devices, fail=True)
    assert sys.getswitchinterval() == before


def test_bad_devices():
    with pytest.raises(ValueError, match="'abacus'"):
        bfs(path(3), source=0, devices="abacus")
    with pytest.raises(ValueError, match="need at least one device"):
        bfs(path(3), source=0, devices=[])


def test_runs_on_a_named_device(device):
    G = path(4)
    r = bfs(G, source=1, devices=device)
    assert fr.device.array_namespace(r.depth) is fr.get_device(device).xp
    assert to_numpy(r.depth).tolist() == [1, 0, 1, 2]
    assert to_numpy(bfs(G, source=1, devices="cpu:1").depth).tolist() == [1, 0, 1, 2]


def test_bad_combiner():
    class Bad(MinLabel):
        communicate = {"labels": "median"}

    with pytest.raises(ValueError, match=r"Bad.communicate\['labels'\] = 'median'"):
        fr.enact(Bad, path(3))

    class Custom(MinLabel):
        communicate = {"labels": np.minimum}

    assert to_numpy(fr.enact(Custom, path(3)).labels).tolist() == [0, 0, 0]


def test_not_a_graph():
    with pytest.raises(TypeError, match="expected a frontier.Graph, got dict"):
        fr.enact(MinLabel, {})


@pytest.mark.parametrize("missing", ["initial_frontier", "step", "result"])
def test_incomplete_primitive(missing):
    methods = {name: getattr(MinLabel, name)
               for name in ("setup", "initial_frontier", "step", "result") if name != missing}
    Incomplete = type("Incomplete", (fr.Primitive,), methods)
    with pytest.raises(NotImplementedError, match=f"Incomplete must define {missing}"):
        fr.enact(Incomplete, path(3))


def test_check_vertex():
    G = path(3)
    assert fr.check_vertex(G, np.int64(2)) == 2
    with pytest.raises(ValueError, match="root=3 is out of range"):
        fr.check_vertex(G, 3, name="root")
    with pytest.raises(ValueError, match="source=None must be an integer"):
        fr.check_vertex(G, None)


class _Sources(fr.Primitive):
    """Starts from the slots of its ``sources``, or from ``ids`` as given."""

    def setup(self):
        self.hits = self.vertex_array(0, np.int32)

    def initial_frontier(self):
        if "ids" in self.params:
            return self.frontier_of(self.params["ids"])
        return self.frontier_of(self.local_slots(self.params["sources"], name="source"))

    def step(self, frontier, iteration):
        self.hits[frontier.ids] += 1
        return self.frontier_of([])

    def result(self):
        return fr.Result()


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
@pytest.mark.parametrize("sources", [[3], [0, 5, 5], []])
def test_a_frontier_of_local_slots_starts_at_those_vertices(device, sources):
    """Slots from local_slots (one vertex: filled on a GPU) make the first
    frontier without a second check; other ids are still checked."""
    graph = fr.generators.grid(2, 3, device=device)
    run = _Sources(graph, sources=sources)
    run.setup()
    frontier = run.initial_frontier()
    assert sorted(fr.to_numpy(frontier.ids).tolist()) == sorted(sources)
    with pytest.raises(ValueError, match="source"):
        _Sources(graph, sources=[6]).initial_frontier()
    with pytest.raises(ValueError, match="out of range"):
        _Sources(graph, ids=[6]).initial_frontier()


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
@pytest.mark.parametrize("sources", [[3], [0, 5, 5], []])
def test_put_sets_a_vertex_array_at_local_slots_and_other_slots(device, sources):
    """Primitive.put at slots from local_slots (one launch on a GPU) and at
    any other index, against NumPy's assignment."""
    graph = fr.generators.grid(2, 3, device=device)
    run = _Sources(graph, sources=sources)
    run.setup()
    slots = run.local_slots(sources)
    run.put(run.hits, slots, 7)
    want = np.zeros(6, np.int32)
    want[sources] = 7
    assert fr.to_numpy(run.hits).tolist() == want.tolist()
    run.put(run.hits, graph.xp.asarray([-1]), 9)  # not from local_slots: NumPy's meaning
    want[-1] = 9
    assert fr.to_numpy(run.hits).tolist() == want.tolist()
