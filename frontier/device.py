"""Devices and their array namespaces.

A device is named ``"cpu"``, ``"cpu:K"`` (a virtual CPU device, for multi-device
runs on one machine) or ``"cuda:N"``. Each device has an ``xp`` namespace:
NumPy for CPU devices, CuPy for CUDA devices. CuPy is optional: without it (or
without a GPU) everything runs on NumPy, silently.

The default device is the first GPU when CuPy sees one, else ``cpu``; the
environment variable ``FRONTIER_DEVICE`` overrides it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
from dataclasses import dataclass
from types import ModuleType

import numpy as np

_DEVICE_NAME = re.compile(r"^(cpu|cuda)(?::(\d+))?$")


@functools.cache
def _cupy() -> ModuleType | None:
    """CuPy if it imports and sees at least one GPU, else None (no warnings)."""
    try:
        import cupy
    except Exception:
        return None
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None
    except Exception:
        return None
    return cupy


def gpu_count() -> int:
    """Number of CUDA GPUs CuPy sees (0 without CuPy)."""
    cupy = _cupy()
    return 0 if cupy is None else int(cupy.cuda.runtime.getDeviceCount())


@dataclass(frozen=True)
class Device:
    """A compute device: ``kind`` is ``"cpu"`` or ``"cuda"``, ``index`` its number."""

    kind: str
    index: int = 0

    @property
    def name(self) -> str:
        if self.kind == "cpu" and self.index == 0:
            return "cpu"
        return f"{self.kind}:{self.index}"

    @property
    def is_gpu(self) -> bool:
        return self.kind == "cuda"

    @property
    def xp(self) -> ModuleType:
        """The array namespace of this device (NumPy or CuPy)."""
        if self.kind == "cpu":
            return np
        return _cupy()

    def activate(self):
        """A context manager making this device current (a no-op on the CPU)."""
        if self.is_gpu:
            return _cupy().cuda.Device(self.index)
        return contextlib.nullcontext()

    def asarray(self, values, dtype=None):
        """``values`` (NumPy, CuPy or a sequence) as an array on this device; no copy
        is made when they are already there with the right dtype."""
        if self.kind == "cpu":
            return np.asarray(to_numpy(values), dtype=dtype)
        with _cupy().cuda.Device(self.index):
            return _cupy().asarray(values, dtype=dtype)

    def synchronize(self) -> None:
        """Wait for all queued work on this device."""
        if self.is_gpu:
            with _cupy().cuda.Device(self.index):
                _cupy().cuda.get_current_stream().synchronize()

    def describe(self) -> str:
        """Human-readable name, e.g. ``cuda:0 (NVIDIA H100 80GB HBM3)``."""
        if not self.is_gpu:
            return self.name
        props = _cupy().cuda.runtime.getDeviceProperties(self.index)
        model = props["name"]
        return f"{self.name} ({model.decode() if isinstance(model, bytes) else model})"

    def __str__(self) -> str:
        return self.name


def default_device() -> Device:
    """``FRONTIER_DEVICE`` if set, else ``cuda:0`` when a GPU is visible, else ``cpu``."""
    name = os.environ.get("FRONTIER_DEVICE")
    if name:
        return get_device(name)
    return Device("cuda", 0) if gpu_count() > 0 else Device("cpu", 0)


def get_device(spec: str | Device | None = None) -> Device:
    """Resolve a device name (or ``None`` for the default) to a :class:`Device`.

    Raises
    ------
    ValueError
        If the name is not ``cpu``, ``cpu:K`` or ``cuda:N``, or names a GPU
        that is not present.
    """
    if spec is None:
        return default_device()
    if isinstance(spec, Device):
        return spec
    match = _DEVICE_NAME.match(str(spec).strip().lower())
    if match is None:
        raise ValueError(f"unknown device name {spec!r}: expected 'cpu', 'cpu:K' or 'cuda:N'")
    kind, index = match.group(1), int(match.group(2) or 0)
    if kind == "cuda" and index >= gpu_count():
        raise ValueError(
            f"device {spec!r} is not available: CuPy sees {gpu_count()} GPU(s)"
            + ("" if _cupy() is not None else " (CuPy is not installed or finds no GPU)")
        )
    return Device(kind, index)


def is_mpi(devices) -> bool:
    """Whether a ``devices=`` value asks for one device per MPI rank (``"mpi"``)."""
    return isinstance(devices, str) and devices.strip().lower() == "mpi"


def resolve_devices(devices) -> list[Device]:
    """Resolve the ``devices=`` argument of a primitive to a list of devices.

    ``None`` means the default device; an int ``K`` means K GPUs if that many
    are present, else K virtual CPU devices; a name or a list of names picks
    them explicitly. A device may be named more than once: it then holds
    several parts of the graph (``["cuda:0", "cuda:0"]``: two parts on one
    GPU, each driven on a stream of its own), which is how multi-device code
    is tested, and its overhead measured, on one GPU.

    Raises
    ------
    ValueError
        For a count below 1, an unknown or absent device, or a list mixing
        CPU and GPU devices.
    """
    if devices is None:
        return [default_device()]
    if isinstance(devices, (str, Device)):
        return [get_device(devices)]
    if isinstance(devices, (int, np.integer)) and not isinstance(devices, bool):
        count = int(devices)
        if count < 1:
            raise ValueError(f"devices={count}: need at least one device")
        if gpu_count() >= count and os.environ.get("FRONTIER_DEVICE", "cuda").startswith("cuda"):
            return [Device("cuda", i) for i in range(count)]
        return [Device("cpu", i) for i in range(count)]
    if isinstance(devices, (bool, float)) or not hasattr(devices, "__iter__"):
        raise ValueError(f"devices={devices!r}: expected None, a count, a device name "
                         "or a list of names")
    resolved = [get_device(d) for d in devices]
    if not resolved:
        raise ValueError("devices=[]: need at least one device")
    if len({device.kind for device in resolved}) > 1:
        raise ValueError(f"devices={list(devices)!r} mixes CPU and GPU devices: use cpu:K "
                         f"only, or cuda:N only (this machine has {gpu_count()} GPU(s))")
    return resolved


def shares_a_device(devices: list[Device]) -> bool:
    """Whether some device of ``devices`` is named more than once (it holds
    several parts of a multi-device run)."""
    return len(set(devices)) < len(devices)


def array_namespace(array) -> ModuleType:
    """NumPy or CuPy, whichever owns ``array``. A process that has not
    imported CuPy holds no CuPy array: a list or a range is then NumPy's
    without importing CuPy and starting CUDA (about a second on a GPU host,
    which a first backend call answered on the CPU would pay)."""
    if isinstance(array, np.ndarray) or np.isscalar(array) or "cupy" not in sys.modules:
        return np
    cupy = _cupy()
    if cupy is not None and isinstance(array, cupy.ndarray):
        return cupy
    return np


def to_numpy(array):
    """Host (NumPy) copy of a NumPy or CuPy array; other values pass through np.asarray."""
    if hasattr(array, "get") and not isinstance(array, np.ndarray):
        return array.get()
    return np.asarray(array)


def device_of(array) -> Device:
    """The device an array lives on."""
    if array_namespace(array) is np:
        return Device("cpu", 0)
    return Device("cuda", int(array.device.id))
