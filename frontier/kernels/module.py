"""Compile the CUDA kernels of this folder's sources, one at a time, on first use.

Each ``.cu`` file here holds templates; :data:`INSTANTIATIONS` lists every
instantiation the package may launch (``gather_sum<int, int, double,
double>``), and :func:`kernel` compiles one only when it is first asked
for, as a module of its own. NVRTC compiles every name expression of a
module in one call, so one module per file made the first fused launch of
a process wait for all of the file's instantiations -- 161 of
:file:`traversal.cu` for a PageRank that launches a few (issue 33: a first
PageRank with an empty kernel cache spent 10.9 s compiling).
CuPy keeps each compiled kernel in its on-disk cache (``CUPY_CACHE_DIR``,
by default ``~/.cupy/kernel_cache``), where ``frontier warmup``
(:mod:`frontier.warmup`) puts them all ahead of time; the cache is keyed by
the GPU's architecture, so another GPU compiles on first use again.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from .first_use import compiling

_SOURCE_DIR = Path(__file__).parent
_CTYPE = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long",
          np.dtype(np.float32): "float", np.dtype(np.float64): "double",
          np.dtype(np.int8): "signed char", np.dtype(np.int16): "short",
          np.dtype(np.uint32): "unsigned int", np.dtype(np.uint64): "unsigned long long"}
#: The value types of vertex arrays the kernels are built for (the two
#: narrow types above are only part numbers: ``owner_dtype``).
_VALUE_TYPES = tuple(np.dtype(t) for t in (np.int32, np.int64, np.float32, np.float64))

THREADS = 256
#: A null pointer kernel argument.
NULL = np.uint64(0)
# Edge slots one block takes at a time (TILE in traversal.cu).
TILE = 1024


def ctype(dtype) -> str:
    """The CUDA C type of a NumPy dtype the kernels are instantiated for."""
    return _CTYPE[np.dtype(dtype)]


def supported(dtype) -> bool:
    """Whether the value kernels are built for ``dtype``."""
    return np.dtype(dtype) in _VALUE_TYPES


#: NVRTC options of every module (CuPy adds the current GPU's architecture).
OPTIONS = ("-std=c++17",)


@functools.cache
def _code(source: str) -> str:
    return (_SOURCE_DIR / source).read_text()


@functools.cache
def _module(source: str, expression: str, gpu: int):
    """The module of the one instantiation ``expression`` of ``source``, for
    GPU ``gpu`` (the current one); CuPy compiles it when it is first used."""
    import cupy

    return cupy.RawModule(code=_code(source), options=OPTIONS, name_expressions=(expression,))


# Every instantiation any kernel may need: a launch of one not listed raises.
_VERTEX = ("int", "long long")
_WEIGHT = ("int", "long long", "float", "double")
_DISTANCE = ("float", "double")
#: "earliest" data, merged as unsigned (frontier.kernels.merge)
_UNSIGNED = ("unsigned int", "unsigned long long")
_TRAVERSAL = tuple(
    [f"claim_push<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"claim_pull<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"claim_pull_hub_chunks<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"claim_push_small<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"claim_push_dense<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"claim_levels<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"claim_levels_block<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"pull_levels<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"pull_levels_queue<{v}>" for v in _VERTEX]
    + [f"auto_levels<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"joint_claim<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"joint_claim_chunks<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"joint_merge<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"joint_pull<{v}, {p}>" for v in _VERTEX for p in _VERTEX]
    + [f"joint_tally<{v}>" for v in _VERTEX]
    + [f"relax_push<{v}, {w}, {d}>" for v in _VERTEX for w in _WEIGHT for d in _DISTANCE]
    + [f"relax_predecessor<{v}, {w}, {d}, {p}>" for v in _VERTEX for w in _WEIGHT
       for d in _DISTANCE for p in _VERTEX]
    + [f"relax_push_small<{v}, {w}, {d}>" for v in _VERTEX for w in _WEIGHT for d in _DISTANCE]
    + [f"relax_levels<{v}, {w}, {d}, {p}>" for v in _VERTEX for w in _WEIGHT
       for d in _DISTANCE for p in _VERTEX]
    + [f"relax_predecessor_small<{v}, {w}, {d}, {p}>" for v in _VERTEX for w in _WEIGHT
       for d in _DISTANCE for p in _VERTEX]
    + [f"clear_bits<{v}>" for v in _VERTEX]
    + [f"degree_scan<{v}>" for v in _VERTEX]
    + [f"list_degrees<{v}>" for v in _VERTEX]
    + [f"tally_ids<{v}>" for v in _VERTEX]
    + ["flags_to_bits<int>", "flags_to_bits<bool>", "no_in_edges_bits",
       "tally_mask", "tile_starts"]
    + [f"hook<{v}, {label}>" for v in _VERTEX for label in _VERTEX]
    + [f"point_to_roots<{label}>" for label in _VERTEX]
    + [f"hook_slots<{v}, {label}>" for v in _VERTEX for label in _VERTEX]
    + [f"point_to_roots_slots<{label}>" for label in _VERTEX]
    + [f"gather_sum<{v}, {e}, {w}, {t}>" for v in _VERTEX for e in _VERTEX for w in _WEIGHT
       for t in ("float", "double")]
)


_SCATTER = tuple(
    [f"scatter_extreme<{t}, {larger}>" for t in _WEIGHT for larger in ("false", "true")]
    + [f"scatter_extreme<{u}, false>" for u in _UNSIGNED]
    + [f"merge_offers<{t}, {s}, {larger}>" for t in _WEIGHT for s in _VERTEX
       for larger in ("false", "true")]
    + [f"merge_offers<{u}, {s}, false>" for u in _UNSIGNED for s in _VERTEX]
    + [f"merge_tickets<{t}, {s}>" for t in _WEIGHT + _UNSIGNED for s in _VERTEX]
    + [f"merge_follow<{t}, {s}, {f}>" for t in _WEIGHT + _UNSIGNED for s in _VERTEX
       for f in _WEIGHT]
    + [f"mark_nonzero<{t}, {s}>" for t in _WEIGHT for s in _VERTEX]
    + [f"count_down<{t}>" for t in _VERTEX]
)
_COMPACT = tuple([f"compact_count<{packed}>" for packed in ("false", "true")]
                 + [f"compact_write<{packed}, {p}>" for packed in ("false", "true")
                    for p in _VERTEX]
                 + [f"compact_count_vector<{packed}>" for packed in ("false", "true")]
                 + [f"compact_write_vector<{packed}, {p}>" for packed in ("false", "true")
                    for p in _VERTEX])
_OWNER = ("signed char", "short", "int")
_BOUNDARY = tuple([f"count_owners<{s}, {o}>" for s in _VERTEX for o in _OWNER]
                  + [f"place_by_owner<{s}, {o}>" for s in _VERTEX for o in _OWNER]
                  + [f"collect_marked<{s}>" for s in _VERTEX]
                  + [f"owned_bits<{s}>" for s in _VERTEX])
_SEGMENTS = tuple([f"segment_reduce<{op}, {t}>" for op in ("Minimum", "Maximum")
                   for t in _WEIGHT]
                  + [f"segment_reduce<{op}, {t}>"
                     for op in ("BitwiseOr", "BitwiseAnd", "BitwiseXor") for t in _VERTEX])
_FILL = ("fill_pattern",) + tuple(f"put_value<{s}>" for s in _VERTEX)
#: The kernel instantiations of each source file: all that :func:`kernel`
#: may be asked for, and what ``frontier warmup`` compiles.
INSTANTIATIONS = {"traversal.cu": _TRAVERSAL, "scatter.cu": _SCATTER, "compact.cu": _COMPACT,
                  "fill.cu": _FILL, "boundary.cu": _BOUNDARY,
                  "segments.cu": _SEGMENTS}


def kernel(name: str, *types, source: str = "traversal.cu"):
    """The compiled kernel ``name<types...>`` from ``source`` (a .cu file
    here); a bool among ``types`` is a ``true``/``false`` template argument,
    a string a type named in the source (a struct), and the dtype ``bool``
    the type ``bool``."""
    import cupy

    return _function(name, types, source, cupy.cuda.runtime.getDevice())


@functools.cache
def _function(name: str, types: tuple, source: str, gpu: int):
    """The kernel, looked up once per GPU (a lookup costs a few microseconds,
    which a level of a long, thin traversal pays several times); compiled
    here on its first use, unless CuPy's kernel cache has it."""
    expression = instantiation(name, types, source)
    with compiling(f"{expression} ({source})"):
        return _module(source, expression, gpu).get_function(expression)


