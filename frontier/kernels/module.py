"""Compile the CUDA sources of this folder once and hand out their kernels."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

_SOURCE_DIR = Path(__file__).parent
_CTYPE = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long",
          np.dtype(np.float32): "float", np.dtype(np.float64): "double"}

THREADS = 256
#: A null pointer kernel argument.
NULL = np.uint64(0)
# Edge slots one block takes at a time (TILE in traversal.cu).
TILE = 1024


def ctype(dtype) -> str:
    """The CUDA C type of a NumPy dtype the kernels are instantiated for."""
    return _CTYPE[np.dtype(dtype)]


def supported(dtype) -> bool:
    return np.dtype(dtype) in _CTYPE


@functools.cache
def _module(source: str, names: tuple[str, ...], gpu: int):
    """The compiled module, loaded on GPU ``gpu`` (the current one)."""
    import cupy

    code = (_SOURCE_DIR / source).read_text()
    return cupy.RawModule(code=code, options=("-std=c++17",), name_expressions=names)


# Every instantiation any kernel may need, so that one compilation serves all.
_VERTEX = ("int", "long long")
_WEIGHT = ("int", "long long", "float", "double")
_DISTANCE = ("float", "double")
_TRAVERSAL = tuple(
    [f"claim_push<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"claim_pull<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"claim_pull_hubs<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"claim_push_small<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"claim_push_dense<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"relax_push<{v}, {w}, {d}>" for v in _VERTEX for w in _WEIGHT for d in _DISTANCE]
    + [f"relax_predecessor<{v}, {w}, {d}, {p}>" for v in _VERTEX for w in _WEIGHT
       for d in _DISTANCE for p in _VERTEX]
    + [f"relax_push_small<{v}, {w}, {d}>" for v in _VERTEX for w in _WEIGHT for d in _DISTANCE]
    + [f"relax_predecessor_small<{v}, {w}, {d}, {p}>" for v in _VERTEX for w in _WEIGHT
       for d in _DISTANCE for p in _VERTEX]
    + [f"clear_bits<{v}>" for v in _VERTEX]
    + [f"degree_scan<{v}>" for v in _VERTEX]
    + [f"list_degrees<{v}>" for v in _VERTEX]
    + ["flags_to_bits<int>", "flags_to_bits<bool>", "tile_starts"]
    + [f"hook<{v}, {label}>" for v in _VERTEX for label in _VERTEX]
    + [f"gather_sum<{v}, {e}, {w}, {t}>" for v in _VERTEX for e in _VERTEX for w in _WEIGHT
       for t in ("float", "double")]
)


_SCATTER = tuple(
    [f"scatter_extreme<{t}, {larger}>" for t in _WEIGHT for larger in ("false", "true")]
    + [f"merge_offers<{t}, {s}, {larger}>" for t in _WEIGHT for s in _VERTEX
       for larger in ("false", "true")]
    + [f"merge_tickets<{t}, {s}>" for t in _WEIGHT for s in _VERTEX]
    + [f"merge_follow<{t}, {s}, {f}>" for t in _WEIGHT for s in _VERTEX for f in _WEIGHT]
    + [f"mark_nonzero<{t}, {s}>" for t in _WEIGHT for s in _VERTEX]
)
_COMPACT = tuple([f"compact_count<{packed}>" for packed in ("false", "true")]
                 + [f"compact_write<{packed}, {p}>" for packed in ("false", "true")
                    for p in _VERTEX]
                 + [f"compact_count_vector<{packed}>" for packed in ("false", "true")]
                 + [f"compact_write_vector<{packed}, {p}>" for packed in ("false", "true")
                    for p in _VERTEX])
#: the kernel instantiations of each source file
_NAMES = {"traversal.cu": _TRAVERSAL, "scatter.cu": _SCATTER, "compact.cu": _COMPACT,
          "fill.cu": ("fill_pattern",)}


def kernel(name: str, *types, source: str = "traversal.cu"):
    """The compiled kernel ``name<types...>`` from ``source`` (a .cu file
    here); a bool among ``types`` is a ``true``/``false`` template argument,
    and the dtype ``bool`` the type ``bool``."""
    import cupy

    return _function(name, types, source, cupy.cuda.runtime.getDevice())


@functools.cache
def _function(name: str, types: tuple, source: str, gpu: int):
    """The kernel, looked up once per GPU (a lookup costs a few microseconds,
    which a level of a long, thin traversal pays several times)."""
    arguments = [str(t).lower() if isinstance(t, bool)
                 else "bool" if np.dtype(t) == np.bool_ else ctype(t) for t in types]
    expression = f"{name}<{', '.join(arguments)}>" if types else name
    return _module(source, _NAMES[source], gpu).get_function(expression)


def pointer(array):
    """A kernel argument: the array, or a null pointer for ``None``."""
    return NULL if array is None else array


def grid_for(work: int, threads: int = THREADS) -> int:
    """Blocks for a grid-stride loop over ``work`` items, at most a few waves."""
    return max(1, min((work + threads - 1) // threads, resident_blocks()))


@functools.cache
def resident_blocks() -> int:
    """Blocks of 256 threads that fill the current GPU about four times over."""
    import cupy

    return cupy.cuda.Device().attributes["MultiProcessorCount"] * 32
