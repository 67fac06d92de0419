"""kernels.fill against NumPy. fill against its fill: every dtype,
byte-uniform values (the memset path) and others (the 16-byte kernel),
lengths around the 16-byte word, views that start off a word boundary and
strided views (CuPy's fill). put against its indexed assignment."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DEVICES

import frontier as fr
from frontier.kernels.fill import fill, put

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint32, np.float32, np.float64]
VALUES = [0, 1, -1, 7, 0.85, np.inf, -np.inf, np.nan, 1 / 3, 255]
LENGTHS = [0, 1, 2, 3, 15, 16, 17, 31, 33, 1000, 4097]


def expected(length, dtype, value):
    with np.errstate(invalid="ignore", over="ignore"):
        reference = np.empty(length, dtype=dtype)
        reference.fill(value)
    return reference


def fits(value, dtype) -> bool:
    try:
        expected(1, dtype, value)
    except OverflowError:
        return False
    return True


def poisoned(xp, length, dtype, rng):
    """An array of random bytes, so that an entry the fill missed shows."""
    raw = rng.integers(0, 256, size=length * np.dtype(dtype).itemsize + 64, dtype=np.uint8)
    return xp.asarray(raw)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_fill_sets_every_entry(device, dtype):
    dev = fr.get_device(device)
    xp = dev.xp
    rng = np.random.default_rng(0)
    for length in LENGTHS:
        for value in VALUES:
            if dtype != np.bool_ and np.dtype(dtype).kind in "iu" and not np.isfinite(value):
                continue  # no integer holds inf or nan
            raw = poisoned(xp, length, dtype, rng)
            if not fits(value, dtype):  # NumPy refuses such a value: so must fill
                with pytest.raises(OverflowError):
                    fill(raw[:length * np.dtype(dtype).itemsize].view(dtype), value)
                continue
            size = length * np.dtype(dtype).itemsize
            after = fr.to_numpy(raw[size:]).copy()
            array = raw[:size].view(dtype)
            fill(array, value)
            got = fr.to_numpy(array)
            want = expected(length, dtype, value)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want, err_msg=f"{length} x {dtype} = {value}")
            np.testing.assert_array_equal(fr.to_numpy(raw[size:]), after)  # nothing past it


@pytest.mark.parametrize("device", DEVICES)
def test_fill_writes_nothing_outside_the_array(device):
    """Views that start off a 16-byte boundary and end mid-word, and a strided
    view: the bytes around them keep their values."""
    xp = fr.get_device(device).xp
    rng = np.random.default_rng(1)
    for dtype, value in ((np.float64, np.inf), (np.int32, 5), (np.int16, -2), (np.bool_, True),
                         (np.float32, 0.5)):
        for start, stop in ((0, 37), (1, 37), (3, 200), (5, 6)):
            base = xp.asarray(rng.standard_normal(256).astype(np.float64)).view(dtype)
            before = fr.to_numpy(base).copy()
            fill(base[start:stop], value)
            want = before.copy()
            want[start:stop] = np.asarray(value).astype(dtype)
            np.testing.assert_array_equal(fr.to_numpy(base), want)
        base = xp.asarray(rng.standard_normal(64)).astype(dtype)
        before = fr.to_numpy(base).copy()
        fill(base[::3], value)
        want = before.copy()
        want[::3] = np.asarray(value).astype(dtype)
        np.testing.assert_array_equal(fr.to_numpy(base), want)


SLOT_DTYPES = [np.int32, np.int64]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("slot_dtype", SLOT_DTYPES)
def test_put_sets_the_slots_and_nothing_else(device, dtype, slot_dtype):
    """put against NumPy's indexed assignment: random slots (repeats
    included, none at all), every value a dtype holds."""
    xp = fr.get_device(device).xp
    rng = np.random.default_rng(2)
    for length in (1, 2, 17, 1000):
        for count in (0, 1, 3, 40):
            for value in VALUES:
                if (np.dtype(dtype).kind in "iu" and not np.isfinite(value)) \
                        or not fits(value, dtype):
                    continue  # (refusals: the next test)
                before = rng.integers(0, 256, size=length * np.dtype(dtype).itemsize,
                                      dtype=np.uint8).view(dtype)
                slots = rng.integers(0, length, size=count).astype(slot_dtype)
                want = before.copy()
                want[slots] = value
                array = xp.asarray(before)
                put(array, xp.asarray(slots), value)
                np.testing.assert_array_equal(fr.to_numpy(array), want,
                                              err_msg=f"{length} x {dtype}[{slots}] = {value}")


@pytest.mark.parametrize("device", DEVICES)
def test_put_refuses_what_numpy_refuses_and_serves_other_arrays(device):
    """A value the dtype cannot hold raises as NumPy's assignment does; a
    strided array, a complex one and a list of slots are assigned by the
    array library."""
    xp = fr.get_device(device).xp
    with pytest.raises(OverflowError):
        put(xp.zeros(4, np.int8), xp.asarray([1]), 300)
    with pytest.raises(ValueError):
        put(xp.zeros(4, np.int32), xp.asarray([1]), np.nan)
    strided = xp.zeros(12, np.int32)
    put(strided[::3], xp.asarray([1, 3]), 7)
    assert fr.to_numpy(strided).tolist() == [0, 0, 0, 7, 0, 0, 0, 0, 0, 7, 0, 0]
    wide = xp.zeros(3, np.complex128)
    put(wide, xp.asarray([2]), 1 + 2j)
    assert fr.to_numpy(wide).tolist() == [0, 0, 1 + 2j]
    listed = xp.zeros(3, np.float64)
    put(listed, [0, 2], 0.5)
    assert fr.to_numpy(listed).tolist() == [0.5, 0, 0.5]
