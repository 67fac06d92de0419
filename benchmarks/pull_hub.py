"""A pull level whose work is one hub: its in-edges scanned by one thread,
by one warp, or spread over the grid (the default for a hub).

Vertex 0 has ``2**SCALE`` in-edges and its only frontier in-neighbour is the
last of them; every other vertex is visited. One BFS pull advance (the fused
kernels) is timed with CUDA events, median of 20 after a warm-up
(``frontier.bench.measure.median_ms``), for each way of scanning.

    python benchmarks/pull_hub.py [SCALE]        # default 22
"""

from __future__ import annotations

import sys
from unittest import mock

import numpy as np

import frontier as fr
from frontier.bench.measure import median_ms
from frontier.operators import fused


def main(scale: int = 22) -> None:
    count = 1 << scale
    G = fr.Graph.from_edges(np.arange(1, count + 1), np.zeros(count, dtype=np.int64),
                            directed=True, device="cuda:0")
    G.in_edges()
    frontier = fr.Frontier.from_ids([count], G.num_vertices, G.device)

    def pull():
        labels = G.xp.zeros(G.num_vertices, dtype=np.int32)
        labels[0] = -1
        out = fr.advance(G, frontier, fr.functors.ClaimUnvisited(labels, 1), direction="pull")
        assert out.size == 1 and int(labels[0]) == 1
        return out

    never = 1 << 62
    for label, warp_min, hub_min in (("the grid (default)", fused.WARP_PULL_MIN,
                                      fused.HUB_PULL_MIN),
                                     ("one warp", fused.WARP_PULL_MIN, never),
                                     ("one thread", never, never)):
        with mock.patch.multiple(fused, WARP_PULL_MIN=warp_min, HUB_PULL_MIN=hub_min):
            ms = median_ms(G.device, pull, warmup=1)
        print(f"hub with {count:,} in-edges scanned by {label}: {ms:.3f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 22)
