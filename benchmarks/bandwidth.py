"""The memory-bandwidth ceiling: a device-to-device copy, counted as bytes
read plus bytes written, timed with CUDA events (median of 20 after warm-up).

    python benchmarks/bandwidth.py [GiB]
"""

import sys
from statistics import median

import cupy as cp


def copy_bandwidth(gib: float = 4.0, repeat: int = 20) -> float:
    """Device copy rate in bytes per second (read + write)."""
    count = int(gib * 2**30) // 8
    source = cp.random.default_rng(0).random(count)
    target = cp.empty_like(source)
    for _ in range(3):
        target[...] = source
    times = []
    for _ in range(repeat):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        target[...] = source
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) / 1e3)
    assert bool((target == source).all())
    return 2 * source.nbytes / median(times)


if __name__ == "__main__":
    gib = float(sys.argv[1]) if len(sys.argv) > 1 else 4.0
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"device copy, {gib:g} GiB on {name}: {copy_bandwidth(gib) / 1e12:.2f} TB/s "
          "(read + write)")
