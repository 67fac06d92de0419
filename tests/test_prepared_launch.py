"""kernels.module.Prepared, a launch packed once: against CuPy's own launch
of the same kernel (random slots and values, with and without a variable
argument), its packing on the CPU (the joint levels' Routes struct's C
layout included), and its refusal of an argument it cannot pack."""

from __future__ import annotations

import numpy as np
import pytest

from frontier.kernels.module import NULL, VARIABLE, Prepared, _scalar


@pytest.mark.gpu
@pytest.mark.parametrize("seed", range(4))
def test_prepared_matches_cupys_launch(seed):
    import cupy

    from frontier.kernels.module import kernel

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 5000))
    slots = cupy.asarray(rng.choice(n, size=int(rng.integers(0, n + 1)), replace=False)
                         .astype(np.int32))
    value = np.uint64(rng.integers(0, 2**32))
    put = kernel("put_value", np.int32, source="fill.cu")
    plain, prepared = cupy.zeros(n, dtype=np.uint32), cupy.zeros(n, dtype=np.uint32)
    put((4,), (256,), (plain, slots, np.int64(len(slots)), np.int32(4), value))
    stream = cupy.cuda.get_current_stream()
    # the element size as the variable argument: set at the call, not at packing
    launch = Prepared(put, 4, [prepared, slots, np.int64(len(slots)), VARIABLE, value])
    launch(stream, 4)
    cupy.testing.assert_array_equal(prepared, plain)
    # a null pointer, and a second call that reuses the packed arguments
    whole = cupy.zeros(n, dtype=np.uint8)
    again = Prepared(put, 4, [whole, NULL, np.int64(n), np.int32(1), np.uint64(7)])
    again(stream)
    again(stream)
    assert int(whole.sum()) == 7 * n


def test_a_python_int_is_refused():
    with pytest.raises(TypeError, match="NumPy scalar"):
        _scalar(3)


class _Function:
    """Stands in for a compiled kernel: its driver handle."""

    ptr = 0xF00


class _DeviceArray:
    """Stands in for a device array: its address."""

    def __init__(self, address):
        self.data = type("Memory", (), {"ptr": address})()


def test_arguments_are_packed_as_the_kernel_reads_them():
    """Each packed parameter holds its argument's bytes: a device array's
    address, a scalar in its own width, a struct in its C layout, and the
    variable an int32 (no GPU: the packing alone)."""
    from frontier.multi.joint_levels import _ROUTES

    routes = np.void((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), dtype=_ROUTES)
    launch = Prepared(_Function(), 7, [_DeviceArray(0xABC), np.int64(-5), VARIABLE,
                                      np.int32(9), routes])
    words = [value.tobytes() for value in launch._values]
    assert words[0] == np.uint64(0xABC).tobytes()
    assert words[1] == np.int64(-5).tobytes()
    assert words[2] == np.int32(0).tobytes() and words[3] == np.int32(9).tobytes()
    assert launch._function == 0xF00 and launch.grid == 7
    # the pointers point at those bytes, in order
    assert [int(p) for p in launch._params] == [value.ctypes.data for value in launch._values]
    # Routes in traversal.cu: P*, signed char*, int, int, then seven pointers (80 bytes)
    assert _ROUTES.itemsize == 80
    assert [_ROUTES.fields[name][1] for name in _ROUTES.names] == \
        [0, 8, 16, 20, 24, 32, 40, 48, 56, 64, 72]
    assert words[4] == routes.tobytes()
