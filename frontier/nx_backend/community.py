"""Label propagation communities with NetworkX's signature.

:func:`primitives.label_propagation` repeats NetworkX's semi-synchronous
algorithm step for step, so the communities are NetworkX's. NetworkX
returns them as the values of a dict keyed by label, filled in ``G``'s node
order; so does this.
"""

from __future__ import annotations

import numpy as np

import frontier as fr
from primitives import label_propagation

from .components import _require
from .graph import BackendGraph


def label_propagation_communities(G: BackendGraph):
    """``nx.community.label_propagation_communities``: a ``dict_values`` of
    node sets, in the order of their first node in ``G``."""
    _require(G, directed=False)
    labels = fr.to_numpy(label_propagation(G.frontier_graph()).labels)
    _, first, community = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.argsort(np.argsort(first))  # communities numbered by first node
    clusters: dict = {k: set() for k in range(len(first))}
    for node, k in zip(G.nodes, rank[community].tolist()):
        clusters[k].add(node)
    return clusters.values()
