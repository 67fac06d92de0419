"""Joint levels (:mod:`frontier.multi.joint_levels`): a claim's levels run
by every part at once, each level's boundary on the device, against the
output boundary after every level and against one device, on random graphs,
on virtual CPU devices and on parts sharing one GPU."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from unittest import mock

import numpy as np
import pytest
from checks import assert_bfs_tree
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists
from test_replay import CountingBFS, FilteredBFS, MislabelledBFS

import frontier as fr
from frontier.multi import joint_levels
from frontier.primitive import CHECK_VARIABLE, DeclarationError
from primitives.bfs import BFS


class Hops(fr.Primitive):
    """BFS's depths without predecessors: a claim with no follower."""

    parameters = ("source",)
    vertex_parameters = ("source",)
    communicate = {"depth": "earliest"}
    changes_only_in_output = True
    replayable = True
    copies_may_lag = True

    def setup(self):
        self.source = self.local_slots([self.params["source"]], name="source")
        self.depth = self.vertex_array(-1, np.int32)
        self.put(self.depth, self.source, 0)

    def initial_frontier(self):
        return self.frontier_of(self.source)

    def step(self, frontier, iteration):
        return fr.advance(self.graph, frontier,
                          fr.functors.ClaimUnvisited(self.depth, iteration + 1))

    def result(self):
        return HopsResult(self.depth)


@dataclass
class HopsResult(fr.Result):
    depth: object


@contextmanager
def _joint(on: bool):
    """Joint levels on or off for a block (not monkeypatch: hypothesis runs
    many examples in one test call); the declarations unchecked, so that
    each run is the one asked for, not also its rerun."""
    with mock.patch.object(joint_levels, "JOINT_LEVELS", on), \
            mock.patch.dict("os.environ", {CHECK_VARIABLE: "0"}):
        yield


def _compare(G, source: int, devices, duplication: str, partition: str):
    """BFS and Hops jointly, level by level and on one device: the same
    depths and iterations, a valid tree, joint levels used, and no more
    bytes sent than the output boundary sends."""
    one = fr.enact(BFS, G, source=source).to_numpy()
    options = {"devices": devices, "duplication": duplication, "partition": partition}
    with _joint(False):
        plain = fr.enact(BFS, G, source=source, **options).to_numpy()
    with _joint(True):
        joint = fr.enact(BFS, G, source=source, **options).to_numpy()
        hops = fr.enact(Hops, G, source=source, **options).to_numpy()
    np.testing.assert_array_equal(joint.depth, one.depth)
    np.testing.assert_array_equal(hops.depth, one.depth)
    assert_bfs_tree(G, source, joint.depth, joint.predecessor)
    assert joint.iterations == plain.iterations == one.iterations
    assert joint.replayed_levels == joint.iterations - 1
    assert plain.replayed_levels == 0
    assert joint.exchanged_bytes <= plain.exchanged_bytes


@given(edges=edge_lists(max_vertices=60, max_edges=200), count=st.integers(2, 4),
       duplication=st.sampled_from(["all", "one_hop"]),
       partition=st.sampled_from(["random", "contiguous", "biased_random"]))
