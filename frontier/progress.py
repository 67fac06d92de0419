"""A tiny progress reporter for long tasks (file loading, graph generation).

It writes one line per phase change, and at most one line every ``interval``
seconds while a phase advances, to standard error. It is silent unless
enabled, so library code can call it unconditionally::

    progress = Progress("read_graph big.mtx", enabled=verbose)
    progress.phase("reading", total=size, unit="bytes")
    progress.update(done)
    progress.finish()

Lines look like ``frontier: read_graph big.mtx: reading 42% (52.4 of 124.4 MB), 0.8 s``.
"""

from __future__ import annotations

import sys
import time

_UNITS = {"bytes": (1e6, "MB"), "edges": (1e6, "M edges")}


class Progress:
    """Report the phases of a task to ``stream`` (standard error by default).

    Parameters
    ----------
    task : str
        What is being done, e.g. ``"read_graph graph.mtx"``.
    enabled : bool
        ``False`` makes every method a no-op.
    stream : file-like, optional
        Where to write (default ``sys.stderr``, looked up at each write so that
        test capture works).
    interval : float
        Minimum seconds between two :meth:`update` lines of one phase.

    Examples
    --------
    >>> progress = Progress("demo", enabled=False)
    >>> progress.phase("counting", total=10)
    >>> progress.update(5)
    >>> progress.finish()
    """

    def __init__(self, task: str, enabled: bool = False, *, stream=None,
                 interval: float = 0.5):
        self.task = task
        self.enabled = bool(enabled)
        self.stream = stream
        self.interval = interval
        self.start = time.perf_counter()
        self._phase = None
        self._total = None
        self._unit = ""
        self._last_write = float("-inf")

    def elapsed(self) -> float:
        """Seconds since the reporter was created."""
        return time.perf_counter() - self.start

    def phase(self, name: str, total: int | None = None, unit: str = "") -> None:
        """Start phase ``name``; ``total`` (in ``unit``) enables percentages."""
        self._phase, self._total, self._unit = name, total, unit
        self._write(name)

    def update(self, done: int) -> None:
        """Report ``done`` units of the current phase (rate-limited)."""
        if not self.enabled or time.perf_counter() - self._last_write < self.interval:
            return
        self._write(f"{self._phase} {self._amount(done)}")

    def finish(self, summary: str = "done") -> None:
        """Report the end of the task with its total time."""
        self._write(summary)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, exc_type, *exc) -> bool:
        if exc_type is None:
            self.finish()
        return False

    def _amount(self, done: int) -> str:
        scale, label = _UNITS.get(self._unit, (1, self._unit))
        shown = f"{done / scale:.1f}" if scale != 1 else f"{done}"
        if not self._total:
            return f"({shown} {label})".replace(" )", ")")
        total = f"{self._total / scale:.1f}" if scale != 1 else f"{self._total}"
        percent = 100.0 * done / self._total
        return f"{percent:.0f}% ({shown} of {total} {label})".replace(" )", ")")

    def _write(self, message: str) -> None:
        if not self.enabled:
            return
        stream = self.stream if self.stream is not None else sys.stderr
        stream.write(f"frontier: {self.task}: {message}, {self.elapsed():.1f} s\n")
        stream.flush()
        self._last_write = time.perf_counter()
