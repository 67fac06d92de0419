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

A *stamp* says that ``frontier warmup`` finished for one GPU architecture:
a file in ``<cache>/frontier-warm/`` named by the GPU's compute
capability, the CuPy version and the Frontier build (version and a digest
of the ``.cu`` sources), which are what decide whether CuPy's cache holds
the kernels a call launches. :func:`stamped` tests it without importing
CuPy or starting CUDA (it reads CuPy's version file, and the compute
capability from the model the driver lists where a warm-up recorded it,
else from the CUDA driver), so that the NetworkX backend can decide where
to answer a first call before paying for either
(:mod:`frontier.nx_backend.cold_start`).
"""

from __future__ import annotations

import contextlib
import ctypes
import fnmatch
import functools
import hashlib
import importlib.util
import json
import logging
import os
import re
import sys
import threading
import time
from pathlib import Path

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


# stamps: frontier warmup finished for this GPU architecture ------------------------------

#: The stamps' directory, under :func:`cache_dir`.
STAMPS = "frontier-warm"
#: CUDA driver attributes: compute capability major and minor.
_MAJOR, _MINOR = 75, 76


@functools.cache
def build_id() -> str:
    """This Frontier build: its version (read from the package's
    ``__init__.py``, which a kernel module does not import) and a digest of
    its ``.cu`` sources (a kernel edited without a new version gets new
    stamps)."""
    package = Path(__file__).resolve().parents[1]
    found = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]",
                      (package / "__init__.py").read_text(), re.MULTILINE)
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.cu")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return f"{found.group(1) if found else 'unknown'}-{digest.hexdigest()[:12]}"


def stamp_path(compute_capability: str, cupy_version: str) -> str:
    """The stamp of a warm-up for GPUs of ``compute_capability`` (CuPy's
    spelling, ``"90"`` for sm_90) with CuPy ``cupy_version``."""
    return os.path.join(cache_dir(), STAMPS, _stamp_name(compute_capability, cupy_version))


def _stamp_name(compute_capability: str, cupy_version: str) -> str:
    """A stamp's file name (``"*"`` for any compute capability: a pattern)."""
    return f"sm{compute_capability}-cupy{cupy_version}-frontier{build_id()}.json"


def stamps_kept() -> bool:
    """Whether CuPy keeps kernels on disk (``CUPY_CACHE_IN_MEMORY`` unset):
    otherwise each process compiles its own, and a stamp would be a lie."""
    return os.environ.get("CUPY_CACHE_IN_MEMORY", "0") in ("", "0")


def write_stamp(compute_capability: str, cupy_version: str, summary: dict) -> str | None:
    """Record a finished warm-up (``summary``, for a reader); the stamp's
    path, or None where CuPy keeps no disk cache."""
    if not stamps_kept():
        return None
    path = stamp_path(compute_capability, cupy_version)
    _write_json(path, summary)
    return path


def _write_json(path: str, data) -> None:
    """``data`` as JSON at ``path``, whole or absent for a reader."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    partial = f"{path}.{os.getpid()}"
    with open(partial, "w", encoding="utf-8") as file:
        json.dump(data, file)
    os.replace(partial, path)


def stamped_any(cupy_version: str) -> bool:
    """Whether ``frontier warmup`` stamped the cache for any GPU with CuPy
    ``cupy_version`` and this Frontier build (a directory listing)."""
    try:
        names = os.listdir(os.path.join(cache_dir(), STAMPS))
    except OSError:
        return False
    return stamps_kept() and bool(fnmatch.filter(names, _stamp_name("*", cupy_version)))


#: Where Linux's NVIDIA driver lists its GPUs, one directory each.
NVIDIA_GPUS = "/proc/driver/nvidia/gpus"


def driver_lists_gpu() -> bool | None:
    """Whether the NVIDIA driver lists a GPU (:data:`NVIDIA_GPUS`), without
    ``cuInit``, which took 0.19-0.25 s of a first call on an H200 host;
    False also where ``CUDA_VISIBLE_DEVICES`` hides every GPU. None where
    the listing is absent (another system, or a container without it):
    only the driver can tell."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None and visible.split(",")[0].strip() in ("", "-1"):
        return False
    try:
        return bool(os.listdir(NVIDIA_GPUS))
    except OSError:
        return None


