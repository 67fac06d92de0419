"""Multi-device runs give the single-device answer: each of the six
primitives on 1-4 devices x every partitioner x both duplications x both
communications, on random graphs (directed and undirected, weighted,
isolated vertices, self loops, parallel edges, more devices than vertices).

The whole matrix runs in CI at small sizes (a few examples per cell, more
with HYPOTHESIS_PROFILE=nightly); under ``pytest -m gpu`` the same cells run
as two and three parts sharing ``cuda:0`` and, on a machine with two GPUs
(``multi_gpu``), on ``cuda:0`` and ``cuda:1``.
"""

from __future__ import annotations

import gc
import traceback
import weakref
from dataclasses import dataclass

import numpy as np
import pytest
from checks import assert_bfs_tree, assert_shortest_path_tree
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
import frontier.multi.communicator as communicator
from primitives import (
    betweenness_centrality,
    bfs,
    connected_components,
    dobfs,
    pagerank,
    sssp,
)

# Examples per cell of the matrix: a twenty-fifth of the profile's count.
CELL_EXAMPLES = max(2, settings().max_examples // 25)
matrix_settings = settings(max_examples=CELL_EXAMPLES)
CONVERGED = {"tol": 1e-12, "max_iter": 1000}


def _every_other_part(graph, num_parts, seed):
    """A user partitioner: vertex v goes to part v mod k."""
    return np.arange(graph.num_vertices, dtype=np.int32) % num_parts


PARTITIONS = ["random", "contiguous", "biased_random", "metis", _every_other_part]
PARTITION_IDS = ["random", "contiguous", "biased_random", "metis", "callable"]


def _source(edges) -> int:
    return edges.num_vertices // 2


def _run(name: str, G: fr.Graph, edges, **options):
    """Run primitive ``name`` and return its result on the host."""
    if name == "bfs":
        return bfs(G, _source(edges), **options).to_numpy()
    if name == "dobfs":
        return dobfs(G, _source(edges), **options).to_numpy()
    if name == "sssp":
        return sssp(G, _source(edges), **options).to_numpy()
    if name == "cc":
        return connected_components(G, **options).to_numpy()
    if name == "bc":
        return betweenness_centrality(G, **options).to_numpy()
    if name == "bc_weighted":
        return betweenness_centrality(G, weight="weight", **options).to_numpy()
    return pagerank(G, **CONVERGED, **options).to_numpy()


PRIMITIVES = ["bfs", "dobfs", "sssp", "cc", "bc", "bc_weighted", "pagerank"]


def _graph(name: str, edges, device: str) -> fr.Graph:
    if name == "bc_weighted":  # positive weights, whatever was drawn
        weights = np.ones(len(edges.src)) if edges.weights is None else edges.weights + 1
        return fr.Graph.from_edges(edges.src, edges.dst, weights, edges.num_vertices,
                                   edges.directed, device=device)
    return edges.graph(device)


def assert_same_answer(name: str, G: fr.Graph, edges, expected, actual) -> None:
    """Exact depths, distances (integer weights) and labels, valid trees,
    centralities and ranks within 1e-9."""
    if name in ("bfs", "dobfs"):
        np.testing.assert_array_equal(actual.depth, expected.depth)
        assert_bfs_tree(G.to("cpu"), _source(edges), actual.depth, actual.predecessor)
    elif name == "sssp":
        np.testing.assert_array_equal(actual.distance, expected.distance)
        assert_shortest_path_tree(G.to("cpu"), _source(edges), actual.distance,
                                  actual.predecessor)
    elif name == "cc":
        np.testing.assert_array_equal(actual.labels, expected.labels)
    elif name.startswith("bc"):
        np.testing.assert_allclose(actual.centrality, expected.centrality, rtol=0, atol=1e-9)
    else:
        np.testing.assert_allclose(actual.rank, expected.rank, rtol=0, atol=1e-9)


def check_cell(name, edges, devices, partition, duplication, communication, home="cpu",
               workers="threads"):
    if partition == "metis":
        pytest.importorskip("pymetis")
    G = _graph(name, edges, home)
    expected = _run(name, G, edges, devices=home)
    actual = _run(name, G, edges, devices=devices, partition=partition,
                  duplication=duplication, communication=communication, workers=workers)
    assert_same_answer(name, G, edges, expected, actual)
    if devices != home:
        assert len(actual.devices) == (devices if isinstance(devices, int) else len(devices))


small_graphs = edge_lists(max_vertices=14, max_edges=36, integer_weights=True)


@pytest.mark.parametrize("communication", ["selective", "broadcast"])
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@pytest.mark.parametrize("partition", PARTITIONS, ids=PARTITION_IDS)
@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("name", PRIMITIVES)
@matrix_settings
@given(edges=small_graphs)
def test_matrix_on_virtual_devices(name, count, partition, duplication, communication, edges):
    check_cell(name, edges, count, partition, duplication, communication)


@pytest.mark.gpu
@pytest.mark.multi_gpu
@pytest.mark.parametrize("communication", ["selective", "broadcast"])
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@pytest.mark.parametrize("partition", PARTITIONS, ids=PARTITION_IDS)
@pytest.mark.parametrize("name", PRIMITIVES)
@matrix_settings
@given(edges=small_graphs)
def test_matrix_on_two_gpus(name, partition, duplication, communication, edges):
    check_cell(name, edges, ["cuda:0", "cuda:1"], partition, duplication, communication,
               home="cuda:0")


@pytest.mark.gpu
@pytest.mark.parametrize("communication", ["selective", "broadcast"])
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@pytest.mark.parametrize("partition", PARTITIONS, ids=PARTITION_IDS)
@pytest.mark.parametrize("count", [2, 3])
@pytest.mark.parametrize("name", PRIMITIVES)
@matrix_settings
@given(edges=small_graphs)
def test_matrix_on_parts_sharing_a_gpu(name, count, partition, duplication, communication,
                                       edges):
    """Two and three parts on ``cuda:0``, each driven on a stream of its own:
    the multi-GPU cells on a machine with one GPU."""
    check_cell(name, edges, ["cuda:0"] * count, partition, duplication, communication,
               home="cuda:0")


@pytest.mark.gpu
@pytest.mark.parametrize("events", [True, False], ids=["events", "host-syncs"])
@pytest.mark.parametrize("count", [2, 4])
def test_parts_sharing_a_gpu_at_scale(count, events, monkeypatch):
    """Parts on one GPU with kernels long enough to overlap: a message
    another part sent must not be overwritten while this part's stream reads
    it (it once was: the sender's pool gave the memory out again, and
    PageRank at Kronecker 24 took 45 iterations on 4 parts instead of 17),
    with the all-to-all's copies ordered by CUDA events or by host
    synchronizations."""
    monkeypatch.setattr(communicator, "ORDER_BY_EVENTS", events)
    G = fr.generators.kronecker(18, 16, seed=3, device="cuda:0", progress=False)
    options = {"alpha": 0.85, "tol": 1e-6 / G.num_vertices, "max_iter": 1000}
    alone = pagerank(G, **options)
    shared = pagerank(G, devices=["cuda:0"] * count, **options)
    assert shared.iterations == alone.iterations
    np.testing.assert_allclose(fr.to_numpy(shared.rank), fr.to_numpy(alone.rank),
                               rtol=0, atol=1e-12)
    source = int(fr.to_numpy(G.out_degree()).argmax())
    np.testing.assert_array_equal(fr.to_numpy(bfs(G, source, devices=["cuda:0"] * count).depth),
                                  fr.to_numpy(bfs(G, source).depth))


@pytest.mark.parametrize("workers", ["threads", "processes"])
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@pytest.mark.parametrize("name", PRIMITIVES)
@matrix_settings
@given(edges=small_graphs)
def test_parts_sharing_a_virtual_device(name, duplication, workers, edges):
    """A device named twice holds two parts (``["cpu:1", "cpu:1"]``)."""
    check_cell(name, edges, ["cpu:1", "cpu:1"], "random", duplication, "selective",
               workers=workers)


@pytest.mark.gpu
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@pytest.mark.parametrize("name", PRIMITIVES)
@matrix_settings
@given(edges=small_graphs)
def test_worker_processes_sharing_a_gpu(name, duplication, edges):
    """Rank 0 here and a worker process, both on ``cuda:0`` (arrays through
    the host, since NCCL needs one GPU per rank)."""
    check_cell(name, edges, ["cuda:0", "cuda:0"], "random", duplication, "selective",
               home="cuda:0", workers="processes")


@pytest.mark.parametrize("communication", ["selective", "broadcast"])
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@pytest.mark.parametrize("count", [2, 3])
@pytest.mark.parametrize("name", PRIMITIVES)
@matrix_settings
@given(edges=small_graphs)
def test_worker_processes_give_the_same_answer(name, count, duplication, communication, edges):
    """``workers="processes"``: rank 0 here, the others in worker processes."""
    check_cell(name, edges, count, "random", duplication, communication, workers="processes")


@pytest.mark.gpu
@pytest.mark.multi_gpu
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@pytest.mark.parametrize("name", PRIMITIVES)
@matrix_settings
@given(edges=small_graphs)
def test_worker_processes_on_two_gpus(name, duplication, edges):
    """A worker process on cuda:1, arrays over NCCL."""
    check_cell(name, edges, ["cuda:0", "cuda:1"], "random", duplication, "selective",
               home="cuda:0", workers="processes")


@pytest.mark.parametrize("name", PRIMITIVES)
@given(edges=edge_lists(max_vertices=40, max_edges=120, integer_weights=True),
       count=st.integers(1, 4), partition=st.sampled_from(PARTITIONS[:3] + PARTITIONS[4:]),
       duplication=st.sampled_from(["all", "one_hop"]),
       communication=st.sampled_from(["selective", "broadcast"]))
@settings(max_examples=max(5, settings().max_examples // 5))
def test_larger_random_configurations(name, edges, count, partition, duplication,
                                      communication):
    check_cell(name, edges, count, partition, duplication, communication)


@dataclass
class LevelsResult(fr.Result):
    depth: object


class _Sizes(fr.Primitive):
    """Records the length of the vertex arrays it allocates on each device."""

    communicate = {"depth": "max"}
    seen: list = []

    def setup(self):
        self.depth = self.vertex_array(-1, np.int32)
        self.seen.append((tuple(self.vertex_ids().tolist()), len(self.depth)))

    def initial_frontier(self):
        return self.frontier_of([])

    def step(self, frontier, iteration):
        return frontier

    def result(self):
        return LevelsResult(self.depth)




@given(edges=edge_lists(max_vertices=30, max_edges=60), count=st.integers(2, 4))
def test_one_hop_arrays_hold_owned_and_border_vertices(edges, count):
    from partition import make_partition

    G = edges.graph()
    layout = make_partition(G, count, "random", 0)
    _Sizes.seen = []
    fr.enact(_Sizes, G, devices=count, duplication="one_hop")
    sizes = {ids: length for ids, length in _Sizes.seen}
    assert len(sizes) <= count
    for part in range(count):
        owned = np.flatnonzero(layout.owner == part)
        expected = len(owned) + int(layout.border[part])
        matching = [ids for ids in sizes if set(owned.tolist()) <= set(ids)
                    and len(ids) == expected]
        assert matching, f"part {part}: no device holds {expected} slots"
        assert sizes[matching[0]] == expected
    _Sizes.seen = []
    fr.enact(_Sizes, G, devices=count, duplication="all")
    assert all(length == G.num_vertices for _, length in _Sizes.seen)


class _FailsOnOneDevice(_Sizes):
    """Raises in its first step on the device that holds vertex 0 only."""

    def step(self, frontier, iteration):
        if 0 in self.vertex_ids()[:1].tolist() and iteration == 0:
            raise ArithmeticError("device holding vertex 0 failed")
        return frontier

    def converged(self, frontier, iteration):
        return iteration >= 3


def test_a_failing_device_ends_the_run_with_its_error():
    G = fr.Graph.from_edges(np.arange(9), np.arange(1, 10), device="cpu")
    with pytest.raises(ArithmeticError, match="device holding vertex 0 failed"):
        fr.enact(_FailsOnOneDevice, G, devices=3, duplication="one_hop",
                 partition="contiguous")


class _HoldsAnArray(_FailsOnOneDevice):
    """Keeps a vertex array on every device, watched through a weak reference."""

    held: list = []

    def setup(self):
        super().setup()
        self.big = self.vertex_array(0.0)
        _HoldsAnArray.held.append(weakref.ref(self.big))


@pytest.mark.parametrize("devices", [None, 3])
def test_a_run_out_of_memory_frees_its_vertex_arrays_at_once(devices):
    """After a DeviceMemoryError (here the memory limit, checked after
    set-up) the error the caller holds keeps none of the run's arrays alive,
    on one device and on several, with no garbage collection."""
    from partition import make_partition
    from partition.subgraph import build_parts

    G = fr.generators.kronecker(9, 8, seed=1, device="cpu")
    part_bytes = G.storage_bytes() if devices is None else \
        max(part.graph.storage_bytes() for part in build_parts(
            G, make_partition(G, devices, "random", 0).owner, devices, "all"))
    _HoldsAnArray.held = []
    gc.disable()
    try:
        with pytest.raises(fr.DeviceMemoryError, match="does not fit") as caught:
            fr.enact(_HoldsAnArray, G, devices=devices, memory_limit=part_bytes + 64)
        assert _HoldsAnArray.held and all(ref() is None for ref in _HoldsAnArray.held)
        assert "setup" in "".join(traceback.format_exception(caught.value))  # lines kept
    finally:
        gc.enable()


def test_other_errors_keep_their_frames_for_debugging():
    """A primitive's own error keeps its frames' variables (post-mortem
    debugging needs them); only running out of memory releases them."""
    G = fr.Graph.from_edges(np.arange(9), np.arange(1, 10), device="cpu")
    with pytest.raises(ArithmeticError) as caught:
        fr.enact(_FailsOnOneDevice, G, devices=3, partition="contiguous")
    frames = [frame for frame, _ in traceback.walk_tb(caught.value.__traceback__)]
    step = [frame for frame in frames if frame.f_code.co_name == "step"]
    assert step and "self" in step[0].f_locals


def test_results_report_devices_partition_and_exchange():
    G = fr.generators.kronecker(8, 8, seed=1, device="cpu")
    r = bfs(G, 0, devices=3, partition="biased_random", duplication="one_hop")
    assert r.devices == ("cpu", "cpu:1", "cpu:2")
    assert r.partition["num_parts"] == 3 and r.partition["duplication"] == "one_hop"
    assert r.partition["edge_cut"] > 0 and r.exchanged_bytes > 0 and r.exchange_s > 0
    single = bfs(G, 0)
    assert single.devices == ("cpu",) and single.partition is None
    assert single.exchanged_bytes == 0


class _LocalStop(_Sizes):
    """A converged() that looks only at its own device's frontier."""

    def initial_frontier(self):
        return self.frontier_of(self.local_slots([0]))

    def converged(self, frontier, iteration):
        return frontier.is_empty()


@pytest.mark.parametrize("workers", ["threads", "processes"])
def test_a_local_converged_is_an_error_not_a_hang(workers):
    """Threads compare the votes at their next collective, worker processes
    in an allreduce of their own: both raise."""
    G = fr.Graph.from_edges(np.arange(9), np.arange(1, 10), device="cpu")
    with pytest.raises(RuntimeError, match=r"converged\(\) decided differently"):
        fr.enact(_LocalStop, G, devices=3, partition="contiguous", workers=workers)


def test_parts_are_placed_once_per_configuration():
    G = fr.generators.kronecker(8, 8, seed=4, device="cpu")
    first = bfs(G, 1, devices=2).depth
    assert len(G._parts) == 1
    placed = next(iter(G._parts.values()))[1]
    np.testing.assert_array_equal(bfs(G, 1, devices=2).depth, first)
    assert next(iter(G._parts.values()))[1] is placed  # reused, not rebuilt
    bfs(G, 1, devices=2, duplication="one_hop")
    assert len(G._parts) == 2
    G.release_parts()
    assert not G._parts
