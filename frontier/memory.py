"""Device memory: a per-device budget, checks before allocating, and clear
out-of-memory errors.

A run may cap the memory each device uses, with ``memory_limit=`` (bytes)
or the environment variable ``FRONTIER_MEMORY_LIMIT`` (bytes, or with a
``K``/``M``/``G``/``T`` suffix). The enactor checks the graph (or a part of
it) against the budget before moving it to a device, and the graph plus the
primitive's vertex data once the primitive has allocated it, the same way on
every kind of device (the operators' temporaries are not counted). Any
failure, and a GPU's own out-of-memory error, is a :class:`DeviceMemoryError`
naming what was being allocated, how many bytes were needed, how many were
free, and what to try.
"""

from __future__ import annotations

import contextlib
import os
import re
import traceback

import numpy as np

from .device import Device

ENVIRONMENT = "FRONTIER_MEMORY_LIMIT"
_SUFFIX = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_ADVICE = "try more devices (devices=K), a larger memory_limit, or a smaller graph"


class DeviceMemoryError(MemoryError):
    """A device allocation failed or would not fit; the message says how much
    was needed, how much the device had free, and what was being done."""


def release_frames(error: BaseException) -> None:
    """Drop the local variables of the finished frames in ``error``'s
    tracebacks (and its causes'). The enactors call it for a run that ran out
    of memory: its arrays are freed now, while the caller still holds the
    error, not when a garbage collection finds the cycle through CuPy's
    error. The tracebacks still name every file and line; other errors keep
    their frames for post-mortem debugging."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        traceback.clear_frames(error.__traceback__)
        error = error.__cause__ or error.__context__


def _gib(nbytes: float) -> str:
    return f"{nbytes / 2**30:.2f} GiB"


def memory_limit(limit: int | str | None = None) -> int | None:
    """The per-device budget in bytes: ``limit`` if given, else
    ``FRONTIER_MEMORY_LIMIT``, else ``None`` (no budget).

    Raises
    ------
    ValueError
        For a value that is not a positive byte count such as ``8G``.
    """
    value = os.environ.get(ENVIRONMENT) if limit is None else limit
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"memory_limit={value!r}: expected a number of bytes")
    if isinstance(value, int):
        number = value
    else:
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", str(value), re.IGNORECASE)
        if match is None:
            raise ValueError(f"memory_limit={value!r}: expected bytes, e.g. 8000000000 or 8G")
        number = int(float(match.group(1)) * _SUFFIX[match.group(2).upper()])
    if number <= 0:
        raise ValueError(f"memory_limit={value!r}: must be positive")
    return number


def free_bytes(device: Device) -> int | None:
    """Free memory of ``device`` (a GPU's free memory plus the blocks CuPy's
    pool holds unused, the host's available memory for a CPU device; ``None``
    where it cannot be read)."""
    if device.is_gpu:
        import cupy

        with cupy.cuda.Device(device.index):
            return int(cupy.cuda.runtime.memGetInfo()[0]
                       + cupy.get_default_memory_pool().free_bytes())
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def check_fits(device: Device, needed: int, what: str, limit: int | None) -> None:
    """Raise :class:`DeviceMemoryError` if ``needed`` bytes for ``what`` pass
    the budget ``limit`` (or the device's free memory, on a GPU)."""
    if limit is None and not device.is_gpu:
        return  # the host's free memory is no budget (it grows on some machines)
    free = free_bytes(device)
    budget = limit if limit is not None else (free if device.is_gpu else None)
    if budget is None or needed <= budget:
        return
    limit_text = f", limit {_gib(limit)}" if limit is not None else ""
    free_text = f"{_gib(free)} free" if free is not None else "free memory unknown"
    raise DeviceMemoryError(
        f"{what} does not fit on {device.describe()}: needs {_gib(needed)} "
        f"({needed} bytes){limit_text}, {free_text}; {_ADVICE}")


def host_peak_bytes() -> int:
    """The largest resident memory this process has had (bytes): the host's
    share of loading or generating a graph and running on it."""
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) * (1 if sys.platform == "darwin" else 1024)  # macOS counts bytes


def distinct_array_bytes(*holders) -> int:
    """Bytes of the distinct NumPy/CuPy arrays among the holders' attributes
    (a dict holder: its values), and among the items of the dicts, lists
    and tuples there; an array held twice counts once."""
    seen: dict[int, int] = {}

    def add(value) -> None:
        nbytes = getattr(value, "nbytes", None)  # a class has a descriptor there
        if isinstance(nbytes, int) and hasattr(value, "dtype") \
                and not isinstance(value, np.generic):
            seen[id(value)] = nbytes

    for holder in holders:
        for value in (holder.values() if isinstance(holder, dict) else vars(holder).values()):
            if isinstance(value, dict):
                value = list(value.values())
            for item in value if isinstance(value, (list, tuple)) else (value,):
                add(item)
    return sum(seen.values())


class Budget:
    """The check the enactor makes once a primitive has allocated its data:
    the graph and the primitive's arrays against the device's budget."""

    def __init__(self, device: Device, limit: int | None):
        self.device = device
        self.limit = limit

    def after_setup(self, run) -> None:
        if self.limit is not None:
            needed = run.graph.storage_bytes() + distinct_array_bytes(run)
            check_fits(self.device, needed, f"{type(run).__name__}'s graph and vertex data",
                       self.limit)


@contextlib.contextmanager
def device_memory_guard(device: Device, what: str):
    """Turn CuPy's out-of-memory error inside the block into a
    :class:`DeviceMemoryError` naming the request, the free memory and ``what``."""
    if not device.is_gpu:
        yield
        return
    import cupy

    try:
        yield
    except cupy.cuda.memory.OutOfMemoryError as error:
        match = re.search(r"allocating ([\d,]+) bytes", str(error))
        needed = int(match.group(1).replace(",", "")) if match else None
        pool = cupy.get_default_memory_pool()
        pool.free_all_blocks()
        free, total = cupy.cuda.runtime.memGetInfo()
        asked = _gib(needed) if needed is not None else "an unknown amount"
        raise DeviceMemoryError(
            f"out of memory on {device.describe()} while {what}: needed {asked} more, "
            f"{_gib(free)} of {_gib(total)} free (CuPy pool held {_gib(pool.total_bytes())}, "
            f"limit {_gib(pool.get_limit()) if pool.get_limit() else 'none'}); {_ADVICE}"
        ) from error
