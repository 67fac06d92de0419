"""Joint levels with an automatic direction (``JointLevels.run_auto``):
DOBFS's levels, pulls included, run by every part at once, each part's pull
reading a bitmap of the level's frontier that every part sets, against the
output boundary after every level (which pulls from current copies) and
against one device, on random graphs (directed, undirected, isolated
vertices), on virtual CPU devices and on parts sharing one GPU."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from checks import assert_bfs_tree
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists
from test_joint_levels import _joint

import frontier as fr
from frontier.multi import joint_levels
from primitives.bfs import BFS
from primitives.dobfs import DOBFS

#: the rules and settings compared: Beamer's (pulls on most small graphs
#: with alpha 0.5), Gunrock's, and the forced directions
RULES = [
    {"rule": "beamer", "alpha": 0.5, "beta": 24.0},
    {"rule": "beamer", "alpha": 14.0, "beta": 24.0},
    {"rule": "gunrock", "do_a": 0.01, "do_b": 0.2},
    {"rule": "beamer", "alpha": 14.0, "beta": 24.0, "direction": "pull"},
    {"rule": "beamer", "alpha": 14.0, "beta": 24.0, "direction": "push"},
]


def _params(source: int, rule: dict) -> dict:
    return {"source": source, "rule": "beamer", "alpha": 14.0, "beta": 24.0, "do_a": 0.1,
            "do_b": 0.2, "direction": None, **rule}


def _compare(G, source: int, rule: dict, devices, batch: int = 2) -> None:
    """DOBFS jointly and with the output boundary: the depths of one device,
    the same directions level by level, a valid tree, and the joint levels'
    pulls used where a level pulled (``batch``: the levels a step may run,
    more than one replayed where the traversal is longer)."""
    params = _params(source, rule)
    one = fr.enact(DOBFS, G, **params).to_numpy()
    with _joint(False):
        plain = fr.enact(DOBFS, G, **params, devices=devices).to_numpy()
    ran = []
    real = joint_levels._Buffers.pull

    def pull(self, k, label):
        ran.append(k)
        return real(self, k, label)

    with _joint(True), mock.patch.object(joint_levels._Buffers, "pull", pull):
        joint = fr.enact(DOBFS, G, **params, devices=devices).to_numpy()
    np.testing.assert_array_equal(joint.depth, one.depth)
    np.testing.assert_array_equal(plain.depth, one.depth)
    assert joint.directions == plain.directions
    assert joint.iterations == plain.iterations
    assert_bfs_tree(G, source, joint.depth, joint.predecessor)
    pulls = joint.directions.count("pull")
    assert len(ran) == pulls * len(devices)  # every part pulls each pull level
    if joint.iterations > 1 and batch > 1:
        assert joint.replayed_levels > 0


@pytest.mark.parametrize("rule", RULES, ids=lambda r: "-".join(map(str, r.values())))
@given(edges=edge_lists(max_vertices=60, max_edges=300), count=st.integers(2, 4),
       source=st.integers(0, 59))
@settings(max_examples=max(5, settings().max_examples // 4), deadline=None)
def test_joint_pulls_answer_as_the_output_boundary(edges, count, source, rule):
    G = edges.graph("cpu")
    _compare(G, source % G.num_vertices, rule, [f"cpu:{i}" for i in range(count)])


@pytest.mark.parametrize("scale", [8, 11])
def test_joint_pulls_on_kronecker_graphs(scale):
    """The hub levels pull on a power-law graph, with Beamer's default rule."""
    G = fr.generators.kronecker(scale, 16, seed=2, device="cpu")
    source = int(np.argmax(G.out_degree()))
    _compare(G, source, {}, ["cpu:0", "cpu:1", "cpu:2"])


def test_levels_after_the_pull_phase_are_queued_ahead():
    """Once the rule pushes for good, the next step's levels run as BFS's
    joint levels do (one meeting a level, counts read a level late), and
    the directions still say push for each."""
    G = fr.generators.kronecker(12, 16, seed=1, device="cpu")
    source = int(np.argmax(G.out_degree()))
    real = joint_levels.JointLevels._levels
    queued = []

    def levels(self, frontier, value, batch):
        queued.append(value)
        return real(self, frontier, value, batch)

    with mock.patch.object(joint_levels.JointLevels, "_levels", levels):
        _compare(G, source, {}, ["cpu:0", "cpu:1", "cpu:2"])
    one = fr.enact(DOBFS, G, **_params(source, {}))
    assert one.directions[-2:] == ("push", "push") and "pull" in one.directions
    assert len(queued) == 3  # one step, on each part


@pytest.mark.parametrize("levels", [1, 2, 3])
def test_joint_pulls_in_batches_of_a_few_levels(levels):
    """A step's batch that ends before the traversal does: the next step
    starts the joint levels again from its frontier (the bitmaps cleared,
    the rule's state carried over), through the pull phase."""
    G = fr.generators.kronecker(10, 16, seed=4, device="cpu")
    source = int(np.argmax(G.out_degree()))
    with mock.patch("frontier.loop.HOST_LEVELS_PER_BATCH", levels):
        _compare(G, source, {}, ["cpu:0", "cpu:1"], batch=levels)


def test_bfs_with_an_automatic_direction_runs_jointly():
    """``bfs(direction="auto")`` takes the same joint levels as DOBFS."""
    G = fr.generators.kronecker(9, 8, seed=3, device="cpu")
    source = int(np.argmax(G.out_degree()))
    one = fr.enact(BFS, G, source=source, direction="auto").to_numpy()
    with _joint(True):
        joint = fr.enact(BFS, G, source=source, direction="auto", devices=2).to_numpy()
    np.testing.assert_array_equal(joint.depth, one.depth)
    assert "pull" in joint.directions and joint.directions == one.directions
    assert joint.replayed_levels > 0


def test_one_hop_parts_keep_the_output_boundary():
    """Slots that are not caller ids (``"one_hop"``): no joint run, the
    output boundary pulls from current copies, the same answer."""
    G = fr.generators.kronecker(9, 8, seed=3, device="cpu")
    source = int(np.argmax(G.out_degree()))
    one = fr.enact(DOBFS, G, **_params(source, {})).to_numpy()
    with _joint(True), mock.patch.object(joint_levels.JointLevels, "_auto_levels") as levels:
        parts = fr.enact(DOBFS, G, **_params(source, {}), devices=3,
                         duplication="one_hop").to_numpy()
    levels.assert_not_called()
    np.testing.assert_array_equal(parts.depth, one.depth)
    assert parts.directions == one.directions


@pytest.mark.gpu
@pytest.mark.parametrize("rule", RULES[:3], ids=lambda r: "-".join(map(str, r.values())))
@given(edges=edge_lists(max_vertices=80, max_edges=400), count=st.integers(2, 3),
       source=st.integers(0, 79))
@settings(max_examples=max(3, settings().max_examples // 4), deadline=None)
def test_joint_pulls_on_parts_sharing_a_gpu(edges, count, source, rule):
    G = edges.graph("cuda:0")
    _compare(G, source % G.num_vertices, rule, ["cuda:0"] * count)


@pytest.mark.gpu
@pytest.mark.parametrize("count", [2, 4])
@pytest.mark.parametrize("levels", [2, 4096])
def test_joint_pulls_on_a_kronecker_graph_sharing_a_gpu(count, levels):
    G = fr.generators.kronecker(14, 16, seed=2, device="cuda:0")
    source = int(fr.to_numpy(G.out_degree()).argmax())
    with mock.patch("frontier.loop.LEVELS_PER_BATCH", levels):
        _compare(G, source, {}, ["cuda:0"] * count, batch=levels)
