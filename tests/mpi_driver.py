"""Run under ``mpirun -n K`` by tests/test_mpi.py: ``devices="mpi"`` against
the single-process answers, and failures that must end the whole job.

    python tests/mpi_driver.py check   # six primitives + Reach + MinLabel
    python tests/mpi_driver.py distributed   # each rank builds only its part
    python tests/mpi_driver.py raise   # rank 1 raises in its first step
    python tests/mpi_driver.py hang    # rank 1 sleeps (FRONTIER_MPI_TIMEOUT ends it)
    python tests/mpi_driver.py kill    # rank 1 kills itself with SIGKILL

``check`` prints ``checked N runs on K ranks`` on rank 0 when every answer
agrees; any disagreement aborts the job with the failed assertion.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from checks import assert_bfs_tree, assert_shortest_path_tree

import frontier as fr
from frontier.multi.mpi import INLINE_BYTES, MpiCommunicator, abort_on_error, rank_device, world
from primitives import betweenness_centrality, bfs, connected_components, dobfs, pagerank, sssp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from multi_device_primitive import MinLabel, Reach  # noqa: E402

CONVERGED = {"tol": 1e-12, "max_iter": 1000}
#: (partition, duplication, communication) of each MPI run
STRATEGIES = [("random", "all", "selective"), ("biased_random", "one_hop", "selective"),
              ("contiguous", "one_hop", "broadcast"), ("random", "all", "broadcast")]


def graphs() -> list[tuple[str, fr.Graph]]:
    """Fixed random graphs: undirected and directed, with integer weights,
    self loops, parallel edges and isolated vertices (the last 5 ids)."""
    made = []
    for seed, directed in ((1, False), (2, True), (3, False)):
        rng = np.random.default_rng(seed)
        n, m = 48, 130
        src, dst = rng.integers(0, n - 5, m), rng.integers(0, n - 5, m)
        weights = rng.integers(1, 9, m).astype(np.float64)
        graph = fr.Graph.from_edges(src, dst, weights, n, directed, device="cpu")
        made.append((f"seed {seed} {'directed' if directed else 'undirected'}", graph))
    return made


def runs(graph: fr.Graph):
    """(name, function of the enactor options) for every primitive to check."""
    source = 3
    yield "bfs", lambda **o: bfs(graph, source, **o)
    yield "dobfs", lambda **o: dobfs(graph, source, **o)
    yield "sssp", lambda **o: sssp(graph, source, **o)
    yield "cc", lambda **o: connected_components(graph, **o)
    # Sampled sources keep BC's hundreds of iterations (each a few collective
    # calls) short; the sample is seeded, so every run takes the same one.
    yield "bc", lambda **o: betweenness_centrality(graph, k=12, seed=5, **o)
    yield "bc_weighted", lambda **o: betweenness_centrality(graph, k=12, seed=5,
                                                            weight="weight", **o)
    yield "pagerank", lambda **o: pagerank(graph, **CONVERGED, **o)
    yield "reach", lambda **o: fr.enact(Reach, graph, source=source, **o)
    if not graph.directed:
        yield "min_label", lambda **o: fr.enact(MinLabel, graph, **o)


def assert_same(name: str, graph: fr.Graph, expected, actual) -> None:
    """Exact depths, distances and labels, valid trees, centralities and ranks
    within 1e-9."""
    if name in ("bfs", "dobfs"):
        np.testing.assert_array_equal(actual.depth, expected.depth)
        assert_bfs_tree(graph, 3, actual.depth, actual.predecessor)
    elif name == "sssp":
        np.testing.assert_array_equal(actual.distance, expected.distance)
        assert_shortest_path_tree(graph, 3, actual.distance, actual.predecessor)
    elif name in ("cc", "min_label"):
        np.testing.assert_array_equal(actual.labels, expected.labels)
    elif name.startswith("bc"):
        np.testing.assert_allclose(actual.centrality, expected.centrality, rtol=0, atol=1e-9)
    elif name == "pagerank":
        np.testing.assert_allclose(actual.rank, expected.rank, rtol=0, atol=1e-9)
    else:
        np.testing.assert_array_equal(actual.hops, expected.hops)
        fr.validate.graph500_bfs(graph, 3, actual.hops, actual.parent)


def check_transport(comm) -> str:
    """Arrays of every size, dtype and shape arrive intact: inline and as
    separate messages, empty, missing, and sent to oneself, on this rank's
    device (a GPU unless FRONTIER_DEVICE=cpu). Returns the transport's name."""
    communicator = MpiCommunicator(comm, rank_device(comm))
    sizes = [0, 3, INLINE_BYTES // 8 + 1, 40_000]

    def message(source: int, target: int):
        if (source + target) % 3 == 2:
            return None
        size = sizes[(source + 2 * target) % len(sizes)]
        rng = np.random.default_rng(100 * source + target)
        return [rng.integers(0, 1 << 40, size), rng.random(size) < 0.5,
                rng.random((size, 3)).astype(np.float32), np.asarray([source, target])]

    received = communicator.alltoall([message(comm.rank, peer) for peer in range(comm.size)])
    for peer, arrays in enumerate(received):
        expected = message(peer, comm.rank)
        assert (arrays is None) == (expected is None), (peer, arrays)
        for got, sent in zip(arrays or [], expected or []):
            assert got.dtype == sent.dtype and got.shape == sent.shape
            np.testing.assert_array_equal(fr.to_numpy(got), sent)
    return communicator.transport


def check(comm) -> None:
    transport = check_transport(comm)
    devices = tuple(comm.allgather(rank_device(comm).name))
    count = 0
    for number, (label, graph) in enumerate(graphs()):
        for name, run in runs(graph):
            expected = run(devices="cpu").to_numpy() if comm.rank == 0 else None
            # Two strategies per graph: the three graphs cover all four.
            strategies = STRATEGIES[number % 2::2] if number < 2 else STRATEGIES[1:3]
            for partition, duplication, communication in strategies:
                actual = run(devices="mpi", partition=partition, duplication=duplication,
                             communication=communication)
                if comm.rank != 0:
                    assert actual is None, f"rank {comm.rank} got a result"
                    continue
                assert actual.devices == devices, actual.devices
                assert actual.partition["transport"] == transport, actual.partition
                try:
                    assert_same(name, graph, expected, actual.to_numpy())
                except AssertionError as error:
                    raise AssertionError(f"{name} on {label}, {partition}/{duplication}/"
                                         f"{communication}: {error}") from None
                count += 1
    if comm.rank == 0:
        print(f"checked {count} runs on {comm.size} ranks over {transport}", flush=True)


@dataclass
class DepthResult(fr.Result):
    depth: object


class Misbehaves(fr.Primitive):
    """In its first step, the rank given by ``victim`` does ``action``."""

    communicate = {"depth": "max"}

    def setup(self):
        self.depth = self.vertex_array(-1, np.int64)

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        if world().rank == self.params["victim"]:
            action = self.params["action"]
            if action == "raise":
                raise RuntimeError("rank 1 fails on purpose")
            if action == "hang":
                time.sleep(120)
            os.kill(os.getpid(), signal.SIGKILL)
        return frontier

    def result(self):
        return DepthResult(self.depth)


def check_distributed(comm) -> None:
    """Each rank builds only its own part of a Kronecker graph, generated and
    read from a .fgb file: BFS, CC and PageRank on the parts give the whole
    graph's single-process answers."""
    whole = fr.generators.kronecker(9, 8, seed=4, device="cpu")
    path = Path(os.environ["FRONTIER_TEST_DIR"]) / "kronecker-9.fgb"
    if comm.rank == 0:
        fr.write_graph(whole, path)
    comm.barrier()
    for parts in (fr.generators.kronecker_parts(9, 8, seed=4, devices="mpi", chunk_edges=700),
                  fr.read_parts(path, devices="mpi")):
        for name, run in [("bfs", lambda G: bfs(G, 3)), ("cc", connected_components),
                          ("pagerank", lambda G: pagerank(G, **CONVERGED))]:
            actual = run(parts)
            if comm.rank == 0:
                assert actual.partition["num_parts"] == comm.size, actual.partition
                assert_same(name, whole, run(whole).to_numpy(), actual.to_numpy())
    if comm.rank == 0:
        print(f"checked distributed parts on {comm.size} ranks", flush=True)


def main(mode: str) -> None:
    comm = world()
    with abort_on_error(comm):
        if mode == "check":
            check(comm)
        elif mode == "distributed":
            check_distributed(comm)
        else:
            graph = fr.generators.grid(8, 8, device="cpu")
            fr.enact(Misbehaves, graph, devices="mpi", victim=1, action=mode)


if __name__ == "__main__":
    main(sys.argv[1])
