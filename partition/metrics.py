"""A partition and its quality: part sizes, edge cut, borders and imbalance.

:func:`make_partition` runs a partitioner, validates its owner array and
measures the result; the measures are vectorized (one pass over the arcs and
one sort of the crossing arcs), so they suit graphs of millions of arcs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .adjacency import sorted_distinct
from .owner import check_num_parts, check_owner
from .registry import Partitioner, partitioner_name, resolve_partitioner


@dataclass(frozen=True, eq=False)
class Partition:
    """The owner of every vertex and what it costs a multi-device run.

    Attributes
    ----------
    owner : numpy.ndarray
        Host int32 part index of every vertex.
    num_parts : int
    partitioner : str
        Name of the partitioner that produced ``owner``.
    owned_vertices : numpy.ndarray
        int64 number of vertices of each part.
    owned_edges : numpy.ndarray
        int64 number of stored out-arcs of each part's vertices (the sum of
        their out-degrees; an undirected edge is stored as two arcs, a self loop
        as one).
    edge_cut : int
        Edges whose endpoints have different owners: crossing arcs for a
        directed graph, half of them (each undirected edge once) otherwise.
    border : numpy.ndarray
        int64 ``|B_i|`` of each part ``i``: the vertices it does not own that
        are in- or out-neighbours of a vertex it owns (the proxies a
        sub-graph of part ``i`` needs).
    imbalance : float
        ``max(owned_edges) / mean(owned_edges)``; 1.0 for a graph without edges.
    """

    owner: np.ndarray
    num_parts: int
    partitioner: str
    owned_vertices: np.ndarray
    owned_edges: np.ndarray
    edge_cut: int
    border: np.ndarray
    imbalance: float

    def to_dict(self) -> dict:
        """The measures as plain Python values (JSON-ready); the owner array
        is left out."""
        return {
            "partitioner": self.partitioner,
            "num_parts": self.num_parts,
            "owned_vertices": self.owned_vertices.tolist(),
            "owned_edges": self.owned_edges.tolist(),
            "edge_cut": self.edge_cut,
            "border": self.border.tolist(),
            "imbalance": self.imbalance,
        }

    def __str__(self) -> str:
        header = (f"{self.partitioner} partition of {len(self.owner)} vertices into "
                  f"{self.num_parts} parts: edge cut {self.edge_cut}, "
                  f"imbalance {self.imbalance:.3f}")
        rows = [f"{'part':>6} {'vertices':>12} {'edges':>14} {'border':>12}"]
        for part in range(self.num_parts):
            rows.append(f"{part:>6} {self.owned_vertices[part]:>12} "
                        f"{self.owned_edges[part]:>14} {self.border[part]:>12}")
        return "\n".join([header, *rows])


def make_partition(graph, num_parts: int, partition: str | Partitioner | None = None,
                   seed: int = 0) -> Partition:
    """Partition ``graph`` into ``num_parts`` parts and measure the result.

    Parameters
    ----------
    graph : frontier.Graph
    num_parts : int
        Number of parts (>= 1); parts may be empty when there are fewer vertices.
    partition : None, str or callable
        A partitioner name from :data:`partition.PARTITIONERS` (``None`` means
        ``"random"``) or a function ``(graph, num_parts, seed) -> owner``.
    seed : int
        Passed to the partitioner.

    Returns
    -------
    Partition

    Raises
    ------
    ValueError
        For an unknown partitioner name, an invalid ``num_parts``, or an owner
        array that :func:`check_owner` rejects.
    ImportError
        For ``"metis"`` without pymetis installed.

    Examples
    --------
    >>> from frontier.generators import grid
    >>> p = make_partition(grid(4, 4, device="cpu"), 2, "contiguous")
    >>> p.owned_vertices.tolist(), p.edge_cut
    ([8, 8], 4)
    """
    num_parts = check_num_parts(num_parts)
    function = resolve_partitioner(partition)
    name = partitioner_name(partition)
    owner = check_owner(function(graph, num_parts, seed), graph, num_parts, f"partitioner {name!r}")
    return _measure(graph, owner, num_parts, name)


def _measure(graph, owner: np.ndarray, num_parts: int, name: str) -> Partition:
    """The measures of ``owner``, taken where the graph's arcs are (its GPU's
    passes over a billion arcs take a fraction of a second, the host's half
    a minute)."""
    from frontier.device import to_numpy

    xp = graph.xp
    offsets, columns = graph.offsets, graph.columns
    k = num_parts
    on_device = xp.asarray(owner)
    source_owner = on_device[graph.arc_sources()]
    target_owner = on_device[columns]
    owned_vertices = np.bincount(owner, minlength=k).astype(np.int64)
    owned_edges = to_numpy(xp.bincount(source_owner, minlength=k)).astype(np.int64)
    crossing = xp.flatnonzero(source_owner != target_owner)
    edge_cut = len(crossing) if graph.directed else len(crossing) // 2

    # Border of part i: targets of crossing arcs leaving i and, for a directed
    # graph, sources of crossing arcs entering i (an undirected graph stores
    # the reverse arc too).
    n = len(owner)
    pairs = [source_owner[crossing].astype(np.int64) * n + columns[crossing]]
    if graph.directed:
        sources = xp.searchsorted(offsets, crossing, side="right") - 1
        pairs.append(target_owner[crossing].astype(np.int64) * n + sources)
    border = _count_distinct_by_part(xp.concatenate(pairs), n, k)

    total = int(owned_edges.sum())
    imbalance = float(owned_edges.max() / (total / k)) if total else 1.0
    return Partition(owner, k, name, owned_vertices, owned_edges, edge_cut, border, imbalance)


def _count_distinct_by_part(pairs, n: int, k: int) -> np.ndarray:
    """For each part ``i``, how many distinct keys ``i * n + vertex`` ``pairs``
    (a NumPy or CuPy array) holds, on the host."""
    from frontier.device import array_namespace, to_numpy

    xp = array_namespace(pairs)
    if k * n <= pairs.nbytes:
        # A (part, vertex) bitmap no larger than the keys: marking beats sorting.
        marked = xp.zeros(k * n, dtype=bool)
        marked[pairs] = True
        counts = xp.count_nonzero(marked.reshape(k, n), axis=1)
    else:
        counts = xp.bincount(sorted_distinct(pairs) // max(n, 1), minlength=k)
    return to_numpy(counts).astype(np.int64)
