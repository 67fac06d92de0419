"""The NetworkX backend against NetworkX: ``nx.f(G, backend="frontier") == nx.f(G)``
on random graphs (every graph class, string nodes inserted out of order,
integer, float or no weights), with types, order and errors; declining
through ``can_run``; dispatch by ``backend_priority`` and environment
variables; a ``backend_info`` that imports no Frontier."""

from __future__ import annotations

import functools
import inspect
import json
import os
import subprocess
import sys
from collections.abc import Iterator

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from frontier import nx_backend
from frontier.nx_backend import backend_interface
from frontier.nx_backend.interface import IMPLEMENTATIONS
from frontier_backend_info import FUNCTIONS, backend_info

CLASSES = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}


@pytest.fixture(autouse=True)
def quiet_cache():
    """Converted graphs are cached on G; NetworkX warns on every reuse."""
    with nx.config(warnings_to_ignore={"cache"}):
        yield


@st.composite
def nx_graphs(draw, directed=None, weights=None, max_nodes=12):
    """A NetworkX graph of any class whose nodes are strings, added in a random
    order (so ``G`` order, adjacency order and sorted order all differ), with
    isolated nodes, self loops and parallel edges; weights ``"int"`` (1..9),
    ``"float"`` or ``"none"``."""
    directed = draw(st.booleans()) if directed is None else directed
    multigraph = draw(st.booleans())
    n = draw(st.integers(0, max_nodes))
    labels = draw(st.permutations([f"v{i}" for i in range(n)]))
    kind = draw(st.sampled_from(["int", "float", "none"])) if weights is None else weights
    value = st.integers(1, 9) if kind == "int" else st.sampled_from([0.5, 0.1, 0.2, 1.25, 3.0])
    pairs = st.tuples(st.sampled_from(labels), st.sampled_from(labels)) if n else st.nothing()
    graph = CLASSES[(directed, multigraph)]()
    graph.add_nodes_from(labels)
    for u, v in draw(st.lists(pairs, max_size=3 * n)):
        graph.add_edge(u, v, **({} if kind == "none" else {"weight": draw(value)}))
    return graph


def node_of(graph, data):
    """A node of ``graph`` (or one that is not in it, now and then)."""
    if not len(graph) or data.draw(st.integers(0, 9)) == 0:
        return "absent"
    return data.draw(st.sampled_from(list(graph)))


def outcome(call):
    """The result of ``call()`` with iterators drained, or the exception."""
    try:
        result = call()
        return list(result) if isinstance(result, Iterator) else result
    except Exception as error:  # noqa: BLE001 -- the exception is the outcome
        return error


def assert_same(got, expected, ordered=True, where="result"):
    """Equal values of equal Python types (floats to 1e-6), in the same order
    for lists and (if ``ordered``) dicts; no NumPy scalars."""
    assert not isinstance(got, np.generic), f"{where}: NumPy scalar {got!r}"
    if isinstance(expected, Exception):
        assert type(got) is type(expected), f"{where}: {got!r} instead of {expected!r}"
        return
    assert type(got) is type(expected), f"{where}: {type(got)} != {type(expected)}"
    if isinstance(expected, float):
        assert got == pytest.approx(expected, abs=1e-6, nan_ok=True), where
    elif isinstance(expected, dict):
        assert (list(got) == list(expected)) if ordered else (got.keys() == expected.keys())
        for key in expected:
            assert_same(got[key], expected[key], ordered, f"{where}[{key!r}]")
    elif isinstance(expected, list | tuple):
        assert len(got) == len(expected), f"{where}: {got} != {expected}"
        for i, (a, b) in enumerate(zip(got, expected)):
            assert_same(a, b, ordered, f"{where}[{i}]")
    elif isinstance(expected, nx.Graph):
        assert got.is_directed() == expected.is_directed()
        assert dict(got.nodes) == dict(expected.nodes) and got.adj == expected.adj
        if ordered:  # nodes, and each row's neighbours, in NetworkX's order
            assert list(got.nodes) == list(expected.nodes), where
            assert [list(row) for row in got.adj.values()] == \
                [list(row) for row in expected.adj.values()], where
            if got.is_directed():
                assert [list(row) for row in got.pred.values()] == \
                    [list(row) for row in expected.pred.values()], where
    else:
        assert got == expected, f"{where}: {got!r} != {expected!r}"


