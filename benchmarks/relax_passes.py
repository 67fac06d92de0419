"""SSSP's fused relax on one GPU: what each of its two passes costs.

On a Kronecker graph with Graph500 weights, one advance of ``RelaxMin`` over
every arc (all vertices in the frontier), from two distance states:

* the final distances from the hub (nothing improves: pass 1 alone, the
  reads of every arc);
* the same with half the vertices raised by 64 (millions improve: pass 1's
  atomics, and with a predecessor array the second pass, which walks the
  frontier's arcs again to give each improved vertex its predecessor).

Times are CUDA-event medians of 10 after a warm-up, with the copy of the
state (and the predecessor fill) subtracted.

    python benchmarks/relax_passes.py [SCALE]        # default 24
"""

from __future__ import annotations

import sys

import cupy as cp
import numpy as np

import frontier as fr
from frontier.bench.measure import median_ms
from primitives import sssp


def main(scale: int = 24) -> None:
    gpu = fr.get_device("cuda:0")
    G = fr.generators.kronecker(scale, 16, seed=0, weights=(1, 64), device=gpu)
    root = int(fr.to_numpy(G.out_degree()).argmax())
    final = sssp(G, source=root).distance
    everyone = fr.Frontier.all(G.num_vertices, G.device)
    raised = final + 64.0 * (cp.random.default_rng(1).random(G.num_vertices) < 0.5)
    n = G.num_vertices

    def relax(state, with_predecessor: bool):
        def call():
            distance = state.copy()
            predecessor = cp.full(n, -1, dtype=np.int32) if with_predecessor else None
            return fr.advance(G, everyone, fr.functors.RelaxMin(distance, predecessor))
        return call

    copy = median_ms(gpu, lambda: state_copies(final, n), repeat=10, warmup=1)
    print(f"{G}: {G.num_arcs:,} arcs; copying the state and filling the predecessors "
          f"takes {copy:.3f} ms")
    for label, state in (("final distances", final), ("half raised by 64", raised)):
        improved = relax(state, False)().size
        for with_predecessor in (False, True):
            ms = median_ms(gpu, relax(state, with_predecessor), repeat=10, warmup=1) - copy
            print(f"{label} ({improved:,} improve), predecessor={with_predecessor}: "
                  f"{ms:.3f} ms")


def state_copies(distance, n: int):
    return distance.copy(), cp.full(n, -1, dtype=np.int32)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 24)
