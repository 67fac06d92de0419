"""Partitioners: owner arrays in range, deterministic, and balanced by edges."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from partition import PARTITIONERS, contiguous_partition, random_partition, resolve_partitioner


@given(edges=edge_lists(), parts=st.integers(1, 6), seed=st.integers(0, 100))
def test_random_partition_is_in_range_and_seeded(edges, parts, seed):
    G = edges.graph()
    owner = random_partition(G, parts, seed)
    assert owner.shape == (G.num_vertices,) and owner.dtype == np.int32
    assert owner.min(initial=0) >= 0 and owner.max(initial=0) < parts
    np.testing.assert_array_equal(owner, random_partition(G, parts, seed))


@given(edges=edge_lists(), parts=st.integers(1, 6))
def test_contiguous_partition_cuts_id_ranges_of_about_equal_edges(edges, parts):
    G = edges.graph()
    owner = contiguous_partition(G, parts)
    assert owner.shape == (G.num_vertices,) and owner.dtype == np.int32
    assert np.all(np.diff(owner) >= 0)  # consecutive ids, parts in order
    assert owner.min(initial=0) >= 0 and owner.max(initial=0) < parts
    degree = np.diff(G.offsets)
    arcs = np.bincount(owner, weights=degree, minlength=parts)
    # Each part is within one vertex's degree of an equal share.
    assert np.all(np.abs(arcs - G.num_arcs / parts) <= degree.max(initial=0) + 1)


def test_contiguous_partition_of_a_path_splits_it_in_halves():
    G = fr.Graph.from_edges(np.arange(7), np.arange(1, 8), directed=True)
    # 7 arcs: the first part takes 3 (vertices 0-2), the second 4 (vertices 3-7)
    assert contiguous_partition(G, 2).tolist() == [0, 0, 0, 1, 1, 1, 1, 1]


def test_resolve_partitioner_by_name_callable_and_default():
    assert resolve_partitioner(None) is random_partition
    assert resolve_partitioner("contiguous") is contiguous_partition
    custom = lambda graph, parts, seed: np.zeros(graph.num_vertices, np.int32)  # noqa: E731
    assert resolve_partitioner(custom) is custom
    assert set(PARTITIONERS) == {"random", "contiguous"}
    with pytest.raises(ValueError, match="unknown partition 'metis'"):
        resolve_partitioner("metis")
