"""Partitioners and partition measures.

Every partitioner returns valid, seeded owner arrays; ``random`` is balanced
to one vertex, ``biased_random`` respects its balance bound and cuts fewer
edges than ``random`` where the graph has locality, ``metis`` fewer still;
the measures of :class:`partition.Partition` equal a plain-Python count.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from frontier.generators import grid
from partition import (
    BALANCE_EPS,
    PARTITIONERS,
    Partition,
    biased_random_partition,
    check_owner,
    contiguous_partition,
    make_partition,
    metis_partition,
    random_partition,
    resolve_partitioner,
)
from partition.greedy import max_part_size

try:
    import pymetis  # noqa: F401

    HAVE_PYMETIS = True
except ImportError:
    HAVE_PYMETIS = False

needs_pymetis = pytest.mark.skipif(not HAVE_PYMETIS, reason="needs pymetis (the metis extra)")
NAMES = [pytest.param(name, marks=needs_pymetis) if name == "metis" else name
         for name in PARTITIONERS]


def path(n: int, directed: bool = False) -> fr.Graph:
    return fr.Graph.from_edges(np.arange(n - 1), np.arange(1, n), num_vertices=n,
                               directed=directed, device="cpu")


def owner_of(owner):
    """A partitioner that returns ``owner`` whatever it is asked."""
    return lambda graph, num_parts, seed: owner


# every partitioner ---------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
@given(edges=edge_lists(), parts=st.integers(1, 6), seed=st.integers(0, 100))
def test_partitioners_return_int32_owners_in_range_and_are_seeded(name, edges, parts, seed):
    G = edges.graph()
    partitioner = PARTITIONERS[name]
    owner = partitioner(G, parts, seed)
    assert isinstance(owner, np.ndarray)
    assert owner.shape == (G.num_vertices,) and owner.dtype == np.int32
    assert owner.min(initial=0) >= 0 and owner.max(initial=0) < parts
    np.testing.assert_array_equal(owner, partitioner(G, parts, seed))


@pytest.mark.parametrize("name", NAMES)
def test_partitioners_handle_edgeless_graphs_and_more_parts_than_vertices(name):
    empty = np.array([], dtype=np.int64)
    for n, parts in [(0, 3), (1, 3), (5, 2), (3, 7)]:
        G = fr.Graph.from_edges(empty, empty, num_vertices=n, device="cpu")
        owner = check_owner(PARTITIONERS[name](G, parts, 0), G, parts)
        assert len(owner) == n


@pytest.mark.parametrize("partitioner", [random_partition, contiguous_partition,
                                         biased_random_partition])
@pytest.mark.parametrize("parts", [0, -2, 1.5, True, "2"])
def test_partitioners_reject_a_bad_number_of_parts(partitioner, parts):
    with pytest.raises(ValueError, match="num_parts"):
        partitioner(path(4), parts, 0)


# random and contiguous -------------------------------------------------------------------


@given(edges=edge_lists(), parts=st.integers(1, 6), seed=st.integers(0, 100))
def test_random_partition_is_balanced_to_one_vertex(edges, parts, seed):
    sizes = np.bincount(random_partition(edges.graph(), parts, seed), minlength=parts)
    assert sizes.max() - sizes.min() <= 1


def test_random_partition_depends_on_the_seed():
    G = path(100)
    assert not np.array_equal(random_partition(G, 4, 0), random_partition(G, 4, 1))


@given(edges=edge_lists(), parts=st.integers(1, 6))
def test_contiguous_partition_cuts_id_ranges_of_about_equal_edges(edges, parts):
    G = edges.graph()
    owner = contiguous_partition(G, parts)
    assert np.all(np.diff(owner) >= 0)  # consecutive ids, parts in order
    degree = np.diff(G.offsets)
    arcs = np.bincount(owner, weights=degree, minlength=parts)
    # Each part is within one vertex's degree of an equal share.
    assert np.all(np.abs(arcs - G.num_arcs / parts) <= degree.max(initial=0) + 1)


def test_contiguous_partition_of_a_path_splits_it_in_halves():
    G = fr.Graph.from_edges(np.arange(7), np.arange(1, 8), directed=True)
    # 7 arcs: the first part takes 3 (vertices 0-2), the second 4 (vertices 3-7)
    assert contiguous_partition(G, 2).tolist() == [0, 0, 0, 1, 1, 1, 1, 1]


# biased random ---------------------------------------------------------------------------


@given(edges=edge_lists(), parts=st.integers(1, 6), seed=st.integers(0, 100),
       eps=st.sampled_from([0.0, 0.05, BALANCE_EPS, 0.5]))
def test_biased_random_partition_respects_its_balance_bound(edges, parts, seed, eps):
    G = edges.graph()
    owner = biased_random_partition(G, parts, seed, eps=eps)
    bound = max_part_size(G.num_vertices, parts, eps)
    assert np.bincount(owner, minlength=parts).max(initial=0) <= bound


def test_balance_bound_is_exact():
    assert max_part_size(10, 1) == 11  # not 12 from 1.1 * 10 in floating point
    assert max_part_size(100, 4) == 28
    assert max_part_size(7, 2, eps=0) == 4


@pytest.mark.parametrize("graph", [grid(20, 20, device="cpu"), path(500),
                                   path(500, directed=True)], ids=["grid", "path", "dipath"])
@pytest.mark.parametrize("parts", [2, 4])
def test_biased_random_partition_cuts_less_than_random_where_there_is_locality(graph, parts):
    for seed in range(3):
        biased = make_partition(graph, parts, "biased_random", seed)
        assert biased.edge_cut < 0.7 * make_partition(graph, parts, "random", seed).edge_cut


def test_biased_random_partition_keeps_components_together():
    # Four disjoint 10-cliques in 4 parts: following neighbours puts each clique
    # mostly in one part, where a random deal scatters it.
    clique = np.array([(u, v) for u in range(10) for v in range(u + 1, 10)])
    src = np.concatenate([clique[:, 0] + 10 * c for c in range(4)])
    dst = np.concatenate([clique[:, 1] + 10 * c for c in range(4)])
    G = fr.Graph.from_edges(src, dst, device="cpu")
    assert make_partition(G, 4, "biased_random").edge_cut < make_partition(G, 4).edge_cut / 2


@pytest.mark.parametrize("eps", [-0.1, float("inf"), float("nan"), "0.1"])
def test_biased_random_partition_rejects_bad_slack(eps):
    with pytest.raises(ValueError, match="must be a finite non-negative number"):
        biased_random_partition(path(4), 2, eps=eps)


# metis -----------------------------------------------------------------------------------


def test_metis_partition_is_valid_and_cuts_less_than_random_on_a_grid():
    pytest.importorskip("pymetis")
    G = grid(30, 30, device="cpu")
    metis = make_partition(G, 4, "metis", seed=3)
    assert metis.owned_vertices.max() <= 1.05 * G.num_vertices / 4
    assert metis.edge_cut < make_partition(G, 4, "biased_random", seed=3).edge_cut
    assert metis.edge_cut < make_partition(G, 4, "random", seed=3).edge_cut / 4
    np.testing.assert_array_equal(metis.owner, metis_partition(G, 4, seed=3))


def test_metis_partition_of_one_part_is_all_zeros():
    pytest.importorskip("pymetis")
    assert metis_partition(grid(3, 3, device="cpu"), 1).tolist() == [0] * 9


@given(edges=edge_lists(directed=True), parts=st.integers(2, 4))
def test_metis_partition_accepts_loops_parallel_and_one_way_edges(edges, parts):
    pytest.importorskip("pymetis")
    G = edges.graph()
    check_owner(metis_partition(G, parts, 0), G, parts, "metis")


def test_metis_partition_without_pymetis_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pymetis", None)  # makes `import pymetis` fail
    with pytest.raises(ImportError, match=r"pip install 'frontier-graph\[metis\]'"):
        metis_partition(path(4), 2)
    with pytest.raises(ImportError, match="pymetis"):
        make_partition(path(4), 2, "metis")


# measures --------------------------------------------------------------------------------


def plain_measures(edges, owner, parts):
    """Edge cut, border sizes and owned arcs, counted edge by edge."""
    cut = 0
    border = [set() for _ in range(parts)]
    arcs = [0] * parts
    for u, v in zip(edges.src.tolist(), edges.dst.tolist()):
        arcs[owner[u]] += 1
        if not edges.directed and u != v:
            arcs[owner[v]] += 1  # the reverse arc
        if owner[u] != owner[v]:
            cut += 1
            border[owner[u]].add(v)
            border[owner[v]].add(u)
    return cut, [len(b) for b in border], arcs


@with_device
@given(edges=edge_lists(), parts=st.integers(1, 5), data=st.data())
def test_measures_equal_a_plain_count(device, edges, parts, data):
    """Taken where the graph is (a GPU graph's on its GPU)."""
    G = edges.graph(device)
    owner = data.draw(st.lists(st.integers(0, parts - 1), min_size=G.num_vertices,
                               max_size=G.num_vertices))
    p = make_partition(G, parts, owner_of(np.array(owner, dtype=np.int64)))
    cut, border, arcs = plain_measures(edges, owner, parts)
    assert p.owner.dtype == np.int32 and p.owner.tolist() == owner
    assert p.edge_cut == cut
    assert p.border.tolist() == border
    assert p.owned_edges.tolist() == arcs
    assert p.owned_vertices.tolist() == np.bincount(owner, minlength=parts).tolist()
    assert sum(arcs) == G.num_arcs
    expected = max(arcs) / (sum(arcs) / parts) if sum(arcs) else 1.0
    assert p.imbalance == pytest.approx(expected)


def test_partition_of_a_path_in_halves():
    p = make_partition(path(6), 2, "contiguous")
    assert isinstance(p, Partition) and p.partitioner == "contiguous"
    assert p.owner.tolist() == [0, 0, 0, 1, 1, 1]
    assert p.owned_vertices.tolist() == [3, 3]
    assert p.owned_edges.tolist() == [5, 5]
    assert p.edge_cut == 1 and p.border.tolist() == [1, 1]
    assert p.imbalance == 1.0


def test_partition_of_an_edgeless_graph_has_unit_imbalance():
    empty = np.array([], dtype=np.int64)
    p = make_partition(fr.Graph.from_edges(empty, empty, num_vertices=5), 3, seed=2)
    assert p.imbalance == 1.0 and p.edge_cut == 0
    assert p.owned_edges.tolist() == [0, 0, 0] and p.border.tolist() == [0, 0, 0]


def test_partition_to_dict_is_plain_json_and_str_is_a_table():
    p = make_partition(grid(4, 4, device="cpu"), 3, "biased_random", seed=1)
    d = p.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert set(d) == {"partitioner", "num_parts", "owned_vertices", "owned_edges",
                      "edge_cut", "border", "imbalance"}
    assert d["partitioner"] == "biased_random" and sum(d["owned_vertices"]) == 16
    assert all(type(x) is int for x in d["owned_vertices"] + d["owned_edges"] + d["border"])
    lines = str(p).splitlines()
    assert "biased_random" in lines[0] and f"edge cut {p.edge_cut}" in lines[0]
    assert len(lines) == 2 + 3 and lines[2].split()[0] == "0"


def test_partitioner_names_in_measures():
    G = path(4)
    assert make_partition(G, 2).partitioner == "random"
    assert make_partition(G, 2, random_partition).partitioner == "random"
    assert make_partition(G, 2, owner_of(np.zeros(4, np.int8))).partitioner.endswith("<lambda>")


# owner validation ------------------------------------------------------------------------


@pytest.mark.parametrize("owner, message", [
    (np.zeros(3, np.int32), r"shape \(3,\).*shape \(4,\)"),
    (np.zeros((4, 1), np.int32), r"shape \(4, 1\)"),
    (np.array([0, 1, 2, 1]), "vertex 2 the owner 2: expected a part index in 0..1"),
    (np.array([0, -1, 0, 0]), "vertex 1 the owner -1"),
    (np.zeros(4, np.float64), "dtype float64: expected an integer dtype"),
    (np.zeros(4, bool), "dtype bool: expected an integer dtype"),
])
def test_bad_owner_arrays_are_rejected_with_what_was_wrong(owner, message):
    G = path(4)
    with pytest.raises(ValueError, match=message):
        check_owner(owner, G, 2)
    with pytest.raises(ValueError, match=f"partitioner '.*<lambda>' .*{message}"):
        make_partition(G, 2, owner_of(owner))


def test_check_owner_returns_host_int32():
    owner = check_owner(np.array([1, 0, 1, 0], dtype=np.uint64), path(4), 2)
    assert owner.dtype == np.int32 and owner.tolist() == [1, 0, 1, 0]


@pytest.mark.parametrize("name", NAMES)
def test_partitioners_take_a_graph_on_any_device(name, device):
    G = grid(5, 6, device=device)
    p = make_partition(G, 3, name, seed=1)
    assert isinstance(p.owner, np.ndarray) and p.owner.dtype == np.int32
    assert p.owner.tolist() == make_partition(G.to("cpu"), 3, name, seed=1).owner.tolist()


# resolution ------------------------------------------------------------------------------


def test_resolve_partitioner_by_name_callable_and_default():
    assert resolve_partitioner(None) is random_partition
    assert resolve_partitioner("contiguous") is contiguous_partition
    assert resolve_partitioner("biased_random") is biased_random_partition
    assert resolve_partitioner("metis") is metis_partition
    custom = owner_of(np.zeros(3, np.int32))
    assert resolve_partitioner(custom) is custom
    assert set(PARTITIONERS) == {"random", "contiguous", "biased_random", "metis"}


@pytest.mark.parametrize("partition", ["kahip", 3])
def test_resolve_partitioner_lists_the_names_for_an_unknown_one(partition):
    with pytest.raises(ValueError, match=rf"unknown partition {partition!r}: expected one of "
                                         r"\['biased_random', 'contiguous', 'metis', 'random'\]"):
        resolve_partitioner(partition)