def test_joint_levels_give_the_output_boundarys_answer(edges, count, duplication, partition):
    G = edges.graph("cpu")
    _compare(G, edges.num_vertices // 2, count, duplication, partition)


@pytest.mark.gpu
@given(edges=edge_lists(max_vertices=60, max_edges=240), count=st.integers(2, 4),
       duplication=st.sampled_from(["all", "one_hop"]))
@settings(max_examples=max(5, settings().max_examples // 2))
def test_joint_levels_on_parts_sharing_a_gpu(edges, count, duplication):
    G = edges.graph("cuda:0")
    _compare(G, edges.num_vertices // 2, ["cuda:0"] * count, duplication, "random")


@pytest.mark.gpu
@pytest.mark.multi_gpu
@given(edges=edge_lists(max_vertices=60, max_edges=240),
       devices=st.sampled_from([["cuda:0", "cuda:1"], ["cuda:0", "cuda:1", "cuda:0"],
                                ["cuda:1", "cuda:0", "cuda:1", "cuda:0"]]),
       duplication=st.sampled_from(["all", "one_hop"]))
@settings(max_examples=max(5, settings().max_examples // 2))
def test_joint_levels_between_gpus(edges, devices, duplication):
    """Parts on two GPUs read each other's outboxes over peer access; a GPU
    may hold several of them."""
    G = edges.graph("cuda:0")
    _compare(G, edges.num_vertices // 2, devices, duplication, "random")


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)])
def test_hubs_and_deep_levels(device):
    """A star of more edges than a warp walks itself (its edges go out in
    chunks, joint_claim_chunks) on the end of a long path: both kinds of
    level, on 2 and 3 parts."""
    hub_edges = 3 * joint_levels.HUB_CHUNK + 17
    path = 300
    src = np.concatenate([np.arange(path - 1), np.full(hub_edges, path - 1)])
    dst = np.concatenate([np.arange(1, path), np.arange(path, path + hub_edges)])
    G = fr.Graph.from_edges(src, dst, num_vertices=path + hub_edges, directed=False,
                            device=device)
    for count in (2, 3):
        for duplication in ("all", "one_hop"):
            _compare(G, 0, [device] * count, duplication, "random")


def test_a_run_stops_at_max_iterations():
    G = fr.Graph.from_edges(np.arange(99), np.arange(1, 100), num_vertices=100,
                            device="cpu")
    for on in (False, True):
        with _joint(on), pytest.raises(RuntimeError, match="did not converge in 30"):
            fr.enact(BFS, G, source=0, devices=2, max_iterations=30)
    with _joint(True):
        result = fr.enact(BFS, G, source=0, devices=2, max_iterations=100)
    assert result.iterations == 100


@pytest.mark.parametrize("wrong", [MislabelledBFS, FilteredBFS, CountingBFS])
def test_a_wrong_replayable_is_caught_on_several_devices(monkeypatch, wrong):
    """Under the declaration checks a run whose levels ran jointly is run
    again level by level, with the output boundary (whose own checks catch
    FilteredBFS's writes outside its output first), and compared."""
    monkeypatch.setenv(CHECK_VARIABLE, "1")
    G = fr.Graph.from_edges(np.arange(399), np.arange(1, 400), num_vertices=400,
                            directed=False, device="cpu")
    with pytest.raises(DeclarationError):
        fr.enact(wrong, G, source=0, devices=2)


def test_other_claims_take_the_boundary(monkeypatch):
    """An automatic direction, or several devices in processes, keep a
    boundary after each level: nothing is replayed."""
    monkeypatch.setenv(CHECK_VARIABLE, "0")
    G = fr.generators.kronecker(8, 8, seed=0, device="cpu")
    auto = fr.enact(BFS, G, source=0, direction="auto", devices=2)
    processes = fr.enact(BFS, G, source=0, devices=2, workers="processes")
    assert auto.replayed_levels == processes.replayed_levels == 0


def test_buffers_are_kept_with_the_parts(monkeypatch):
    """A part's joint-level buffers are made at its first run and kept for
    the next; if any part lacks them, every part makes them again (no part
    waits for a meeting the others skip)."""
    monkeypatch.setenv(CHECK_VARIABLE, "0")
    G = fr.generators.kronecker(8, 8, seed=2, device="cpu")

    def kept():
        (_, placed), = G._parts.values()
        return placed, [[value for key, value in part.derived.items()
                         if key[0] == "joint levels"] for part in placed]

    for source in (0, 5):
        np.testing.assert_array_equal(fr.enact(BFS, G, source=source, devices=2).depth,
                                      fr.enact(BFS, G, source=source).depth)
        placed, buffers = kept()
        assert all(len(held) == 1 for held in buffers)
        if source == 0:
            first = buffers
    assert buffers == first  # the same objects
    # between runs they hold none of a run's arrays
    assert all(held[0].labels is None and held[0].predecessor is None for held in buffers)
    placed[1].derived.clear()
    np.testing.assert_array_equal(fr.enact(BFS, G, source=7, devices=2).depth,
                                  fr.enact(BFS, G, source=7).depth)
    _, again = kept()
    assert again[0][0] is not first[0][0] and len(again[1]) == 1
