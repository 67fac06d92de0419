"""Label propagation communities and the greedy colouring they start from,
against NetworkX: random undirected graphs and multigraphs (isolated
vertices, self loops, parallel edges), named graphs, directed input, and
the multi-device matrix.

NetworkX's semi-synchronous algorithm is deterministic (its colour classes
hold no two neighbours, so the order inside a class does not matter), and
the primitive repeats it step for step: the communities must be NetworkX's
exactly, not just valid ones.
"""

from __future__ import annotations

import importlib

import networkx as nx
import numpy as np
import pytest
from device_matrix import matrix_tests, same_arrays
from graphs import named_graphs
from hypothesis import given
from strategies import edge_lists, with_device
from test_nx_backend import nx_graphs, quiet_cache  # noqa: F401 -- a fixture

import frontier as fr
from primitives import greedy_color, label_propagation

propagation = importlib.import_module("primitives.label_propagation")


def communities(labels) -> set[frozenset]:
    groups: dict = {}
    for vertex, label in enumerate(fr.to_numpy(labels).tolist()):
        groups.setdefault(label, set()).add(vertex)
    return {frozenset(group) for group in groups.values()}


def undirected(edges, device="cpu") -> fr.Graph:
    return fr.Graph.from_edges(edges.src, edges.dst, None, edges.num_vertices, False,
                               device=device)


@with_device
@given(edge_lists(directed=False, max_vertices=50, max_edges=150))
def test_random_graphs_match_networkx(device, edges):
    """On the multigraph (parallel edges are one neighbour) and, with the
    parallel edges dropped, on the simple graph."""
    for multigraph in (True, False):
        g = edges.networkx(multigraph=multigraph)
        G = fr.Graph.from_networkx(g, device=device)
        expected = {frozenset(c) for c in nx.community.label_propagation_communities(g)}
        assert communities(label_propagation(G).labels) == expected


@with_device
@given(edge_lists(directed=False, max_vertices=50, max_edges=150))
def test_the_stop_is_networkx_with_and_without_checks(device, edges):
    """Whether a sweep is followed by NetworkX's check or only by the next
    sweep, the run stops at NetworkX's labels; the checks cost steps where
    they fail and save a sweep where they pass."""
    g = edges.networkx(multigraph=True)
    G = fr.Graph.from_networkx(g, device=device)
    expected = {frozenset(c) for c in nx.community.label_propagation_communities(g)}
    steps = {}
    for fraction in (0.0, 1.0):  # never check; check after every sweep that moved
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(propagation, "CHECK_AFTER_MOVES", fraction)
            run = label_propagation(G)
        assert communities(run.labels) == expected
        steps[fraction] = run.iterations
    colours = int(fr.to_numpy(greedy_color(G).color).max()) + 1 if edges.num_vertices else 1
    moving_sweeps = steps[0.0] // colours - 1  # the last sweep moved nothing
    # a check after each sweep that moved; the last passes, in place of a sweep
    expected_steps = steps[0.0] + moving_sweeps - colours if moving_sweeps > 0 else steps[0.0]
    assert steps[1.0] == expected_steps


@with_device
@given(edge_lists(directed=False, max_vertices=50, max_edges=150))
def test_greedy_color_matches_networkx(device, edges):
    g = edges.networkx()
    expected = nx.greedy_color(g, strategy="largest_first")
    color = fr.to_numpy(greedy_color(undirected(edges, device)).color)
    np.testing.assert_array_equal(color, [expected[v] for v in range(edges.num_vertices)])


@with_device
@given(edge_lists(directed=False, max_vertices=50, max_edges=150))
def test_labels_decided_batch_by_batch(device, edges):
    """An edge budget of a few edges a batch: each advance hands the
    update many batches of whole vertices, decided one by one."""
    g = edges.networkx(multigraph=True)
    G = fr.Graph.from_networkx(g, device=device)
    expected = {frozenset(c) for c in nx.community.label_propagation_communities(g)}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FRONTIER_EDGE_BUDGET", "512")  # about a dozen edges a batch
        assert communities(label_propagation(G).labels) == expected


