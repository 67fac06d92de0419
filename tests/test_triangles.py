"""Triangles and clustering (primitives/triangles.py) against NetworkX, on
one device and several."""

from __future__ import annotations

import importlib

import networkx as nx
import numpy as np
import pytest
from device_matrix import matrix_tests, process_tests, same_arrays
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from primitives import average_clustering, clustering, transitivity, triangles
from primitives.triangles import WORDS, _set_bits, wedges


def per_vertex(values: dict, n: int) -> list:
    return [values[v] for v in range(n)]


@with_device
@given(edges=edge_lists(directed=False, max_vertices=50, max_edges=200), data=st.data())
def test_triangles_match_networkx(device, edges, data):
    g = edges.networkx(multigraph=False)
    G = edges.graph(device)
    counts = triangles(G)
    assert counts.tolist() == per_vertex(nx.triangles(g), edges.num_vertices)
    v = data.draw(st.integers(0, edges.num_vertices - 1))
    assert triangles(G, v) == nx.triangles(g, v)
    some = data.draw(st.lists(st.integers(0, edges.num_vertices + 2), max_size=5))
    assert triangles(G, some) == nx.triangles(g, some)


@with_device
@given(edges=edge_lists(max_vertices=50, max_edges=200), data=st.data())
def test_clustering_and_transitivity_match_networkx(device, edges, data):
    g = edges.networkx(multigraph=False)
    G = edges.graph(device)
    assert transitivity(G) == pytest.approx(nx.transitivity(g), abs=1e-12)
    coefficients = clustering(G)
    np.testing.assert_allclose(coefficients, per_vertex(nx.clustering(g), edges.num_vertices),
                               rtol=0, atol=1e-12)
    count_zeros = data.draw(st.booleans())
    nodes = data.draw(st.none() | st.lists(st.integers(0, edges.num_vertices - 1),
                                           min_size=1, max_size=6, unique=True))
    try:
        expected = nx.average_clustering(g, nodes, count_zeros=count_zeros)
    except ZeroDivisionError:
        with pytest.raises(ZeroDivisionError):
            average_clustering(G, nodes, count_zeros=count_zeros)
        return
    assert average_clustering(G, nodes, count_zeros=count_zeros) == \
        pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("per_batch", [64, 100, 64 * WORDS])
def test_more_pivots_than_one_batch(monkeypatch, per_batch):
    """Batches of one word, of words partly used, and of every word; the
    graphs have pivots for three batches of 64 and more than one word."""
    module = importlib.import_module("primitives.triangles")  # not the function
    monkeypatch.setattr(module, "PIVOTS_PER_BATCH", per_batch)
    g = nx.gnp_random_graph(3 * 64 + 5, 0.15, seed=3)
    G = fr.Graph.from_networkx(g, weight=None, device="cpu")
    assert triangles(G).tolist() == list(nx.triangles(g).values())
    d = nx.gnp_random_graph(2 * 64 + 3, 0.1, seed=4, directed=True)
    D = fr.Graph.from_networkx(d, weight=None, device="cpu")
    np.testing.assert_allclose(clustering(D), list(nx.clustering(d).values()), atol=1e-12)
    assert transitivity(D) == pytest.approx(nx.transitivity(d))


@pytest.mark.parametrize("pairs", [1, 3])
def test_common_words_listed_in_pieces(device, monkeypatch, pairs):
    """Edges whose ends share many words of marks (dense graphs, one
    batch of several words), listed a few (edge, word) pairs at a time,
    as the words of hubs are."""
    module = importlib.import_module("primitives.triangles")
    monkeypatch.setattr(module, "PAIRS_PER_PIECE", pairs)
    g = nx.gnp_random_graph(100, 0.2, seed=5)
    G = fr.Graph.from_networkx(g, weight=None, device=device)
    assert triangles(G).tolist() == list(nx.triangles(g).values())
    d = nx.gnp_random_graph(40, 0.3, seed=6, directed=True)
    D = fr.Graph.from_networkx(d, weight=None, device=device)
    np.testing.assert_allclose(clustering(D), list(nx.clustering(d).values()), atol=1e-12)
    assert transitivity(D) == pytest.approx(nx.transitivity(d))


