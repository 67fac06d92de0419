"""Rank threads that run their host code in turns (frontier.turns): never
two at once, the turn passed on at every wait, the same answers as one
device, and a failing rank that still ends the run."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from strategies import edge_lists
from test_multi_device import PRIMITIVES, _FailsOnOneDevice, _graph, _run, assert_same_answer

import frontier as fr
import frontier.multi.enactor as enactor
from frontier.multi.communicator import Gates
from frontier.turns import Turn, pause, resume


def test_a_turn_lets_one_thread_run_at_a_time_and_passes_at_each_wait():
    """Three threads hold one turn and pause around sleeps (waits): at most
    one runs between its waits, and the others ran while each waited."""
    turn, gates = Turn(), Gates(3)
    running, most, entries, rounds = [0], [0], [0], 20
    ran_meanwhile = [0, 0, 0]
    lock = threading.Lock()

    def work(rank):
        with turn.held():
            for _ in range(rounds):
                with lock:
                    running[0] += 1
                    entries[0] += 1
                    most[0] = max(most[0], running[0])
                time.sleep(0.0005)  # host work, holding the turn
                with lock:
                    running[0] -= 1
                    before = entries[0]
                waiting = pause()
                time.sleep(0.002)  # a device wait
                resume(waiting)
                ran_meanwhile[rank] += entries[0] > before
            gates.wait(rank)  # the others must get the turn to arrive

    threads = [threading.Thread(target=work, args=(rank,)) for rank in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a thread hangs"
    assert most[0] == 1
    assert all(count > 0 for count in ran_meanwhile), ran_meanwhile


def test_pause_without_a_turn_does_nothing():
    assert pause() is None
    resume(None)


@pytest.fixture
def turns_always(monkeypatch):
    monkeypatch.setattr(enactor, "TURNS", "always")


@pytest.mark.parametrize("count", [2, 3])
@pytest.mark.parametrize("name", PRIMITIVES)
@settings(max_examples=max(2, settings().max_examples // 25))
@given(edges=edge_lists(max_vertices=14, max_edges=36, integer_weights=True))
def test_ranks_taking_turns_give_one_devices_answers(name, count, edges):
    G = _graph(name, edges, "cpu")
    expected = _run(name, G, edges, devices="cpu")
    before = enactor.TURNS
    enactor.TURNS = "always"  # not monkeypatch: hypothesis runs many examples
    try:
        actual = _run(name, G, edges, devices=count, duplication="one_hop")
    finally:
        enactor.TURNS = before
    assert_same_answer(name, G, edges, expected, actual)


def test_a_failing_rank_ends_a_run_taking_turns(turns_always):
    G = fr.Graph.from_edges(np.arange(9), np.arange(1, 10), device="cpu")
    with pytest.raises(ArithmeticError, match="device holding vertex 0 failed"):
        fr.enact(_FailsOnOneDevice, G, devices=3, duplication="one_hop",
                 partition="contiguous")


def test_turns_setting_is_checked(monkeypatch):
    monkeypatch.setattr(enactor, "TURNS", "sometimes")
    with pytest.raises(ValueError, match="TURNS"):
        enactor.takes_turns([fr.get_device("cpu")])
    monkeypatch.setattr(enactor, "TURNS", "gpu")
    assert not enactor.takes_turns([fr.get_device("cpu"), fr.get_device("cpu:1")])
