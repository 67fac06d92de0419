"""A graph that no device holds whole: built as parts, one per device.

``fr.generators.kronecker_parts`` has every device generate the Kronecker
edge stream and keep only the arcs of the vertices it owns (random
partition); ``fr.read_parts`` does the same from a ``.fgb`` file, each device
reading its rows from the memory map. Any primitive then runs on the parts,
and the answers are those of the graph built whole, which this script checks
at a size where the whole graph still fits:

    python examples/distributed_graph.py [--scale 16] [--devices 2]

``--devices K`` takes K GPUs when there are that many, else K virtual CPU
devices. Under MPI, ``devices="mpi"`` builds each rank's part on its rank
(docs/mpi.md).
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import numpy as np

import frontier as fr
from primitives import bfs, pagerank


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=16)
    parser.add_argument("--devices", type=int, default=2)
    args = parser.parse_args()
    scale = 10 if os.environ.get("FRONTIER_EXAMPLE_SMALL") else args.scale

    parts = fr.generators.kronecker_parts(scale, devices=args.devices)
    print(parts)
    print(parts.layout)
    whole = fr.generators.kronecker(scale, device=parts.devices[0])
    source = int(np.argmax(parts.degree()))  # the hub: degrees come from the parts

    on_parts, on_whole = bfs(parts, source), bfs(whole, source)
    same_depth = np.array_equal(fr.to_numpy(on_parts.depth), fr.to_numpy(on_whole.depth))
    print(f"bfs from {source}: {on_parts.iterations} levels on {len(parts.devices)} parts, "
          f"depths equal to the whole graph's: {same_depth}")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"kronecker-{scale}.fgb"
        fr.write_graph(whole, path)
        read = fr.read_parts(path, devices=args.devices)
        ranks = fr.to_numpy(pagerank(read).rank)
    gap = float(np.abs(ranks - fr.to_numpy(pagerank(whole).rank)).max())
    print(f"pagerank on parts read from {path.name}: largest difference from the whole "
          f"graph's {gap:.1e}")
    if not same_depth or gap > 1e-9:
        raise SystemExit("the parts disagree with the whole graph")
    print("same answers on the parts and on the whole graph")


if __name__ == "__main__":
    main()
