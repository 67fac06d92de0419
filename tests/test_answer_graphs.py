"""frontier.nx_backend.answer_graphs against NetworkX's own add_nodes_from
and add_edges_from: the same nodes, rows, neighbour orders and shared edge
data dicts, on random graphs (self loops, isolated nodes, nodes in any
order, labels of several kinds)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from frontier.nx_backend.answer_graphs import networkx_graph

LABELS = [lambda i: i, lambda i: f"v{i}", lambda i: (i, "t"), lambda i: float(i) + 0.5]


@st.composite
def answers(draw):
    """(labels, order, src, dst, directed): distinct edges among a random
    subset of the nodes, listed in a random order."""
    n = draw(st.integers(0, 12))
    label = draw(st.sampled_from(LABELS))
    labels = [label(i) for i in range(n)]
    order = draw(st.permutations(range(n)))
    kept = order[:draw(st.integers(0, n))]
    directed = draw(st.booleans())
    pairs = [(u, v) for u in kept for v in kept if directed or u <= v]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    chosen = [(v, u) if not directed and draw(st.booleans()) else (u, v) for u, v in chosen]
    src = np.array([u for u, _ in chosen], dtype=np.int64)
    dst = np.array([v for _, v in chosen], dtype=np.int64)
    return labels, kept, src, dst, directed


def networkx_built(cls, labels, order, src, dst):
    graph = cls()
    graph.graph["name"] = "answer"
    graph.add_nodes_from(labels[i] for i in order)
    graph.add_edges_from((labels[u], labels[v]) for u, v in zip(src.tolist(), dst.tolist()))
    return graph


@given(answer=answers())
def test_the_same_dicts_in_the_same_orders_as_networkx(answer):
    labels, order, src, dst, directed = answer
    cls = nx.DiGraph if directed else nx.Graph
    ours = networkx_graph(cls, labels, order, src, dst, {"name": "answer"})
    theirs = networkx_built(cls, labels, order, src, dst)
    assert type(ours) is cls and ours.graph == theirs.graph
    assert list(ours._node.items()) == list(theirs._node.items())
    assert [(u, list(row)) for u, row in ours._adj.items()] == \
        [(u, list(row)) for u, row in theirs._adj.items()]
    if directed:
        assert [(u, list(row)) for u, row in ours._pred.items()] == \
            [(u, list(row)) for u, row in theirs._pred.items()]
        assert all(ours._pred[v][u] is data for u, v, data in ours.edges(data=True))
    else:
        assert all(ours._adj[v][u] is data for u, v, data in ours.edges(data=True))
    datas = [id(data) for _, _, data in ours.edges(data=True)]
    assert len(set(datas)) == len(datas) == len(src)  # a dict of its own per edge
    ours.add_edge(labels[0] if labels else 0, "new")  # a graph NetworkX can go on with
    assert ours.has_edge("new", labels[0] if labels else 0) != directed


def test_a_repeated_edge_or_an_end_outside_the_nodes_is_refused():
    labels = ["a", "b", "c"]
    with pytest.raises(ValueError, match="twice"):
        networkx_graph(nx.Graph, labels, [0, 1], np.array([0, 1]), np.array([1, 0]))
    networkx_graph(nx.DiGraph, labels, [0, 1], np.array([0, 1]), np.array([1, 0]))
    with pytest.raises(ValueError, match="not among"):
        networkx_graph(nx.Graph, labels, [0, 1], np.array([0]), np.array([2]))
    with pytest.raises(ValueError, match="builds nx.Graph and nx.DiGraph"):
        networkx_graph(nx.MultiGraph, labels, [0], np.array([], int), np.array([], int))
