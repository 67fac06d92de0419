"""Segmented reductions and the chunked edge expansion, against plain Python."""

from __future__ import annotations

import functools
import math
import operator
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import with_device

import frontier as fr
from frontier.device import to_numpy
from frontier.operators import segments as segments_module
from frontier.operators.expand import expand
from frontier.operators.segments import identity_of, segment_reduce

REFERENCE = {
    "sum": lambda seg: sum(seg),
    "min": lambda seg: min(seg),
    "max": lambda seg: max(seg),
    "any": lambda seg: any(seg),
}


@st.composite
def segments(draw):
    """``(lengths, seed)``: segment lengths, many of them zero."""
    lengths = draw(st.lists(st.integers(0, 9) | st.just(0), max_size=25))
    return lengths, draw(st.integers(0, 2**32 - 1))


def split(values, lengths):
    ends = np.cumsum(lengths, dtype=np.int64)
    return [values[e - k:e].tolist() for e, k in zip(ends, lengths, strict=True)], ends


@with_device
@given(segments(), st.sampled_from(["sum", "min", "max", "any"]),
       st.sampled_from([np.int64, np.int32, np.float64]))
def test_builtin_ops(device, case, op, dtype):
    lengths, seed = case
    rng = np.random.default_rng(seed)
    values = rng.integers(-20, 20, sum(lengths)).astype(dtype)
    if op == "any":
        values = (values > 10).astype(dtype)  # mostly zeros
    pieces, ends = split(values, lengths)
    xp = fr.get_device(device).xp
    out = to_numpy(segment_reduce(xp.asarray(values), xp.asarray(ends), op))
    empty = identity_of(op, bool if op == "any" else dtype)
    expected = [REFERENCE[op](seg) if seg else empty for seg in pieces]
    assert out.dtype == (bool if op == "any" else dtype)
    assert out.tolist() == expected


@with_device
@given(segments())
def test_user_combiners(device, case):
    lengths, seed = case
    rng = np.random.default_rng(seed)
    values = rng.integers(1, 60, sum(lengths))
    pieces, ends = split(values, lengths)
    xp = fr.get_device(device).xp
    values_d, ends_d = xp.asarray(values), xp.asarray(ends)
    biggest = segment_reduce(values_d, ends_d, lambda a, b: xp.maximum(a, b), identity=-1)
    assert to_numpy(biggest).tolist() == [max(seg) if seg else -1 for seg in pieces]
    gcd = segment_reduce(values_d, ends_d, xp.gcd, identity=0)
    assert to_numpy(gcd).tolist() == [functools.reduce(math.gcd, seg, 0) for seg in pieces]
    bits = segment_reduce(values_d % 16, ends_d, lambda a, b: a | b, identity=0)
    assert to_numpy(bits).tolist() == \
        [functools.reduce(lambda a, b: a | b, [v % 16 for v in seg], 0) for seg in pieces]


BITWISE = {"bitwise_or": operator.or_, "bitwise_and": operator.and_,
           "bitwise_xor": operator.xor}


def random_bits(rng, count: int, dtype) -> np.ndarray:
    """``count`` values of ``dtype`` of random bits (of 0 and 1 for bools)."""
    if dtype is np.bool_:
        return rng.integers(0, 2, count).astype(bool)
    raw = rng.integers(0, 256, count * np.dtype(dtype).itemsize, dtype=np.uint8)
    return raw.view(dtype)


def no_tree(*args):
    raise AssertionError("took the tree of whole-array steps")


@with_device
@given(segments(), st.sampled_from(sorted(BITWISE)),
       st.sampled_from([np.int32, np.int64, np.uint32, np.uint64, np.int8, np.bool_]),
       st.integers(-3, 3), st.booleans())
