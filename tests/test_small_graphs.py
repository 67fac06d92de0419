"""Small graphs on the host stay on the CPU when no device is named, even
where the default device is a GPU (frontier.enactor.SMALL_GRAPH_ARCS)."""

from __future__ import annotations

import numpy as np
import pytest

import frontier as fr
from frontier import device as device_module
from frontier.device import Device
from frontier.enactor import SMALL_GRAPH_ARCS, on_graph_devices, run_devices

CPU, GPU = Device("cpu", 0), Device("cuda", 0)


def host_graph(arcs: int) -> fr.Graph:
    """A directed graph on the host with exactly ``arcs`` arcs."""
    src = np.arange(arcs) % 1000
    return fr.Graph.from_edges(src, (src + 1 + np.arange(arcs) // 1000) % 1000,
                               num_vertices=1000, directed=True, device="cpu")


@pytest.fixture
def seen_gpu(monkeypatch):
    """A machine where CuPy seems to see one GPU and FRONTIER_DEVICE is unset."""
    monkeypatch.setattr(device_module, "gpu_count", lambda: 1)
    monkeypatch.delenv("FRONTIER_DEVICE", raising=False)


def test_small_host_graph_stays_on_the_cpu(seen_gpu):
    G = host_graph(SMALL_GRAPH_ARCS - 1)
    assert G.num_arcs == SMALL_GRAPH_ARCS - 1
    assert fr.default_device() == GPU and run_devices(G, None) == [CPU]


def test_large_host_graph_or_a_named_device_goes_to_the_gpu(seen_gpu, monkeypatch):
    assert run_devices(host_graph(SMALL_GRAPH_ARCS), None) == [GPU]
    small = host_graph(10)
    assert run_devices(small, "cuda:0") == [GPU]
    assert run_devices(small, 1) == [GPU]
    assert run_devices(small, "cpu") == [CPU]
    monkeypatch.setenv("FRONTIER_DEVICE", "cuda:0")
    assert run_devices(small, None) == [GPU]


def test_on_graph_devices_keeps_any_graph_where_it_is(seen_gpu, monkeypatch):
    """The NetworkX backend's placement: it builds each graph on the device
    it chose (the CPU, say, while the GPU's kernels compile)."""
    large = host_graph(SMALL_GRAPH_ARCS)
    with on_graph_devices():
        assert run_devices(large, None) == [CPU]
        monkeypatch.setenv("FRONTIER_DEVICE", "cuda:0")
        assert run_devices(large, None) == [CPU]
        assert run_devices(large, "cuda:0") == [GPU]  # a named device still wins
        with on_graph_devices():
            pass
        assert run_devices(large, None) == [CPU]  # an inner block leaves it on
    assert run_devices(large, None) == [GPU]
    placed = on_graph_devices()  # one object entered again and again, as for generator items
    for _ in range(2):
        with pytest.raises(KeyError), placed:
            assert run_devices(large, None) == [CPU]
            raise KeyError  # an item that raises leaves the placement as it found it
        assert run_devices(large, None) == [GPU]


def test_without_a_gpu_nothing_changes(monkeypatch):
    monkeypatch.setattr(device_module, "gpu_count", lambda: 0)
    monkeypatch.delenv("FRONTIER_DEVICE", raising=False)
    assert run_devices(host_graph(SMALL_GRAPH_ARCS), None) == [CPU]
    assert run_devices(host_graph(10), 2) == [CPU, Device("cpu", 1)]


def test_a_primitive_on_a_small_host_graph_runs_and_says_cpu(seen_gpu):
    """Without the rule the run would move the graph to the (absent) GPU."""
    from primitives import bfs, sssp

    G = fr.generators.kronecker(8, device="cpu")
    assert G.num_arcs < SMALL_GRAPH_ARCS
    r = bfs(G, source=1)
    assert r.devices == ("cpu",) and isinstance(r.depth, np.ndarray)
    np.testing.assert_array_equal(r.depth, bfs(G, source=1, devices="cpu").depth)
    assert sssp(G, source=1).devices == ("cpu",)


@pytest.mark.gpu
def test_small_host_graph_stays_on_the_cpu_of_a_gpu_machine(monkeypatch):
    if fr.device.gpu_count() == 0:
        pytest.fail("tests marked gpu need a CUDA GPU with CuPy; run them on a GPU machine")
    from primitives import bfs

    monkeypatch.delenv("FRONTIER_DEVICE", raising=False)
    small, large = host_graph(SMALL_GRAPH_ARCS - 1), host_graph(SMALL_GRAPH_ARCS)
    for G, where in ((small, "cpu"), (large, "cuda:0")):
        r = bfs(G, source=0)
        assert r.devices == (where,)
        expected = bfs(G, source=0, devices="cpu").depth
        np.testing.assert_array_equal(fr.to_numpy(r.depth), expected)
    assert bfs(small, source=0, devices="cuda:0").devices == ("cuda:0",)
