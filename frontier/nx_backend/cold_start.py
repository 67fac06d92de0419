"""Answer a process's first calls on the CPU while the GPU's kernels compile.

A NetworkX call that would run on a GPU whose kernels CuPy's cache does
not hold yet would spend 10-20 s compiling them (issue 33) -- longer than
NetworkX takes for the whole call on graphs of a few million edges, and
longer than Frontier's CPU path, which compiles nothing. So, by default,
when the backend picks the device itself:

* the GPU is **warm** when ``frontier warmup`` has stamped the cache for
  this GPU's architecture, this CuPy and this Frontier build
  (:func:`frontier.kernels.first_use.stamped`: a file test, with no CuPy
  import and no CUDA context), or when this process's background warm-up
  has finished;
* while it is **cold**, the call is answered on the CPU (same primitives,
  NumPy arrays; the answer is the same, and the backend returns host Python
  objects either way) and, once per process, ``frontier warmup`` starts in
  a child process that compiles every kernel, runs each primitive once and
  writes the stamp. One line says so (``frontier: first call: kernels not
  compiled for this GPU yet ...``, on standard error when it is a terminal,
  and on the ``frontier`` logger at INFO);
* calls go to the GPU once the warm-up has finished, not while it runs:
  a GPU call then would compile in the caller the very kernels the child is
  compiling, and wait as long;
* a call whose CPU work would take longer than compiling (over
  :data:`MAX_WORK` edge passes: edges, times the sources of a betweenness
  run) runs on the GPU at once, compiling what it launches, as it would
  without this policy.

The warm-up is a child process, not a thread: it shares no interpreter
lock with the caller, and a GPU run in a thread beside the caller's would
share the fused kernels' per-process workspace
(:mod:`frontier.kernels.workspace`), which each run's end clears for every
thread. A process that exits before the warm-up has finished stops it; the
kernels compiled so far stay in CuPy's cache, so the next warm-up loads
them and compiles the rest.

Where the user names the device (``nx.config.backends.frontier.device`` or
``FRONTIER_DEVICE``) it is used as named, warm or not. ``FRONTIER_COLD_START
=gpu`` switches the policy off: first calls then compile on the GPU.
"""

from __future__ import annotations

import atexit
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import frontier as fr
from frontier.kernels import first_use

from ..progress import Progress

#: ``cpu`` (the default): answer on the CPU while the GPU is cold; ``gpu``:
#: always the default device, compiling in the call.
POLICY_VARIABLE = "FRONTIER_COLD_START"
POLICIES = ("cpu", "gpu")
#: Overrides :data:`MAX_WORK`.
MAX_WORK_VARIABLE = "FRONTIER_COLD_START_MAX_WORK"
#: Edge passes (edges times passes over them) above which a cold call goes
#: to the GPU anyway. The CPU path takes 0.08-0.13 s per million edge passes
#: on the 2-core development machine (docs/networkx-backend.md, "A cold
#: GPU"), so 50 million take 4-7 s there, under the 9-16 s a cold call
#: spent compiling on an H100 host.
MAX_WORK = 50_000_000
#: Seconds a process that exits waits for the warm-up it stops.
STOP_WAIT_S = 5.0

MESSAGE = ("kernels not compiled for this GPU yet ({stamp} of `frontier warmup` in "
           "{cache}): answering on the CPU, compiling in the background; the GPU "
           "answers once that is done ({variable}=gpu: compile in the call instead)")
TOO_LARGE = ("kernels not compiled for this GPU yet, but this call ({work:,} edge passes) "
             "would take longer on the CPU than the compile: running it on the GPU")

_logger = logging.getLogger("frontier")


def policy() -> str:
    """The cold-start policy, ``"cpu"`` or ``"gpu"`` (:data:`POLICY_VARIABLE`).

    Raises
    ------
    ValueError
        For another value.
    """
    value = os.environ.get(POLICY_VARIABLE, "").strip().lower() or "cpu"
    if value not in POLICIES:
        raise ValueError(f"{POLICY_VARIABLE}={value!r}: expected 'cpu' (answer on the CPU "
                         "while the GPU's kernels are not compiled) or 'gpu'")
    return value


def max_work() -> int:
    """:data:`MAX_WORK`, or the whole number :data:`MAX_WORK_VARIABLE` holds.

    Raises
    ------
    ValueError
        For a value that is not a whole number of at least 0.
    """
    value = os.environ.get(MAX_WORK_VARIABLE, "").strip()
    if not value:
        return MAX_WORK
    try:
        work = int(value)
    except ValueError:
        work = -1
    if work < 0:
        raise ValueError(f"{MAX_WORK_VARIABLE}={value!r}: expected a whole number of edge "
                         "passes, at least 0")
    return work


