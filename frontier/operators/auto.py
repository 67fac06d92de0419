"""``advance`` with an automatic direction (:class:`frontier.AutoDirection`).

Each call counts its frontier (size, out-edges, in-edges), lets the rule
choose push or pull, and advances that way. The counts come from the last
call when the frontier is that call's output: they were taken when it was
made, in the same device read that gives its size (on a GPU one kernel,
``tally_ids`` or ``tally_mask``; the latter also writes the bitmap a pull
reads the frontier from). So a level makes no pass over all vertices outside
the operator's kernels, and one device read of counts.

A push may run on past its level (:mod:`frontier.replay`: the step's level
batch, on one GPU, with the built-in claim): the levels kernels then push
level after level while Beamer's rule, checked on the device with the same
counts and arithmetic, keeps pushing, or all the remaining levels once the
rule pushes for good (after its pull phase, or a forced push). Likewise a
pull of Beamer's rule runs on in one launch (``pull_levels``) while the
rule keeps pulling, with one device read for the whole phase. On a graph
of large degrees the whole batch is one launch instead (:mod:`.auto_levels`:
push levels, the pull phase and the push levels after it, each decided on
the device). Gunrock's rule decides each level on the host.

A pull needs the level (the vertices found by the last level) and the
candidates (the unvisited vertices):

* on one device the level is the frontier. A built-in claim checks its own
  labels for candidates; any other functor with ``labels`` and ``unset``
  attributes gets ``labels == unset``, and one without them every vertex
  (its claim then refuses the visited ones);
* on a part of a graph on several devices the frontier holds owned vertices
  only, while a pull also finds parents among the copies of remote ones: the
  level is ``labels == value - 1`` (a claim labelled one more each level, as
  BFS's), so a functor without ``labels`` and ``value`` pushes there.
"""

from __future__ import annotations

import numpy as np

from ..frontier import Frontier
from ..replay import claim_batch

#: A GPU push over a list frontier reads its counts and output length in one
#: read (False: the operator's plain push, then the counts).
TALLIED_PUSH = True
#: A GPU pull phase of Beamer's rule runs its levels in one launch, with
#: one read (False: a launch and a read each; tests compare the two).
PULL_LEVELS = True
#: On a GPU graph of large degrees, Beamer's rule on one device runs a
#: whole level batch in one launch, every level decided on the device
#: (:mod:`.auto_levels`; False: the launches below, a host decision each).
AUTO_LEVELS = True


def auto_advance(advance, graph, frontier: Frontier, functor, switch, chunk_edges):
    """``advance(graph, frontier, functor)`` in the direction ``switch``
    chooses for this level (``advance``: the operator, called with a fixed
    direction). It claims the step's level batch (:mod:`frontier.replay`),
    if open: a push may run on (module docstring), any other level is one."""
    batch = claim_batch()
    ran = _all_levels(graph, frontier, functor, switch, batch)
    if ran is not None:
        return ran
    kept = switch.counts_of(frontier)
    if kept is None:  # not the last output: what was kept with it may be stale
        switch.operator_state.clear()
    counts, bits = None, None
    if switch.needs_counts():
        counts, bits = kept or frontier_counts(graph, frontier)
    can_pull = not switch.on_parts or _labelled(functor)
    output_counts = None  # the output's, where the push counted them
    if switch.decide(graph, counts, can_pull=can_pull) == "push":
        pushed = _push_levels(graph, frontier, functor, switch, counts, batch) \
            or _push_tallied(graph, frontier, functor, switch, counts)
        if pushed is not None:
            output, output_counts = pushed
        else:
            output = advance(graph, frontier, functor, chunk_edges=chunk_edges)
    elif switch.on_parts:
        level = Frontier.from_mask(functor.labels == functor.value - 1)
        output = advance(graph, level, functor, direction="pull", chunk_edges=chunk_edges,
                         among=_candidates(functor))
    else:
        pulled = _pull_levels(graph, frontier, functor, switch, batch, bits)
        if pulled is not None:
            output, output_counts = pulled
        else:
            output = _pull_fused(graph, frontier, functor, switch, bits) or \
                advance(graph, frontier, functor, direction="pull", chunk_edges=chunk_edges,
                        among=_candidates(functor))
    if switch.needs_counts() and not switch.on_parts:
        if output_counts is None:
            # a list's degrees cost its length: counted always (the next push
            # knows its edges then); a dense output's only while the rule needs them
            degrees = switch.needs_edges() or output.kind == "sparse"
            output_counts = frontier_counts(graph, output, switch.operator_state.get("visited"),
                                            degrees=degrees)
        switch.remember(output, output_counts)
    return output


def _all_levels(graph, frontier, functor, switch, batch):
    """The output of levels run in one launch of ``auto_levels``, each
    decided on the device (:mod:`.auto_levels`: the level batch ``batch``,
    on a GPU graph of large degrees, with Beamer's rule), recorded in
    ``switch``; ``None`` where that does not apply."""
    if not AUTO_LEVELS or batch is None:
        return None
    from . import auto_levels

    if not auto_levels.applies(graph, frontier, functor):
        return None
    phase = switch.device_phase(graph)
    if phase is None:
        return None
    ran = auto_levels.auto_levels(graph, frontier, functor, batch.allowed, phase, switch.alpha,
                                  switch.beta, switch.unexplored_edges)
    if ran is None:
        return None
    batch.taken = len(ran.pulled)
    switch.decided_all_on_device(ran.pulled, ran.visited, ran.consumed, ran.phase)
    switch.operator_state.clear()  # the launch's claims are in none of it
    switch.remember(ran.output, (ran.counts, None))
    return ran.output


