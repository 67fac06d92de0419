"""Clear out-of-memory errors for device allocations."""

from __future__ import annotations

import contextlib
import re

from .device import Device


class DeviceMemoryError(MemoryError):
    """A device allocation failed; the message says how much was asked for,
    how much the device had free, and what was being done."""


def _gib(nbytes: float) -> str:
    return f"{nbytes / 2**30:.2f} GiB"


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
            f"{_gib(free)} of {_gib(total)} free (CuPy pool held {_gib(pool.total_bytes())})"
        ) from error
