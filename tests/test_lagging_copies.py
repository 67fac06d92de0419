"""``copies_may_lag``: a primitive whose answer does not need current
copies of other devices' vertices gets a boundary without refreshes
(:mod:`frontier.multi.output_exchange`). The declaration is checked the way
the suite runs every multi-device test (``FRONTIER_CHECK_DECLARATIONS=1``,
under which each boundary refreshes a random half of the copies, so that
they lag by varying amounts) and without those checks (no refreshes): the
answers must be one device's. A wrong declaration then answers wrongly,
which these tests show they catch."""

from __future__ import annotations

import os
from unittest import mock

import numpy as np
import pytest
from checks import assert_bfs_tree, assert_shortest_path_tree, declaring
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists, enactor_options
from test_output_exchange import RefreshingSSSP

import frontier as fr
from frontier.multi import joint_levels
from frontier.multi.output_exchange import OutputExchange, applies
from frontier.primitive import CHECK_VARIABLE
from primitives.bfs import BFS
from primitives.dobfs import DOBFS
from primitives.sssp import SSSP


def _same_sssp(G, source, one, many):
    np.testing.assert_array_equal(many.distance, one.distance)
    assert_shortest_path_tree(G, source, many.distance, many.predecessor)


def _same_bfs(G, source, one, many):
    np.testing.assert_array_equal(many.depth, one.depth)
    assert_bfs_tree(G, source, many.depth, many.predecessor)


#: each declaring primitive: (class, its parameters from a source, the check of
#: a multi-device answer against one device's)
DECLARING = {"SSSP": (SSSP, lambda source: {"source": source, "delta": 2.0}, _same_sssp),
             "BFS": (BFS, lambda source: {"source": source}, _same_bfs)}


def _checks(value: str):
    """``FRONTIER_CHECK_DECLARATIONS`` set to ``value`` for a block (not
    monkeypatch: hypothesis runs many examples in one test call)."""
    return mock.patch.dict(os.environ, {CHECK_VARIABLE: value})


class LaggingMaxBFS(BFS):
    """Declares copies_may_lag wrongly: with BFS's former combiner ("max"),
    the owner takes the later level that a device whose copy lagged offers
    over the earlier one."""

    communicate = {"depth": "max", "predecessor": fr.follows("depth")}
    copies_may_lag = True


class LaggingDOBFS(DOBFS):
    """Declares copies_may_lag wrongly: a pull on a part looks for parents
    among the copies of other devices' vertices, which then lag."""

    copies_may_lag = True


#: primitives.dobfs's defaults
DOBFS_RULE = {"rule": "beamer", "alpha": 14.0, "beta": 24.0, "do_a": 0.1, "do_b": 0.2,
              "direction": None}


def test_every_declaring_primitive_is_checked_here():
    assert declaring("copies_may_lag") == set(DECLARING)


def test_bfs_lets_copies_lag_only_when_it_only_pushes():
    """BFS's declaration depends on its direction; DOBFS's is off."""
    G = fr.generators.kronecker(6, 4, seed=0, device="cpu")
    assert BFS(G, source=0).copies_may_lag
    assert not BFS(G, source=0, direction="auto").copies_may_lag
    assert not DOBFS(G, source=0, **DOBFS_RULE).copies_may_lag


@pytest.mark.parametrize("checking", ["0", "1"])
@pytest.mark.parametrize("name", sorted(DECLARING))
@given(edges=edge_lists(max_vertices=40, max_edges=140, integer_weights=True),
       options=enactor_options())