def instantiation(name: str, types: tuple = (), source: str = "traversal.cu") -> str:
    """The name expression of kernel ``name<types...>`` of ``source``, as
    :data:`INSTANTIATIONS` lists it (types as for :func:`kernel`).

    Raises
    ------
    ValueError
        For a source that is not listed, or an instantiation it does not
        list: add it to the lists above, so that ``frontier warmup``
        compiles it too.

    Examples
    --------
    >>> import numpy as np
    >>> instantiation("gather_sum", (np.int32, np.int32, np.float64, np.float64))
    'gather_sum<int, int, double, double>'
    """
    if source not in INSTANTIATIONS:
        raise ValueError(f"no kernel source {source!r} here; sources are "
                         f"{', '.join(sorted(INSTANTIATIONS))}")
    arguments = [str(t).lower() if isinstance(t, bool) else t if isinstance(t, str)
                 else "bool" if np.dtype(t) == np.bool_ else ctype(t) for t in types]
    expression = f"{name}<{', '.join(arguments)}>" if types else name
    if expression not in INSTANTIATIONS[source]:
        raise ValueError(f"{expression} is not an instantiation of {source} listed in "
                         "frontier.kernels.module.INSTANTIATIONS; list it there")
    return expression


def compile_instantiation(source: str, expression: str) -> None:
    """Compile one listed instantiation for the current GPU into CuPy's
    kernel cache, or load it from there (``frontier warmup``)."""
    import cupy

    _module(source, expression, cupy.cuda.runtime.getDevice()).compile()


