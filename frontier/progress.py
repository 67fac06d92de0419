"""Progress bars for long tasks: graph generation, loading, conversion, benchmarks.

The bars are drawn by tqdm, a small pure-Python library, so that Frontier does
not maintain terminal drawing of its own. A task is a sequence of phases, and
each phase is one bar on standard error::

    progress = Progress("read_graph big.mtx", enabled=verbose)
    progress.phase("reading", total=size, unit="bytes")
    progress.update(done)
    progress.finish()

Library code calls it unconditionally: nothing is written unless the caller
enabled it (``progress=True``; ``frontier run --quiet`` and ``frontier bench
--quiet`` turn it off) *and* the stream is a terminal, so logs, pipes and
captured output never fill with bars. A bar reads like
``frontier: read_graph big.mtx: reading  42%|####    | 52.4M/124M [00:00<00:00, 180MB/s]``.
"""

from __future__ import annotations

import sys
import time

# unit name -> (tqdm unit, scale with k/M/G prefixes)
_UNITS = {"bytes": ("B", True), "edges": (" edges", True), "": ("it", False)}


def _tqdm():
    """tqdm's bar class, imported when a bar or a line is first drawn: the
    import costs a fresh process about 10 ms (tqdm reads its version from
    the package metadata), which a run that shows nothing should not pay."""
    from tqdm import tqdm

    return tqdm


def is_terminal(stream) -> bool:
    """Whether ``stream`` is an interactive terminal (``False`` if it cannot tell)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


class Progress:
    """Report the phases of a task as progress bars on ``stream``.

    Parameters
    ----------
    task : str
        What is being done, e.g. ``"read_graph graph.mtx"``.
    enabled : bool
        ``False`` makes every method except :meth:`error` a no-op.
    stream : file-like, optional
        Where to write (default ``sys.stderr``, looked up at each phase so
        that test capture works). Bars are drawn only when it is a terminal.
    interval : float
        Minimum seconds between two redraws of a bar.

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
        self._bar = None  # the current phase's tqdm bar, if shown

    @property
    def shown(self) -> bool:
        """Whether bars are drawn now: enabled, and the stream is a terminal."""
        return self.enabled and is_terminal(self._stream())

    def elapsed(self) -> float:
        """Seconds since the reporter was created."""
        return time.perf_counter() - self.start

    def phase(self, name: str, total: int | None = None, unit: str = "") -> None:
        """End the current phase and start ``name``, a bar of ``total`` ``unit``
        (``"bytes"``, ``"edges"`` or any plural noun), or a timer without ``total``."""
        self.end_phase()
        if not self.shown:
            return
        tqdm_unit, scaled = _UNITS.get(unit, (f" {unit}", False))
        if total is not None:
            bar_format = None  # tqdm's: percentage, bar, counts, time, rate
        elif unit:
            bar_format = "{desc}: {n_fmt}{unit} [{elapsed}, {rate_fmt}]"
        else:
            bar_format = "{desc} [{elapsed}]"
        self._bar = _tqdm()(desc=f"frontier: {self.task}: {name}", total=total, unit=tqdm_unit,
                         unit_scale=scaled, bar_format=bar_format, file=self._stream(),
                         mininterval=self.interval, leave=True, dynamic_ncols=True)

    def update(self, done: int) -> None:
        """Report ``done`` units of the current phase done so far (redraws are rate-limited)."""
        if self._bar is not None:
            self._bar.update(done - self._bar.n)

    def write(self, message: str) -> None:
        """Write a line of its own above the bar (only while bars are shown)."""
        if self.shown:
            _tqdm().write(f"frontier: {self.task}: {message}", file=self._stream())

    def error(self, message: str) -> None:
        """End the phase where it stopped and write ``message``, even when progress
        is hidden: a failure is not progress."""
        self.end_phase(complete=False)
        _tqdm().write(f"frontier: {self.task}: {message}", file=self._stream())

    def finish(self, summary: str = "done") -> None:
        """End the last phase and report the end of the task with its total time."""
        self.end_phase()
        self.write(f"{summary}, {self.elapsed():.1f} s")

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, exc_type, *exc) -> bool:
        if exc_type is None:
            self.finish()
        else:
            self.end_phase(complete=False)
        return False

    def end_phase(self, complete: bool = True) -> None:
        """End the current phase now (it also ends when the next begins): its bar
        stays, full if it had a total and ``complete``, and later lines go below it."""
        if self._bar is None:
            return
        if complete and self._bar.total is not None:
            self._bar.update(self._bar.total - self._bar.n)
        self._bar.close()
        self._bar = None

    def _stream(self):
        return self.stream if self.stream is not None else sys.stderr
