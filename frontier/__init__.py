"""Frontier: Gunrock-style frontier graph analytics on NumPy and CuPy.

See ``docs/`` for the user guide and the operator reference.
"""

from . import functors, generators, memory, validate
from .communicate import follows
from .device import Device, default_device, get_device, resolve_devices, to_numpy
from .direction import AutoDirection
from .enactor import enact
from .frontier import Frontier
from .graph import Graph, index_dtype
from .io import read_graph, read_parts, write_graph
from .memory import DeviceMemoryError
from .multi.distributed import DistributedGraph
from .operators import (
    advance,
    claim,
    compute,
    count_down,
    filter,
    first_occurrence,
    neighbor_reduce,
    scatter_add,
    scatter_min,
)
from .primitive import DeclarationError, Primitive, check_vertex
from .result import Result

__version__ = "0.1.0"

__all__ = [
    "AutoDirection", "DeclarationError", "Device", "DeviceMemoryError", "DistributedGraph",
    "Frontier", "Graph", "Primitive", "Result",
    "advance", "check_vertex", "claim", "compute", "count_down", "default_device", "enact",
    "filter", "first_occurrence", "follows", "functors", "memory", "generators", "get_device",
    "index_dtype", "neighbor_reduce", "read_graph", "read_parts", "resolve_devices", "scatter_add",
    "scatter_min", "to_numpy", "validate", "write_graph",
]