def test_bitwise_ufuncs_as_plain_python(device, case, name, dtype, identity, numpy_ufunc):
    """NumPy's (``reduceat``) and CuPy's (the warp kernel) reductions by the
    bitwise ufuncs, of the array library or NumPy's, against a reduction per
    segment in Python; empty segments get the identity, which is never
    combined into the others (it need not be the op's identity). On NumPy
    the tree of whole-array steps is never used, nor on CuPy for 32- and
    64-bit integers."""
    lengths, seed = case
    rng = np.random.default_rng(seed)
    values = random_bits(rng, sum(lengths), dtype)
    if dtype is np.bool_ or np.dtype(dtype).kind == "u":
        identity = abs(identity) % 2 if dtype is np.bool_ else abs(identity)
    pieces, ends = split(values, lengths)
    xp = fr.get_device(device).xp
    ufunc = getattr(np if numpy_ufunc else xp, name)
    fast = xp is np or np.dtype(dtype).itemsize in (4, 8)
    with mock.patch.object(segments_module, "_tree_reduce",
                           side_effect=no_tree if fast else segments_module._tree_reduce):
        out = to_numpy(segment_reduce(xp.asarray(values), xp.asarray(ends), ufunc,
                                      identity=identity))
    expected = [functools.reduce(BITWISE[name], seg) if seg else identity for seg in pieces]
    assert out.dtype == dtype
    assert out.tolist() == expected


def test_identity_overrides_empty_segments(device):
    xp = fr.get_device(device).xp
    values, ends = xp.asarray([4.0, 1.0, 2.0]), xp.asarray([0, 2, 2, 3])
    out = segment_reduce(values, ends, "min", identity=-7.0)
    assert to_numpy(out).tolist() == [-7.0, 1.0, -7.0, 2.0]


def test_no_segments_and_no_values(device):
    xp = fr.get_device(device).xp
    assert segment_reduce(xp.zeros(0), xp.zeros(0, np.int64), "sum").shape == (0,)
    out = segment_reduce(xp.zeros(0, np.int32), xp.zeros(3, np.int64), "max")
    assert to_numpy(out).tolist() == [np.iinfo(np.int32).min] * 3


def test_identities():
    assert identity_of("sum", np.float32) == 0
    assert identity_of("any", np.int64) is False
    assert identity_of("min", np.float64) == np.inf
    assert identity_of("max", np.float64) == -np.inf
    assert identity_of("min", np.int32) == np.iinfo(np.int32).max
    assert identity_of("max", np.int64) == np.iinfo(np.int64).min


@pytest.mark.parametrize("ends", [np.zeros(0, np.int64), np.array([0, 2])])
def test_unknown_op(ends):
    with pytest.raises(ValueError, match="unknown reduction 'prod'"):
        segment_reduce(np.ones(int(ends[-1]) if len(ends) else 0), ends, "prod")


def test_user_combiner_needs_identity():
    with pytest.raises(ValueError, match="identity="):
        segment_reduce(np.ones(2), np.array([2]), lambda a, b: a + b)


# the warp kernel (frontier.kernels.segments) against NumPy and the tree ---------------

KERNEL_CASES = ([(op, dtype) for op in ("min", "max")
                 for dtype in (np.int32, np.int64, np.float32, np.float64)]
                + [(op, dtype) for op in sorted(BITWISE)
                   for dtype in (np.int32, np.int64, np.uint32, np.uint64)])
#: Whole-array steps of the tree, for the same reduction by another path.
TREE_STEP = {"min": "minimum", "max": "maximum", **{name: name for name in BITWISE}}


def kernel_values(rng, count: int, op: str, dtype) -> np.ndarray:
    """Values that make ``op`` tell a wrong answer from the right one: for
    floats normal values with repeats and infinities; for ``bitwise_or``
    (``bitwise_and``) zeros (all ones) but for a few entries of random bits,
    so that a long segment's answer is not all ones (zero); else random bits."""
    if np.dtype(dtype).kind == "f":
        values = (rng.standard_normal(count) * 1e3).astype(dtype)
        values[rng.random(count) < 0.1] = values[0] if count else 0
        values[rng.random(count) < 0.01] = np.inf
        values[rng.random(count) < 0.01] = -np.inf
        return values
    if op not in ("bitwise_or", "bitwise_and"):
        return random_bits(rng, count, dtype)
    values = np.zeros(count, dtype=dtype)
    few = rng.random(count) < 4 / max(count, 1)
    values[few] = random_bits(rng, int(few.sum()), dtype)
    return ~values if op == "bitwise_and" else values


