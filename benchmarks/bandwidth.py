"""Memory ceilings, timed with CUDA events (median of 20 after three
warm-up runs, ``frontier.bench.measure.median_ms``):

* the device-to-device copy rate, counted as bytes read plus bytes written;
* random reads: 2^28 loads from a table at uniformly random positions (the
  positions streamed from an index array), per second, for tables the size
  of the random reads the traversal kernels make: a visited bitmap (4-byte
  words, 2 MiB at 2^24 vertices), int32 labels and float64 values of 2^24
  and 2^26 vertices. One load fetches a 32-byte sector, so this is the
  ceiling of a kernel that makes one random read per edge.

    python benchmarks/bandwidth.py [GiB]
"""

import functools
import sys

import cupy as cp

import frontier as fr
from frontier.bench.measure import median_ms

GPU = fr.get_device("cuda:0")

# Each thread XORs the entries it loads; the sink is written only if the
# result is impossible, so the loads cannot be dropped and nothing is stored.
_RANDOM_READS = r"""
template <typename T>
__global__ void random_reads(const unsigned int* positions, long long count, const T* table,
                             T* sink) {
    T mixed = 0;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        mixed ^= table[positions[i]];
    if (mixed == (T)0x5eed5eed) sink[0] = mixed;
}
"""
#: (label, table entries, dtype): the random-read tables measured
TABLES = (("bitmap words, 2 MiB", 1 << 19, cp.uint32),
          ("int32, 64 MiB", 1 << 24, cp.uint32),
          ("float64, 128 MiB", 1 << 24, cp.uint64),
          ("int32, 256 MiB", 1 << 26, cp.uint32),
          ("float64, 512 MiB", 1 << 26, cp.uint64))


def copy_bandwidth(gib: float = 4.0, repeat: int = 20) -> float:
    """Device copy rate in bytes per second (read + write)."""
    count = int(gib * 2**30) // 8
    source = cp.random.default_rng(0).random(count)
    target = cp.empty_like(source)

    def copy():
        target[...] = source

    seconds = median_ms(GPU, copy, repeat) / 1e3
    assert bool((target == source).all())
    return 2 * source.nbytes / seconds


@functools.cache
def _random_reads_module():
    return cp.RawModule(code=_RANDOM_READS, options=("-std=c++17",),
                        name_expressions=["random_reads<unsigned int>",
                                          "random_reads<unsigned long long>"])


def random_read_rate(entries: int, dtype, count: int = 1 << 28) -> float:
    """Loads per second from a table of ``entries`` at random positions."""
    name = "random_reads<unsigned int>" if dtype == cp.uint32 else \
        "random_reads<unsigned long long>"
    kernel = _random_reads_module().get_function(name)
    positions = cp.random.RandomState(1).randint(0, entries, size=count,
                                                 dtype=cp.int32).view(cp.uint32)
    table = cp.arange(entries, dtype=dtype)
    sink = cp.zeros(1, dtype=dtype)
    blocks = cp.cuda.Device().attributes["MultiProcessorCount"] * 8
    launch = functools.partial(kernel, (blocks,), (256,), (positions, cp.int64(count), table, sink))
    return count / (median_ms(GPU, launch) / 1e3)


if __name__ == "__main__":
    gib = float(sys.argv[1]) if len(sys.argv) > 1 else 4.0
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"device copy, {gib:g} GiB on {name}: {copy_bandwidth(gib) / 1e12:.2f} TB/s "
          "(read + write)")
    for label, entries, dtype in TABLES:
        rate = random_read_rate(entries, dtype)
        print(f"random reads from a table of {label}: {rate / 1e9:.1f} G loads/s "
              f"({rate * 32 / 1e12:.2f} TB/s in 32-byte sectors)")
