"""Parts of a partitioned graph (partition/subgraph.py): the same CSR as
building each part from its arcs with Graph.from_edges, owned slots first,
and routing tables that name the same vertex on both sides."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from partition.subgraph import build_parts


def reference_part(G: fr.Graph, owner, part: int, ids):
    """Part ``part``'s CSR built the plain way: the kept arcs, relabelled,
    through Graph.from_edges."""
    src, dst, weights = G.edges()
    keep = owner[src] == part
    if G.directed:
        keep |= owner[dst] == part
    local = np.full(G.num_vertices, -1, dtype=np.int64)
    local[ids] = np.arange(len(ids))
    return fr.Graph.from_edges(local[src[keep]], local[dst[keep]],
                               None if weights is None else weights[keep], len(ids),
                               directed=True, vertex_dtype=G.columns.dtype, device="cpu")


@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@given(edges=edge_lists(), count=st.integers(1, 4), seed=st.integers(0, 99))
def test_parts_equal_the_plain_construction(duplication, edges, count, seed):
    G = edges.graph("cpu")
    owner = np.random.default_rng(seed).integers(0, count, G.num_vertices).astype(np.int32)
    parts = build_parts(G, owner, count, duplication)
    for part in parts:
        ids = np.arange(G.num_vertices) if part.graph.vertex_slots is None \
            else part.graph.vertex_slots.ids
        expected = reference_part(G, owner, part.index, ids)
        np.testing.assert_array_equal(part.graph.offsets, expected.offsets)
        np.testing.assert_array_equal(part.graph.columns, expected.columns)
        if G.weights is not None:
            np.testing.assert_array_equal(part.graph.weights, expected.weights)
        assert part.graph.directed == G.directed
        # owned slots hold the part's vertices, in caller-id order
        np.testing.assert_array_equal(ids[part.owned], np.flatnonzero(owner == part.index))
        np.testing.assert_array_equal(part.owned_ids, np.flatnonzero(owner == part.index))
        for peer, (local, remote) in part.mirrors.items():
            peer_ids = np.arange(G.num_vertices) if parts[peer].graph.vertex_slots is None \
                else parts[peer].graph.vertex_slots.ids
            np.testing.assert_array_equal(ids[local], peer_ids[remote])


@pytest.mark.gpu
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@given(edges=edge_lists(), count=st.integers(1, 4), seed=st.integers(0, 99))
def test_parts_built_on_the_gpu_equal_those_built_on_the_host(duplication, edges, count, seed):
    """``on_device=True`` builds a GPU graph's sub-graphs with CuPy: the same
    CSR (parallel arcs in the same order), slot tables and routing tables."""
    G = edges.graph("cuda:0")
    owner = np.random.default_rng(seed).integers(0, count, G.num_vertices).astype(np.int32)
    on_host = build_parts(G, owner, count, duplication)
    on_gpu = build_parts(G, owner, count, duplication, on_device=True)
    for host, gpu in zip(on_host, on_gpu, strict=True):
        assert gpu.graph.device == G.device and host.graph.device.name == "cpu"
        for field in ("offsets", "columns", "weights"):
            expected, found = getattr(host.graph, field), getattr(gpu.graph, field)
            assert (expected is None) == (found is None)
            if expected is not None:
                assert found.dtype == expected.dtype
                np.testing.assert_array_equal(fr.to_numpy(found), expected)
        assert gpu.graph.num_edges == host.graph.num_edges
        if host.graph.vertex_slots is not None:
            np.testing.assert_array_equal(fr.to_numpy(gpu.graph.vertex_slots.ids),
                                          host.graph.vertex_slots.ids)
        for field in ("owned", "owned_ids", "slot_owner", "slot_on_owner"):
            np.testing.assert_array_equal(getattr(gpu, field), getattr(host, field))
        assert gpu.mirrors.keys() == host.mirrors.keys()
        for peer, (local, remote) in host.mirrors.items():
            np.testing.assert_array_equal(gpu.mirrors[peer][0], local)
            np.testing.assert_array_equal(gpu.mirrors[peer][1], remote)
