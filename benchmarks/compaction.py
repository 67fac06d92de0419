"""Stream compaction on one GPU: frontier.kernels.compact against CuPy.

    python benchmarks/compaction.py [--sizes 23,26] [--repeat 30]

For masks of 2^k entries (1 in 1000 and 1 in 2 set): microseconds per call of
``cupy.flatnonzero(mask)`` and ``compact.flatnonzero(mask)`` (byte-per-thread
loads; 16-flag loads, int64 and int32 positions), and of
``flatnonzero(unpackbits(bits)[:n])`` and ``compact.bit_positions(bits, n)``
for the packed bitmap (one flag per thread; 16; 16 told the count). Each call but the
last includes its device read (the count); the
time is the mean of ``--repeat`` calls after three warm-up calls, the device
synchronized around them. The bytes a call must read are the mask (n) or the
bitmap (n / 8).
"""

from __future__ import annotations

import argparse
import functools
import time

import cupy

from frontier.kernels import compact


def per_call_us(function, repeat: int) -> float:
    for _ in range(3):
        function()
    cupy.cuda.Device().synchronize()
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    cupy.cuda.Device().synchronize()
    return (time.perf_counter() - start) / repeat * 1e6


def with_vector_loads(on: bool, function, *args, **kwargs):
    """``function(*args)`` with the 16-flag kernels on or off."""
    before, compact.VECTOR_LOADS = compact.VECTOR_LOADS, on
    try:
        return function(*args, **kwargs)
    finally:
        compact.VECTOR_LOADS = before


def unpacked_positions(bits, n: int):
    """CuPy's way to the set bits of a bitmap: unpack, then flatnonzero."""
    return cupy.flatnonzero(cupy.unpackbits(bits)[:n])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="23,26", help="exponents k of 2^k entries")
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print("| entries | set | cupy.flatnonzero | compact, bytes | compact, 16 flags | "
          "compact, 16 flags, int32 | cupy unpack+flatnonzero | bit_positions, bytes | "
          "bit_positions, 16 flags | 16 flags, count given |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for exponent in (int(k) for k in args.sizes.split(",")):
        n = 1 << exponent
        for density in (0.001, 0.5):
            mask = cupy.random.default_rng(0).random(n) < density
            bits = cupy.packbits(mask)
            want = cupy.flatnonzero(mask)
            for got in (with_vector_loads(False, compact.flatnonzero, mask),
                        with_vector_loads(True, compact.flatnonzero, mask),
                        with_vector_loads(True, compact.flatnonzero, mask, cupy.int32),
                        with_vector_loads(False, compact.bit_positions, bits, n),
                        compact.bit_positions(bits, n),
                        compact.bit_positions(bits, n, count=len(want))):
                if not cupy.array_equal(got, want):
                    raise AssertionError(f"compaction differs from cupy.flatnonzero at "
                                         f"2^{exponent}")
            calls = [functools.partial(cupy.flatnonzero, mask),
                     functools.partial(with_vector_loads, False, compact.flatnonzero, mask),
                     functools.partial(with_vector_loads, True, compact.flatnonzero, mask),
                     functools.partial(with_vector_loads, True, compact.flatnonzero, mask,
                                       cupy.int32),
                     functools.partial(unpacked_positions, bits, n),
                     functools.partial(with_vector_loads, False, compact.bit_positions, bits, n),
                     functools.partial(compact.bit_positions, bits, n),
                     functools.partial(compact.bit_positions, bits, n, count=len(want))]
            times = [per_call_us(call, args.repeat) for call in calls]
            print(f"| 2^{exponent} | {density:g} | " + " | ".join(f"{t:.0f} us" for t in times)
                  + " |", flush=True)


if __name__ == "__main__":
    main()