def check(function, *args, ordered=True, dispatched=True, **kwargs):
    """``function`` with and without the backend gives the same outcome, and
    the backend really ran it (unless NetworkX rejects the call before
    dispatching: ``dispatched=False``)."""
    before = nx_backend.counts()["calls"].get(function.__name__, 0)
    expected = outcome(lambda: function(*args, **kwargs))
    got = outcome(lambda: function(*args, backend="frontier", **kwargs))
    assert_same(got, expected, ordered, f"{function.__name__}{args[1:]}{kwargs}")
    ran = nx_backend.counts()["calls"].get(function.__name__, 0) - before
    assert ran == 1 if dispatched else ran == 0


limits = st.sampled_from([None, 0, 1, 2, 1.5, -1, float("nan")])


@given(nx_graphs(), st.data())
def test_bfs_functions_match_networkx(graph, data):
    source, limit = node_of(graph, data), data.draw(limits)
    reverse = data.draw(st.booleans())
    check(nx.bfs_edges, graph, source, reverse=reverse, depth_limit=limit)
    check(nx.bfs_tree, graph, source, reverse=reverse, depth_limit=limit)
    check(nx.bfs_predecessors, graph, source, depth_limit=limit)
    check(nx.bfs_successors, graph, source, depth_limit=limit)
    check(nx.descendants_at_distance, graph, source, data.draw(st.sampled_from([0, 1, 2, -1])))


@given(nx_graphs(), st.data())
def test_bfs_layers_match_networkx(graph, data):
    check(nx.bfs_layers, graph, node_of(graph, data))
    sources = data.draw(st.lists(st.sampled_from(list(graph)), min_size=1)) if len(graph) else []
    check(nx.bfs_layers, graph, sources)


@given(nx_graphs(), st.data())
def test_unweighted_lengths_match_networkx(graph, data):
    source, target = node_of(graph, data), node_of(graph, data)
    check(nx.single_source_shortest_path_length, graph, source, cutoff=data.draw(limits))
    check(nx.shortest_path_length, graph, source)
    check(nx.shortest_path_length, graph, source, target)
    check(nx.single_source_dijkstra_path_length, graph, source, weight=None)
    check(nx.dijkstra_path_length, graph, source, target, weight=None)


@given(nx_graphs(directed=False))
def test_mirrored_neighbours_are_the_looked_up_ones(graph):
    """The conversion's fast path (an arc's neighbour from the partner arc
    that holds the same data dict) gives the lookup's adjacency."""
    from frontier.networkx_arcs import mirrored_arcs, row_values
    from frontier.nx_backend.graph import _adjacency

    rows, nodes = [graph._adj[node] for node in graph], list(graph)
    degree, held = row_values(rows)
    src = np.repeat(np.arange(len(nodes)), degree)
    mirrored = mirrored_arcs(held, src, rows, nodes)
    assert mirrored is not None
    partner, dst = mirrored
    np.testing.assert_array_equal(dst, src[partner])
    fast = _adjacency(rows, nodes, degree, dst)
    plain = _adjacency(rows, nodes, degree)
    np.testing.assert_array_equal(fast.offsets, plain.offsets)
    np.testing.assert_array_equal(fast.neighbors, plain.neighbors)


@given(nx_graphs(), st.data())
def test_unweighted_paths_match_networkx(graph, data):
    """Paths along NetworkX's own BFS tree: the same path where several tie,
    in the same order."""
    source, target = node_of(graph, data), node_of(graph, data)
    check(nx.single_source_shortest_path, graph, source, cutoff=data.draw(limits))
    check(nx.has_path, graph, source, target)


