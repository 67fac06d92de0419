"""kernels.module.Prepared, a launch packed once, against CuPy's own launch
of the same kernel: random slots and values, with and without a variable
argument; and its refusal of an argument it cannot pack."""

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