@with_device
@given(values=st.lists(st.integers(0, 2**64 - 1) | st.sampled_from([1, 2**63, 2**64 - 1]),
                       max_size=40))
def test_popcount(device, values):
    xp = fr.get_device(device).xp
    counts = module_function("_popcount")(xp, xp.asarray(np.array(values, dtype=np.uint64)))
    assert fr.to_numpy(counts).tolist() == [bin(value).count("1") for value in values]


def module_function(name: str):
    """A function of primitives.triangles (whose name the package's
    ``triangles`` function shadows)."""
    return getattr(importlib.import_module("primitives.triangles"), name)


@with_device
@given(values=st.lists(st.integers(1, 2**64 - 1) | st.sampled_from([1, 2**63, 2**64 - 1]),
                       max_size=40),
       rounds=st.sampled_from([0, 1, 3, 64]), chunk=st.sampled_from([1, 3, 1 << 17]))
def test_set_bits_finds_every_bit_once(device, monkeypatch, values, rounds, chunk):
    """The lowest-bit rounds, the unpacking in chunks, and both together
    (64 rounds: the lowest-bit path alone) give each set bit once."""
    module = importlib.import_module("primitives.triangles")
    monkeypatch.setattr(module, "LOWEST_BIT_ROUNDS", rounds)
    monkeypatch.setattr(module, "UNPACK_CHUNK", chunk)
    xp = fr.get_device(device).xp
    index, position = _set_bits(xp, xp.asarray(np.array(values, dtype=np.uint64)))
    found = sorted(zip(fr.to_numpy(index).tolist(), fr.to_numpy(position).tolist()))
    assert found == [(i, b) for i, value in enumerate(values) for b in range(64) if value >> b & 1]


def test_networkx_refusals_and_what_is_not_implemented():
    D = fr.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True, device="cpu")
    with pytest.raises(nx.NetworkXNotImplemented):
        triangles(D)
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.triangles(nx.DiGraph([(0, 1)]))
    with pytest.raises(NotImplementedError, match="weighted clustering"):
        average_clustering(D, weight="weight")
    empty = fr.Graph.from_edges([], [], num_vertices=0, device="cpu")
    assert transitivity(empty) == 0 == nx.transitivity(nx.Graph())
    assert clustering(D, 0) == nx.clustering(nx.DiGraph([(0, 1), (1, 2), (2, 0)]), 0)


@given(edges=edge_lists(max_vertices=15, max_edges=40), data=st.data())
def test_backend_matches_networkx(edges, data):
    g = edges.networkx(multigraph=False)
    if not edges.directed:
        assert nx.triangles(g, backend="frontier") == nx.triangles(g)
    assert nx.transitivity(g, backend="frontier") == pytest.approx(nx.transitivity(g))
    ours, theirs = nx.clustering(g, backend="frontier"), nx.clustering(g)
    assert list(ours) == list(theirs)
    assert list(ours.values()) == pytest.approx(list(theirs.values()))
    assert nx.average_clustering(g, backend="frontier") == \
        pytest.approx(nx.average_clustering(g))


def _wedges(G, edges, **options):
    return wedges(G, **options).run


(test_wedges_on_virtual_devices, test_wedges_on_parts_sharing_a_gpu) = \
    matrix_tests(_wedges, same_arrays("closed", "transitive"))
test_wedges_in_worker_processes = process_tests(_wedges, same_arrays("closed", "transitive"))


def test_labelled_graphs_take_and_give_nodes():
    g = nx.relabel_nodes(nx.les_miserables_graph(), str.upper)
    G = fr.Graph.from_networkx(g, weight=None, device="cpu")
    some = ["VALJEAN", "JAVERT", "NOBODY"]
    assert triangles(G, some) == nx.triangles(g, some)
    assert triangles(G, "MYRIEL") == nx.triangles(g, "MYRIEL")
    assert clustering(G, "VALJEAN") == pytest.approx(nx.clustering(g, "VALJEAN"))
    assert average_clustering(G, some[:2]) == pytest.approx(nx.average_clustering(g, some[:2]))
