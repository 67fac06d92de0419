"""The host cost of one traversal level on a GPU, taken apart.

A level of a long, thin traversal (a road network, a grid) is host work: one
kernel launch, one read of the output count, and Python around them. This
times, in microseconds per level (median of 5 runs of 2,000 levels):

* ``read``: an 8-byte device-to-host read into pinned memory and a stream
  synchronization (``workspace.read_last``);
* ``launch``: one launch of a one-thread kernel with ten arguments;
* ``launch+read``: both, the floor of a level with one launch and one read;
* ``empty+slice``: allocating an output buffer and slicing it to its count;
* variants: the read through the runtime's calls alone, a launch with two
  arguments, a launch through the driver with a parameter block built once,
  the small lookups a level makes (the current device, a counter slice), a
  gather by indexing and by ``take``, an allocation by ``cupy.empty`` and by
  the ``ndarray`` constructor;
* ``bfs path`` / ``bfs grid``: a whole BFS, per level (1 x 20000, 512 x 512).

    python benchmarks/level_floor.py
"""

from __future__ import annotations

import ctypes
import statistics
import time

import numpy as np

import frontier as fr
from frontier.kernels import workspace

LEVELS = 2000
_SOURCE = r"""
extern "C" __global__ void touch(const long long* a, const int* b, const int* c,
        long long n, int d, int* e, int f, long long* g, int* h,
        unsigned long long* count) {
    if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(count, 1ull);
}
"""
_FEW = r"""
extern "C" __global__ void few(unsigned long long* count, long long n) {
    if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(count, 1ull);
}
"""


def per_level(body, levels: int = LEVELS) -> float:
    """Median microseconds per call of ``body`` over 5 runs of ``levels`` calls."""
    import cupy

    runs = []
    for _ in range(6):
        cupy.cuda.get_current_stream().synchronize()
        start = time.perf_counter()
        for _ in range(levels):
            body()
        cupy.cuda.get_current_stream().synchronize()
        runs.append((time.perf_counter() - start) / levels * 1e6)
    return statistics.median(runs[1:])


def main() -> None:
    import cupy
    import cupyx

    touch = cupy.RawModule(code=_SOURCE).get_function("touch")
    counter = cupy.zeros(1, dtype=np.uint64)
    a, b = cupy.zeros(8, dtype=np.int64), cupy.zeros(8, dtype=np.int32)
    args = (a, b, b, np.int64(1), np.int32(1), b, np.int32(1), a, b, counter)

    def launch():
        touch((1,), (32,), args)

    def read():
        workspace.read_last(counter)

    def launch_read():
        launch()
        read()

    def empty_slice():
        cupy.empty(1024, dtype=np.int32)[:7]

    stream = cupy.cuda.get_current_stream()
    host = cupyx.empty_pinned(1, dtype=np.uint64)

    def read_runtime():
        cupy.cuda.runtime.memcpyAsync(host.ctypes.data, counter.data.ptr, 8,
                                      cupy.cuda.runtime.memcpyDeviceToHost, stream.ptr)
        cupy.cuda.runtime.streamSynchronize(stream.ptr)
        return int(host[0])

    few = (counter, np.int64(1))
    few_kernel = cupy.RawModule(code=_FEW).get_function("few")

    def launch_few():
        few_kernel((1,), (32,), few)

    # the driver's launch with a parameter block built once: ten 8-byte slots
    block = (ctypes.c_uint64 * 10)(*[int(x.data.ptr) if hasattr(x, "data") and
                                     hasattr(x.data, "ptr") else int(x) for x in args])
    pointers = (ctypes.c_void_p * 10)(*[ctypes.addressof(block) + 8 * i for i in range(10)])
    function = touch.kernel.ptr
    block_pointer = ctypes.addressof(pointers)

    def launch_driver():
        block[3] = 1  # one argument set per launch, as a level would
        cupy.cuda.driver.launchKernel(function, 1, 1, 1, 32, 1, 1, 0, stream.ptr,
                                      block_pointer, 0)

    def device_id():
        return cupy.cuda.Device().id

    def runtime_device():
        return cupy.cuda.runtime.getDevice()

    ring = cupy.zeros(1024, dtype=np.uint64)

    def ring_slice():
        return ring[5:6]

    table = cupy.arange(1 << 16, dtype=np.float64)
    positions = cupy.arange(0, 1 << 16, 7, dtype=np.int32)

    def gather_index():
        return table[positions]

    def gather_take():
        return table.take(positions)

    def allocate_empty():
        return cupy.empty(1024, dtype=np.int32)

    def allocate_ndarray():
        return cupy.ndarray((1024,), dtype=np.int32)

    rows = [("read", per_level(read)), ("read, runtime calls", per_level(read_runtime)),
            ("launch", per_level(launch)), ("launch, 2 arguments", per_level(launch_few)),
            ("launch, driver, block built once", per_level(launch_driver)),
            ("launch+read", per_level(launch_read)), ("empty+slice", per_level(empty_slice)),
            ("cupy.cuda.Device().id", per_level(device_id)),
            ("cupy.cuda.runtime.getDevice()", per_level(runtime_device)),
            ("slice of a counter ring", per_level(ring_slice)),
            ("gather values[ids]", per_level(gather_index)),
            ("gather values.take(ids)", per_level(gather_take)),
            ("cupy.empty", per_level(allocate_empty)),
            ("cupy.ndarray", per_level(allocate_ndarray))]
    from primitives import bfs

    for label, rows_, cols in (("bfs path", 1, 20_000), ("bfs grid", 512, 512)):
        G = fr.generators.grid(rows_, cols, device="cuda:0")
        bfs(G, 0)
        times = []
        for _ in range(5):
            cupy.cuda.get_current_stream().synchronize()
            start = time.perf_counter()
            result = bfs(G, 0)
            cupy.cuda.get_current_stream().synchronize()
            times.append((time.perf_counter() - start) / result.iterations * 1e6)
        rows.append((f"{label} ({result.iterations} levels)", statistics.median(times)))
    print(f"{'us per level':>13}  what")
    for label, us in rows:
        print(f"{us:13.2f}  {label}")


if __name__ == "__main__":
    main()
