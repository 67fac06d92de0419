"""Out-of-memory inside a run becomes a DeviceMemoryError that says how much
was asked for and how much was free."""

from __future__ import annotations

import numpy as np
import pytest

import frontier as fr


class Greedy(fr.Primitive):
    """Asks for far more device memory than any GPU has."""

    def setup(self):
        self.hoard = self.xp.empty(1 << 42, dtype=np.uint8)  # 4 TiB

    def initial_frontier(self):
        return fr.Frontier.empty(self.graph.num_vertices, self.graph.device)

    def result(self):
        return fr.Result()


@pytest.mark.gpu
def test_device_out_of_memory_names_request_and_free_memory():
    G = fr.Graph.from_edges([0], [1], device="cuda:0")
    with pytest.raises(fr.DeviceMemoryError) as error:
        fr.enact(Greedy, G)
    message = str(error.value)
    assert "while running Greedy" in message
    assert "needed 4096.00 GiB" in message and "GiB free" in message
    assert "cuda:0" in message


@pytest.mark.parametrize("text, expected", [
    (1000, 1000), ("1000", 1000), ("8G", 8 * 2**30), ("1.5M", int(1.5 * 2**20)),
    ("2GiB", 2 * 2**30), ("64k", 64 * 1024)])
def test_memory_limit_values(text, expected):
    assert fr.memory.memory_limit(text) == expected


@pytest.mark.parametrize("bad", ["lots", "-5", 0, True, "8X"])
def test_memory_limit_rejects_nonsense(bad):
    with pytest.raises(ValueError, match="memory_limit="):
        fr.memory.memory_limit(bad)


def test_memory_limit_from_the_environment(monkeypatch):
    monkeypatch.setenv("FRONTIER_MEMORY_LIMIT", "3M")
    assert fr.memory.memory_limit() == 3 * 2**20
    monkeypatch.delenv("FRONTIER_MEMORY_LIMIT")
    assert fr.memory.memory_limit() is None


def _bfs_needs(G) -> int:
    """The graph's storage plus BFS's two int32 vertex arrays."""
    return G.storage_bytes() + 8 * G.num_vertices


def _capped_graph_runs_on_two(one: str, two):
    """The graph is built on the host, so that the capped devices hold only
    what the run puts there."""
    from primitives import bfs

    G = fr.generators.kronecker(11, 16, seed=3, device="cpu")
    limit = int(0.7 * _bfs_needs(G))
    with pytest.raises(fr.DeviceMemoryError) as error:
        bfs(G, 1, devices=one, memory_limit=limit)
    message = str(error.value)
    assert "does not fit" in message and "limit" in message and "try more devices" in message
    expected = fr.to_numpy(bfs(G, 1, devices="cpu").depth)
    r = bfs(G, 1, devices=two, duplication="one_hop", partition="contiguous",
            memory_limit=limit)
    np.testing.assert_array_equal(fr.to_numpy(r.depth), expected)


def test_a_graph_over_one_capped_device_runs_on_two():
    _capped_graph_runs_on_two("cpu:0", ["cpu:0", "cpu:1"])


@pytest.mark.gpu
@pytest.mark.multi_gpu
def test_a_graph_over_one_capped_gpu_runs_on_two():
    _capped_graph_runs_on_two("cuda:0", ["cuda:0", "cuda:1"])


def test_a_part_that_does_not_fit_is_named():
    from primitives import pagerank

    G = fr.generators.kronecker(10, 16, seed=3, device="cpu")
    with pytest.raises(fr.DeviceMemoryError, match=r"part \d of the graph .* does not fit"):
        pagerank(G, devices=2, memory_limit=G.storage_bytes() // 8)
