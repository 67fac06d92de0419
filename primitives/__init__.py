"""Graph primitives written against the Frontier operator API."""

from .bfs import BFSResult, bfs
from .cc import CCResult, connected_components
from .dobfs import DOBFSResult, dobfs
from .sssp import SSSPResult, sssp

__all__ = ["BFSResult", "CCResult", "DOBFSResult", "SSSPResult", "bfs",
           "connected_components", "dobfs", "sssp"]
