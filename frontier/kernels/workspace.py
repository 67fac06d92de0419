"""Buffers the fused kernels keep for the length of one enactor run.

Reusing them saves an allocation (and for the zeroed bitmap a memset) per
iteration; :func:`release` frees them all and is called by the enactor when
a run ends, so nothing outlives the run that needed it. Buffers are kept per
GPU: a multi-device run drives several from one process.
"""

from __future__ import annotations

import numpy as np

_buffers: dict = {}


def _words(n: int) -> int:
    return (n + 31) // 32


def _current_gpu() -> int:
    import cupy

    return cupy.cuda.Device().id


def scratch_bits(n: int):
    """A bitmap of ``n`` bits that is all zero on entry; the caller must clear
    every bit it sets before returning."""
    key = ("zeroed-bits", n, _current_gpu())
    if key not in _buffers:
        import cupy

        _buffers[key] = cupy.zeros(_words(n), dtype=np.uint32)
    return _buffers[key]


def bits(n: int):
    """A bitmap buffer of ``n`` bits with arbitrary content."""
    key = ("bits", n, _current_gpu())
    if key not in _buffers:
        import cupy

        _buffers[key] = cupy.empty(_words(n), dtype=np.uint32)
    return _buffers[key]


def max_out_degree(graph) -> int:
    """The graph's largest out-degree (one reduction per run)."""
    key = ("max-out-degree", id(graph))
    if key not in _buffers:
        degree = graph.out_degree()
        _buffers[key] = (graph, int(degree.max()) if len(degree) else 0)
    return _buffers[key][1]


def release() -> None:
    """Free every buffer (called at the end of each enactor run)."""
    _buffers.clear()
