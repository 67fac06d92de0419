"""Frontier as a NetworkX backend: ``nx.pagerank(G, backend="frontier")``.

NetworkX finds the backend through the ``networkx.backends`` entry point
(``frontier = frontier.nx_backend:backend_interface``) and its description
through ``networkx.backend_info`` (:mod:`frontier_backend_info`, which imports
nothing of Frontier). See docs/networkx-backend.md for use, the functions and
what is left to NetworkX.
"""

from .calls import counts
from .graph import BackendGraph, Declined, convert_from_nx, convert_to_nx
from .interface import BackendInterface, backend_interface

__all__ = ["BackendGraph", "BackendInterface", "Declined", "backend_interface",
           "convert_from_nx", "convert_to_nx", "counts"]