@settings(max_examples=max(5, settings().max_examples // 4))
def test_lagging_copies_give_one_devices_answer(checking, name, edges, options):
    """Without refreshes, and with a random half of them (the checks)."""
    primitive, params, same = DECLARING[name]
    G = edges.graph("cpu")
    source = edges.num_vertices // 2
    one = fr.enact(primitive, G, **params(source)).to_numpy()
    with _checks(checking):
        many = fr.enact(primitive, G, **params(source), **options).to_numpy()
    same(G, source, one, many)


def test_the_checks_refresh_some_copies(monkeypatch):
    """Under the checks a lagging primitive's boundaries refresh some of
    the changed owned slots, not all; without them, none."""
    counts = {"changed": 0, "refreshed": 0}
    real = OutputExchange._push_refreshes

    def spy(self, arrays, changed, refreshed=None, **options):
        counts["changed"] += len(changed)
        counts["refreshed"] += len(changed if refreshed is None else refreshed)
        return real(self, arrays, changed, refreshed, **options)

    monkeypatch.setattr(OutputExchange, "_push_refreshes", spy)
    G = fr.generators.kronecker(8, 8, seed=1, weights=(1, 9), device="cpu")
    source = int(np.argmax(G.out_degree()))
    monkeypatch.setenv(CHECK_VARIABLE, "1")
    fr.enact(SSSP, G, source=source, delta=4.0, devices=2)
    assert 0 < counts["refreshed"] < counts["changed"]
    monkeypatch.setenv(CHECK_VARIABLE, "0")
    counts.update(changed=0, refreshed=0)
    fr.enact(SSSP, G, source=source, delta=4.0, devices=2)
    assert counts == {"changed": 0, "refreshed": 0}


def test_sssp_sends_offers_only(monkeypatch):
    """Without the checks: no refresh all-to-all, fewer bytes than with
    refreshes, the same distances and iterations."""
    monkeypatch.setenv(CHECK_VARIABLE, "0")
    refreshes = []
    real = OutputExchange._push_refreshes

    def spy(self, *args, **options):
        refreshes.append(type(self.run).__name__)
        return real(self, *args, **options)

    monkeypatch.setattr(OutputExchange, "_push_refreshes", spy)
    G = fr.generators.kronecker(10, 8, seed=4, weights=(1, 9), device="cpu")
    source = int(np.argmax(G.out_degree()))
    one = fr.enact(SSSP, G, source=source, delta=4.0).to_numpy()
    lagging = fr.enact(SSSP, G, source=source, delta=4.0, devices=3).to_numpy()
    assert refreshes == []
    refreshing = fr.enact(RefreshingSSSP, G, source=source, delta=4.0, devices=3).to_numpy()
    assert refreshes and set(refreshes) == {"RefreshingSSSP"}
    _same_sssp(G, source, one, lagging)
    assert lagging.iterations == refreshing.iterations
    assert 0 < lagging.exchanged_bytes < refreshing.exchanged_bytes


@pytest.mark.parametrize("checking", ["0", "1"])
@pytest.mark.parametrize("wrong", [LaggingMaxBFS, LaggingDOBFS], ids=lambda c: c.__name__)
def test_a_wrong_declaration_answers_wrongly(monkeypatch, checking, wrong):
    """A BFS with the "max" combiner, or a DOBFS, that declares
    copies_may_lag answers wrongly on several devices, so the comparison
    above would catch it: "max" keeps the later level a lagging copy
    offers, and a pull misses parents whose copies lag. On the output
    boundary: the joint levels' pulls read no copies (their bitmaps of a
    level's frontier), so there a lagging DOBFS answers rightly."""
    monkeypatch.setenv(CHECK_VARIABLE, checking)
    monkeypatch.setattr(joint_levels, "JOINT_LEVELS", False)
    G = fr.generators.kronecker(8, 8, seed=0, device="cpu")
    source = int(np.argmax(G.out_degree()))
    one = fr.enact(BFS, G, source=source).to_numpy()
    assert applies(wrong, "selective")
    params = {"source": source, **({} if issubclass(wrong, LaggingMaxBFS) else DOBFS_RULE)}
    for devices in (2, 3):
        right = fr.enact(wrong.__mro__[1], G, **params, devices=devices).to_numpy()
        np.testing.assert_array_equal(right.depth, one.depth)
        answer = fr.enact(wrong, G, **params, devices=devices).to_numpy()
        assert not np.array_equal(answer.depth, one.depth)


@pytest.mark.gpu
@pytest.mark.parametrize("checking", ["0", "1"])
@pytest.mark.parametrize("name", sorted(DECLARING))
@given(edges=edge_lists(max_vertices=60, max_edges=240, integer_weights=True),
       count=st.integers(2, 4), duplication=st.sampled_from(["all", "one_hop"]))
@settings(max_examples=max(3, settings().max_examples // 4))
def test_lagging_copies_on_parts_sharing_a_gpu(checking, name, edges, count, duplication):
    """The same comparison with the parts on ``cuda:0``."""
    primitive, params, same = DECLARING[name]
    G = edges.graph("cuda:0")
    source = edges.num_vertices // 2
    one = fr.enact(primitive, G, **params(source)).to_numpy()
    with _checks(checking):
        many = fr.enact(primitive, G, **params(source), devices=["cuda:0"] * count,
                        duplication=duplication).to_numpy()
    same(G, source, one, many)


def test_the_stop_hint_saves_the_reductions(monkeypatch):
    """Without refreshes, the default ``converged`` is answered by the hint
    that rode with the offers wherever some device's owned output is in its
    next frontier: fewer sum reductions than levels, the same answer."""
    from frontier.multi.communicator import LocalCommunicator

    monkeypatch.setenv(CHECK_VARIABLE, "0")
    sums = []
    plain = LocalCommunicator.allreduce

    def counted(self, value, op):
        if self.rank == 0 and op == "sum":
            sums.append(value)
        return plain(self, value, op)

    monkeypatch.setattr(LocalCommunicator, "allreduce", counted)
    G = fr.generators.kronecker(10, 8, seed=2, device="cpu")
    source = int(np.argmax(G.out_degree()))
    one = fr.enact(BFS, G, source=source).to_numpy()
    many = fr.enact(BFS, G, source=source, devices=3).to_numpy()
    np.testing.assert_array_equal(many.depth, one.depth)
    gathered = 2  # the gather's sums of bytes and seconds
    assert len(sums) - gathered < many.iterations


def test_a_wrong_stop_hint_is_caught(monkeypatch):
    """Under the declaration checks each hint is compared with the
    frontiers' reduction: a hint that always claims an owned output would
    never let the run stop, and raises instead."""
    monkeypatch.setenv(CHECK_VARIABLE, "1")
    monkeypatch.setattr(joint_levels, "JOINT_LEVELS", False)  # BFS's levels take the boundary
    monkeypatch.setattr(OutputExchange, "_stop_hint", lambda self, own, offers: self.comm.size + 1)
    G = fr.generators.kronecker(8, 8, seed=0, device="cpu")
    with pytest.raises(RuntimeError, match="stop hint"):
        fr.enact(BFS, G, source=0, devices=2, max_iterations=100)
