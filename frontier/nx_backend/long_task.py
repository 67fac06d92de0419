"""Say what the backend is doing while a conversion keeps a call waiting.

Converting a large NetworkX graph reads every edge in Python, seconds per
million edges, before the first answer (NetworkX then caches the result in
``G.__networkx_cache__``, so a later call skips it). A :class:`LongTask`
stays silent for :data:`NOTICE_AFTER_S`; a task still running then reports
the phase under way, every later phase as it starts, and its total time.
The lines go to standard error when that is a terminal (as progress bars do,
:mod:`frontier.progress`) and to the ``frontier`` logger at INFO always.

A task that may be long (``watch=True``) has a timer thread report it during
its phase; starting one costs a fraction of a millisecond, more than
converting a small graph takes, so other tasks only look at the clock when
a phase starts or the task ends.
Kernel compilation has its own notice (:mod:`frontier.kernels.first_use`).
"""

from __future__ import annotations

import logging
import threading
import time

from ..progress import Progress

#: Seconds a task runs before it reports.
NOTICE_AFTER_S = 1.0

_logger = logging.getLogger("frontier")


class LongTask:
    """The phases of one task, reported once it has run ``after`` seconds
    (default :data:`NOTICE_AFTER_S`). Use as a context manager::

        with LongTask("converting a NetworkX graph of 10 nodes") as task:
            task.phase("reading the adjacency")
            ...
    """

    def __init__(self, task: str, *, watch: bool = True, after: float | None = None,
                 stream=None):
        self.task = task
        self._progress = Progress(task, enabled=True, stream=stream)
        self._lock = threading.Lock()
        self._phase = "starting"
        self._phase_start = self._start = time.perf_counter()
        self._noticed = self._closed = False
        self._after = NOTICE_AFTER_S if after is None else after
        self._timer = threading.Timer(self._after, self._notice) if watch else None

    def __enter__(self) -> LongTask:
        if self._timer is not None:
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, exc_type, *exc) -> bool:
        if self._timer is not None:
            self._timer.cancel()
        else:
            self._check_clock()
        with self._lock:
            self._closed = True
            noticed = self._noticed
        if noticed:
            ended = "done" if exc_type is None else f"stopped by {exc_type.__name__}"
            self._say(f"{ended}, {time.perf_counter() - self._start:.1f} s")
        return False

    def phase(self, name: str) -> None:
        """Start phase ``name`` (reported at once if the task has reported)."""
        if self._timer is None:
            self._check_clock()
        with self._lock:
            self._phase, self._phase_start = name, time.perf_counter()
            noticed = self._noticed
        if noticed:
            self._say(f"{name} ...")

    def _check_clock(self) -> None:
        if not self._noticed and time.perf_counter() - self._start >= self._after:
            self._notice()

    def _notice(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._noticed = True
            name, since = self._phase, self._phase_start
        now = time.perf_counter()
        self._say(f"{name} ... ({now - since:.1f} s in it, {now - self._start:.1f} s in all)")

    def _say(self, message: str) -> None:
        _logger.info("%s: %s", self.task, message)
        self._progress.write(message)
