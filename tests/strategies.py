"""Hypothesis strategies for random graphs and the NetworkX oracle graphs.

Random graphs include isolated vertices, self loops and parallel edges.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import frontier as fr

# For @given tests that take the ``device`` fixture: it is a plain name, safe
# to share between examples, which hypothesis cannot know.
with_device = settings(suppress_health_check=[HealthCheck.function_scoped_fixture,
                                              HealthCheck.too_slow, HealthCheck.data_too_large])


@dataclass
class EdgeList:
    num_vertices: int
    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray | None
    directed: bool

    def graph(self, device="cpu", **kwargs) -> fr.Graph:
        return fr.Graph.from_edges(self.src, self.dst, self.weights, self.num_vertices,
                                   self.directed, device=device, **kwargs)

    def networkx(self, multigraph: bool = True):
        """The oracle: a Multi(Di)Graph keeps parallel edges; a simple graph
        keeps the lightest of each set of parallel edges."""
        if multigraph:
            g = nx.MultiDiGraph() if self.directed else nx.MultiGraph()
        else:
            g = nx.DiGraph() if self.directed else nx.Graph()
        g.add_nodes_from(range(self.num_vertices))
        weights = self.weights if self.weights is not None else np.ones(len(self.src))
        for u, v, w in zip(self.src.tolist(), self.dst.tolist(), weights.tolist()):
            if not multigraph and g.has_edge(u, v) and g[u][v]["weight"] <= w:
                continue
            g.add_edge(u, v, weight=w)
        return g


@st.composite
def edge_lists(draw, directed=None, weighted=None, max_vertices=40, max_edges=120,
               integer_weights=None, min_vertices=1):
    """A random edge list; ``None`` for an option lets hypothesis choose."""
    if directed is None:
        directed = draw(st.booleans())
    if weighted is None:
        weighted = draw(st.booleans())
    n = draw(st.integers(min_vertices, max_vertices))
    m = draw(st.integers(0, max_edges))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    # Concentrate edges on a random subset so some vertices stay isolated.
    active = max(1, int(n * draw(st.floats(0.3, 1.0))))
    src = rng.integers(0, active, m)
    dst = rng.integers(0, active, m)
    perm = rng.permutation(n)
    src, dst = perm[src], perm[dst]
    if m and draw(st.booleans()):  # explicit parallel edges and self loops
        k = max(1, m // 8)
        src = np.concatenate([src, src[:k], dst[:k]])
        dst = np.concatenate([dst, dst[:k], dst[:k]])
    weights = None
    if weighted:
        if integer_weights is None:
            integer_weights = draw(st.booleans())
        if integer_weights:
            weights = rng.integers(0, 20, len(src))
        else:
            weights = rng.uniform(0.0, 10.0, len(src))
    return EdgeList(n, src.astype(np.int64), dst.astype(np.int64), weights, directed)


@st.composite
def enactor_options(draw, partition_seed=3):
    """Enactor options of a run on 2-4 virtual CPU devices: either
    duplication, three partitioners, threads (twice as often) or processes."""
    return {"devices": draw(st.integers(2, 4)),
            "duplication": draw(st.sampled_from(["all", "one_hop"])),
            "partition": draw(st.sampled_from(["random", "contiguous", "biased_random"])),
            "partition_seed": partition_seed,
            "workers": draw(st.sampled_from(["threads", "threads", "processes"]))}
