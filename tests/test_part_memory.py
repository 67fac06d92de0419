"""What a placed part keeps per slot, and the masked sum behind vertex_sum."""

from __future__ import annotations

import gc
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import with_device

import frontier as fr
from frontier.device import get_device
from frontier.kernels.masked import ROW, masked_sum
from frontier.multi.enactor import owner_dtype
from primitives import bfs, connected_components, dobfs, pagerank, sssp


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int32, np.int64, np.uint32,
                                   np.float32, np.float64])
@with_device
@given(data=st.data())
def test_masked_sum_is_the_sum_of_the_selected_entries(device, dtype, data):
    length = data.draw(st.sampled_from([0, 1, 100, ROW - 1, ROW, ROW + 1, 3 * ROW + 77]))
    seed = data.draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    values = (rng.random(length) * 100).astype(dtype)
    mask = rng.random(length) < data.draw(st.floats(0, 1))
    D = get_device(device)
    total = masked_sum(D.asarray(values), D.asarray(mask))
    expected = values[mask].sum()
    assert np.dtype(total.dtype) == expected.dtype
    if values.dtype.kind == "f":
        np.testing.assert_allclose(float(total), float(expected), rtol=1e-5)
    else:
        assert int(total) == int(expected)


def test_owner_type_holds_every_part_number():
    assert owner_dtype(1) == np.int8 and owner_dtype(128) == np.int8
    assert owner_dtype(129) == np.int16 and owner_dtype(32768) == np.int16
    assert owner_dtype(32769) == np.int32


@pytest.mark.parametrize("duplication", [None, "all", "one_hop"])
def test_placed_parts_keep_small_owner_and_slot_types(duplication):
    """int8 part numbers and int32 owned slots, whether built as parts
    (``None``) or split from a whole graph; the answer is unchanged."""
    G = fr.generators.kronecker(8, seed=1, device="cpu")
    devices = ["cpu:0", "cpu:1", "cpu:2"]
    if duplication is None:
        graph, options = fr.generators.kronecker_parts(8, seed=1, devices=devices), {}
        parts = graph.parts
    else:
        graph, options = G, {"devices": devices, "duplication": duplication}
        pagerank(G, **options)
        (_, parts), = G._parts.values()
    for part in parts:
        assert part.slot_owner.dtype == np.int8
        assert part.owned.dtype == np.int32
    np.testing.assert_allclose(fr.to_numpy(pagerank(graph, **options).rank),
                               fr.to_numpy(pagerank(G).rank), rtol=1e-9, atol=1e-12)


@dataclass
class _Held(fr.Result):
    mark: object


class _Holding(fr.Primitive):
    """Holds ``extra`` float64 vertex arrays beside its result; no steps."""

    parameters = ("extra",)

    def setup(self):
        self.mark = self.vertex_array(0, np.int32)
        self.extra = [self.vertex_array(0.0, np.float64) for _ in range(self.params["extra"])]

    def initial_frontier(self):
        return self.frontier_of([])

    def result(self):
        return _Held(self.mark)


def test_part_bytes_count_the_primitives_arrays():
    G = fr.generators.grid(20, 20, device="cpu")
    plain = fr.enact(_Holding, G, extra=0, devices=2)
    more = fr.enact(_Holding, G, extra=3, devices=2)
    # under "all" every part has a slot for each of the 400 vertices
    assert more.part_bytes - plain.part_bytes == 3 * 8 * G.num_vertices
    assert plain.part_bytes > G.num_vertices * 4  # the mark, the graph, the slot tables
    assert not hasattr(fr.enact(_Holding, G, extra=0), "part_bytes")  # one device


def test_one_hop_parts_hold_less_on_a_graph_with_locality():
    G = fr.generators.grid(1, 4000, device="cpu")  # a path, cut in two halves
    halves = lambda graph, parts, seed: np.arange(graph.num_vertices) * parts // graph.num_vertices  # noqa: E731
    every = bfs(G, 0, devices=2, partition=halves, duplication="all")
    near = bfs(G, 0, devices=2, partition=halves, duplication="one_hop")
    np.testing.assert_array_equal(near.depth, every.depth)
    assert near.part_bytes < 0.8 * every.part_bytes  # 0.71 without the checks


@pytest.mark.gpu
def test_runs_on_parts_sharing_a_gpu_reuse_the_pools_blocks():
    """Each part keeps its stream across runs, so the memory pool hands a
    run the blocks the last run freed (CuPy reuses a block only on the
    stream it was allocated on): the pool does not grow from run to run."""
    import cupy

    G = fr.generators.kronecker(scale=12, seed=3, device="cuda:0")
    pool = cupy.get_default_memory_pool()
    held = []
    for _ in range(4):
        result = bfs(G, source=0, devices=["cuda:0"] * 2)
        del result
        held.append(pool.total_bytes())
    assert held[-1] == held[1], held


@pytest.mark.parametrize("run", [
    lambda G: bfs(G, source=0, devices=2),
    lambda G: bfs(G, source=0, devices=3, duplication="one_hop"),
    lambda G: dobfs(G, source=0, devices=2),
    lambda G: sssp(G, 0, devices=2),
    lambda G: connected_components(G, devices=2),
    lambda G: pagerank(G, devices=2),
], ids=["bfs", "bfs-one-hop", "dobfs", "sssp", "cc", "pagerank"])
def test_a_multi_device_run_leaves_no_reference_cycles(run):
    """A run's arrays are freed with its result, not at the garbage
    collector's next pass: no reference cycle holds the run (one through the
    boundary's joint levels, the communicator's last vote or DOBFS's
    direction held every part's vertex arrays of each call)."""
    G = fr.generators.kronecker(scale=8, seed=3, weights=(1, 8), device="cpu")
    run(G)  # the parts placed and their kept buffers made
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        result = run(G)
        del result
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
