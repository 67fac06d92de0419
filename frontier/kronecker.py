"""The Kronecker (R-MAT) edge stream: any range of edges, on any device, alone.

Edge ``i`` of the stream is a pure function of ``(seed, i)``: a counter-based
random generator (SplitMix64's mixing function) hashes the edge index and the
Kronecker level into the bits that pick a quadrant. So a range of edges can
be generated without the edges before it, in chunks that never hold the whole
list, by every device or MPI rank on its own, and the same seed gives the
same graph on the CPU and on a GPU.

For each of the ``scale`` levels, one 64-bit hash gives two 32-bit draws
``u`` and ``w`` and the level's bits are, as Graph500's
``kronecker_generator.m`` draws them::

    ii_bit = u >= (A + B) * 2**32
    jj_bit = w >= (C / (C + D) if ii_bit else A / (A + B)) * 2**32

Then each endpoint goes through a seeded bijection of ``[0, 2**scale)`` (the
reference permutes vertex labels at random; a bijection made of xor, odd
multiplications and xor-shifts serves the same purpose without a table).
The reference's second shuffle, of the edge order, is not needed: the
edges of this stream are independent and identically distributed already.

On a GPU the whole computation for an edge is one CUDA thread
(``cupy.ElementwiseKernel``); on the CPU it is NumPy code over ``uint64``
arrays. Both compute exactly the same integers.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .graph import index_dtype

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15          # SplitMix64's increment: the edge counter's step
_LEVEL_STEP = 0xD1B54A32D192ED03     # odd: separates the levels of one edge
_WEIGHT_SALT = 0x8CB92BA72F3D8DD7    # separates the weight's hash from the levels'
_MIX_1, _MIX_2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_NUMPY_BLOCK = 1 << 16  # edges the NumPy path takes through all levels at once
#: Graph500 initiator probabilities (D = 1 - A - B - C = 0.05).
GRAPH500_A, GRAPH500_B, GRAPH500_C = 0.57, 0.19, 0.19


def mix64(z: int) -> int:
    """SplitMix64's finalizer on a Python int (mod 2**64)."""
    z &= _MASK64
    z = ((z ^ (z >> 30)) * _MIX_1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX_2) & _MASK64
    return z ^ (z >> 31)


def _mix_array(z):
    """SplitMix64's finalizer on a ``uint64`` array, in place (wrapping arithmetic)."""
    z ^= z >> np.uint64(30)
    z *= np.uint64(_MIX_1)
    z ^= z >> np.uint64(27)
    z *= np.uint64(_MIX_2)
    z ^= z >> np.uint64(31)
    return z


def _threshold(probability: float) -> int:
    """The 32-bit draw ``u`` has ``u >= threshold`` with probability ``1 - probability``."""
    return min(int(round(probability * 2**32)), 2**32)


