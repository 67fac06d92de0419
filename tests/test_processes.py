"""``workers="processes"``: the pairwise pipe exchange, parts kept by the
workers, and failures on any rank reaching the caller (the answers
themselves are checked against one device in test_multi_device.py)."""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
import warnings
from dataclasses import dataclass

import numpy as np
import pytest

import frontier as fr
from frontier.device import resolve_devices
from frontier.multi import processes
from primitives import bfs

LINE = fr.Graph.from_edges(np.arange(11), np.arange(1, 12), device="cpu")


@pytest.mark.parametrize("size", range(1, 10))
def test_each_round_pairs_ranks_and_each_pair_meets_once(size):
    rounds = [list(processes._partners(rank, size)) for rank in range(size)]
    met = set()
    for rank, partners in enumerate(rounds):
        assert sorted(partners) == [peer for peer in range(size) if peer != rank]
        for peer in partners:
            met.add(frozenset((rank, peer)))
    assert len(met) == size * (size - 1) // 2
    # in the order both walk their rounds, each meets its partner at the same step
    for rank in range(size):
        for peer in rounds[rank]:
            assert rank ^ peer == peer ^ rank  # the round is rank ^ peer on both sides


def test_large_messages_cross_without_deadlock():
    """Three ranks (threads here) swap 8 MB arrays, far over a pipe's buffer."""
    size = 3
    ends = [[None] * size for _ in range(size)]
    for low in range(size):
        for high in range(low + 1, size):
            ends[low][high], ends[high][low] = multiprocessing.Pipe(duplex=True)
    received: list = [None] * size

    def rank_work(rank):
        comm = processes.PipeCommunicator(rank, fr.get_device("cpu"), ends[rank])
        messages = [[np.full(1 << 20, 10 * rank + peer, dtype=np.int64)] for peer in range(size)]
        received[rank] = comm.alltoall(messages)
        assert comm.allreduce(rank, "sum") == 3
        assert comm.allreduce_each([rank, rank, rank], ["sum", "min", "max"]) == [3, 0, 2]

    threads = [threading.Thread(target=rank_work, args=(rank,)) for rank in range(size)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    for rank in range(size):
        for sender in range(size):
            assert (received[rank][sender][0] == 10 * sender + rank).all()


@dataclass
class _Depth(fr.Result):
    depth: object


class _FailsOnTheLastDevice(fr.Primitive):
    """Raises in its first step on the device that owns the last vertex."""

    communicate = {"depth": "max"}
    how = "raise"

    def setup(self):
        self.depth = self.vertex_array(-1, np.int32)
        self.mine = self.num_vertices - 1 in self.vertex_ids().tolist()

    def initial_frontier(self):
        return self.frontier_of([])

    def step(self, frontier, iteration):
        if self.mine and iteration == 1:
            if self.how == "exit":
                os._exit(3)
            raise ArithmeticError("the last device failed")
        return frontier

    def converged(self, frontier, iteration):
        return iteration >= 3

    def result(self):
        return _Depth(self.depth)


class _ExitsOnTheLastDevice(_FailsOnTheLastDevice):
    how = "exit"


def _owned_by_a_worker():
    """Options under which only the last vertex's owner, a worker process,
    holds a slot for it (and only rank 0, here, one for vertex 0)."""
    return {"devices": 3, "partition": "contiguous", "duplication": "one_hop",
            "workers": "processes"}


def test_a_workers_error_reaches_the_caller_and_the_next_run_works():
    with pytest.raises(ArithmeticError, match="the last device failed") as caught:
        fr.enact(_FailsOnTheLastDevice, LINE, **_owned_by_a_worker())
    notes = "\n".join(getattr(caught.value, "__notes__", []))
    if hasattr(caught.value, "add_note"):
        assert "worker process rank 2 (cpu:2)" in notes and "in step" in notes
    depth = bfs(LINE, 0, devices=3, partition="contiguous", workers="processes").depth
    np.testing.assert_array_equal(depth, np.arange(12))


def test_the_callers_own_error_stops_the_workers():
    class _Local(_FailsOnTheLastDevice):  # not picklable, and failing here
        pass

    with pytest.raises(TypeError, match="picklable"):
        fr.enact(_Local, LINE, **_owned_by_a_worker())
    pool = processes.pool_for([fr.get_device(f"cpu:{i}") for i in range(3)])
    assert not pool.closed  # refused before any worker was asked
    with pytest.raises(ArithmeticError, match="the first device failed"):
        fr.enact(_FailsHere, LINE, **_owned_by_a_worker())
    assert pool.closed and not any(process.is_alive() for process in pool.processes)


class _FailsHere(_FailsOnTheLastDevice):
    """Raises on the device that owns vertex 0 (rank 0 under "contiguous")."""

    def setup(self):
        super().setup()
        self.mine = 0 in self.vertex_ids().tolist()

    def step(self, frontier, iteration):
        if self.mine and iteration == 1:
            raise ArithmeticError("the first device failed")
        return frontier


def test_a_worker_that_dies_is_reported_with_its_exit_code():
    with pytest.raises(processes.WorkerError, match=r"cpu:2 ended \(exit code 3"):
        fr.enact(_ExitsOnTheLastDevice, LINE, **_owned_by_a_worker())
    np.testing.assert_array_equal(
        bfs(LINE, 0, devices=3, workers="processes").depth, np.arange(12))


def test_workers_keep_parts_until_the_graph_releases_them():
    G = fr.generators.kronecker(8, 8, seed=4, device="cpu")
    first = bfs(G, 1, devices=2, workers="processes")
    assert first.partition["workers"] == "processes"
    (key, (_, _, remote)), = G._parts.items()
    pool = remote.pool
    np.testing.assert_array_equal(bfs(G, 1, devices=2, workers="processes").depth, first.depth)
    assert G._parts[key][2] is remote  # reused, not sent again
    token = remote.token
    del remote
    G.release_parts()
    gc.collect()
    assert token in pool._forgotten
    bfs(G, 1, devices=2, workers="processes")  # tells the worker, then places anew
    assert token not in pool._forgotten


def test_processes_are_refused_where_they_cannot_apply():
    with pytest.raises(ValueError, match="workers="):
        bfs(LINE, 0, devices=2, workers="fibres")
    with pytest.raises(ValueError, match="workers='processes'"):
        bfs(LINE, 0, devices="mpi", workers="processes")


def test_a_script_without_the_main_guard_is_told_why_its_workers_fail(tmp_path):
    import subprocess
    import sys

    script = tmp_path / "no_guard.py"
    script.write_text("import frontier as fr\nfrom primitives import bfs\n"
                      "G = fr.Graph.from_edges([0, 1], [1, 2], device='cpu')\n"
                      "bfs(G, 0, devices=2, workers='processes')\n")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)
    assert run.returncode != 0
    assert "WorkerError" in run.stderr and 'if __name__ == "__main__":' in run.stderr


def _fresh_pools(devices):
    """Close any pool for ``devices``, so that the next run starts one."""
    pool = processes._POOLS.pop(tuple(resolve_devices(devices)), None)
    if pool is not None:
        pool.close()


def test_virtual_devices_shared_by_processes_say_nothing():
    _fresh_pools(["cpu:1", "cpu:1"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert bfs(LINE, 0, devices=["cpu:1", "cpu:1"], workers="processes").iterations == 12


@pytest.mark.gpu
def test_processes_sharing_a_gpu_are_warned_once_per_pool():
    """Each process holds a CUDA context of its own, which the GPU runs in
    turns: a run is told to take threads instead, once per worker pool."""
    devices = ["cuda:0", "cuda:0"]
    _fresh_pools(devices)
    G = fr.Graph.from_edges(np.arange(11), np.arange(1, 12), device="cuda:0")
    with pytest.warns(RuntimeWarning, match="workers='threads' for parts sharing a GPU"):
        first = bfs(G, 0, devices=devices, workers="processes")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = bfs(G, 0, devices=devices, workers="processes")
    np.testing.assert_array_equal(fr.to_numpy(first.depth), fr.to_numpy(again.depth))