@pytest.mark.parametrize("kind", ["int", "float"])
@given(data=st.data())
def test_weighted_lengths_match_networkx(kind, data):
    """Integer weights give int lengths, float weights float ones (the
    source 0 either way), as NetworkX's sums do."""
    graph = data.draw(nx_graphs(weights=kind))
    source, target = node_of(graph, data), node_of(graph, data)
    cutoff = data.draw(st.sampled_from([None, 0, 2, 3.5, float("nan")]))
    # NetworkX orders equal lengths by its heap: dict keys are compared unordered.
    check(nx.single_source_dijkstra_path_length, graph, source, cutoff=cutoff, ordered=False)
    check(nx.shortest_path_length, graph, source, weight="weight", ordered=False)
    check(nx.shortest_path_length, graph, source, target, weight="weight")
    check(nx.dijkstra_path_length, graph, source, target)


@given(nx_graphs(directed=False), st.data())
def test_connected_components_match_networkx(graph, data):
    check(nx.connected_components, graph)
    check(nx.number_connected_components, graph)
    check(nx.is_connected, graph)
    check(nx.node_connected_component, graph, node_of(graph, data))


@given(nx_graphs(directed=True))
def test_weakly_connected_components_match_networkx(graph):
    check(nx.weakly_connected_components, graph)
    check(nx.number_weakly_connected_components, graph)


def test_components_of_the_wrong_graph_kind_raise_as_networkx():
    # NetworkX's not_implemented_for raises before dispatching ...
    check(nx.connected_components, nx.DiGraph([(0, 1)]), dispatched=False)
    check(nx.weakly_connected_components, nx.Graph([(0, 1)]), dispatched=False)
    check(nx.is_connected, nx.Graph())  # NetworkXPointlessConcept
    # ... and the backend the same way when given a converted graph.
    converted = backend_interface.convert_from_nx(nx.DiGraph([(0, 1)]))
    with pytest.raises(nx.NetworkXNotImplemented, match="not implemented for directed"):
        backend_interface.connected_components(converted)


@given(nx_graphs(), st.data())
def test_betweenness_matches_networkx(graph, data):
    options = {"normalized": data.draw(st.booleans()), "endpoints": data.draw(st.booleans()),
               "weight": data.draw(st.sampled_from([None, "weight"]))}
    check(nx.betweenness_centrality, graph, **options)
    if len(graph) >= 2:
        k = data.draw(st.integers(1, len(graph)))
        check(nx.betweenness_centrality, graph, k=k, seed=data.draw(st.integers(0, 99)),
              **options)


@given(nx_graphs(), st.data())
def test_pagerank_matches_networkx(graph, data):
    # Values over some nodes of the graph, and a key NetworkX ignores now and then.
    some = st.none()
    if len(graph):
        some |= st.tuples(st.dictionaries(st.sampled_from([*graph, "absent"]), st.floats(0.1, 5)),
                          st.sampled_from(list(graph))).map(lambda pair: {**pair[0], pair[1]: 1.0})
    options = {"weight": data.draw(st.sampled_from([None, "weight"])),
               "alpha": data.draw(st.floats(0.5, 0.95)),
               "personalization": data.draw(some), "nstart": data.draw(some),
               "dangling": data.draw(some)}
    check(nx.pagerank, graph, tol=1e-10, max_iter=1000, **options)


def test_pagerank_edge_cases_match_networkx():
    check(nx.pagerank, nx.Graph(), weight="weight")  # {}
    check(nx.pagerank, nx.path_graph(30, nx.DiGraph), weight=None, max_iter=2)  # fails
    check(nx.pagerank, nx.path_graph(3), weight=None, personalization={"absent": 1})


def test_results_are_python_objects_keyed_by_the_original_nodes():
    graph = nx.Graph([(("a", 1), frozenset({2})), (frozenset({2}), 3.5)], name="mixed")
    for u, v in graph.edges:
        graph[u][v]["weight"] = 2
    ranks = nx.pagerank(graph, weight="weight", backend="frontier")
    assert list(ranks) == list(graph) and all(type(r) is float for r in ranks.values())
    lengths = nx.single_source_dijkstra_path_length(graph, ("a", 1), backend="frontier")
    assert lengths == {("a", 1): 0, frozenset({2}): 2, 3.5: 4}
    assert all(type(d) is int for d in lengths.values())
    assert list(nx.bfs_edges(graph, 3.5, backend="frontier")) == [
        (3.5, frozenset({2})), (frozenset({2}), ("a", 1))]