class WarmUp:
    """This process's background ``frontier warmup``, and what is known of
    the GPU: ``state`` is ``"unknown"`` (not looked yet), ``"warm"``
    (stamped, or no GPU to warm), ``"running"``, ``"done"`` or ``"failed"``."""

    def __init__(self):
        self.state = "unknown"
        self.process: subprocess.Popen | None = None
        self.log = None
        self.started = self.seconds = self.capability = None
        self.said: set[str] = set()

    def start(self) -> None:
        """Start ``frontier warmup --quiet`` in a child process."""
        package_root = str(Path(fr.__file__).resolve().parents[1])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        env.pop("FRONTIER_NX_BACKEND_LOG", None)  # its calls are not the caller's
        jobs = min(8, max(1, (os.cpu_count() or 2) - 1))  # a core left to the caller
        command = [sys.executable, "-c",
                   "import sys; from frontier.cli import main; sys.exit(main(sys.argv[1:]))",
                   "warmup", "--quiet", "--jobs", str(jobs)]
        self.log = tempfile.TemporaryFile()
        self.started = time.perf_counter()
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.log,
                                            stderr=subprocess.STDOUT, env=env)
        except OSError as error:
            self.state = "failed"
            _logger.warning("could not start `frontier warmup` in the background (%s); calls "
                            "run on the GPU, compiling what they launch", error)
            return
        self.state = "running"
        atexit.register(self.stop)

    def poll(self, timeout: float | None = 0.0) -> str:
        """The state, after waiting up to ``timeout`` seconds (None: until it
        ends) for a running warm-up; its end is logged once."""
        if self.state != "running":
            return self.state
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return self.state
        self.seconds = time.perf_counter() - self.started
        self.log.seek(0)
        output = self.log.read().decode(errors="replace").strip()
        self.log.close()
        if code == 0:
            self.state = "done"
            _logger.info("background warm-up done in %.1f s; the GPU answers from now on: %s",
                         self.seconds, output.splitlines()[-1] if output else "")
        else:
            self.state = "failed"
            _logger.warning("background `frontier warmup` failed (exit %s) after %.1f s; calls "
                            "run on the GPU, compiling what they launch:\n%s", code,
                            self.seconds, output[-2000:])
        return self.state

    def stop(self) -> None:
        """Stop a running warm-up (at exit), waiting :data:`STOP_WAIT_S` at most."""
        if self.state == "running" and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


_lock = threading.Lock()
_warm_up = WarmUp()
_last: str | None = None


def choose(named: str | None, edges: int, passes: int = 1) -> fr.Device:
    """The device on which a backend call builds, and runs on, a graph of
    ``edges`` edges that it passes over ``passes`` times (the module's
    policy): ``named`` (``nx.config.backends.frontier.device``) when set,
    else Frontier's default device, except that a cold GPU gives the CPU.

    Raises
    ------
    ValueError
        For a bad ``named`` device or a bad setting of
        :data:`POLICY_VARIABLE` or :data:`MAX_WORK_VARIABLE`.
    """
    global _last
    if named is not None or os.environ.get("FRONTIER_DEVICE") or policy() == "gpu":
        device = fr.get_device(named)
    else:
        with _lock:
            device = _cold_choice(edges * passes)
    _last = device.name
    return device


def cold_gpu() -> str | None:
    """The compute capability of the first GPU (e.g. ``"90"``) when the
    policy holds a new process's first calls back from it: the policy is
    ``"cpu"`` and ``frontier warmup`` has not stamped the kernel cache for
    this GPU, this CuPy and this Frontier build; ``""`` (not read) when the
    cache holds no stamp for any GPU and the driver lists one. None when
    Frontier's default device answers from the first call: policy
    ``"gpu"``, no GPU, or a stamped cache. File tests only (no CuPy import,
    no CUDA context; the driver is asked for the capability only where a
    stamp exists to match); a warm-up this process ran is not seen
    (:func:`status` says).

    Raises
    ------
    ValueError
        For a bad setting of :data:`POLICY_VARIABLE`.
    """
    if policy() == "gpu":
        return None
    version = first_use.cupy_version()
    if version is None:
        return None
    if not first_use.stamped_any(version) and first_use.driver_lists_gpu():
        return ""  # cold whatever its architecture: the warm-up child reads it
    gpu = first_use.first_gpu()
    return None if gpu is None or first_use.stamped() else gpu[0]


def _cold_choice(work: int) -> fr.Device:
    """:func:`choose` for Frontier's default device, under the lock."""
    state = _warm_up.poll()
    if state == "unknown":
        capability = cold_gpu()
        if capability is None:
            _warm_up.state = state = "warm"
        else:
            _warm_up.capability = capability
            _warm_up.start()
            state = _warm_up.state
    if state != "running":
        return fr.get_device(None)
    if work > max_work():
        _say_once(TOO_LARGE.format(work=work), "too large")
        return fr.get_device(None)
    stamp = f"no sm_{_warm_up.capability} stamp" if _warm_up.capability \
        else "no stamp for any GPU"
    _say_once(MESSAGE.format(stamp=stamp, cache=first_use.cache_dir(), variable=POLICY_VARIABLE),
              "on the CPU")
    return fr.Device("cpu")


def _say_once(message: str, what: str) -> None:
    """Say ``message`` unless this process said ``what`` before."""
    if what not in _warm_up.said:
        _warm_up.said.add(what)
        _logger.info(message)
        Progress("first call", enabled=True).write(message)


def status() -> dict:
    """``{"policy", "warm_up", "warm_up_s", "last_device"}``: the policy, the
    background warm-up's state (:class:`WarmUp`), its seconds once ended,
    and the device the backend chose last (None before any choice)."""
    with _lock:
        state = _warm_up.poll()
        return {"policy": policy(), "warm_up": state, "warm_up_s": _warm_up.seconds,
                "last_device": _last}


def wait(timeout: float | None = None) -> str:
    """Wait up to ``timeout`` seconds (None: as long as it takes) for the
    background warm-up to end; its state then. Backend calls in other
    threads are not held up meanwhile."""
    process = _warm_up.process
    if process is not None:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
    with _lock:
        return _warm_up.poll()