def test_greedy_color_beyond_one_window_of_64_colors(device):
    g = nx.complete_graph(150)
    nx.add_path(g, [0, 150, 151])
    color = fr.to_numpy(greedy_color(fr.Graph.from_networkx(g, device=device)).color)
    expected = nx.greedy_color(g)
    np.testing.assert_array_equal(color, [expected[v] for v in g])


def graphs_with_hubs() -> dict:
    """Graphs whose hubs have more neighbours than a warp has lanes (the GPU
    reduces a vertex's neighbours with a warp), one with a clique of 90 (more
    colours than a window of 64), on the CPU."""
    clique = nx.gnp_random_graph(400, 0.03, seed=2)
    clique.add_edges_from(nx.complete_graph(range(0, 360, 4)).edges)
    return {"kronecker-10": lambda: fr.generators.kronecker(10, 16, seed=1, device="cpu"),
            "barabasi-albert": lambda: fr.Graph.from_networkx(
                nx.barabasi_albert_graph(1500, 6, seed=3), device="cpu"),
            "clique-of-90": lambda: fr.Graph.from_networkx(clique, device="cpu")}


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(graphs_with_hubs()))
def test_gpu_answers_equal_the_cpu_answers_on_graphs_with_hubs(name):
    G = graphs_with_hubs()[name]()
    on_gpu = G.to("cuda:0")
    np.testing.assert_array_equal(fr.to_numpy(greedy_color(on_gpu).color),
                                  fr.to_numpy(greedy_color(G, devices="cpu").color))
    np.testing.assert_array_equal(fr.to_numpy(label_propagation(on_gpu).labels),
                                  fr.to_numpy(label_propagation(G, devices="cpu").labels))


@pytest.mark.parametrize("name", sorted(named_graphs()))
def test_named_graphs_match_networkx(device, name):
    g = nx.Graph(named_graphs()[name])
    result = label_propagation(fr.Graph.from_networkx(g, device=device))
    nodes = list(g)
    got = {frozenset(nodes[v] for v in c) for c in communities(result.labels)}
    assert got == {frozenset(c) for c in nx.community.label_propagation_communities(g)}


def test_directed_and_empty_graphs():
    with pytest.raises(nx.NetworkXNotImplemented):
        label_propagation(fr.Graph.from_edges([0], [1], directed=True, device="cpu"))
    empty = fr.Graph.from_edges([], [], num_vertices=0, device="cpu")
    assert label_propagation(empty).labels.shape == (0,)
    alone = fr.Graph.from_edges([], [], num_vertices=3, device="cpu")
    assert label_propagation(alone).labels.tolist() == [0, 1, 2]


# The multi-device matrix: the single-device labels (and colours), exactly,
# on the undirected graph of each drawn edge list.
test_matrix_on_virtual_devices, test_parts_sharing_a_gpu = matrix_tests(
    lambda G, edges, **o: label_propagation(G, **o), same_arrays("labels"),
    graph=undirected)
test_coloring_matrix_on_virtual_devices, test_coloring_on_parts_sharing_a_gpu = matrix_tests(
    lambda G, edges, **o: greedy_color(G, **o), same_arrays("color"), graph=undirected)


# the NetworkX backend

@given(nx_graphs(directed=False))
def test_backend_matches_networkx(graph):
    """The same ``dict_values`` of node sets in the same order (by first
    node); directed graphs raise NetworkXNotImplemented before dispatching."""
    expected = nx.community.label_propagation_communities(graph)
    got = nx.community.label_propagation_communities(graph, backend="frontier")
    assert type(got) is type(expected) and list(got) == list(expected)


def test_backend_refuses_directed_graphs_as_networkx():
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.community.label_propagation_communities(nx.DiGraph([(0, 1)]), backend="frontier")
