"""The automatic direction of advance (frontier.AutoDirection) against
push-only, on random graphs: the same depths, a valid tree, one recorded
direction per level; counts kept from level to level equal counts taken
afresh; a user's claiming functor on the general path; the GPU tally
kernels against NumPy."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from checks import assert_bfs_tree
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from frontier.operators.auto import frontier_counts
from primitives import bfs, dobfs
from primitives.dobfs import DOBFS

# Pull early and often: alpha large pulls once m_f * alpha > m_u, beta large
# pushes again only on small frontiers.
EAGER = {"alpha": 1e6, "beta": 1.0}


class FreshCountsDOBFS(DOBFS):
    """DOBFS whose advance never gets the last output back (a copy), so the
    counts of every level are taken afresh instead of kept."""

    def step(self, frontier, iteration):
        copy = fr.Frontier.from_ids(frontier.ids.copy(), frontier.num_vertices)
        return super().step(copy, iteration)


@dataclass
class DepthResult(fr.Result):
    depth: object


class UserClaimBFS(fr.Primitive):
    """BFS with its own claiming functor (general path) and an automatic direction."""

    parameters = ("source",)
    communicate = {"depth": "max"}

    def setup(self):
        self.depth = self.vertex_array(-1, np.int32)
        self.source = self.local_slots([self.params["source"]])
        self.depth[self.source] = 0
        self.switch = self.auto_direction(alpha=1e6, beta=1.0)

    def initial_frontier(self):
        return self.frontier_of(self.source)

    def step(self, frontier, iteration):
        return fr.advance(self.graph, frontier, Claim(self.depth, iteration + 1),
                          direction=self.switch)

    def result(self):
        result = DepthResult(self.depth)
        result.directions = tuple(self.switch.directions)
        return result


class Claim:
    """A claim written by a user: labels, value and unset, no fast path."""

    unset = -1

    def __init__(self, labels, value):
        self.labels, self.value = labels, value

    def __call__(self, src, dst, edge, weight):
        return fr.claim(self.labels, dst, self.value, self.unset)


def _source(edges, data):
    return data.draw(st.integers(0, edges.num_vertices - 1), label="source")


@with_device
@given(edge_lists(weighted=False), st.sampled_from(["beamer", "gunrock"]), st.data())
def test_auto_matches_push_on_random_graphs(device, edges, rule, data):
    source = _source(edges, data)
    G = edges.graph(device)
    settings = EAGER if rule == "beamer" else {"do_a": 0.0, "do_b": 0.0}
    auto = dobfs(G, source, rule=rule, **settings)
    push = bfs(G, source)
    np.testing.assert_array_equal(fr.to_numpy(auto.depth), fr.to_numpy(push.depth))
    assert_bfs_tree(G, source, auto.depth, auto.predecessor)
    assert len(auto.directions) == auto.iterations


@with_device
@given(edge_lists(weighted=False), st.data())
def test_bfs_with_auto_is_dobfs(device, edges, data):
    source = _source(edges, data)
    G = edges.graph(device)
    auto = bfs(G, source, direction="auto")
    np.testing.assert_array_equal(fr.to_numpy(auto.depth), fr.to_numpy(bfs(G, source).depth))
    assert_bfs_tree(G, source, auto.depth, auto.predecessor)
    assert auto.directions == dobfs(G, source).directions


@with_device
@given(edge_lists(weighted=False), st.data())
def test_kept_counts_equal_fresh_counts(device, edges, data):
    """The fast path (counts of the last output, kept) against the plain one
    (counted from the frontier each level): the same decisions."""
    source = _source(edges, data)
    G = edges.graph(device)
    options = {"rule": "beamer", "alpha": 2.0, "beta": 4.0, "do_a": 0.1, "do_b": 0.2,
               "direction": None}
    kept = fr.enact(DOBFS, G, source=source, **options)
    fresh = fr.enact(FreshCountsDOBFS, G, source=source, **options)
    assert kept.directions == fresh.directions
    np.testing.assert_array_equal(fr.to_numpy(kept.depth), fr.to_numpy(fresh.depth))


@with_device
@given(edge_lists(weighted=False), st.data())
def test_a_user_claim_takes_the_general_path(device, edges, data):
    source = _source(edges, data)
    G = edges.graph(device)
    user = fr.enact(UserClaimBFS, G, source=source)
    np.testing.assert_array_equal(fr.to_numpy(user.depth), fr.to_numpy(bfs(G, source).depth))
    assert len(user.directions) == user.iterations


@given(edge_lists(weighted=False), st.data(), st.sampled_from([2, 3]))
def test_several_devices_keep_the_answer(edges, data, parts):
    source = _source(edges, data)
    G = edges.graph("cpu")
    devices = [f"cpu:{i}" for i in range(parts)]
    one = dobfs(G, source, **EAGER)
    many = dobfs(G, source, devices=devices, **EAGER)
    np.testing.assert_array_equal(many.depth, one.depth)
    assert_bfs_tree(G, source, many.depth, many.predecessor)
    assert many.directions == one.directions  # the rule's counts are global
    user = fr.enact(UserClaimBFS, G, source=source, devices=devices)
    np.testing.assert_array_equal(user.depth, one.depth)


def test_the_rule_meets_the_other_devices_once_a_level(monkeypatch):
    """On several devices a level's three counts are summed in one
    collective (``reduce_each``), not one each; without ``reduce_each`` the
    rule still sums each on its own, with the same directions."""
    from frontier.multi.communicator import LocalCommunicator

    made = {"each": 0, "single": 0}
    deciding = []
    real_each, real_single = LocalCommunicator.allreduce_each, LocalCommunicator.allreduce
    real_decide = fr.AutoDirection.decide

    def decide(self, *args, **kwargs):
        deciding.append(True)
        try:
            return real_decide(self, *args, **kwargs)
        finally:
            deciding.pop()

    def each(self, values, ops):
        if deciding and self.rank == 0:
            made["each"] += 1
        return real_each(self, values, ops)

    def single(self, value, op):
        if deciding and self.rank == 0:
            made["single"] += 1
        return real_single(self, value, op)

    monkeypatch.setattr(fr.AutoDirection, "decide", decide)
    monkeypatch.setattr(LocalCommunicator, "allreduce_each", each)
    monkeypatch.setattr(LocalCommunicator, "allreduce", single)
    G = fr.generators.kronecker(10, 8, seed=1, device="cpu")
    source = int(np.argmax(G.out_degree()))
    many = dobfs(G, source, devices=2)
    assert made == {"each": len(many.directions), "single": 0}
    assert "pull" in many.directions
    single = fr.AutoDirection(reduce=lambda value, op: value)
    assert single._globals([3, 4, 5]) == [3, 4, 5]
    assert many.directions == dobfs(G, source).directions


def test_a_pull_happens_on_a_star():
    G = fr.Graph.from_edges([0] * 50 + list(range(1, 50)), list(range(1, 51)) + [51] * 49,
                            device="cpu")
    result = bfs(G, 0, direction="auto")
    assert "pull" in result.directions
    np.testing.assert_array_equal(result.depth, bfs(G, 0).depth)


@pytest.mark.parametrize("direction,message", [
    ("auto", "same frontier.AutoDirection"), ("sideways", "unknown direction")])
def test_a_direction_string_is_checked(direction, message):
    G = fr.Graph.from_edges([0], [1], device="cpu")
    with pytest.raises(ValueError, match=message):
        fr.advance(G, [0], None, direction=direction)


def test_among_has_no_meaning_with_an_automatic_direction():
    G = fr.Graph.from_edges([0], [1], device="cpu")
    with pytest.raises(ValueError, match="among="):
        fr.advance(G, [0], None, direction=fr.AutoDirection(), among=[1])


@pytest.mark.parametrize("settings,message", [
    ({"rule": "fastest"}, "rule="), ({"force": "up"}, "direction="),
    ({"alpha": -1}, "alpha="), ({"beta": float("nan")}, "beta=")])
def test_bad_rule_settings(settings, message):
    with pytest.raises(ValueError, match=message):
        fr.AutoDirection(**settings)


def test_bfs_direction_is_checked():
    G = fr.Graph.from_edges([0], [1], device="cpu")
    with pytest.raises(ValueError, match="expected 'push' or 'auto'"):
        bfs(G, 0, direction="pull")


@pytest.mark.gpu
@given(edge_lists(weighted=False), st.data())
def test_gpu_tally_equals_numpy(edges, data):
    """tally_ids and tally_mask against NumPy's counts of the same frontier,
    and the frontier's bits they add to a visited bitmap."""
    import cupy

    G, H = edges.graph("cuda:0"), edges.graph("cpu")
    n = edges.num_vertices
    chosen = np.array(data.draw(st.lists(st.integers(0, n - 1), unique=True),
                                label="frontier"), dtype=np.int64)
    expected = np.zeros(n, dtype=bool)
    expected[chosen] = True
    cpu_counts, _ = frontier_counts(H, fr.Frontier.from_ids(chosen, n, "cpu"))
    for dense in (False, True):
        frontier = fr.Frontier.from_mask(cupy.asarray(expected)) if dense \
            else fr.Frontier.from_ids(cupy.asarray(chosen), n)
        visited = cupy.zeros(-(-n // 32), dtype=np.uint32)
        counts, bits = frontier_counts(G, frontier, visited)
        assert counts == cpu_counts
        assert frontier_counts(G, frontier, degrees=False)[0] == (cpu_counts[0], 0, 0)
        assert (bits is not None) == dense
        for bitmap in (visited,) + ((bits,) if dense else ()):
            bools = np.unpackbits(fr.to_numpy(bitmap).view(np.uint8), bitorder="little")
            np.testing.assert_array_equal(bools[:n], expected)


def _with_pull_levels(on: bool, call):
    """``call()`` with the pull phase in one launch (``on``) or a launch a
    level, and without ``auto_levels``."""
    from frontier.operators import auto

    before = auto.PULL_LEVELS, auto.AUTO_LEVELS
    auto.PULL_LEVELS = on  # not monkeypatch: hypothesis runs many examples
    auto.AUTO_LEVELS = False  # the launches that auto_levels would replace
    try:
        return call()
    finally:
        auto.PULL_LEVELS, auto.AUTO_LEVELS = before


@pytest.mark.gpu
@given(edge_lists(weighted=False, max_vertices=300, max_edges=2000), st.data(),
       st.sampled_from([1, 4, 1 << 14]))
def test_pull_levels_in_one_launch_match_a_launch_a_level(edges, data, hub_min):
    """The pull phase in one launch (``pull_levels``, hubs by a block each
    from ``hub_min`` in-edges) against a launch and a read per pull level:
    the same depths and directions, a valid tree."""
    from frontier.operators import fused

    source = _source(edges, data)
    G = edges.graph("cuda:0")
    settings = data.draw(st.sampled_from([EAGER, {"alpha": 4.0, "beta": 8.0}, {}]))
    before = fused.HUB_PULL_MIN
    fused.HUB_PULL_MIN = hub_min
    try:
        fast = _with_pull_levels(True, lambda: dobfs(G, source, **settings))
        plain = _with_pull_levels(False, lambda: dobfs(G, source, **settings))
    finally:
        fused.HUB_PULL_MIN = before
    np.testing.assert_array_equal(fr.to_numpy(fast.depth), fr.to_numpy(plain.depth))
    assert fast.directions == plain.directions
    assert_bfs_tree(G, source, fast.depth, fast.predecessor)


@pytest.mark.gpu
@given(edge_lists(weighted=False, max_vertices=300, max_edges=2000), st.data(),
       st.sampled_from([0.5, 4.0, 24.0, 1e9]), st.booleans())
def test_pull_levels_output_and_bitmap_input(edges, data, beta, from_bits):
    """``pull_levels`` started from a list or from the frontier's bitmap
    (a dense frontier's, from its counts) claims the same vertices; its
    last level comes back as a list where the rule stopped the launch (the
    kernel wrote it), as a mask otherwise, and holds exactly the vertices
    labelled at that level."""
    from frontier.operators import fused
    from frontier.replay import LevelBatch

    source = _source(edges, data)
    G = edges.graph("cuda:0")
    n = G.num_vertices
    labels = fr.get_device("cuda:0").asarray(np.full(n, -1, np.int32))
    labels[source] = 0
    predecessor = fr.get_device("cuda:0").asarray(np.full(n, -1, G.columns.dtype))
    frontier = fr.Frontier.from_ids([source], n, "cuda:0")
    bits = None
    if from_bits:
        mask = np.zeros(n, bool)
        mask[source] = True
        frontier = fr.Frontier.from_mask(fr.get_device("cuda:0").asarray(mask))
        bits = frontier_counts(G, frontier)[1]
    batch = LevelBatch(64)
    ran = fused.pull_levels(G, frontier, fr.functors.ClaimUnvisited(labels, 1, predecessor),
                            batch, beta, bits)
    depth = fr.to_numpy(labels)
    last = np.flatnonzero(depth == batch.taken)
    np.testing.assert_array_equal(np.sort(fr.to_numpy(ran.output.ids)), last)
    assert ran.counts[0] == len(last)
    stopped = 0 < len(last) and len(last) * beta < n and batch.taken < batch.allowed
    assert ran.output.kind == ("sparse" if stopped else "dense")
    pushed = fr.to_numpy(bfs(G, source).depth)  # the levels pulled are BFS's
    np.testing.assert_array_equal(depth, np.where(pushed <= batch.taken, pushed, -1))


@pytest.mark.gpu
def test_a_hub_is_pulled_by_a_block():
    """0 reaches 1..20000, which all point at 20001 (a hub of 20,000
    in-edges, over HUB_PULL_MIN): pulled in one launch, with the levels
    around it, as level by level."""
    leaves = np.arange(1, 20_001)
    src = np.concatenate([np.zeros(20_000, np.int64), leaves, [20_001]])
    dst = np.concatenate([leaves, np.full(20_000, 20_001), [20_002]])
    G = fr.Graph.from_edges(src, dst, num_vertices=20_003, directed=True, device="cuda:0")
    fast = _with_pull_levels(True, lambda: dobfs(G, 0, **EAGER))
    plain = _with_pull_levels(False, lambda: dobfs(G, 0, **EAGER))
    assert fast.directions == plain.directions and "pull" in fast.directions
    depth = fr.to_numpy(fast.depth)
    assert depth[20_001] == 2 and depth[20_002] == 3
    np.testing.assert_array_equal(depth, fr.to_numpy(plain.depth))
    assert_bfs_tree(G, 0, fast.depth, fast.predecessor)


def _with_auto_levels(on: bool, call, **constants):
    """``call()`` with whole level batches in one ``auto_levels`` launch
    (``on``; forced for graphs of any degree, with ``constants`` of
    :mod:`frontier.operators.auto_levels` set) or without."""
    from frontier.operators import auto, auto_levels, fused

    saved = {"AUTO_LEVELS": auto.AUTO_LEVELS, "SMALL_MAX_DEGREE": fused.SMALL_MAX_DEGREE}
    saved_levels = {name: getattr(auto_levels, name) for name in constants}
    auto.AUTO_LEVELS = on
    if on:
        fused.SMALL_MAX_DEGREE = 0  # every graph counts as one of large degrees
        for name, value in constants.items():
            setattr(auto_levels, name, value)
    try:
        return call()
    finally:
        auto.AUTO_LEVELS = saved["AUTO_LEVELS"]
        fused.SMALL_MAX_DEGREE = saved["SMALL_MAX_DEGREE"]
        for name, value in saved_levels.items():
            setattr(auto_levels, name, value)


@pytest.mark.gpu
@given(edge_lists(weighted=False, max_vertices=300, max_edges=2000), st.data(),
       st.sampled_from([64, 3, 1]), st.sampled_from([1024, 2, 0]),
       st.sampled_from([1, 8, 1 << 30]))
def test_auto_levels_match_the_launches(edges, data, max_levels, hub_push, dense_push):
    """A whole traversal in ``auto_levels`` launches (``max_levels`` a
    launch: the later ones start in the pull phase or after it; push hubs
    spread over the grid from ``hub_push`` out-edges; a push level's output
    as a bitmap from n / ``dense_push`` out-edges: rarely, at n / 8, or
    always) against the launches with a host decision each: the same
    depths, directions and iterations, a valid tree."""
    source = _source(edges, data)
    G = edges.graph("cuda:0")
    settings = data.draw(st.sampled_from([EAGER, {"alpha": 4.0, "beta": 8.0}, {},
                                          {"alpha": 0.0}, {"alpha": 1e6, "beta": 1e9}]))
    fast = _with_auto_levels(True, lambda: dobfs(G, source, **settings),
                             MAX_LEVELS=max_levels, HUB_PUSH_MIN=hub_push,
                             DENSE_PUSH=dense_push)
    plain = _with_auto_levels(False, lambda: dobfs(G, source, **settings))
    np.testing.assert_array_equal(fr.to_numpy(fast.depth), fr.to_numpy(plain.depth))
    assert fast.directions == plain.directions
    assert fast.iterations == plain.iterations
    assert_bfs_tree(G, source, fast.depth, fast.predecessor)


@pytest.mark.gpu
def test_auto_levels_on_hubs():
    """0 pushes to 1..20000 (a source of 20,000 out-edges, over HUB_PUSH_MIN:
    its edges in chunks over the grid), which all point at 20001 (pulled by
    a block): in one launch as with a host decision a level."""
    leaves = np.arange(1, 20_001)
    src = np.concatenate([np.zeros(20_000, np.int64), leaves, [20_001]])
    dst = np.concatenate([leaves, np.full(20_000, 20_001), [20_002]])
    G = fr.Graph.from_edges(src, dst, num_vertices=20_003, directed=True, device="cuda:0")
    for settings in ({}, EAGER):
        def run(settings=settings):
            return dobfs(G, 0, **settings)

        fast, plain = _with_auto_levels(True, run), _with_auto_levels(False, run)
        assert fast.directions == plain.directions
        np.testing.assert_array_equal(fr.to_numpy(fast.depth), fr.to_numpy(plain.depth))
        assert_bfs_tree(G, 0, fast.depth, fast.predecessor)
    assert "pull" in fast.directions


@pytest.mark.parametrize("split", [0, 1, 2, 3, 4, 5])
def test_levels_recorded_from_the_device_leave_the_rule_as_the_host_would(split):
    """Levels decided on the device (``device_phase``, then
    ``decided_all_on_device`` with their directions and counts) leave the
    rule in the state its own decisions would: the same phase and the same
    later decisions."""
    G = fr.Graph.from_edges(np.arange(99), np.arange(1, 100), num_vertices=100, device="cpu")
    counts = [(1, 1, 1), (2, 60, 60), (40, 120, 120), (30, 80, 80), (2, 3, 3), (1, 1, 1)]
    host = fr.AutoDirection(alpha=2.0, beta=10.0)
    decided = [host.decide(G, level) for level in counts]
    assert "pull" in decided and decided[-1] == "push"
    device = fr.AutoDirection(alpha=2.0, beta=10.0)
    assert device.device_phase(G) == 0
    ran = counts[:split]
    on_device = decided[:split]
    phase = 0 if "pull" not in on_device else 1 if on_device[-1] == "pull" else 2
    device.decided_all_on_device([d == "pull" for d in on_device], sum(c[0] for c in ran),
                                 sum(c[2] for c in ran), phase)
    assert device.device_phase(G) == phase
    assert [device.decide(G, level) for level in counts[split:]] == decided[split:]
    assert device.directions == decided
    assert device.unexplored_edges == host.unexplored_edges


def test_the_rule_says_when_it_pushes_for_good():
    """``pushes_for_good`` (after which the joint levels queue levels ahead
    and publish no frontier for pulls) follows the rule's phases; ``decide``
    with counts already summed takes them as they are."""
    G = fr.Graph.from_edges([0, 0, 0, 1, 2], [1, 2, 3, 4, 4], device="cpu")
    switch = fr.AutoDirection(alpha=1e6, beta=1.0)
    assert not switch.pushes_for_good()
    assert switch.decide(G, (1, 3, 3), summed=True) == "pull"  # 3 * alpha > 10 arcs
    assert not switch.pushes_for_good()
    assert switch.decide(G, (0, 0, 0), summed=True) == "push"  # 0 * beta < n
    assert switch.pushes_for_good()
    switch.pushed(2)
    assert switch.directions == ["pull", "push", "push", "push"]
    assert fr.AutoDirection(force="push").pushes_for_good()
    assert not fr.AutoDirection(force="pull").pushes_for_good()
    gunrock = fr.AutoDirection("gunrock", do_a=0.0, do_b=1e9)
    assert gunrock.decide(G, (1, 3, 3), summed=True) == "pull"
    assert gunrock.decide(G, (1, 3, 3), summed=True) == "push"
    assert gunrock.pushes_for_good()