def test_generators_are_lazy_like_networkx():
    edges = nx.bfs_edges(nx.path_graph(3), "absent", backend="frontier")  # no error yet
    with pytest.raises(nx.NetworkXError, match="The node absent is not in the graph"):
        next(edges)


# declining ------------------------------------------------------------------------------

# Functions returning a graph (bfs_tree) dispatch by the "generators" priority.
EVERYWHERE = {"algos": ["frontier"], "generators": ["frontier"]}

DECLINED = [
    ("bfs_edges", (nx.path_graph(3), 0), {"sort_neighbors": sorted}),
    ("bfs_tree", (nx.path_graph(3), 0), {"sort_neighbors": sorted}),
    ("bfs_successors", (nx.path_graph(3), 0), {"depth_limit": "2"}),
    ("descendants_at_distance", (nx.path_graph(3), 0, "1"), {}),
    ("single_source_shortest_path_length", (nx.path_graph(3), 0), {"cutoff": "2"}),
    ("shortest_path_length", (nx.path_graph(3),), {}),
    ("shortest_path_length", (nx.path_graph(3),), {"target": 0}),
    ("shortest_path_length", (nx.path_graph(3), 0), {"weight": "w", "method": "bellman-ford"}),
    ("single_source_dijkstra_path_length", (nx.path_graph(3), 0),
     {"weight": lambda u, v, d: 1}),
    ("dijkstra_path_length", (nx.path_graph(3), 0, 2), {"weight": lambda u, v, d: 1}),
    ("betweenness_centrality", (nx.path_graph(3),), {"k": 5}),
    ("betweenness_centrality", (nx.path_graph(3),), {"k": 1.5}),
    ("pagerank", (nx.path_graph(3),), {"nstart": {0: 0.0}}),
    ("pagerank", (nx.path_graph(3),), {"dangling": [1, 2]}),
    # NetworkX iterates with these (and fails to converge); the primitive refuses them.
    ("pagerank", (nx.path_graph(3),), {"alpha": float("nan")}),
    ("pagerank", (nx.path_graph(3),), {"tol": -1.0}),
    ("pagerank", (nx.path_graph(3),), {"max_iter": -1}),
    ("pagerank", (nx.path_graph(3),), {"max_iter": True}),
]


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
@pytest.mark.parametrize(("name", "args", "kwargs"), DECLINED)
def test_can_run_declines_what_is_not_implemented(name, args, kwargs):
    reason = backend_interface.can_run(name, args, kwargs)
    assert isinstance(reason, str) and reason
    with pytest.raises(NotImplementedError, match="not implemented by 'frontier'"):
        getattr(nx, name)(*args, backend="frontier", **kwargs)
    before = nx_backend.counts()["declined"].get(name, 0)
    with nx.config(backend_priority=EVERYWHERE, fallback_to_nx=True):
        fallback = outcome(lambda: getattr(nx, name)(*args, **kwargs))
    assert_same(fallback, outcome(lambda: getattr(nx, name)(*args, **kwargs)))
    assert nx_backend.counts()["declined"][name] > before


def test_can_run_accepts_the_supported_keywords():
    graph = nx.path_graph(4)
    assert backend_interface.can_run("bfs_edges", (graph, 0), {"depth_limit": 2}) is True
    assert backend_interface.can_run("shortest_path_length", (graph, 0), {"weight": "w"}) is True
    assert backend_interface.can_run("pagerank", (graph,), {"weight": None}) is True
    assert backend_interface.can_run("closeness_centrality", (graph,), {}) is not True


@pytest.mark.parametrize("weights", [[1, 2.5], [1, -2], [1, None]], ids=["mixed", "negative",
                                                                         "none"])
