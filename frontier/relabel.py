"""Integer ids numbered ``0 .. n-1`` in sorted order: edge lists whose ids
are not the vertex ids (``read_graph``, ``Graph.from_edges(relabel=True)``)."""

from __future__ import annotations

import numpy as np


def relabel(ids):
    """Map ids to ``0..n-1`` in sorted order; labels are None if ids already are that."""
    if not ids.size:
        return ids, 0, None
    low, high = int(ids.min()), int(ids.max())
    if low >= 0 and high < 2 * ids.size + 1024:  # dense ids: a presence table beats sorting
        present = np.zeros(high + 1, dtype=bool)
        present[ids] = True
        if present.all():
            return ids, high + 1, None
        labels = np.flatnonzero(present)
        return (np.cumsum(present) - 1)[ids], len(labels), labels.tolist()
    labels, inverse = np.unique(ids, return_inverse=True)
    return inverse.reshape(ids.shape), len(labels), labels.tolist()