def _push_levels(graph, frontier, functor, switch, counts, batch):
    """``(output, its counts)`` of push levels run on in the levels kernels
    (the level batch ``batch``; :func:`.fused.claim_levels_auto`), with the
    levels past the first recorded in ``switch``; ``None`` where that does
    not apply (no batch, the CPU, a rule decided on the host: Gunrock's
    before it pulls, a forced pull, parts)."""
    rule = None if batch is None else switch.device_rule()
    if rule is None or not graph.device.is_gpu \
            or getattr(functor, "fused", None) != "claim_unvisited":
        return None
    from .fused import claim_levels_auto

    alpha, unexplored = rule
    out_edges = counts[1] if counts is not None and switch.needs_edges() else None
    ran = claim_levels_auto(graph, frontier, functor, batch, alpha, unexplored, out_edges)
    if ran is None:
        return None
    switch.decided_on_device("push", batch.taken - 1, ran.visited, ran.consumed)
    return ran.output, (ran.counts, None)


def _pull_levels(graph, frontier, functor, switch, batch, bits):
    """``(output, its counts)`` of pull levels run on in one launch while
    Beamer's rule keeps pulling (the level batch ``batch``;
    :func:`.fused.pull_levels`, from the frontier's bitmap ``bits`` where
    its counts made one), the levels past the first recorded in
    ``switch``; ``None`` where that does not apply (no batch, the CPU,
    another functor or rule, a part of a graph)."""
    beta = None if batch is None or not PULL_LEVELS else switch.pulls_on_device()
    if beta is None or not graph.device.is_gpu \
            or getattr(functor, "fused", None) != "claim_unvisited":
        return None
    from .fused import pull_levels

    ran = pull_levels(graph, frontier, functor, batch, beta, bits)
    if ran is None:
        return None
    switch.decided_on_device("pull", batch.taken - 1, ran.visited, ran.consumed)
    switch.operator_state.pop("visited", None)  # the levels' claims are not in it
    return ran.output, (ran.counts, None)


def _push_tallied(graph, frontier, functor, switch, counts):
    """``(output, its counts)`` of a GPU push of the built-in claim over a
    list frontier, whose out-edges its counts hold: one device read for the
    level (:func:`.fused.claim_push_tallied`); ``None`` where that does not
    apply."""
    if not TALLIED_PUSH or counts is None or switch.on_parts or not graph.device.is_gpu \
            or frontier.kind != "sparse" or getattr(functor, "fused", None) != "claim_unvisited":
        return None
    from .fused import claim_push_tallied

    return claim_push_tallied(graph, frontier, functor, counts[1],
                              switch.operator_state.get("visited"), switch.needs_edges())


def _pull_fused(graph, frontier, functor, switch, bits):
    """A GPU pull of the built-in claim with the frontier's bitmap ``bits``
    and a bitmap of the vertices to skip (visited, or without in-edges),
    made from the labels at the first pull and kept up to date by the counts
    of each output; ``None`` where that does not apply."""
    if bits is None or getattr(functor, "fused", None) != "claim_unvisited" \
            or functor.labels.dtype != np.int32:
        return None
    from .fused import fused_advance, pull_skip_bits

    state = switch.operator_state
    if "visited" not in state:
        state["visited"] = pull_skip_bits(graph, functor.labels)
    return fused_advance(graph, frontier, functor, "pull", None, active=bits,
                         skip=state["visited"])


def _labelled(functor, names=("labels", "value", "unset")) -> bool:
    """Whether ``functor`` has all of ``names`` (a claim's labels, by default
    with the value it writes and the unset label)."""
    return all(hasattr(functor, name) for name in names)


def _candidates(functor):
    """The pull's candidates: ``None`` (every vertex) for a built-in claim,
    which checks its labels in its fast path, and for a functor without
    labels; the unlabelled vertices otherwise."""
    if getattr(functor, "fused", None) == "claim_unvisited" \
            or not _labelled(functor, ("labels", "unset")):
        return None
    return Frontier.from_mask(functor.labels == functor.unset)


def frontier_counts(graph, frontier: Frontier, visited=None, degrees: bool = True):
    """``((size, out-edges, in-edges), bits)`` of ``frontier``: on a GPU in
    one device read (which also sets the frontier's size), with the bitmap
    of a dense frontier as ``bits`` (``None`` otherwise), and the frontier
    added to the bitmap ``visited`` if given. Without ``degrees`` a GPU
    reads no degrees (the edge counts are 0)."""
    if graph.device.is_gpu:
        from .fused import tally

        return tally(graph, frontier, visited, degrees)
    ids = frontier.ids
    in_offsets = graph.in_edges().offsets
    return (len(ids), int((graph.offsets[ids + 1] - graph.offsets[ids]).sum()),
            int((in_offsets[ids + 1] - in_offsets[ids]).sum(dtype=np.int64))), None
