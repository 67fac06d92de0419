"""Race-free updates (claim, scatter_min, scatter_add, first_occurrence) against
sequential plain-Python references, with repeated ids."""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import with_device

import frontier as fr
from frontier.device import to_numpy


@st.composite
def updates(draw, max_vertices=30):
    """``(num_vertices, ids, seed)``: ids with many repeats."""
    n = draw(st.integers(1, max_vertices))
    ids = draw(st.lists(st.integers(0, n - 1), max_size=4 * n))
    return n, np.asarray(ids, dtype=np.int64), draw(st.integers(0, 2**32 - 1))


def put(device, array):
    """A copy of ``array`` on ``device`` (the updates work in place)."""
    return fr.get_device(device).asarray(np.array(array, copy=True))


def check_claim(before, after, ids, values, won, unset):
    """Exactly one winner per vertex unset before; it stored its value."""
    is_unset = np.isnan if isinstance(unset, float) and np.isnan(unset) \
        else (lambda x: x == unset)
    winners = defaultdict(list)
    for i in np.flatnonzero(won):
        winners[int(ids[i])].append(i)
    newly = {int(v) for v in ids if is_unset(before[v])}
    assert set(winners) == newly
    for v, entries in winners.items():
        assert len(entries) == 1
        assert after[v] == values[entries[0]]
    untouched = np.setdiff1d(np.arange(len(before)), list(newly))
    np.testing.assert_array_equal(after[untouched], before[untouched])


@with_device
@given(updates(), st.sampled_from([np.int8, np.int32, np.int64]), st.booleans())
def test_claim_integer_labels(device, case, dtype, array_value):
    n, ids, seed = case
    rng = np.random.default_rng(seed)
    before = np.where(rng.random(n) < 0.4, rng.integers(0, 50, n), -1).astype(dtype)
    values = rng.integers(0, 100, len(ids)).astype(dtype) if array_value \
        else np.full(len(ids), 7, dtype=dtype)
    labels = put(device, before)
    won = fr.claim(labels, put(device, ids), put(device, values) if array_value else 7)
    assert won.dtype == bool and won.shape == ids.shape
    check_claim(before, to_numpy(labels), ids, values, to_numpy(won), -1)


@with_device
@given(updates(), st.sampled_from([-1.0, np.nan]))
def test_claim_float_labels(device, case, unset):
    n, ids, seed = case
    rng = np.random.default_rng(seed)
    before = np.where(rng.random(n) < 0.4, rng.uniform(0, 5, n), unset)
    values = rng.uniform(10, 20, len(ids))
    labels = put(device, before)
    won = fr.claim(labels, put(device, ids), put(device, values), unset=unset)
    check_claim(before, to_numpy(labels), ids, values, to_numpy(won), unset)


@with_device
@given(updates())
def test_claim_unsigned_labels_with_positive_unset(device, case):
    n, ids, seed = case
    rng = np.random.default_rng(seed)
    unset = np.iinfo(np.uint32).max
    before = np.where(rng.random(n) < 0.4, rng.integers(0, 9, n), unset).astype(np.uint32)
    values = np.full(len(ids), 3, dtype=np.uint32)
    labels = put(device, before)
    won = fr.claim(labels, put(device, ids), 3, unset=unset)
    check_claim(before, to_numpy(labels), ids, values, to_numpy(won), unset)


@with_device
@given(updates())
def test_claim_leaves_labels_below_unset_alone(device, case):
    """Labels under ``unset`` (here -7) are no tickets: the hub-level scan for
    tickets must not take them for winners."""
    n, ids, seed = case
    rng = np.random.default_rng(seed)
    before = rng.choice(np.array([-7, -1, -1, 3], dtype=np.int32), n)
    values = np.full(len(ids), 5, dtype=np.int32)
    labels = put(device, before)
    won = fr.claim(labels, put(device, ids), 5)
    check_claim(before, to_numpy(labels), ids, values, to_numpy(won), -1)


@pytest.mark.parametrize("dtype", [np.int8, np.int16])
def test_claim_more_entries_than_small_labels_can_count(device, dtype):
    # Too many entries for distinct negative tickets in the label dtype.
    rng = np.random.default_rng(3)
    ids = rng.integers(0, 50, 400)
    before = np.where(rng.random(50) < 0.3, 9, -1).astype(dtype)
    values = rng.integers(0, 100, 400).astype(dtype)
    labels = put(device, before)
    won = fr.claim(labels, put(device, ids), put(device, values))
    check_claim(before, to_numpy(labels), ids, values, to_numpy(won), -1)


def test_claim_twice_claims_nothing_new(device):
    labels = put(device, np.full(4, -1, np.int32))
    ids = put(device, np.array([2, 2, 0, 2]))
    assert int(fr.claim(labels, ids, 1).sum()) == 2
    assert not bool(fr.claim(labels, ids, 5).any())
    assert to_numpy(labels).tolist() == [1, -1, 1, -1]