#: The argument of a :class:`Prepared` launch that each call sets (an int32).
VARIABLE = object()


class Prepared:
    """A launch of ``function`` on ``grid`` blocks of :data:`THREADS`
    threads, its ``arguments`` packed once: CuPy converts each argument of
    each launch (a microsecond or so apiece), which a level of the joint
    levels, three launches of up to 16 arguments per part, pays every level.

    An argument is a device array (its address is packed), a NumPy scalar
    (an ``np.void`` of an aligned structured dtype for a struct passed by
    value) or :data:`VARIABLE`, an int32 that each call sets. The arrays
    are kept alive with the launch, unless not ``keep``: then whoever
    launches it keeps them alive (a launch kept from run to run that must
    not hold a run's arrays)."""

    def __init__(self, function, grid: int, arguments, keep: bool = True):
        self.function, self.grid = function, grid
        arguments = tuple(arguments)
        self.arguments = arguments if keep else None
        # a RawKernel's function on the current GPU (a module's function is one already)
        self._function = getattr(function, "kernel", function).ptr
        self._values = [np.zeros((), dtype=np.int32) if argument is VARIABLE
                        else np.array(argument.data.ptr, dtype=np.uint64)
                        if hasattr(argument, "data") and hasattr(argument.data, "ptr")
                        else _scalar(argument) for argument in arguments]
        variable = [value for argument, value in zip(arguments, self._values)
                    if argument is VARIABLE]
        self._variable = variable[0] if variable else None
        self._params = np.array([value.ctypes.data for value in self._values], dtype=np.uint64)

    def __call__(self, stream, value: int | None = None) -> None:
        """Launch on ``stream`` (a CuPy stream), with ``value`` as the
        :data:`VARIABLE` argument."""
        from cupy.cuda import driver

        if value is not None:
            self._variable[()] = value
        driver.launchKernel(self._function, self.grid, 1, 1, THREADS, 1, 1, 0, stream.ptr,
                            self._params.ctypes.data, 0)


def _scalar(argument) -> np.ndarray:
    """A NumPy scalar argument as a 0-d array holding its bytes."""
    if not isinstance(argument, np.generic):
        raise TypeError(f"a prepared launch's argument must be a device array, a NumPy "
                        f"scalar or VARIABLE, not {type(argument).__name__}")
    return np.array(argument)


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
