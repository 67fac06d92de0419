"""Frontiers: construction, sparse/dense conversion, size, unique, bad ids."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import frontier as fr
from frontier.device import to_numpy
from frontier.frontier import as_frontier


@st.composite
def id_lists(draw, max_vertices=200):
    n = draw(st.integers(1, max_vertices))
    ids = draw(st.lists(st.integers(0, n - 1), max_size=3 * n))
    return n, ids


@given(id_lists())
def test_ids_mask_round_trip(case):
    n, ids = case
    f = fr.Frontier.from_ids(np.asarray(ids, dtype=np.int64), n, "cpu")
    assert f.kind == "sparse"
    assert f.size == len(f) == len(ids)  # repeats count while sparse
    assert f.is_empty() == (not ids)
    expected_mask = np.zeros(n, dtype=bool)
    expected_mask[ids] = True
    np.testing.assert_array_equal(f.mask, expected_mask)
    np.testing.assert_array_equal(f.ids, ids)  # the sparse form is kept as given
    dense = fr.Frontier.from_mask(expected_mask)
    assert dense.kind == "dense"
    assert dense.size == len(set(ids))
    np.testing.assert_array_equal(dense.ids, sorted(set(ids)))
    unique = f.unique()
    assert sorted(to_numpy(unique.ids).tolist()) == sorted(set(ids))
    assert unique.size == len(set(ids))
    assert unique.num_vertices == n


def test_forms_on_device(device):
    f = fr.Frontier.from_ids([3, 1, 3], 5, device)
    assert f.device == fr.get_device(device)
    assert f.xp is fr.get_device(device).xp
    assert to_numpy(f.mask).tolist() == [False, True, False, True, False]
    dense = f.to_dense()
    assert dense.kind == "dense" and dense.size == 2
    assert dense.to_dense() is dense
    assert to_numpy(dense.to_sparse().ids).tolist() == [1, 3]
    assert f.to_sparse() is f
    assert dense.unique() is dense


def test_from_ids_takes_any_host_sequence(device):
    for ids in ([3, 1], (3, 1), range(3, 0, -2), np.array([3, 1])):
        f = fr.Frontier.from_ids(ids, 4, device)
        assert f.device == fr.get_device(device) and to_numpy(f.ids).tolist() == [3, 1]
    with pytest.raises(ValueError, match="vertex 4 is out of range"):
        fr.Frontier.from_ids(range(5), 4, device)


def test_from_ids_keeps_device_of_array(device):
    ids = fr.get_device(device).asarray(np.array([0, 2]))
    f = fr.Frontier.from_ids(ids, 3)
    assert f.device == fr.get_device(device)


def test_empty_and_all(device):
    empty = fr.Frontier.empty(4, device)
    assert empty.size == 0 and empty.is_empty()
    assert to_numpy(empty.mask).tolist() == [False] * 4
    every = fr.Frontier.all(4, device)
    assert every.kind == "dense" and every.size == 4
    assert to_numpy(every.ids).tolist() == [0, 1, 2, 3]
    assert fr.Frontier.all(0, device).is_empty()


def test_empty_list_has_integer_ids():
    f = fr.Frontier.from_ids([], 5, "cpu")
    assert f.ids.dtype.kind in "iu"
    assert f.mask.tolist() == [False] * 5
    assert f.unique().size == 0


def test_from_mask_converts_to_bool():
    f = fr.Frontier.from_mask(np.array([0, 2, 0, 1]))
    assert f.mask.dtype == bool
    assert f.ids.tolist() == [1, 3]
    assert f.num_vertices == 4


def test_unique_of_large_sparse_frontier_goes_dense():
    ids = np.arange(0, 1000, 3).repeat(2)
    f = fr.Frontier.from_ids(ids, 1000, "cpu")
    unique = f.unique()
    assert unique.ids.tolist() == list(range(0, 1000, 3))
    few = fr.Frontier.from_ids([7, 7, 2], 1000, "cpu").unique()
    assert few.ids.tolist() == [2, 7]


@pytest.mark.parametrize("ids, message", [
    ([0, 5], "vertex 5 is out of range for 5 vertices"),
    ([5], "vertex 5 is out of range for 5 vertices"),
    ([-1, 2], "vertex -1 is out of range for 5 vertices"),
    ([3, 0, 9, -2, 4], "vertex -2 is out of range for 5 vertices"),
    ([0.0, 1.0], "must be integers, got dtype float64"),
    (np.array([True, False]), "must be integers, got dtype bool"),
])
@pytest.mark.parametrize("given_as", ["list", "device array", "long device array"])
def test_bad_ids(device, ids, message, given_as):
    """Ids are checked whether they come as a host list (before the copy)
    or as an array already on the device: a short one read back whole, a
    long one by its extremes."""
    if given_as != "list":
        ids = np.asarray(ids)
        if given_as == "long device array":
            ids = np.concatenate([ids, np.resize(ids[:1], fr.frontier.FEW_IDS)])
        ids = fr.get_device(device).asarray(ids)
    with pytest.raises(ValueError, match=message):
        fr.Frontier.from_ids(ids, 5, device)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
def test_good_device_ids_pass_the_check(device, dtype):
    ids = fr.get_device(device).asarray(np.array([4, 0, 2], dtype=dtype))
    assert to_numpy(fr.Frontier.from_ids(ids, 5).ids).tolist() == [4, 0, 2]
    assert fr.Frontier.from_ids(ids[:1], 5).size == 1
    long = ids.repeat(fr.frontier.FEW_IDS)
    assert fr.Frontier.from_ids(long, 5).size == len(long)


def test_needs_exactly_one_form():
    with pytest.raises(ValueError, match="exactly one"):
        fr.Frontier(3, fr.get_device("cpu"))
    with pytest.raises(ValueError, match="exactly one"):
        fr.Frontier(3, fr.get_device("cpu"), ids=np.zeros(0, int), mask=np.zeros(3, bool))


def test_as_frontier_accepts_every_form():
    cpu = fr.get_device("cpu")
    f = fr.Frontier.from_ids([1], 4, cpu)
    assert as_frontier(f, 4, cpu) is f
    assert as_frontier([1, 2], 4, cpu).ids.tolist() == [1, 2]
    assert as_frontier(np.array([2]), 4, cpu).ids.tolist() == [2]
    mask = as_frontier(np.array([True, False, False, True]), 4, cpu)
    assert mask.kind == "dense" and mask.ids.tolist() == [0, 3]


@pytest.mark.parametrize("value", [
    np.array([True, False, True]),
    fr.Frontier.from_ids([0], 6, "cpu"),
])
def test_as_frontier_rejects_other_sizes(value):
    with pytest.raises(ValueError, match="given for a graph of 4 vertices"):
        as_frontier(value, 4, fr.get_device("cpu"))


def test_repr():
    assert repr(fr.Frontier.from_ids([1, 1], 3, "cpu")) == \
        "Frontier(sparse, size=2, of 3 vertices)"


def test_kind_is_the_creation_form():
    dense = fr.Frontier.from_mask(np.array([False, True, True]))
    _ = dense.ids  # caches the sparse form too
    assert dense.kind == "dense"
    assert dense.unique() is dense and dense.to_dense() is dense
    sparse = fr.Frontier.from_ids([2, 2, 0], 3, "cpu")
    _ = sparse.mask  # caches the dense form too
    assert sparse.kind == "sparse" and sparse.size == 3
    converted = sparse.to_dense()
    assert converted.kind == "dense" and converted.size == 2


def test_joined_lists_both_frontiers(device):
    """``joined``: the ids of one then the other (a dense one's in order,
    another index type cast), distinct only where promised disjoint and
    both are."""
    first = fr.Frontier(10, fr.get_device(device), ids=fr.get_device(device).asarray(
        np.array([4, 1], dtype=np.int64)), distinct=True)
    second = fr.Frontier.from_mask(fr.get_device(device).asarray(
        np.isin(np.arange(10), [2, 7])))
    both = first.joined(second, disjoint=True)
    assert both.kind == "sparse" and both.distinct
    assert to_numpy(both.ids).tolist() == [4, 1, 2, 7]
    assert not first.joined(second).distinct
    repeated = fr.Frontier.from_ids([3, 3], 10, device)
    assert not first.joined(repeated, disjoint=True).distinct
    with pytest.raises(ValueError, match="one of 11 on"):
        first.joined(fr.Frontier.empty(11, device))
    with pytest.raises(ValueError, match="one of 10 on cpu:1"):
        first.joined(fr.Frontier.empty(10, "cpu:1"))
