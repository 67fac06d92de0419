"""Segmented reductions and the chunked edge expansion, against plain Python."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import with_device

import frontier as fr
from frontier.device import to_numpy
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
