"""Fixed test graphs shared by the test modules: NetworkX's named graphs and
the real-world datasets of ../shared/datasets (absent on some machines)."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np

DATASETS = Path(__file__).parents[2] / "shared" / "datasets"


def named_graphs() -> dict:
    """The named NetworkX graphs every primitive is checked on, by name."""
    return {
        "karate": nx.karate_club_graph(),
        "les_miserables": nx.les_miserables_graph(),
        "florentine": nx.florentine_families_graph(),
        "davis": nx.davis_southern_women_graph(),
    }


def read_snap(path: Path):
    """A SNAP edge list (``#`` comments, CRLF or LF) with its ids made
    contiguous, read independently of ``frontier.io`` (an oracle for it)."""
    edges = np.loadtxt(path, dtype=np.int64, comments="#")
    ids, endpoints = np.unique(edges, return_inverse=True)
    endpoints = endpoints.reshape(edges.shape)
    return len(ids), endpoints[:, 0], endpoints[:, 1]
