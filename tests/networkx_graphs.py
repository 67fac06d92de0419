"""Random NetworkX graphs for the tests of the conversions from NetworkX
(``Graph.from_networkx``, the backend's ``convert_from_nx``): every graph
class, nodes of several kinds, weights of several types or missing, views,
and subclasses whose edges share one data dict."""

from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import strategies as st
from strategies import edge_lists

WEIGHT_VALUES = {  # how a random graph's weight attributes look
    "int": lambda rng: int(rng.integers(0, 9)),
    "float": lambda rng: float(rng.uniform(0, 9)),
    "mixed": lambda rng: int(rng.integers(0, 9)) if rng.random() < 0.5 else float(rng.random()),
    "numeric strings": lambda rng: str(rng.integers(0, 9)),
    "numpy": lambda rng: np.float32(rng.random()),
}


@st.composite
def networkx_graphs(draw):
    """A NetworkX graph of any class from a random edge list (parallel edges
    and self loops included), its nodes the ids in a random insertion order
    or labels (strings, shifted ints, big ints, tuples, or ints, strings and
    tuples mixed), some edges without the weight attribute."""
    edges = draw(edge_lists(max_vertices=25, max_edges=60))
    multigraph = draw(st.booleans())
    # "big ints" and "tuples" build a new, equal object each time a node is
    # named, so a neighbour is often not its node's own object.
    naming = draw(st.sampled_from(["ids", "strings", "shifted", "big ints", "tuples", "mixed"]))
    values = WEIGHT_VALUES[draw(st.sampled_from(sorted(WEIGHT_VALUES)))]
    missing = draw(st.sampled_from([0.0, 0.3, 1.0]))  # the share of edges without a weight
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    name = {"ids": int, "strings": lambda v: f"v{v}", "shifted": lambda v: int(v) + 7,
            "big ints": lambda v: int(v) + 10**12, "tuples": lambda v: ("t", int(v)),
            "mixed": lambda v: int(v) if v % 3 == 0 else f"v{v}" if v % 3 == 1 else (int(v),)
            }[naming]
    cls = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}
    g = cls[(edges.directed, multigraph)]()
    g.add_nodes_from(name(v) for v in rng.permutation(edges.num_vertices)[:draw(st.integers(
        0, edges.num_vertices))])
    for u, v in zip(edges.src.tolist(), edges.dst.tolist()):
        g.add_edge(name(u), name(v), **({} if rng.random() < missing else
                                         {"weight": values(rng)}))
    g.add_nodes_from(name(v) for v in range(edges.num_vertices))
    return g


class ThinGraph(nx.Graph):
    """NetworkX's documented memory-saving subclass: every edge shares one
    data dict, so that dict is under many arcs."""

    all_edge_dict = {"weight": 2}

    def single_edge_dict(self):
        return self.all_edge_dict

    edge_attr_dict_factory = single_edge_dict


class ThinMultiGraph(nx.MultiGraph):
    """The same for the key dicts of a multigraph: one for every pair of ends."""

    all_key_dict = {}

    def single_key_dict(self):
        return self.all_key_dict

    edge_key_dict_factory = single_key_dict


def networkx_views(g) -> list:
    """Read-only views of ``g``: a node subgraph, an edge subgraph, and the
    undirected view of a directed graph or the reverse view of one."""
    nodes = list(g)[::2]
    edges = list(g.edges(keys=True) if g.is_multigraph() else g.edges)[::2]
    found = [g.subgraph(nodes), g.edge_subgraph(edges), nx.restricted_view(g, nodes[:1], [])]
    if g.is_directed():
        found += [g.reverse(copy=False), g.to_undirected(as_view=True)]
    return found
