"""The exchange's message encodings and change detection, against plain NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import frontier as fr
from frontier.multi.messages import changed, differs, positions_of, select
from primitives import bfs, pagerank

masks = st.lists(st.booleans(), min_size=1, max_size=300).map(lambda bits: np.array(bits))


@given(masks, st.integers(1, 24), st.booleans())
def test_a_selector_names_exactly_the_changed_entries(mask, item_bytes, dense):
    count = int(mask.sum())
    selected = select(mask, item_bytes, dense)
    if count == 0:
        assert selected is None
        return
    selector, positions = selected
    named = positions_of(selector, len(mask), count)
    if named is None:  # dense: every entry
        assert dense and positions is None
        named = np.arange(len(mask))
        assert len(mask) * item_bytes <= count * (4 + item_bytes)
    else:
        np.testing.assert_array_equal(named, np.flatnonzero(mask))
        np.testing.assert_array_equal(positions, np.flatnonzero(mask))
    assert set(np.flatnonzero(mask)) <= set(named.tolist())


@given(masks, st.integers(1, 24))
def test_the_selector_is_the_smallest_encoding(mask, item_bytes):
    count = int(mask.sum())
    if count == 0:
        assert select(mask, item_bytes, dense=True) is None
        return
    selector, _ = select(mask, item_bytes, dense=True)
    sent = selector.nbytes + (len(mask) if selector.dtype == np.bool_ else count) * item_bytes
    n = len(mask)
    assert sent == min(count * (4 + item_bytes), -(-n // 8) + count * item_bytes,
                       n * item_bytes)


@given(st.lists(st.floats(allow_nan=True, width=32), min_size=1, max_size=60),
       st.data())
def test_changed_compares_listed_slots_with_nan_equal(values, data):
    array = np.array(values, dtype=np.float32)
    snapshot = array.copy()
    touched = data.draw(st.lists(st.integers(0, len(array) - 1), max_size=10))
    snapshot[touched] += 1  # NaN + 1 stays NaN: no change there
    labels = np.arange(len(array))
    slots = np.array(data.draw(st.lists(st.integers(0, len(array) - 1), max_size=40)),
                     dtype=np.int32)
    got = changed(slots, [array, labels], [snapshot, labels.copy()])
    np.testing.assert_array_equal(got, differs(array[slots], snapshot[slots]))


def test_dense_refreshes_halve_pagerank_bytes_and_sparse_offers_stay_small():
    """PageRank's refresh changes every owned vertex: values only, no ids.
    BFS's offers name few vertices: positions, 4 bytes each."""
    G = fr.generators.kronecker(10, 8, seed=1, device="cpu")
    devices = ["cpu:0", "cpu:1"]
    run = pagerank(G, devices=devices)
    n, iterations = G.num_vertices, run.iterations
    # Each boundary sends at most every owned float64 once, to one peer.
    assert run.exchanged_bytes <= 8 * n * (iterations + 1)
    np.testing.assert_allclose(run.rank, pagerank(G, devices="cpu").rank, atol=1e-12)
    depth = bfs(G, 0, devices=devices)
    assert depth.exchanged_bytes < (4 + 4 + 4) * n * (depth.iterations + 1)


@pytest.mark.gpu
def test_fused_change_kernel_matches_numpy():
    cupy = pytest.importorskip("cupy")
    rng = np.random.default_rng(0)
    for dtypes in ([np.int32], [np.int32, np.int64], [np.float64, np.int32, np.float32]):
        arrays = [rng.integers(0, 3, 10_000).astype(t) for t in dtypes]
        arrays[-1][::7] = np.nan if np.dtype(dtypes[-1]).kind == "f" else 5
        snapshots = [a.copy() for a in arrays]
        for snapshot in snapshots:
            snapshot[rng.integers(0, 10_000, 300)] += 1
        slots = rng.integers(0, 10_000, 4_000).astype(np.int32)
        want = changed(slots, arrays, snapshots)
        got = changed(cupy.asarray(slots), [cupy.asarray(a) for a in arrays],
                      [cupy.asarray(s) for s in snapshots])
        np.testing.assert_array_equal(cupy.asnumpy(got), want)
        bits, _ = select(got, 8, dense=False)
        np.testing.assert_array_equal(cupy.asnumpy(positions_of(bits, len(slots),
                                                                int(want.sum()))),
                                      np.flatnonzero(want))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("op", ["min", "max"])
