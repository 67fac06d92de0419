"""How close PageRank's pull is to the gathers it cannot avoid, on one GPU.

On a Kronecker graph, times (CUDA events, median of 20 after three warm-up
runs, ``frontier.bench.measure.median_ms``):

* the gather floor: every in-edge's neighbour value read once
  (``values[sources[e]]`` for all arcs, float64), summed per thread, with no
  per-vertex bookkeeping: the reads any pull must make, in the graph's own
  order, so its cache hits are the graph's;
* the same with the values as float32 (half the table);
* ``fr.neighbor_reduce(G, SourceValue(values), "sum")``: the fused
  ``gather_sum`` that PageRank's iteration runs.

    python benchmarks/gather_floor.py [SCALE]        # default 24
"""

from __future__ import annotations

import functools
import sys

import cupy as cp
import numpy as np

import frontier as fr
from frontier.bench.measure import median_ms

_GATHER = r"""
template <typename T>
__global__ void gather_all(const int* sources, long long count, const T* values, T* sink) {
    T sum = 0;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += stride)
        sum += values[sources[e]];
    if (sum == (T)-1) sink[0] = sum;
}
"""


def main(scale: int = 24) -> None:
    gpu = fr.get_device("cuda:0")
    G = fr.generators.kronecker(scale, 16, seed=0, device=gpu)
    sources = G.in_edges().sources
    if sources.dtype != np.int32:
        raise SystemExit(f"expected int32 vertex ids, got {sources.dtype}")
    module = cp.RawModule(code=_GATHER, options=("-std=c++17",),
                          name_expressions=["gather_all<double>", "gather_all<float>"])
    blocks = cp.cuda.Device().attributes["MultiProcessorCount"] * 8
    values = cp.random.default_rng(0).random(G.num_vertices)
    print(f"{G} on {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
    for name, table in (("double", values), ("float", values.astype(np.float32))):
        sink = cp.zeros(1, dtype=table.dtype)
        kernel = module.get_function(f"gather_all<{name}>")
        ms = median_ms(gpu, functools.partial(kernel, (blocks,), (256,),
                                         (sources, np.int64(len(sources)), table, sink)))
        print(f"gather floor, {name} values: {ms:.3f} ms "
              f"({len(sources) / ms / 1e6:.1f} G gathers/s)")
    functor = fr.functors.SourceValue(values)
    ms = median_ms(gpu, lambda: fr.neighbor_reduce(G, functor, "sum"))
    print(f"neighbor_reduce(SourceValue, sum), float64: {ms:.3f} ms "
          f"({len(sources) / ms / 1e6:.1f} G edges/s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 24)
