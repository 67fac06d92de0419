"""What a placed part keeps per slot, and the masked sum behind vertex_sum."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import with_device

import frontier as fr
from frontier.device import get_device
from frontier.kernels.masked import ROW, masked_sum
from frontier.multi.enactor import owner_dtype
from primitives import pagerank


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int32, np.int64, np.uint32,
                                   np.float32, np.float64])
@with_device
@given(data=st.data())
def test_masked_sum_is_the_sum_of_the_selected_entries(device, dtype, data):
    length = data.draw(st.sampled_from([0, 1, 100, ROW - 1, ROW, ROW + 1, 3 * ROW + 77]))
    seed = data.draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    values = (rng.random(length) * 100).astype(dtype)
    mask = rng.random(length) < data.draw(st.floats(0, 1))
    D = get_device(device)
    total = masked_sum(D.asarray(values), D.asarray(mask))
    expected = values[mask].sum()
    assert np.dtype(total.dtype) == expected.dtype
    if values.dtype.kind == "f":
        np.testing.assert_allclose(float(total), float(expected), rtol=1e-5)
    else:
        assert int(total) == int(expected)


def test_owner_type_holds_every_part_number():
    assert owner_dtype(1) == np.int8 and owner_dtype(128) == np.int8
    assert owner_dtype(129) == np.int16 and owner_dtype(32768) == np.int16
    assert owner_dtype(32769) == np.int32


@pytest.mark.parametrize("duplication", [None, "all", "one_hop"])
def test_placed_parts_keep_small_owner_and_slot_types(duplication):
    """int8 part numbers and int32 owned slots, whether built as parts
    (``None``) or split from a whole graph; the answer is unchanged."""
    G = fr.generators.kronecker(8, seed=1, device="cpu")
    devices = ["cpu:0", "cpu:1", "cpu:2"]
    if duplication is None:
        graph, options = fr.generators.kronecker_parts(8, seed=1, devices=devices), {}
        parts = graph.parts
    else:
        graph, options = G, {"devices": devices, "duplication": duplication}
        pagerank(G, **options)
        (_, parts), = G._parts.values()
    for part in parts:
        assert part.slot_owner.dtype == np.int8
        assert part.owned.dtype == np.int32
    np.testing.assert_allclose(fr.to_numpy(pagerank(graph, **options).rank),
                               fr.to_numpy(pagerank(G).rank), rtol=1e-9, atol=1e-12)