def test_merge_scatter_kernel_matches_numpy(dtype, op):
    """The merge's exact atomic min/max kernel against NumPy's ufunc.at,
    repeats and negative values included."""
    cupy = pytest.importorskip("cupy")
    from frontier.multi.merge import _scatter_extreme

    rng = np.random.default_rng(1)
    values = rng.integers(-50, 50, 1_000).astype(dtype)
    slots = rng.integers(0, 1_000, 5_000)
    offers = rng.integers(-60, 60, 5_000).astype(dtype)
    want = values.copy()
    _scatter_extreme(want, slots, offers, op)
    got = cupy.asarray(values)
    _scatter_extreme(got, cupy.asarray(slots), cupy.asarray(offers), op)
    np.testing.assert_array_equal(cupy.asnumpy(got), want)


def _offers(rng, dtype, size: int, count: int, drops: bool):
    """Owned values, offered slots (repeats; some -1 if ``drops``) and offers."""
    values = rng.integers(-20, 20, size).astype(dtype)
    slots = rng.integers(0, size, count)
    if drops:
        slots[rng.random(count) < 0.2] = -1
    offers = rng.integers(-25, 25, count).astype(dtype)
    return values, slots, offers


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_earliest_merge_keeps_the_smallest_set_value(dtype):
    """"earliest" on random offers: an unset (-1) value takes the smallest
    offer, a set one only a smaller offer; the follower comes from an offer
    holding the final value; changed marks exactly the slots that moved."""
    from frontier.communicate import Shared
    from frontier.multi.merge import merge

    rng = np.random.default_rng(3)
    size, count = 400, 1_500
    values = np.where(rng.random(size) < 0.5, -1, rng.integers(0, 30, size)).astype(dtype)
    slots = rng.integers(0, size, count)
    offers = rng.integers(0, 30, count).astype(dtype)
    followed = rng.integers(100, 10**6, count).astype(np.int64)
    got, follower = values.copy(), np.full(size, -7, dtype=np.int64)
    changed = np.zeros(size, dtype=bool)
    merge(Shared("depth", "earliest", ("predecessor",)), [got, follower], slots,
          [offers, followed], changed)
    best = np.full(size, np.iinfo(dtype).max, dtype=dtype)
    np.minimum.at(best, slots, offers)
    offered = np.isin(np.arange(size), slots)
    want = np.where(offered & ((values < 0) | (best < values)), best, values)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(changed, want != values)
    for slot in np.flatnonzero(changed):
        assert follower[slot] in followed[(slots == slot) & (offers == want[slot])]
    assert (follower[~changed] == -7).all() and changed.any() and not changed.all()


def test_earliest_needs_signed_integers():
    from frontier.communicate import Shared
    from frontier.multi.merge import merge

    with pytest.raises(TypeError, match="'earliest', which needs signed integers"):
        merge(Shared("distance", "earliest", ()), [np.zeros(3)], np.array([0]),
              [np.ones(1)], np.zeros(3, dtype=bool))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype,combine", [
    (dtype, combine) for dtype in (np.int32, np.int64, np.float32, np.float64)
    for combine in ("min", "max")] + [(np.int32, "earliest"), (np.int64, "earliest")])
