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
  a child process that compiles every kernel, runs each primitive and each
  backend function once and writes the stamp. One line says so
  (``frontier: first call: kernels not compiled for this GPU yet ...``, on
  standard error when it is a terminal, and on the ``frontier`` logger at
  INFO);
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

A warm GPU that this process has not started yet (CuPy not imported)
costs a first call about 1.3 s more (CuPy's import, CUDA's context, the
graph's build there) than a small call takes on the CPU. So a call of at
most :data:`START_MAX_WORK` edge passes is answered on the CPU meanwhile,
and the GPU is started in a background thread when the call ends
(:class:`GpuStart`, :func:`after_call`); so is it after a call answered on
the CPU while the warm-up runs.

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
#: How much lower the background warm-up's priority is than the caller's
#: (``os.nice``): its compile threads yield the cores to a call answered
#: on the CPU meanwhile.
WARM_UP_NICENESS = 10
#: Seconds a process that exits waits for the warm-up it stops.
STOP_WAIT_S = 5.0
#: Edge passes above which a call goes to a warm GPU that this process has
#: not started yet (CuPy not imported) rather than to the CPU. Starting it
#: cost a first PageRank about 1.3 s more on an H200 host than its CPU
#: answer took in all (importing CuPy 0.95 s, CUDA's start 0.13 s, the
#: graph's build on the GPU 0.26 s more: docs/networkx-backend.md), about
#: what 10 million edge passes take on the CPU.
START_MAX_WORK = 10_000_000

MESSAGE = ("kernels not compiled for this GPU yet ({stamp} of `frontier warmup` in "
           "{cache}): answering on the CPU, compiling in the background; the GPU "
           "answers once that is done ({variable}=gpu: compile in the call instead)")
NOT_STARTED = ("the GPU is not started in this process yet: answering this call "
               "({work:,} edge passes) on the CPU, starting the GPU after it; the GPU "
               "answers once it has started ({variable}=gpu: start it in the call instead)")
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
        # At a lower priority: where the caller's call runs on the CPU (split
        # over its cores, frontier.split_runs), the compile yields them to it.
        command = [sys.executable, "-c",
                   f"import os, sys; hasattr(os, 'nice') and os.nice({WARM_UP_NICENESS}); "
                   "from frontier.cli import main; sys.exit(main(sys.argv[1:]))",
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


class GpuStart:
    """This process's start of the GPU (importing CuPy, CUDA's context and
    the default device's first allocation), in a background thread after a
    call that :func:`choose` answered on the CPU because the GPU was cold or
    not started: ``state`` is ``"not started"``, ``"wanted"`` (the call under
    way asked for it), ``"starting"`` or ``"started"``."""

    def __init__(self):
        self.state = "not started"
        self.thread: threading.Thread | None = None
        self.seconds: float | None = None
        self.error: BaseException | None = None

    def started(self) -> bool:
        """Whether a call may go to the GPU without starting it: this
        thread has finished (or failed: the call then meets the error), or
        the process imported CuPy itself."""
        if self.state == "starting" and not self.thread.is_alive():
            self.state = "started"
        elif self.state != "starting" and "cupy" in sys.modules:
            self.state = "started"
        return self.state == "started"

    def want(self) -> None:
        """Ask for the start at the end of the call under way."""
        if self.state == "not started":
            self.state = "wanted"

    def begin(self) -> None:
        """Start the GPU in a background thread, if a call asked for it."""
        if self.state == "wanted":
            self.state = "starting"
            self.thread = threading.Thread(target=self._start, name="frontier-gpu-start",
                                           daemon=True)
            self.thread.start()

    def _start(self) -> None:
        began = time.perf_counter()
        try:
            device = fr.get_device(None)
            device.xp.empty(1)
            device.synchronize()
        except Exception as error:  # the next call meets it on the GPU
            self.error = error
        self.seconds = time.perf_counter() - began


_lock = threading.Lock()
_warm_up = WarmUp()
_gpu_start = GpuStart()
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
    return None if gpu is None or first_use.stamped(gpu) else gpu[0]


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
        return _started_choice(work)
    if work > max_work():
        _say_once(TOO_LARGE.format(work=work), "too large")
        return fr.get_device(None)
    _gpu_start.want()  # started meanwhile, the GPU answers as soon as the warm-up ends
    stamp = f"no sm_{_warm_up.capability} stamp" if _warm_up.capability \
        else "no stamp for any GPU"
    _say_once(MESSAGE.format(stamp=stamp, cache=first_use.cache_dir(), variable=POLICY_VARIABLE),
              "on the CPU")
    return fr.Device("cpu")


def _started_choice(work: int) -> fr.Device:
    """:func:`choose` on a warm GPU: the CPU for a call of at most
    :data:`START_MAX_WORK` edge passes while this process has not started
    the GPU (which :func:`after_call` then starts in the background), else
    Frontier's default device. A machine whose driver lists no GPU, or
    without CuPy, is left to the default device."""
    if _gpu_start.started() or work > START_MAX_WORK or first_use.cupy_version() is None \
            or first_use.driver_lists_gpu() is False:
        return fr.get_device(None)
    _gpu_start.want()
    _say_once(NOT_STARTED.format(work=work, variable=POLICY_VARIABLE), "not started")
    return fr.Device("cpu")


def after_call() -> None:
    """At the end of a backend call: start the GPU in the background if
    the call was answered on the CPU because the GPU was not started."""
    with _lock:
        _gpu_start.begin()


def _say_once(message: str, what: str) -> None:
    """Say ``message`` unless this process said ``what`` before."""
    if what not in _warm_up.said:
        _warm_up.said.add(what)
        _logger.info(message)
        Progress("first call", enabled=True).write(message)


def status() -> dict:
    """``{"policy", "warm_up", "warm_up_s", "gpu_start", "gpu_start_s",
    "last_device"}``: the policy, the background warm-up's state
    (:class:`WarmUp`) and its seconds once ended, the GPU's start in this
    process (:class:`GpuStart`) and its seconds once ended, and the device
    the backend chose last (None before any choice)."""
    with _lock:
        state = _warm_up.poll()
        _gpu_start.started()  # brings its state up to date
        return {"policy": policy(), "warm_up": state, "warm_up_s": _warm_up.seconds,
                "gpu_start": _gpu_start.state, "gpu_start_s": _gpu_start.seconds,
                "last_device": _last}


def wait(timeout: float | None = None) -> str:
    """Wait up to ``timeout`` seconds (None: as long as it takes) for the
    background warm-up, and the GPU's start, to end; the warm-up's state
    then. Backend calls in other threads are not held up meanwhile."""
    began = time.perf_counter()
    process = _warm_up.process
    if process is not None:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
    thread = _gpu_start.thread
    if thread is not None:
        thread.join(None if timeout is None
                    else max(0.0, timeout - (time.perf_counter() - began)))
    with _lock:
        return _warm_up.poll()