@dataclass(frozen=True)
class KroneckerStream:
    """Edges ``0 .. num_edges-1`` of an R-MAT graph with quadrant probabilities
    ``a, b, c`` (``d = 1 - a - b - c``), and optionally an integer weight in
    ``[low, high]`` per edge.

    Examples
    --------
    >>> import numpy as np
    >>> stream = KroneckerStream(scale=4, num_edges=128, seed=0)
    >>> src, dst, _ = stream.edges(np, 0, 128)
    >>> len(src), bool(src.max() < 16)
    (128, True)
    """

    scale: int
    num_edges: int
    seed: int
    a: float = GRAPH500_A
    b: float = GRAPH500_B
    c: float = GRAPH500_C
    weights: tuple[int, int] | None = None

    @property
    def num_vertices(self) -> int:
        return 1 << self.scale

    @property
    def vertex_dtype(self):
        """The graph's vertex id dtype for this many vertices."""
        return index_dtype(self.num_vertices)

    def edges(self, xp, start: int, stop: int):
        """``(src, dst, weights_or_None)`` of edges ``start .. stop-1``, as
        arrays of ``xp`` (the ``numpy`` or ``cupy`` module)."""
        start, stop = int(start), int(min(stop, self.num_edges))
        count = max(stop - start, 0)
        if xp is np:
            return self._edges_numpy(start, count)
        return self._edges_gpu(xp, start, count)

    # the parameters both implementations use -----------------------------------------

    @functools.cached_property
    def _keys(self) -> dict:
        """Integers derived from the seed and the probabilities (all < 2**64)."""
        a, b, c = self.a, self.b, self.c
        ab = a + b
        c_norm = c / (1.0 - ab) if ab < 1.0 else 0.0
        a_norm = a / ab if ab > 0.0 else 0.0
        seed_key = mix64(int(self.seed) * _GAMMA + 0x6A09E667F3BCC909)
        mask = (1 << self.scale) - 1
        return {
            "seed_key": seed_key,
            "t_ab": _threshold(ab), "t_a": _threshold(a_norm), "t_c": _threshold(c_norm),
            "mask": mask,
            # the label bijection: xor, odd multiply, xor-shift, odd multiply, xor-shift
            "xor": mix64(seed_key + 1) & mask,
            "mul_1": (mix64(seed_key + 2) & mask) | (mask & 1),  # odd unless scale is 0
            "mul_2": (mix64(seed_key + 3) & mask) | (mask & 1),
            "shift": max(1, (self.scale + 1) // 2),
            "low": 0 if self.weights is None else self.weights[0],
            "span": 0 if self.weights is None else self.weights[1] - self.weights[0] + 1,
        }

    # NumPy ----------------------------------------------------------------------------

    def _edges_numpy(self, start: int, count: int):
        dtype = self.vertex_dtype
        src = np.empty(count, dtype=dtype)
        dst = np.empty(count, dtype=dtype)
        weights = np.empty(count, dtype=np.int32) if self.weights is not None else None
        # blocks that stay in cache through the levels
        for begin in range(0, count, _NUMPY_BLOCK):
            block = slice(begin, min(begin + _NUMPY_BLOCK, count))
            self._block_numpy(start + begin, block.stop - block.start, src[block], dst[block],
                              None if weights is None else weights[block])
        return src, dst, weights

    def _block_numpy(self, start: int, count: int, src_out, dst_out, weights_out) -> None:
        k = self._keys
        u64 = np.uint64
        edge_key = np.arange(start, start + count, dtype=u64)
        edge_key *= u64(_GAMMA)
        edge_key += u64(k["seed_key"])
        _mix_array(edge_key)
        src = np.zeros(count, dtype=u64)
        dst = np.zeros(count, dtype=u64)
        draw = np.empty(count, dtype=u64)
        half = np.empty(count, dtype=u64)
        ii = np.empty(count, dtype=bool)
        jj = np.empty(count, dtype=bool)
        t_ab, t_a, t_c = u64(k["t_ab"]), u64(k["t_a"]), u64(k["t_c"])
        for level in range(self.scale):
            np.add(edge_key, u64((level + 1) * _LEVEL_STEP & _MASK64), out=draw)
            _mix_array(draw)
            np.right_shift(draw, u64(32), out=half)
            np.greater_equal(half, t_ab, out=ii)
            np.bitwise_and(draw, u64(0xFFFFFFFF), out=half)
            np.greater_equal(half, np.where(ii, t_c, t_a), out=jj)
            src |= ii.astype(u64) << u64(level)
            dst |= jj.astype(u64) << u64(level)
        src_out[...] = self._relabel_numpy(src)
        dst_out[...] = self._relabel_numpy(dst)
        if weights_out is not None:
            np.bitwise_xor(edge_key, u64(_WEIGHT_SALT), out=draw)
            _mix_array(draw)
            draw %= u64(k["span"])
            weights_out[...] = np.int64(k["low"]) + draw.astype(np.int64)

    def _relabel_numpy(self, x):
        k = self._keys
        u64, mask = np.uint64, np.uint64(k["mask"])
        x ^= u64(k["xor"])
        x *= u64(k["mul_1"])
        x &= mask
        x ^= x >> u64(k["shift"])
        x *= u64(k["mul_2"])
        x &= mask
        x ^= x >> u64(k["shift"])
        return x

    # CUDA -----------------------------------------------------------------------------

    def _edges_gpu(self, cp, start: int, count: int):
        k = self._keys
        dtype = self.vertex_dtype
        src = cp.empty(count, dtype=dtype)
        dst = cp.empty(count, dtype=dtype)
        weighted = self.weights is not None
        weights = cp.empty(count if weighted else 0, dtype=np.int32)
        u64 = np.uint64
        _gpu_kernel()(
            u64(start), u64(k["seed_key"]), np.int32(self.scale), u64(k["t_ab"]),
            u64(k["t_a"]), u64(k["t_c"]), u64(k["mask"]), u64(k["xor"]), u64(k["mul_1"]),
            u64(k["mul_2"]), np.int32(k["shift"]), np.int32(weighted), np.int64(k["low"]),
            u64(max(k["span"], 1)), src, dst, weights)
        return src, dst, weights if weighted else None


_CUDA_PREAMBLE = f"""
__device__ __forceinline__ unsigned long long frontier_mix64(unsigned long long z) {{
    z = (z ^ (z >> 30)) * {_MIX_1}ULL;
    z = (z ^ (z >> 27)) * {_MIX_2}ULL;
    return z ^ (z >> 31);
}}
__device__ __forceinline__ unsigned long long frontier_relabel(
        unsigned long long x, unsigned long long mask, unsigned long long key,
        unsigned long long mul_1, unsigned long long mul_2, int shift) {{
    x = ((x ^ key) * mul_1) & mask;
    x ^= x >> shift;
    x = (x * mul_2) & mask;
    return x ^ (x >> shift);
}}
"""

_CUDA_BODY = f"""
    unsigned long long edge = start + (unsigned long long)i;
    unsigned long long edge_key = frontier_mix64(seed_key + edge * {_GAMMA}ULL);
    unsigned long long s = 0, d = 0;
    for (int level = 0; level < scale; ++level) {{
        unsigned long long h = frontier_mix64(
            edge_key + (unsigned long long)(level + 1) * {_LEVEL_STEP}ULL);
        bool ii = (h >> 32) >= t_ab;
        bool jj = (h & 0xFFFFFFFFULL) >= (ii ? t_c : t_a);
        s |= (unsigned long long)ii << level;
        d |= (unsigned long long)jj << level;
    }}
    src = (V)frontier_relabel(s, mask, key, mul_1, mul_2, shift);
    dst = (V)frontier_relabel(d, mask, key, mul_1, mul_2, shift);
    if (weighted) {{
        unsigned long long h = frontier_mix64(edge_key ^ {_WEIGHT_SALT}ULL);
        weights[i] = (int)(low + (long long)(h % span));
    }}
"""


@functools.cache
def _gpu_kernel():
    import cupy

    return cupy.ElementwiseKernel(
        "uint64 start, uint64 seed_key, int32 scale, uint64 t_ab, uint64 t_a, uint64 t_c, "
        "uint64 mask, uint64 key, uint64 mul_1, uint64 mul_2, int32 shift, int32 weighted, "
        "int64 low, uint64 span",
        "V src, V dst, raw int32 weights", _CUDA_BODY, "frontier_kronecker_edges",
        preamble=_CUDA_PREAMBLE)
