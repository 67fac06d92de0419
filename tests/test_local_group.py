"""The in-process communicator: its barrier (gates) and its collectives,
which post on two alternating boards and meet once."""

from __future__ import annotations

import random
import threading
import time

import numpy as np
import pytest

from frontier.device import get_device
from frontier.multi.communicator import Gates, LocalGroup
from frontier.primitive import CHECK_VARIABLE
from primitives.bfs import BFS


def _run_ranks(size: int, work) -> list:
    """``work(rank)`` in one thread per rank; the results, or the errors."""
    outcomes: list = [None] * size

    def run(rank):
        try:
            outcomes[rank] = work(rank)
        except BaseException as error:  # noqa: BLE001 - compared by the tests
            outcomes[rank] = error

    threads = [threading.Thread(target=run, args=(rank,)) for rank in range(size)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a rank hangs"
    return outcomes


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_gates_hold_every_rank_until_all_arrive(size):
    gates = Gates(size)
    arrived = [0] * size
    seen = []

    def work(rank):
        for generation in range(200):
            if rank == generation % size:
                time.sleep(0.0005 * random.random())  # a late rank, a different one each time
            arrived[rank] = generation + 1
            gates.wait(rank)
            # nobody is a whole generation behind, nor ahead by two
            seen.append(min(arrived) >= generation + 1 and max(arrived) <= generation + 2)
            gates.wait(rank)
        return True

    assert _run_ranks(size, work) == [True] * size
    assert len(seen) == 200 * size and all(seen)


def test_abort_releases_waiting_ranks_and_later_waits():
    gates = Gates(3)

    def work(rank):
        if rank == 2:
            time.sleep(0.05)
            gates.abort()
            return "aborted"
        gates.wait(rank)

    outcomes = _run_ranks(3, work)
    assert outcomes[2] == "aborted"
    assert all(isinstance(outcome, threading.BrokenBarrierError) for outcome in outcomes[:2])
    with pytest.raises(threading.BrokenBarrierError):
        gates.wait(0)


@pytest.mark.parametrize("size", [2, 3, 4])
def test_collectives_in_any_order_give_every_rank_its_own_answer(size):
    group = LocalGroup([get_device(f"cpu:{rank}") for rank in range(size)])
    rounds = 300

    def work(rank):
        comm = group.endpoint(rank)
        rng = random.Random(rank)
        answers = []
        for turn in range(rounds):
            if rng.random() < 0.3:
                time.sleep(0.0002)  # ranks arrive in varying orders
            if turn % 3 == 2:
                answers.append(comm.allreduce(rank + turn, "sum"))
                answers.append(comm.allreduce(rank * turn, "max"))
                answers.append(comm.allreduce_each([rank + turn, rank * turn, turn - rank],
                                                   ["sum", "max", "min"]))
            else:
                messages = [None if peer == rank or (peer + turn) % 4 == 0
                            else [np.array([rank, peer, turn])] for peer in range(size)]
                incoming = comm.alltoall(messages)
                answers.append([None if message is None else message[0].tolist()
                                for message in incoming])
        return answers

    outcomes = _run_ranks(size, work)
    for rank, answers in enumerate(outcomes):
        assert not isinstance(answers, BaseException), answers
        position = 0
        for turn in range(rounds):
            if turn % 3 == 2:
                assert answers[position] == sum(range(size)) + size * turn
                assert answers[position + 1] == (size - 1) * turn
                assert answers[position + 2] == [sum(range(size)) + size * turn,
                                                 (size - 1) * turn, turn - (size - 1)]
                position += 3
            else:
                expected = [None if sender == rank or (rank + turn) % 4 == 0
                            else [sender, rank, turn] for sender in range(size)]
                assert answers[position] == expected, (rank, turn)
                position += 1


class _RefreshingBFS(BFS):
    """BFS with its copies refreshed at every boundary (BFS that only pushes
    lets them lag, and then sends no refreshes for the sum to travel with)."""

    copies_may_lag = False


class _OwnConverged(_RefreshingBFS):
    """BFS with a ``converged`` of its own (the default's test, written out)."""

    def converged(self, frontier, iteration):
        return self.reduce(frontier.size) == 0


@pytest.mark.parametrize("communication", ["selective", "broadcast"])
def test_default_converged_takes_no_vote(monkeypatch, communication):
    """BFS with refreshes stops by the default ``converged`` (a reduction
    of the frontier sizes): no vote, and after a boundary its reduction
    travels with the boundary's refreshes, so the only allreduces are the
    first stop check's and the gather's. A primitive deciding on its own makes its reduction
    each time, and on threads its vote travels with the next collective."""
    import frontier as fr
    from frontier.multi.communicator import LocalCommunicator

    calls = []
    plain = LocalCommunicator.allreduce

    def counted(self, value, op):
        if self.rank == 0:
            calls.append(op)
        return plain(self, value, op)

    monkeypatch.setattr(LocalCommunicator, "allreduce", counted)
    # the run's own collectives, not those of the declarations' checks
    monkeypatch.setenv(CHECK_VARIABLE, "0")
    G = fr.generators.grid(1, 40, device="cpu")
    # selective: the output boundary; broadcast: the snapshot one
    result = fr.enact(_RefreshingBFS, G, source=0, devices=["cpu:0", "cpu:1"],
                      communication=communication)
    assert result.iterations == 40
    # the stop check after the first boundary; the gather's four reductions
    # (bytes sent, seconds, set-up time, the largest part's bytes) go in one
    # collective of their own (allreduce_each)
    assert calls == ["sum"]
    calls.clear()
    own = fr.enact(_OwnConverged, G, source=0, devices=["cpu:0", "cpu:1"],
                   communication=communication)
    assert own.iterations == 40 and own.depth.tolist() == result.depth.tolist()
    # its reduction at every stop check, no allreduce to vote
    assert len(calls) == own.iterations + 1


def test_a_prepaid_reduction_must_be_the_one_announced():
    """The view answers the reduction a boundary announced without a
    collective, once; any other reduction in its place is an error, not a
    wrong answer."""
    from frontier.multi.view import PartView

    class NoCollectives:
        def allreduce(self, value, op):
            raise AssertionError("no collective expected")

    view = PartView(part=None, communicator=NoCollectives(), num_vertices=10, num_arcs=0)
    view.prepay(3, 7)
    assert view.reduce(np.int64(3), "sum") == 7
    with pytest.raises(AssertionError, match="no collective"):
        view.reduce(3, "sum")  # paid once only
    view.prepay(3, 7)
    with pytest.raises(RuntimeError, match="announced as sum"):
        view.reduce(4, "sum")
    view.prepay(3, 7)
    with pytest.raises(RuntimeError, match="announced as sum"):
        view.reduce(3, "max")


@pytest.mark.gpu
@pytest.mark.parametrize("events", [True, False], ids=["events", "host-syncs"])
@pytest.mark.parametrize("size", [2, 3])
def test_parts_sharing_a_gpu_receive_what_was_sent_before_it_is_overwritten(
        size, events, monkeypatch):
    """Ranks on one GPU, each on a stream of its own (as the enactor runs
    them): what a rank receives is what the sender's stream had computed
    when it called ``alltoall``, even though the sender overwrites the
    arrays it sent right after the call and makes new ones at once (its
    pool may hand their memory out again)."""
    import cupy

    from frontier.multi import communicator
    from frontier.multi.enactor import own_stream

    monkeypatch.setattr(communicator, "ORDER_BY_EVENTS", events)
    device = get_device("cuda:0")
    group = LocalGroup([device] * size)
    length, rounds = 1 << 22, 6

    def work(rank):
        comm = group.endpoint(rank)
        received = []
        with device.activate(), own_stream(device, {}):
            for turn in range(rounds):
                # long enough that a copy and an overwrite could overlap
                sent = [None if peer == rank else
                        cupy.full(length, rank * 1000 + peer * 10 + turn, dtype=np.int64)
                        for peer in range(size)]
                incoming, total = comm.alltoall_and_sum(
                    [None if array is None else [array] for array in sent], rank + turn)
                for array in sent:
                    if array is not None:
                        array.fill(-1)  # the sender moves on at once
                del sent
                scratch = cupy.full(length * size, -2, dtype=np.int64)  # reuses freed memory
                del scratch
                received.append(([None if message is None else
                                  (int(message[0].min()), int(message[0].max()))
                                  for message in incoming], total))
        return received

    outcomes = _run_ranks(size, work)
    for rank, received in enumerate(outcomes):
        assert not isinstance(received, BaseException), received
        for turn, (incoming, total) in enumerate(received):
            assert total == sum(range(size)) + size * turn
            for sender, extremes in enumerate(incoming):
                if sender == rank:
                    assert extremes is None
                else:
                    value = sender * 1000 + rank * 10 + turn
                    assert extremes == (value, value), (rank, sender, turn)


def test_votes_that_differ_raise_the_disagreement():
    from frontier.multi.communicator import check_votes

    def disagreement(stopping):
        return RuntimeError(f"{stopping} would stop")

    check_votes([None, None, None], disagreement)
    check_votes([1, 1], disagreement)
    check_votes([0, 0, 0], disagreement)
    with pytest.raises(RuntimeError, match="^2 would stop"):
        check_votes([1, 0, 1], disagreement)
    with pytest.raises(RuntimeError, match="^1 would stop"):
        check_votes([1, None], disagreement)  # a rank that made no stop check
    with pytest.raises(RuntimeError, match="out of step"):
        check_votes([None, 1], None)
