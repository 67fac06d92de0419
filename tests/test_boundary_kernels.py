"""The output boundary's GPU kernels (:mod:`frontier.kernels.boundary`)
against NumPy on random inputs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.gpu


@given(slots=st.integers(1, 3000), fraction=st.floats(0, 1), parts=st.integers(2, 9),
       owner_type=st.sampled_from([np.int8, np.int16, np.int32]),
       id_type=st.sampled_from([np.int32, np.int64]), mapped=st.booleans(),
       seed=st.integers(0, 2**31))
@settings(deadline=None)
def test_split_by_owner_buckets_every_id(slots, fraction, parts, owner_type, id_type, mapped,
                                         seed):
    import cupy

    from frontier.kernels.boundary import split_by_owner

    rng = np.random.default_rng(seed)
    owner = rng.integers(0, parts, slots).astype(owner_type)
    ids = rng.permutation(slots)[:int(fraction * slots)].astype(id_type)
    on_owner = rng.permutation(slots).astype(id_type) if mapped else None
    rank = int(rng.integers(0, parts))
    marked = cupy.zeros(slots, dtype=bool)
    counts, local, there = split_by_owner(
        cupy.asarray(ids), cupy.asarray(owner), parts, rank,
        None if on_owner is None else cupy.asarray(on_owner), marked)
    local, there = local.get(), there.get()
    assert counts == np.bincount(owner[ids], minlength=parts).tolist()
    ends = np.cumsum(counts)
    for part in range(parts):
        bucket = local[ends[part] - counts[part]:ends[part]]
        np.testing.assert_array_equal(np.sort(bucket), np.sort(ids[owner[ids] == part]))
    np.testing.assert_array_equal(there, local if on_owner is None else on_owner[local])
    expected = np.zeros(slots, dtype=bool)
    expected[ids[owner[ids] == rank]] = True
    np.testing.assert_array_equal(marked.get(), expected)


@given(slots=st.integers(1, 3000), segments=st.integers(1, 4), length=st.integers(0, 4000),
       id_type=st.sampled_from([np.int32, np.int64]), seed=st.integers(0, 2**31))
@settings(deadline=None)
def test_collect_marked_takes_each_marked_slot_once(slots, segments, length, id_type, seed):
    import cupy

    from frontier.kernels.boundary import collect_marked

    rng = np.random.default_rng(seed)
    marks = rng.random(slots) < 0.5
    lists = [rng.integers(-1, slots, int(rng.integers(0, length + 1))).astype(id_type)
             for _ in range(segments)]
    marked = cupy.asarray(marks)
    out = collect_marked([cupy.asarray(ids) for ids in lists], marked).get()
    every = np.concatenate(lists)
    every = every[every >= 0]
    np.testing.assert_array_equal(np.sort(out), np.unique(every[marks[every]]))
    left = marks.copy()
    left[every] = False
    np.testing.assert_array_equal(marked.get(), left)


@given(owned_count=st.integers(0, 3000), fraction=st.floats(0, 1), strays=st.integers(0, 20),
       id_type=st.sampled_from([np.int32, np.int64]), seed=st.integers(0, 2**31))
@settings(deadline=None)
def test_owned_bits_is_packbits_of_the_mask(owned_count, fraction, strays, id_type, seed):
    import cupy

    from frontier.kernels.boundary import owned_bits

    rng = np.random.default_rng(seed)
    owned = np.sort(rng.choice(4 * owned_count + 1, owned_count, replace=False)).astype(id_type)
    slots = rng.permutation(owned)[:int(fraction * owned_count)]
    # slots that are not owned set nothing
    slots = np.concatenate([slots, rng.integers(0, 4 * owned_count + 1, strays)]).astype(id_type)
    bits = owned_bits(cupy.asarray(slots), cupy.asarray(owned)).get()
    np.testing.assert_array_equal(bits, np.packbits(np.isin(owned, slots)))
