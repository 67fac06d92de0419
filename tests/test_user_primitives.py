"""The two user primitives of examples/multi_device_primitive.py (user
functors, vertex ids as values) run unchanged on one and on three devices
under every duplication and communication strategy, as threads and as
worker processes, and equal NetworkX."""

from __future__ import annotations

import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from checks import assert_bfs_tree, oracle_depths
from hypothesis import given
from strategies import edge_lists

import frontier as fr

# On the path, so that worker processes (which get this one's path) import
# the example's classes by name as this process does.
sys.path.insert(0, str(Path(__file__).parents[1] / "examples"))
import multi_device_primitive as example  # noqa: E402

STRATEGIES = [{"devices": 1}] + [
    {"devices": 3, "duplication": duplication, "communication": communication,
     "workers": workers}
    for duplication, communication, workers in example.strategies()]
IDS = ["one-device"] + [f"{s['duplication']}-{s['communication']}-{s['workers']}"
                        for s in STRATEGIES[1:]]


@pytest.mark.parametrize("options", STRATEGIES, ids=IDS)
@given(edges=edge_lists(max_vertices=30, max_edges=80, weighted=False))
def test_reach_is_breadth_first_search(options, edges):
    G = edges.graph()
    source = edges.num_vertices - 1
    r = fr.enact(example.Reach, G, source=source, **options)
    expected = oracle_depths(edges.networkx(), list(range(edges.num_vertices)), source)
    np.testing.assert_array_equal(r.hops, expected)
    assert_bfs_tree(G, source, r.hops, r.parent)


@pytest.mark.parametrize("options", STRATEGIES, ids=IDS)
@given(edges=edge_lists(directed=False, max_vertices=30, max_edges=80, weighted=False))
def test_min_label_finds_components(options, edges):
    r = fr.enact(example.MinLabel, edges.graph(), **options)
    expected = np.arange(edges.num_vertices)
    for component in nx.connected_components(edges.networkx()):
        expected[list(component)] = min(component)
    np.testing.assert_array_equal(r.labels, expected)


class MinLabelWithFunction(example.MinLabel):
    """The example's min-label propagation with a user combiner: a vectorized,
    idempotent function (frontier/communicate.py) instead of "min"."""

    communicate = {"labels": np.minimum}


@pytest.mark.parametrize("options", STRATEGIES[1:], ids=IDS[1:])
@given(edges=edge_lists(directed=False, max_vertices=30, max_edges=80, weighted=False))
def test_function_combiner_merges_like_min(options, edges):
    expected = fr.enact(example.MinLabel, edges.graph()).labels
    r = fr.enact(MinLabelWithFunction, edges.graph(), **options)
    np.testing.assert_array_equal(r.labels, expected)
