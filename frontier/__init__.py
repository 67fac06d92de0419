"""Frontier: Gunrock-style frontier graph analytics on NumPy and CuPy.

See ``docs/`` for the user guide and the operator reference.
"""

import importlib

from . import functors, memory, validate
from .collector import collector_paused
from .communicate import follows
from .device import Device, default_device, get_device, resolve_devices, to_numpy
from .direction import AutoDirection
from .enactor import enact
from .frontier import Frontier
from .graph import Graph, index_dtype
from .memory import DeviceMemoryError
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
    separate,
)
from .primitive import DeclarationError, Primitive, check_vertex
from .result import Result

__version__ = "0.1.0"

#: Loaded at first use (PEP 562): graph files, the generators and distributed
#: graphs, which a call on a graph in memory does not need, and whose
#: modules were a third of the package's import (a NetworkX user's first
#: call pays it).
_LAZY = {"generators": ("frontier.generators", None),
         "read_graph": ("frontier.io", "read_graph"),
         "read_parts": ("frontier.io", "read_parts"),
         "write_graph": ("frontier.io", "write_graph"),
         "DistributedGraph": ("frontier.multi.distributed", "DistributedGraph")}


def __getattr__(name: str):
    try:
        module, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'frontier' has no attribute {name!r}") from None
    value = importlib.import_module(module)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value
    return value

__all__ = [
    "AutoDirection", "DeclarationError", "Device", "DeviceMemoryError", "DistributedGraph",
    "Frontier", "Graph", "Primitive", "Result", "advance", "check_vertex", "claim",
    "collector_paused", "compute", "count_down", "default_device", "enact", "filter",
    "first_occurrence", "follows", "functors", "memory", "generators", "get_device", "index_dtype",
    "neighbor_reduce", "read_graph", "read_parts", "resolve_devices", "scatter_add",
    "scatter_min", "separate", "to_numpy", "validate", "write_graph",
]