def check_kernel(op: str, dtype, lengths, seed: int, identity=None, ends_type=np.int64):
    """The GPU's reduction by the kernel (the tree must not run) against
    NumPy's and against the tree's (a combiner the kernel does not know)."""
    import cupy

    rng = np.random.default_rng(seed)
    values = kernel_values(rng, sum(lengths), op, dtype)
    ends = np.cumsum(lengths, dtype=np.int64).astype(ends_type)
    if op in BITWISE and identity is None:
        identity = 0
    on_gpu, on_cpu = (op, op) if op in ("min", "max") else (getattr(cupy, op), getattr(np, op))
    step = getattr(cupy, TREE_STEP[op])
    with mock.patch.object(segments_module, "_tree_reduce", side_effect=no_tree):
        got = segment_reduce(cupy.asarray(values), cupy.asarray(ends), on_gpu, identity)
    want = segment_reduce(values, ends, on_cpu, identity)
    tree = segment_reduce(cupy.asarray(values), cupy.asarray(ends),
                          lambda a, b: step(a, b),
                          identity_of(op, dtype) if identity is None else identity)
    assert got.dtype == want.dtype == tree.dtype == dtype
    np.testing.assert_array_equal(to_numpy(got), want)
    np.testing.assert_array_equal(to_numpy(tree), want)


@st.composite
def kernel_layouts(draw):
    """``(lengths, seed)``: lengths around a warp's 32 lanes and its loop
    unrolled 4 times, many of them zero."""
    length = st.sampled_from([0, 0, 1, 2, 31, 32, 33, 127, 128, 129, 161, 1000]) \
        | st.integers(0, 300)
    return draw(st.lists(length, max_size=60)), draw(st.integers(0, 2**32 - 1))


@pytest.mark.gpu
@given(kernel_layouts(), st.sampled_from(KERNEL_CASES), st.booleans(),
       st.sampled_from([np.int64, np.int32]))
def test_kernel_matches_numpy_and_the_tree(case, op_and_type, own_identity, ends_type):
    """Every op and type of the kernel on random layouts, with the op's
    identity for the empty segments or another value (which must not be
    combined into the others), and int64 or int32 ends."""
    op, dtype = op_and_type
    lengths, seed = case
    check_kernel(op, dtype, lengths, seed, np.dtype(dtype).type(3) if own_identity else None,
                 ends_type)


@pytest.mark.gpu
@pytest.mark.parametrize("op, dtype", KERNEL_CASES)
def test_kernel_on_one_huge_segment(op, dtype):
    """A hub: 100,000 values in one warp's segment, alone or among others."""
    check_kernel(op, dtype, [100_000], seed=1)
    check_kernel(op, dtype, [0, 5, 100_003, 0, 40], seed=2)


@pytest.mark.gpu
@pytest.mark.parametrize("op, dtype", KERNEL_CASES)
def test_kernel_with_no_segments_or_no_values(op, dtype):
    import cupy

    from frontier.kernels.segments import reduce_segments

    combiner = op if op in ("min", "max") else getattr(cupy, op)
    identity = None if op in ("min", "max") else 0
    none = segment_reduce(cupy.zeros(0, dtype), cupy.zeros(0, np.int64), combiner, identity)
    assert none.shape == (0,) and none.dtype == dtype
    empty = segment_reduce(cupy.zeros(0, dtype), cupy.zeros(4, np.int64), combiner, identity)
    expected = identity_of(op, dtype) if identity is None else identity
    assert to_numpy(empty).tolist() == [expected] * 4
    out = cupy.zeros(0, dtype)
    reduce_segments(cupy.ones(3, dtype), cupy.zeros(0, np.int64), op, out)  # launches nothing
    assert out.shape == (0,)