def test_weights_networkx_sums_differently_are_declined(weights):
    graph = nx.Graph()
    graph.add_edge("a", "b", weight=weights[0])
    graph.add_edge("b", "c", weight=weights[1])
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(graph, "a", backend="frontier")
    with nx.config(backend_priority=EVERYWHERE, fallback_to_nx=True):
        fallback = outcome(lambda: nx.single_source_dijkstra_path_length(graph, "a"))
    assert_same(fallback, outcome(lambda: nx.single_source_dijkstra_path_length(graph, "a")))


def test_pagerank_with_negative_weights_falls_back_to_networkx():
    """NetworkX normalizes out-weights whatever their signs and returns a
    ranking; the backend declines (a NotImplementedError), never a ValueError
    that would beat the fallback."""
    graph = nx.DiGraph()
    graph.add_weighted_edges_from([("a", "b", -1), ("b", "c", 2), ("c", "a", 1), ("c", "d", 1)])
    expected = nx.pagerank(graph)
    with pytest.raises(NotImplementedError) as declined:
        nx.pagerank(graph, backend="frontier")
    assert "negative values" in str(declined.value.__cause__ or declined.value.__context__)
    with nx.config(backend_priority=EVERYWHERE, fallback_to_nx=True):
        assert_same(nx.pagerank(graph), expected)
    unweighted = nx.pagerank(graph, weight=None, backend="frontier")
    assert_same(unweighted, nx.pagerank(graph, weight=None))