def test_claim_empty_ids(device):
    labels = put(device, np.full(3, -1, np.int32))
    won = fr.claim(labels, put(device, np.zeros(0, np.int64)), 1)
    assert won.shape == (0,)
    assert to_numpy(labels).tolist() == [-1, -1, -1]


@with_device
@given(updates(), st.sampled_from([np.int32, np.float64]))
def test_scatter_min(device, case, dtype):
    n, ids, seed = case
    rng = np.random.default_rng(seed)
    # A small value range makes ties (which must not count as improvements) common.
    before = rng.integers(0, 8, n).astype(dtype)
    candidates = rng.integers(0, 10, len(ids)).astype(dtype)
    expected = before.copy()
    for v, c in zip(ids.tolist(), candidates.tolist(), strict=True):
        expected[v] = min(expected[v], c)
    values = put(device, before)
    improved = to_numpy(fr.scatter_min(values, put(device, ids), put(device, candidates)))
    np.testing.assert_array_equal(to_numpy(values), expected)
    winners = Counter(ids[improved].tolist())
    lowered = {v for v in range(n) if expected[v] < before[v]}
    assert set(winners) == lowered
    assert all(count == 1 for count in winners.values())
    # each winner carries the final minimum
    np.testing.assert_array_equal(candidates[improved], expected[ids[improved]])


def test_scatter_min_equal_is_not_an_improvement(device):
    values = put(device, np.array([3.0, 5.0]))
    improved = fr.scatter_min(values, put(device, np.array([0, 1, 1])),
                              put(device, np.array([3.0, 4.0, 4.0])))
    assert to_numpy(improved).tolist() in ([False, True, False], [False, False, True])
    assert to_numpy(values).tolist() == [3.0, 4.0]


def test_scalar_candidates_and_amounts(device):
    values = put(device, np.array([5.0, 1.0, 7.0]))
    improved = to_numpy(fr.scatter_min(values, put(device, np.array([0, 2, 0, 1])), 3.0))
    assert to_numpy(values).tolist() == [3.0, 1.0, 3.0]
    assert sorted(np.array([0, 2, 0, 1])[improved].tolist()) == [0, 2]
    fr.scatter_add(values, put(device, np.array([1, 1, 2])), -1.0)
    assert to_numpy(values).tolist() == [3.0, -1.0, 2.0]


def test_misaligned_candidates_fail_loudly():
    with pytest.raises(ValueError, match="broadcast"):
        fr.scatter_min(np.zeros(3), np.array([0, 1, 2]), np.array([1.0, 2.0]))


@with_device
@given(updates(), st.sampled_from([np.int64, np.float64]))
def test_scatter_add(device, case, dtype):
    n, ids, seed = case
    rng = np.random.default_rng(seed)
    before = rng.integers(0, 5, n).astype(dtype)
    amounts = rng.integers(-3, 10, len(ids)).astype(dtype)
    expected = before.copy()
    for v, a in zip(ids.tolist(), amounts.tolist(), strict=True):
        expected[v] += a
    values = put(device, before)
    first = to_numpy(fr.scatter_add(values, put(device, ids), put(device, amounts)))
    np.testing.assert_allclose(to_numpy(values), expected)
    assert sorted(ids[first].tolist()) == sorted(set(ids.tolist()))


@with_device
@given(updates())
def test_first_occurrence(device, case):
    _, ids, _ = case
    mask = to_numpy(fr.first_occurrence(put(device, ids)))
    assert mask.dtype == bool and mask.shape == ids.shape
    assert sorted(ids[mask].tolist()) == sorted(set(ids.tolist()))



@with_device
@given(updates(), st.sampled_from([np.int32, np.int64]), st.integers(-1, 3), st.booleans())
def test_count_down(device, case, dtype, to, masked):
    """Counts fall by one per counted entry; exactly one counted entry is
    reported per vertex that went from above ``to`` to at or below it."""
    n, ids, seed = case
    rng = np.random.default_rng(seed)
    before = rng.integers(-1, 6, n).astype(dtype)
    where = rng.random(len(ids)) < 0.7 if masked else np.ones(len(ids), dtype=bool)
    expected = before.copy()
    np.subtract.at(expected, ids[where], 1)
    counts = put(device, before)
    reached = to_numpy(fr.count_down(counts, put(device, ids), to=to,
                                     where=put(device, where) if masked else None))
    np.testing.assert_array_equal(to_numpy(counts), expected)
    assert reached.dtype == bool and reached.shape == ids.shape
    assert not (reached & ~where).any()
    crossed = {v for v in range(n) if before[v] > to >= expected[v]}
    assert sorted(ids[reached].tolist()) == sorted(crossed)


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.float64])
def test_count_down_needs_atomic_counts(dtype):
    with pytest.raises(TypeError, match="int32 or int64"):
        fr.count_down(np.zeros(3, dtype=dtype), np.array([0, 1]))
