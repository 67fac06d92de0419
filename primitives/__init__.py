"""Graph primitives written against the Frontier operator API."""

from .bfs import BFSResult, bfs

__all__ = ["BFSResult", "bfs"]
