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
