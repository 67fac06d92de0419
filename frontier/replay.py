"""Several levels of a step per host round trip.

A primitive that sets ``replayable = True`` promises that its step's work
is one ``advance`` with a built-in functor whose output the step returns
(repeats dropped, at most), and that the run ends when the frontier is
empty: either a claim whose value grows by one per iteration (BFS:
``ClaimUnvisited(depth, iteration + 1)``), or a relaxation (SSSP:
``RelaxMin``), whose iterations may be run on to a fixed point in any order.
The loop (:func:`frontier.loop.iterate`) then opens a :class:`LevelBatch`
around each step on one device, and the operator may run up to ``allowed``
levels of it in one go, without the host in between:

* a claim, on a GPU: kernels that run level after level while the frontier
  stays small, with a barrier between levels (``claim_levels_block``,
  ``claim_levels`` in :file:`kernels/traversal.cu`), and one read of their
  counts per launch; under an automatic direction only push levels, while
  its rule, checked on the device, keeps pushing
  (:mod:`frontier.operators.auto`); on the CPU, from a single source with
  nothing else visited, SciPy's compiled breadth-first search
  (:mod:`frontier.operators.host_levels`);
* a relaxation, on a GPU: ``relax_levels``, frontier Bellman-Ford levels
  (each relaxes the vertices the last one improved) in one kernel; on the
  CPU, from a single source with no other distance set, SciPy's Dijkstra,
  run to the fixed point in the step's one iteration (``ran_on``).

The operator records how many levels it ran in ``taken``; the loop counts
them as iterations. A claim's result is the same as level by level (labels,
iterations, a valid predecessor tree; which of several frontier vertices
becomes a predecessor may differ, as it may between two runs on a GPU); a
relaxation's distances are the same, and its iterations count its levels
(on the CPU's Dijkstra, the one step).
``FRONTIER_CHECK_DECLARATIONS=1`` (the test suite sets it) reruns a
replayed run level by level and raises :class:`~frontier.DeclarationError`
if an array combined by ``"min"``, ``"max"`` or ``"sum"`` differs.
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np

#: Levels a batch may run at most on a GPU: the host regains control
#: (progress, Ctrl-C) at least this often.
LEVELS_PER_BATCH = 4096
#: The same on the CPU, where a batch is one search of SciPy's (which holds
#: the host anyway) and a few passes over its result; the levels past a
#: batch run one by one, at tens of microseconds each.
HOST_LEVELS_PER_BATCH = 1 << 24

_open = threading.local()

#: The attributes every run sets on its result (frontier.result.Result),
#: which a replayed run may have differently.
RUN_STATISTICS = frozenset({"iterations", "elapsed_s", "setup_s", "devices", "partition",
                            "exchanged_bytes", "exchange_s", "node_labels",
                            "replayed_levels", "replayed_steps", "part_bytes"})


class LevelBatch:
    """Permission for one operator call to run up to ``allowed`` levels;
    the operator sets ``taken`` to the number it ran (1: the usual one)."""

    __slots__ = ("allowed", "taken", "ran_on", "joint", "exchanged", "_claimed")

    def __init__(self, allowed: int, joint=None):
        self.allowed = int(allowed)
        self.taken = 1
        #: set by an operator that ran the step's work on to its fixed point
        #: in one call (SciPy's Dijkstra for a relaxation on the CPU)
        self.ran_on = False
        #: on a part of a multi-device run, the levels it may run with its
        #: peers (:class:`frontier.multi.joint_levels.JointLevels`): only
        #: those, each with its boundary, which then sets ``exchanged``
        self.joint = joint
        self.exchanged = False
        self._claimed = False


@contextlib.contextmanager
def level_batch(allowed: int, joint=None):
    """Open a :class:`LevelBatch` of ``allowed`` levels for the step run
    inside the block (this thread only); yields the batch. ``joint``: a
    part's joint levels (:attr:`LevelBatch.joint`)."""
    batch = LevelBatch(allowed, joint)
    previous = getattr(_open, "batch", None)
    _open.batch = batch
    try:
        yield batch
    finally:
        _open.batch = previous


def claim_batch() -> LevelBatch | None:
    """The open batch, if it allows more than one level and no operator of
    this step has claimed it yet; claiming it means the caller's output is
    the step's output. ``None`` outside a replayable step."""
    batch = getattr(_open, "batch", None)
    if batch is None or batch._claimed or batch.allowed < 2 or batch.joint is not None:
        return None
    batch._claimed = True
    return batch


def joint_batch() -> LevelBatch | None:
    """The open batch of a part whose levels may run with its peers'
    (``batch.joint``), if no operator of this step has claimed it yet;
    claiming it means the caller's output is the step's output, after the
    boundary of its last level."""
    batch = getattr(_open, "batch", None)
    if batch is None or batch._claimed or batch.joint is None:
        return None
    batch._claimed = True
    return batch


def check_replay(primitive, replayed, plain) -> None:
    """Raise :class:`~frontier.DeclarationError` if the ``replayed`` result
    of ``primitive`` differs from the ``plain`` one run level by level in an
    array the primitive combines by ``"min"``, ``"max"`` or ``"sum"``
    (arrays that follow another, such as a predecessor, may pick another of
    equal standing), or in another attribute it sets on its result (DOBFS's
    ``directions``). A primitive that declares no combined arrays has all
    its result arrays compared."""
    from .device import to_numpy
    from .primitive import DeclarationError

    name = primitive.__name__
    extras = sorted(set(plain.__dict__) - set(plain.arrays()) - RUN_STATISTICS)
    for extra in extras:  # what the primitive sets besides its arrays (DOBFS's directions)
        if getattr(replayed, extra, None) != getattr(plain, extra):
            raise DeclarationError(
                f"{name} declares replayable = True, but its result's {extra!r} differs when "
                f"{replayed.replayed_steps} steps run on: a step that records "
                "something of each iteration cannot be replayed")
    combined = [field for field, combiner in primitive.communicate.items()
                if isinstance(combiner, str)] or list(plain.arrays())
    for field in combined:
        ours, theirs = to_numpy(getattr(replayed, field)), to_numpy(getattr(plain, field))
        if not np.array_equal(ours, theirs, equal_nan=ours.dtype.kind == "f"):
            raise DeclarationError(
                f"{name} declares replayable = True, but its {field!r} differs when "
                f"{replayed.replayed_steps} steps run on (first at slot "
                f"{int(np.flatnonzero(ours != theirs)[0])}): its step must be one advance "
                "with a built-in claim or relaxation, whose output it returns")
