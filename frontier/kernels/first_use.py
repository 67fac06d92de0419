"""Say once, while it happens, that a call is waiting for kernels to compile.

A kernel's first use on a GPU compiles it (NVRTC, a fraction of a second
each) unless CuPy's on-disk cache holds it. A process with an empty cache
pays that inside whatever call first launches the kernel, so a NetworkX
user's first ``nx.pagerank(G, backend="frontier")`` would sit silent for
seconds. :func:`compiling` times each first use; once this process has
spent :data:`NOTICE_AFTER_S` in them, a timer (the waiting thread is inside
the compiler) writes one line saying what is happening and how to pay it
ahead (``frontier warmup``), then never again. The line goes to standard
error only when that is a terminal, as progress bars do
(:mod:`frontier.progress`), and always to the ``frontier`` logger at INFO.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time

from ..progress import Progress

#: Seconds of first-use compilation after which the notice is written.
NOTICE_AFTER_S = 1.0

MESSAGE = ("compiling CUDA kernels for their first use on this GPU ({what}); once only: "
           "CuPy keeps them in {cache}. `frontier warmup` compiles them all ahead")

_logger = logging.getLogger("frontier")
_lock = threading.Lock()
_spent_s = 0.0
_noticed = False


def cache_dir() -> str:
    """Where CuPy keeps compiled kernels (``CUPY_CACHE_DIR``, else its default)."""
    return os.environ.get("CUPY_CACHE_DIR", os.path.expanduser("~/.cupy/kernel_cache"))


@contextlib.contextmanager
def compiling(what: str):
    """Time the first use of kernel ``what`` (a compilation, or a load from
    CuPy's cache); the notice fires during it if this process's first uses
    pass :data:`NOTICE_AFTER_S` seconds in all."""
    global _spent_s
    with _lock:
        budget = None if _noticed else max(NOTICE_AFTER_S - _spent_s, 0.0)
    timer = None
    if budget is not None:
        timer = threading.Timer(budget, _notice, (what,))
        timer.daemon = True
        timer.start()
    start = time.perf_counter()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
        with _lock:
            _spent_s += time.perf_counter() - start


def _notice(what: str) -> None:
    """Write the notice, the first time only."""
    global _noticed
    with _lock:
        if _noticed:
            return
        _noticed = True
    message = MESSAGE.format(what=what, cache=cache_dir())
    _logger.info(message)
    Progress("first call", enabled=True).write(message)