def first_gpu() -> tuple[str, str] | None:
    """``(compute capability, CuPy version)`` of the first GPU, as the CUDA
    driver sees it (``CUDA_VISIBLE_DEVICES`` applies), learnt without
    importing CuPy or creating a CUDA context; None without CuPy, a driver
    or a GPU."""
    version = cupy_version()
    capability = None if version is None else compute_capability()
    return None if capability is None else (capability, version)


#: The file in the stamps' directory that gives the compute capability of
#: each GPU model a warm-up saw (``{"NVIDIA H200": "90"}``).
MODELS = "models.json"


def listed_models() -> set[str] | None:
    """The GPU models the NVIDIA driver lists (the ``Model:`` lines of
    :data:`NVIDIA_GPUS`' ``information`` files, e.g. ``"NVIDIA H200"``);
    None where the listing is absent or names none."""
    models = set()
    try:
        for gpu in os.listdir(NVIDIA_GPUS):
            with open(os.path.join(NVIDIA_GPUS, gpu, "information"), encoding="utf-8",
                      errors="replace") as file:
                found = re.search(r"^Model:\s*(.+?)\s*$", file.read(), re.MULTILINE)
            if found:
                models.add(found.group(1))
    except OSError:
        return None
    return models or None


def _models_path() -> str:
    return os.path.join(cache_dir(), STAMPS, MODELS)


def remember_model(capability: str) -> None:
    """After a warm-up for GPUs of ``capability``: where every GPU the driver
    lists is of one model, record that model's capability, so that
    :func:`compute_capability` can tell it without the driver (on a machine
    with several models, a listing does not say which is CUDA's first)."""
    models = listed_models()
    if not stamps_kept() or models is None or len(models) != 1:
        return
    known = _known_models()
    known[models.pop()] = capability
    _write_json(_models_path(), known)


def _known_models() -> dict:
    try:
        with open(_models_path(), encoding="utf-8") as file:
            known = json.load(file)
    except (OSError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


def compute_capability() -> str | None:
    """The compute capability of CUDA's first GPU: from :data:`MODELS`
    where the driver lists GPUs of one model only and a warm-up recorded it
    (a few file reads), else from the driver
    (:func:`driver_compute_capability`: ``cuInit``, 0.19-0.25 s on an H200
    host)."""
    models = listed_models()
    if models is not None and len(models) == 1:
        known = _known_models().get(next(iter(models)))
        if isinstance(known, str) and known.isdigit():
            return known
    return driver_compute_capability()


def stamped(gpu: tuple[str, str] | None = None) -> bool:
    """Whether ``frontier warmup`` finished for the first GPU with this CuPy
    and this Frontier build (False without a GPU, or without a disk cache);
    ``gpu``: :func:`first_gpu`'s answer, where the caller has it already."""
    gpu = gpu or first_gpu()
    return gpu is not None and stamps_kept() and os.path.exists(stamp_path(*gpu))


@functools.cache
def cupy_version() -> str | None:
    """CuPy's version from its ``_version.py``, without importing CuPy."""
    spec = importlib.util.find_spec("cupy")
    if spec is None or not spec.submodule_search_locations:
        return None
    try:
        text = Path(spec.submodule_search_locations[0], "_version.py").read_text()
    except OSError:
        return None
    found = re.search(r"__version__\s*=\s*['\"]([^'\"]+)['\"]", text)
    return found.group(1) if found else None


@functools.cache
def driver_compute_capability() -> str | None:
    """The compute capability of CUDA device 0 from the driver library
    (``cuInit`` and two attributes: no context), e.g. ``"90"``; None when
    there is no driver or no device."""
    try:
        driver = ctypes.CDLL("nvcuda.dll" if sys.platform == "win32" else "libcuda.so.1")
    except OSError:
        return None
    device, count = ctypes.c_int(), ctypes.c_int()
    major, minor = ctypes.c_int(), ctypes.c_int()
    if (driver.cuInit(0) or driver.cuDeviceGetCount(ctypes.byref(count)) or count.value < 1
            or driver.cuDeviceGet(ctypes.byref(device), 0)
            or driver.cuDeviceGetAttribute(ctypes.byref(major), _MAJOR, device)
            or driver.cuDeviceGetAttribute(ctypes.byref(minor), _MINOR, device)):
        return None
    return f"{major.value}{minor.value}"


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
