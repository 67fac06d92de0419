"""Buffers the fused kernels keep for the length of one enactor run.

Reusing them saves an allocation (and for the zeroed bitmap a memset) per
iteration; :func:`release` frees them all and is called by the enactor when
a run ends, so nothing outlives the run that needed it. Buffers are kept per
GPU and thread: a multi-device run drives several GPUs from one process, and
several parts of one GPU from threads of their own.
"""

from __future__ import annotations

import threading

import numpy as np

from ..turns import pause, resume

_buffers: dict = {}

#: Device counters handed out by :func:`counter` before its ring is zeroed again.
COUNTERS = 1024
#: :func:`read_last` copies into pinned host memory (False: CuPy's own read).
PINNED_READS = True


def _words(n: int) -> int:
    return (n + 31) // 32


def _current_gpu() -> int:
    import cupy

    return cupy.cuda.runtime.getDevice()


def scratch_bits(n: int):
    """A bitmap of ``n`` bits that is all zero on entry; the caller must clear
    every bit it sets before returning."""
    key = ("zeroed-bits", n, _current_gpu(), threading.get_ident())
    if key not in _buffers:
        import cupy

        _buffers[key] = cupy.zeros(_words(n), dtype=np.uint32)
    return _buffers[key]


def bits(n: int):
    """A bitmap buffer of ``n`` bits with arbitrary content."""
    key = ("bits", n, _current_gpu(), threading.get_ident())
    if key not in _buffers:
        import cupy

        _buffers[key] = cupy.empty(_words(n), dtype=np.uint32)
    return _buffers[key]


class Stamps:
    """One int32 per vertex, -1 when made, and the last tag written into it:
    a kernel marks vertex ``v`` done in round ``t`` by storing a tag above
    :attr:`last` (so no clearing between rounds), then raises :attr:`last`."""

    def __init__(self, n: int):
        import cupy

        self.array = cupy.full(n, -1, dtype=np.int32)
        self.last = -1


def stamps(n: int) -> Stamps:
    """The :class:`Stamps` of ``n`` vertices for this GPU and thread, kept
    for the run."""
    key = ("stamps", n, _current_gpu(), threading.get_ident())
    if key not in _buffers:
        _buffers[key] = Stamps(n)
    return _buffers[key]


def counter(words: int = 1) -> np.uint64:
    """The device address of ``words`` consecutive uint64 counters that read
    zero, for a kernel's output length or tallies (an ``unsigned long
    long*`` argument; read them with :func:`read_counter` or
    :func:`read_counters`). Counters come from a ring per GPU and thread,
    zeroed in one memset when it runs out, instead of an allocation and a
    memset per launch; the caller reads its counters before taking more
    (the ring's memset is ordered after earlier launches on the stream)."""
    key = ("counters", _current_gpu(), threading.get_ident())
    ring = _buffers.get(key)
    if ring is None or words > len(ring[0]):  # a ring that holds the request
        import cupy

        ring = _buffers[key] = [cupy.zeros(max(COUNTERS, words), dtype=np.uint64), 0]
    elif ring[1] + words > len(ring[0]):
        ring[0].fill(0)
        ring[1] = 0
    ring[1] += words
    # an address, not a slice of the ring: a slice costs a few microseconds
    return np.uint64(ring[0].data.ptr + 8 * (ring[1] - words))


def read_counter(address: np.uint64) -> int:
    """The value of a counter from :func:`counter`, once the work queued on
    the current stream is done."""
    return _read_words(int(address), 1, np.uint64)[0]


def read_counters(address: np.uint64, words: int) -> list[int]:
    """The values of ``words`` counters from ``counter(words)``, in one read."""
    return _read_words(int(address), words, np.uint64)


def read_last(array) -> int:
    """The last entry of a 1-d int64 or uint64 device array (the end of a
    scan) as a Python int, as a level reads its counts: an asynchronous
    copy into pinned host memory and a wait for the stream, instead of
    CuPy's indexing and pageable copy."""
    address = array.data.ptr + (len(array) - 1) * array.strides[0]
    return _read_words(address, 1, array.dtype)[0]


#: The 8-byte words of the pinned buffer :func:`_read_words` copies into
#: (a read of more words makes it larger).
PINNED_WORDS = 8


def _read_words(address: int, words: int, dtype) -> list[int]:
    """The ``words`` 8-byte integers of ``dtype`` from device ``address`` on."""
    import cupy

    size = 8 * words
    if not PINNED_READS:  # a synchronous copy to pageable memory, as CuPy reads
        host = np.empty(words, dtype=dtype)
        cupy.cuda.runtime.memcpy(host.ctypes.data, address, size,
                                 cupy.cuda.runtime.memcpyDeviceToHost)
        return host.tolist()
    key = ("pinned-words", threading.get_ident())
    pinned = _buffers.get(key)
    if pinned is None or len(pinned[0]) < words:
        import cupyx

        host = cupyx.empty_pinned(max(words, PINNED_WORDS), dtype=np.uint64)
        # the array and its address: NumPy's .ctypes builds an object per call
        pinned = _buffers[key] = (host, host.ctypes.data)
    host, host_address = pinned
    stream = cupy.cuda.get_current_stream().ptr
    runtime = cupy.cuda.runtime
    runtime.memcpyAsync(host_address, address, size, runtime.memcpyDeviceToHost, stream)
    turn = pause()  # another rank thread runs its host code meanwhile
    try:
        runtime.streamSynchronize(stream)  # the runtime's call: about 1 us less than the Stream's
    finally:
        resume(turn)
    values = host[:words].tolist()
    if dtype == np.int64:
        values = [value - (1 << 64) if value >= 1 << 63 else value for value in values]
    return values


def release() -> None:
    """Free every buffer (called at the end of each enactor run)."""
    _buffers.clear()