@pytest.mark.parametrize("slot_type", [np.int32, np.int64])
def test_gpu_merge_without_reads_matches_the_numpy_merge(dtype, combine, slot_type):
    """The fused merge (frontier.kernels.merge) against the NumPy merge on
    random offers: the same values and changed slots, and each follower from
    an offer that holds the slot's final value (ties may pick either)."""
    cupy = pytest.importorskip("cupy")
    from frontier.communicate import Shared
    from frontier.multi.merge import merge

    rng = np.random.default_rng(7)
    shared = Shared("value", combine, ("follower",))
    for size, count in ((1, 5), (50, 400), (3_000, 20_000)):
        values, slots, offers = _offers(rng, dtype, size, count, drops=False)
        slots = slots.astype(slot_type)
        follower = rng.integers(0, 9, size).astype(np.int64)
        followed = rng.integers(100, 10**6, count).astype(np.int64)
        want, want_follower = values.copy(), follower.copy()
        want_changed = np.zeros(size, dtype=bool)
        merge(shared, [want, want_follower], slots, [offers, followed], want_changed)
        got, got_follower = cupy.asarray(values), cupy.asarray(follower)
        got_changed = cupy.zeros(size, dtype=bool)
        merge(shared, [got, got_follower], cupy.asarray(slots),
              [cupy.asarray(offers), cupy.asarray(followed)], got_changed)
        np.testing.assert_array_equal(cupy.asnumpy(got), want)
        np.testing.assert_array_equal(cupy.asnumpy(got_changed), want_changed)
        got_follower = cupy.asnumpy(got_follower)
        np.testing.assert_array_equal(got_follower[~want_changed], follower[~want_changed])
        for slot in np.flatnonzero(want_changed):
            winners = followed[(slots == slot) & (offers == want[slot])]
            assert got_follower[slot] in winners


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_gpu_merge_skips_dropped_slots_and_marks_sums(dtype):
    """Negative slots (a broadcast's drops) are skipped by the fused min
    merge; a "sum" merge marks exactly the slots given a non-zero amount."""
    cupy = pytest.importorskip("cupy")
    from frontier.communicate import Shared
    from frontier.multi.merge import merge

    rng = np.random.default_rng(8)
    values, slots, offers = _offers(rng, dtype, 2_000, 10_000, drops=True)
    kept = slots >= 0
    want = values.copy()
    want_changed = np.zeros(len(values), dtype=bool)
    merge(Shared("v", "min", ()), [want], slots[kept], [offers[kept]], want_changed)
    got = cupy.asarray(values)
    got_changed = cupy.zeros(len(values), dtype=bool)
    merge(Shared("v", "min", ()), [got], cupy.asarray(slots), [cupy.asarray(offers)],
          got_changed)
    np.testing.assert_array_equal(cupy.asnumpy(got), want)
    np.testing.assert_array_equal(cupy.asnumpy(got_changed), want_changed)

    amounts = np.where(rng.random(len(offers)) < 0.5, 0, offers).astype(dtype)
    want, want_changed = values.copy(), np.zeros(len(values), dtype=bool)
    merge(Shared("v", "sum", ()), [want], slots[kept], [amounts[kept]], want_changed)
    got, got_changed = cupy.asarray(values), cupy.zeros(len(values), dtype=bool)
    merge(Shared("v", "sum", ()), [got], cupy.asarray(slots[kept]),
          [cupy.asarray(amounts[kept])], got_changed)
    np.testing.assert_allclose(cupy.asnumpy(got), want)
    np.testing.assert_array_equal(cupy.asnumpy(got_changed), want_changed)
    assert want_changed.any() and not want_changed.all()


@pytest.mark.gpu
def test_gpu_earliest_merge_on_the_general_path():
    """A follower type the fused merge is not built for (int16) sends an
    "earliest" merge down the general path (compactions and the unsigned
    scatter kernel): the same values and changed slots as NumPy's."""
    cupy = pytest.importorskip("cupy")
    from frontier.communicate import Shared
    from frontier.multi.merge import merge

    rng = np.random.default_rng(5)
    size, count = 500, 2_000
    values = np.where(rng.random(size) < 0.5, -1, rng.integers(0, 30, size)).astype(np.int32)
    slots = rng.integers(0, size, count)
    offers = rng.integers(0, 30, count).astype(np.int32)
    followed = rng.integers(0, 100, count).astype(np.int16)
    shared = Shared("depth", "earliest", ("tag",))
    want, want_tag = values.copy(), np.zeros(size, dtype=np.int16)
    want_changed = np.zeros(size, dtype=bool)
    merge(shared, [want, want_tag], slots, [offers, followed], want_changed)
    got, got_tag = cupy.asarray(values), cupy.zeros(size, dtype=np.int16)
    got_changed = cupy.zeros(size, dtype=bool)
    merge(shared, [got, got_tag], cupy.asarray(slots), [cupy.asarray(offers),
                                                        cupy.asarray(followed)], got_changed)
    np.testing.assert_array_equal(cupy.asnumpy(got), want)
    np.testing.assert_array_equal(cupy.asnumpy(got_changed), want_changed)
    got_tag = cupy.asnumpy(got_tag)
    for slot in np.flatnonzero(want_changed):
        assert got_tag[slot] in followed[(slots == slot) & (offers == want[slot])]
