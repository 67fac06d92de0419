"""Strongly connected components with NetworkX's signatures.

:func:`primitives.strongly_connected_components` labels every vertex with
the smallest vertex id of its component (on the CPU, SciPy's components
give the same labels: :func:`scipy_labels`). NetworkX (Tarjan's algorithm)
yields the components in the order its depth-first search finishes them,
which is a reverse topological order of the condensation: no component
comes before one it has an edge to. The backend yields them in a reverse
topological order too, sinks first, level by level (a component's level is
the longest path from it to a sink of the condensation), and within a level
by their first node in ``G``. Where the condensation has one reverse
topological order (a chain of components, say) this is NetworkX's order;
elsewhere NetworkX's depends on its search, and only the sets are the same.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

import frontier as fr
from primitives import strongly_connected_components as label_components

from ..operators.host_levels import csr_matrix, scipy_csgraph
from ..ranges import stable_argsort
from .components import _require
from .graph import BackendGraph


def _labels(G: BackendGraph) -> np.ndarray:
    """Each node's component, as the smallest vertex id in it."""
    graph = G.frontier_graph()
    found = scipy_labels(graph)
    return fr.to_numpy(label_components(graph).labels) if found is None else found


def scipy_labels(graph: fr.Graph) -> np.ndarray | None:
    """On the CPU, :func:`primitives.strongly_connected_components`' labels
    from SciPy's components (``csgraph``, in C: a second
    ``is_strongly_connected`` on a Barabasi-Albert graph of 2 M arcs took
    0.12 s against the primitive's 0.90 s on the development CPU,
    2026-11-28); None on a GPU or without SciPy."""
    csgraph = None if graph.device.is_gpu else scipy_csgraph()
    if csgraph is None or graph.num_vertices == 0:
        return None
    n = graph.num_vertices
    matrix = csr_matrix(n, graph.offsets, graph.columns)
    if not graph.is_simple():
        # SciPy 1.17.1's strong components are wrong where a row repeats a
        # column (parallel arcs; tests/test_scc.py found it): each arc once
        matrix = matrix.copy()
        matrix.sum_duplicates()
    _, component = csgraph.connected_components(matrix, directed=True, connection="strong")
    # vertices in id order: a component's first is its smallest (SciPy's
    # component numbers are not always 0..count - 1: renumbered here)
    _, smallest, numbers = np.unique(component, return_index=True, return_inverse=True)
    return smallest[numbers]


def sink_levels(component: np.ndarray, src: np.ndarray, dst: np.ndarray, count: int):
    """The level of each of ``count`` components (numbered ``component[v]``)
    in the condensation of the edges ``src -> dst``: 0 for a sink, else one
    more than the highest level among its successors. Peels the sinks off
    level by level (Kahn's algorithm backwards), in array operations."""
    tail, head = component[src], component[dst]
    pairs = np.unique(tail[tail != head] * np.int64(count) + head[tail != head])
    tail, head = pairs // count, pairs % count
    successors_left = np.bincount(tail, minlength=count)
    order = stable_argsort(head)  # the edges grouped by head
    into = np.zeros(count + 1, np.int64)
    np.cumsum(np.bincount(head, minlength=count), out=into[1:])
    level = np.full(count, -1, np.int64)
    current, depth = np.flatnonzero(successors_left == 0), 0
    while len(current):
        level[current] = depth
        lengths = into[current + 1] - into[current]
        starts = np.repeat(into[current] - np.cumsum(lengths) + lengths, lengths)
        predecessors = tail[order[np.arange(lengths.sum()) + starts]]
        np.subtract.at(successors_left, predecessors, 1)
        current = np.unique(predecessors[successors_left[predecessors] == 0])
        depth += 1
    return level


def _components(G: BackendGraph):
    labels = _labels(G)
    roots, component = np.unique(labels, return_inverse=True)  # roots in G's node order
    level = sink_levels(component, G.edge_src, G.edge_dst, len(roots))
    members = np.split(stable_argsort(component),
                       np.cumsum(np.bincount(component))[:-1])
    nodes = G.nodes
    for k in np.lexsort((np.arange(len(roots)), level)).tolist():
        yield {nodes[i] for i in members[k].tolist()}


def strongly_connected_components(G: BackendGraph):
    """``nx.strongly_connected_components``: a generator of node sets,
    sinks of the condensation first."""
    _require(G, directed=True)
    return _components(G)


def number_strongly_connected_components(G: BackendGraph) -> int:
    """``nx.number_strongly_connected_components``."""
    _require(G, directed=True)
    return len(np.unique(_labels(G)))


def is_strongly_connected(G: BackendGraph) -> bool:
    """``nx.is_strongly_connected``."""
    _require(G, directed=True)
    if not G.nodes:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return bool((_labels(G) == 0).all())