ODD_WEIGHTS = st.sampled_from([-2, -0.5, 0, 0.0, 1, 2.5, float("nan"), float("inf"), None, True])
WEIGHTED_CALLS = [
    (nx.pagerank, False), (nx.betweenness_centrality, False),
    (nx.single_source_dijkstra_path_length, True), (nx.shortest_path_length, True),
    (nx.eigenvector_centrality, False), (nx.katz_centrality, False),
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@given(nx_graphs(weights="none"), st.data())
def test_odd_weights_never_beat_the_fallback(graph, data):
    """Negative, zero, NaN, infinite, missing or bool weights (with self loops,
    parallel edges, empty graphs): with the fallback on, every weighted
    function gives NetworkX's outcome; with ``backend=`` it gives that or
    declines -- it never raises an error NetworkX does not."""
    for *_, attrs in graph.edges(data=True):
        value = data.draw(ODD_WEIGHTS)
        if value is not None:
            attrs["weight"] = value
    for function, needs_source in WEIGHTED_CALLS:
        args = (graph, node_of(graph, data)) if needs_source else (graph,)
        call = functools.partial(function, *args, weight="weight")
        expected = outcome(call)
        got = outcome(functools.partial(call, backend="frontier"))
        if not isinstance(got, NotImplementedError) or isinstance(expected, NotImplementedError):
            assert_same(got, expected, ordered=False, where=function.__name__)
        with nx.config(backend_priority=EVERYWHERE, fallback_to_nx=True):
            fallback = outcome(call)
        assert_same(fallback, expected, ordered=False, where=f"{function.__name__} (fallback)")


# dispatch, conversion, caching, configuration -------------------------------------------------

def test_backend_priority_dispatches_without_the_keyword():
    graph = nx.karate_club_graph()
    before = nx_backend.counts()["calls"].get("pagerank", 0)
    with nx.config(backend_priority=["frontier"]):
        ranks = nx.pagerank(graph, weight="weight")
    assert nx_backend.counts()["calls"]["pagerank"] == before + 1
    assert ranks == pytest.approx(nx.pagerank(graph, weight="weight"), abs=1e-6)


def test_converted_graphs_are_cached_on_the_networkx_graph():
    graph = nx.les_miserables_graph()
    with nx.config(cache_converted_graphs=True):
        nx.pagerank(graph, weight="weight", backend="frontier")
        cached = graph.__networkx_cache__["backends"]["frontier"]
        converted = next(iter(cached.values()))
        nx.bfs_layers(graph, "Valjean", backend="frontier")
        assert next(iter(cached.values())) is converted
    graph.add_edge("Valjean", "Newcomer")  # NetworkX clears the cache on a change
    assert not graph.__networkx_cache__


def test_conversion_round_trip():
    graph = nx.MultiDiGraph(name="g")
    graph.add_edge("x", "y", weight=2)
    graph.add_edge("x", "y", weight=3)
    graph.add_edge("y", "y")
    graph.add_node("z")
    converted = backend_interface.convert_from_nx(graph, edge_attrs={"weight": 1},
                                                  preserve_graph_attrs=True)
    assert converted.__networkx_backend__ == "frontier" and len(converted) == 3
    back = backend_interface.convert_to_nx(converted)
    assert isinstance(back, nx.MultiDiGraph) and back.graph == {"name": "g"}
    assert sorted(back.edges(data="weight")) == sorted(graph.edges(data="weight", default=1))
    assert backend_interface.convert_to_nx({"a": 1}) == {"a": 1}  # results pass through


def test_device_config_places_the_graph():
    graph = nx.path_graph(5)
    converted = backend_interface.convert_from_nx(graph)
    with nx.config.backends.frontier(device="cpu"):
        assert converted.frontier_graph().device.name == "cpu"
        assert nx.is_connected(converted, backend="frontier")


def test_backend_info_lists_every_function_and_imports_no_frontier():
    info = backend_info()
    assert info["backend_name"] == "frontier" and info["package"] == "frontier"
    assert set(info["functions"]) == set(FUNCTIONS)
    assert all(callable(getattr(backend_interface, name)) for name in FUNCTIONS)
    assert "frontier" in nx.utils.backends.backend_info
    script = ("import sys, networkx as nx, frontier_backend_info as info; info.backend_info(); "
              "assert 'frontier' in nx.config.backends; "
              "print([m for m in sys.modules if m.split('.')[0] in ('frontier', 'cupy')])")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"


def test_environment_variables_configure_dispatch(tmp_path):
    log = tmp_path / "calls.jsonl"
    env = {**os.environ, "NETWORKX_BACKEND_PRIORITY": "frontier",
           "NETWORKX_FALLBACK_TO_NX": "True", "FRONTIER_NX_BACKEND_LOG": str(log)}
    script = ("import networkx as nx; g = nx.path_graph(6); "
              "assert nx.config.backend_priority.algos == ['frontier']; "
              "assert nx.config.fallback_to_nx; "
              "print(nx.shortest_path_length(g, 0), nx.shortest_path_length(g, target=0))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, check=True)
    assert "{0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5}" in result.stdout
    counts = json.loads(log.read_text())
    assert counts["calls"]["shortest_path_length"] == 1
    assert counts["declined"] == {"shortest_path_length": 1}  # target only: NetworkX ran


def test_functions_have_networkx_signatures():
    for name in FUNCTIONS:
        ours = inspect.signature(IMPLEMENTATIONS[name]).parameters.values()
        theirs = inspect.signature(nx.utils.backends._registered_algorithms[name].orig_func)
        assert [(p.name, p.default) for p in ours] == \
            [(p.name, p.default) for p in theirs.parameters.values()], name


@pytest.mark.parametrize("enabled", [True, False])
def test_a_call_pauses_the_cyclic_collector_and_leaves_it_as_it_was(enabled, monkeypatch):
    """A backend call builds its answer with Python's cyclic collector off
    (its containers would make it walk the caller's graph again and again),
    and leaves it on or off as the caller had it, also when it raises."""
    import gc

    from frontier.nx_backend import traversal

    seen = []
    real = traversal.tree_paths

    def recording(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(traversal, "tree_paths", recording)
    G = nx.path_graph(4)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        assert nx.single_source_shortest_path(G, 0, backend="frontier") == \
            nx.single_source_shortest_path(G, 0)
        assert gc.isenabled() is enabled
        with pytest.raises(nx.NodeNotFound):
            nx.single_source_shortest_path(G, 99, backend="frontier")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False]
