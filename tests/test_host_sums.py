"""Neighbour-value sums on the CPU (:mod:`frontier.operators.host_sums`):
SciPy's sparse product and the NumPy pass, each against the operator's
general path, on random graphs: directed and undirected, unweighted and
weighted (integer and float weights), every vertex or a list with repeats,
float32 and float64 values."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from frontier.operators import host_sums


def _general(monkeypatch, *args, **kwargs):
    """``neighbor_reduce`` by its general path (this module switched off)."""
    with monkeypatch.context() as patch:
        patch.setattr(host_sums, "host_neighbor_sum", lambda *args: None)
        return fr.neighbor_reduce(*args, **kwargs)


# SciPy's product, the NumPy pass, or the NumPy pass in pieces of whole
# rows summed by threads
@pytest.mark.parametrize("scipy, pieces", [(True, False), (False, False), (False, True)],
                         ids=["scipy", "numpy", "numpy-pieces"])
# a vertex list's rows alone, by the threshold, or every row then picked
@pytest.mark.parametrize("whole_pass_share", [0, host_sums.WHOLE_PASS_SHARE, 10**9])
@given(edges=edge_lists(max_vertices=40, max_edges=160), data=st.data())
def test_sums_match_the_general_path(scipy, pieces, whole_pass_share, edges, data):
    graph = fr.Graph.from_edges(edges.src, edges.dst, edges.weights, edges.num_vertices,
                                edges.directed, device="cpu")
    n = graph.num_vertices
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    dtype = data.draw(st.sampled_from([np.float32, np.float64]))
    values = rng.uniform(-1, 1, n).astype(dtype)
    pull = data.draw(st.booleans())
    weighted = data.draw(st.booleans())
    functor = (fr.functors.SourceValue if pull else fr.functors.DestinationValue)(
        values, weighted=weighted)
    vertices = data.draw(st.sampled_from([None, "list", "mask"]))
    if vertices == "list":
        vertices = rng.integers(0, n, rng.integers(0, 2 * n + 1))
    elif vertices == "mask":
        vertices = fr.Frontier.from_mask(rng.random(n) < 0.5)
    direction = "pull" if pull else "push"
    with pytest.MonkeyPatch.context() as patch:
        expected = _general(patch, graph, functor, "sum", vertices=vertices,
                            direction=direction)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(host_sums, "use_scipy", lambda graph: scipy)
        patch.setattr(host_sums, "WHOLE_PASS_SHARE", whole_pass_share)
        if pieces:  # up to 3 pieces, of one arc or more
            patch.setattr(host_sums, "PIECE_MIN_ARCS", 1)
            patch.setattr(host_sums, "cpu_threads", lambda: 3)
        found = fr.neighbor_reduce(graph, functor, "sum", vertices=vertices,
                                   direction=direction)
    assert found.dtype == expected.dtype and found.shape == expected.shape
    if scipy:  # another order of additions
        tolerance = 1e-5 if found.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(found, expected, rtol=tolerance, atol=tolerance * 50)
    else:  # the general path's additions
        np.testing.assert_array_equal(found, expected)


def test_scipy_is_imported_for_large_graphs_only(monkeypatch):
    small = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    monkeypatch.delitem(sys.modules, "scipy.sparse", raising=False)
    assert not host_sums.use_scipy(small)
    monkeypatch.setattr(host_sums, "SCIPY_IMPORT_ARCS", 4)
    assert host_sums.use_scipy(small)  # 4 arcs
    monkeypatch.setattr(host_sums, "SCIPY_IMPORT_ARCS", 5)
    monkeypatch.setitem(sys.modules, "scipy.sparse", object())  # loaded by someone
    assert host_sums.use_scipy(small)


def test_other_reductions_and_functors_take_the_general_path(monkeypatch):
    monkeypatch.setattr(host_sums, "use_scipy", lambda graph: True)
    graph = fr.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True, device="cpu")
    values = np.array([1.0, 2.0, 3.0])
    source = fr.functors.SourceValue(values)
    assert host_sums.host_neighbor_sum(graph, source, "max", None, "pull", None) is None
    assert host_sums.host_neighbor_sum(graph, source, "sum", None, "push", None) is None
    assert host_sums.host_neighbor_sum(graph, source, "sum", None, "pull", 1.0) is None
    integers = fr.functors.SourceValue(np.arange(3))
    assert host_sums.host_neighbor_sum(graph, integers, "sum", None, "pull", None) is None
    assert host_sums.host_neighbor_sum(graph, source, "sum", None, "pull", None).tolist() \
        == [3.0, 1.0, 2.0]


def test_a_graph_keeps_its_matrix_until_its_arrays_change():
    graph = fr.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], device="cpu")
    first = host_sums._matrix(graph, True, graph.weights)
    assert host_sums._matrix(graph, True, graph.weights) is first
    assert host_sums._matrix(graph, True, None) is not first  # unweighted: another
    graph.weights = graph.weights * 2
    changed = host_sums._matrix(graph, True, graph.weights)
    assert changed is not first and sorted(changed.data.tolist()) == [2.0, 2.0, 4.0, 4.0, 6.0, 6.0]