@pytest.mark.gpu
@pytest.mark.parametrize("op, dtype", KERNEL_CASES)
def test_kernel_reads_broadcast_and_strided_values(op, dtype):
    """A functor's scalar broadcast over the edges (stride 0) and a strided
    view: the kernel reads them as contiguous copies."""
    import cupy

    combiner, numpy_combiner = (op, op) if op in ("min", "max") \
        else (getattr(cupy, op), getattr(np, op))
    identity = None if op in ("min", "max") else 0
    ends = np.array([0, 3, 3, 40, 41], dtype=np.int64)
    values = kernel_values(np.random.default_rng(0), 2 * 41, op, dtype)
    on_gpu = cupy.asarray(values)
    for view, gpu_view in ((values[::2], on_gpu[::2]),
                           (np.broadcast_to(values[5:6], (41,)),
                            cupy.broadcast_to(on_gpu[5:6], (41,)))):
        got = segment_reduce(gpu_view, cupy.asarray(ends), combiner, identity)
        np.testing.assert_array_equal(to_numpy(got),
                                      segment_reduce(view, ends, numpy_combiner, identity))


@pytest.mark.gpu
@pytest.mark.parametrize("op", ["min", "max", "bitwise_or"])
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint8, np.uint16])
def test_types_without_a_kernel_take_the_tree(op, dtype):
    import cupy

    rng = np.random.default_rng(3)
    lengths = [0, 1, 40, 0, 7, 300]
    values, ends = random_bits(rng, sum(lengths), dtype), np.cumsum(lengths)
    combiner, numpy_combiner = (op, op) if op in ("min", "max") \
        else (getattr(cupy, op), getattr(np, op))
    identity = None if op in ("min", "max") else 0
    with mock.patch.object(segments_module, "_tree_reduce",
                           wraps=segments_module._tree_reduce) as tree:
        got = segment_reduce(cupy.asarray(values), cupy.asarray(ends), combiner, identity)
    assert tree.called
    np.testing.assert_array_equal(to_numpy(got),
                                  segment_reduce(values, ends, numpy_combiner, identity))


def test_kernel_refusals():
    """What the kernel's wrapper refuses, before it touches a GPU."""
    from frontier.kernels.segments import kernel_type, reduce_segments

    assert kernel_type("bitwise_or", np.uint64) == np.int64
    assert kernel_type("min", np.uint64) is None
    assert kernel_type("bitwise_xor", np.float32) is None
    ends = np.array([2, 3])
    with pytest.raises(ValueError, match="no segmented reduction kernel 'sum'"):
        reduce_segments(np.ones(3), ends, "sum", np.zeros(2))
    with pytest.raises(ValueError, match="no segmented min kernel for int8 values"):
        reduce_segments(np.ones(3, np.int8), ends, "min", np.zeros(2, np.int8))
    with pytest.raises(ValueError, match="out must be a contiguous float64 array of shape"):
        reduce_segments(np.ones(3), ends, "max", np.zeros(4)[::2])


# expand: the load-balanced, chunked edge expansion ------------------------------------


@with_device
@given(st.lists(st.integers(0, 12), min_size=1, max_size=30), st.data(),
       st.sampled_from([1, 2, 3, 7, 1 << 24]))
def test_expand_covers_every_edge_once(device, degrees, data, chunk_edges):
    n = len(degrees)
    offsets = np.concatenate([[0], np.cumsum(degrees)]).astype(np.int64)
    vertices = np.asarray(data.draw(st.lists(st.integers(0, n - 1), max_size=2 * n)),
                          dtype=np.int64)
    xp = fr.get_device(device).xp
    batches = list(expand(xp, xp.asarray(offsets), xp.asarray(vertices), chunk_edges))
    expected = [(p, int(v), e) for p, v in enumerate(vertices)
                for e in range(offsets[v], offsets[v + 1])]
    got = []
    next_first = 0
    for batch in batches:
        position, vertex, edge = (to_numpy(a).tolist()
                                  for a in (batch.position, batch.vertex, batch.edge))
        ends = to_numpy(batch.ends)
        assert len(edge) >= 1 and int(ends[-1]) == len(edge)
        assert batch.first >= next_first
        lengths = np.diff(np.concatenate([[0], ends]))
        # Whole vertices, cut after the one that reaches chunk_edges: the
        # edges before the batch's last vertex with edges are fewer than that.
        last = np.flatnonzero(lengths)[-1]
        assert ends[last] - lengths[last] < chunk_edges
        assert lengths.tolist() == [degrees[v] for v in vertices[batch.first:
                                                                  batch.first + len(ends)]]
        next_first = batch.first + len(ends)
        got += list(zip(position, vertex, edge, strict=True))
    assert got == expected
