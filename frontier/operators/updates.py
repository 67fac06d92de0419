"""Race-free vertex updates for functors.

A functor sees a whole batch of edges at once, so several edges of a batch
may update the same vertex. These helpers apply such updates as the atomic
operations of a GPU kernel would, and return which entries of the batch
"won", so that a vertex enters the output frontier once:

* :func:`claim` -- set a label on vertices that have none yet (atomicCAS);
* :func:`scatter_min` -- lower values (atomicMin), reporting improvements;
* :func:`scatter_add` -- add contributions (atomicAdd);
* :func:`count_down` -- decrement counters, reporting those that reach a
  value (atomicSub: a dependency count reaching zero, a degree reaching k).

They work on NumPy and CuPy arrays alike.
"""

from __future__ import annotations

import numpy as np

from ..device import array_namespace


def first_occurrence(ids):
    """Boolean mask over ``ids``: true at one entry of each distinct id.

    Which one is unspecified (the first on the CPU); the set is deterministic
    in size and in the ids it covers.
    """
    xp = array_namespace(ids)
    mask = xp.zeros(len(ids), dtype=bool)
    if len(ids):
        _, first = xp.unique(ids, return_index=True)
        mask[first] = True
    return mask


def claim_positions(labels, ids, unset=-1):
    """The positions in ``ids`` that win a claim: one entry per distinct
    vertex whose label is ``unset``, none for the others. The labels of the
    winners' vertices are left scribbled (tickets): the caller writes them.
    """
    xp = array_namespace(labels)
    current = labels[ids]
    # NaN never equals itself, so an unset of NaN needs isnan.
    candidate = xp.flatnonzero(xp.isnan(current) if unset != unset else current == unset)
    target = ids[candidate]
    if len(target) == 0:
        return candidate
    if labels.dtype.kind == "i" and unset < 0 \
            and len(candidate) - unset < np.iinfo(labels.dtype).max:
        # Write a distinct ticket (below unset) per candidate; the ticket that
        # stays is the winner (one scatter and one gather instead of a sort).
        ticket = (unset - 1) - xp.arange(len(candidate), dtype=labels.dtype)
        # Many candidates (a hub level) on the host: find the tickets by
        # scanning the labels, which are fewer than the candidates' repeats.
        scan = xp is np and 4 * len(candidate) > len(labels) and labels.min() >= unset
        labels[target] = ticket
        if scan:
            return candidate[(unset - 1) - labels[np.flatnonzero(labels < unset)]]
        return candidate[labels[target] == ticket]
    return candidate[first_occurrence(target)]


def claim(labels, ids, value, unset=-1):
    """Give ``value`` to every vertex in ``ids`` whose label is still ``unset``.

    Parameters
    ----------
    labels : array, one per vertex (updated in place)
    ids : int array, the vertices to claim (repeats allowed)
    value : scalar or array aligned with ``ids``
    unset : the label of an unclaimed vertex (may be NaN for float labels)

    Returns
    -------
    won : bool array aligned with ``ids``
        True for exactly one entry per vertex that was unclaimed before the
        call; that entry's ``value`` is the one stored.
    """
    xp = array_namespace(labels)
    winner = claim_positions(labels, ids, unset)
    won = xp.zeros(len(ids), dtype=bool)
    if len(winner) == 0:
        return won
    won[winner] = True
    labels[ids[winner]] = value if np.isscalar(value) or getattr(value, "ndim", 1) == 0 \
        else value[winner]
    return won


def scatter_min(values, ids, candidates):
    """``values[ids] = min(values[ids], candidates)``, repeats in ``ids`` included.

    ``candidates`` is an array aligned with ``ids`` or a scalar.

    Returns
    -------
    improved : bool array aligned with ``ids``
        True for exactly one entry per vertex whose value went down, an entry
        whose candidate is the new value.
    """
    xp = array_namespace(values)
    # A scalar candidate applies to every id, as scatter_add's amount does.
    candidates = xp.broadcast_to(xp.asarray(candidates, dtype=values.dtype), ids.shape)
    better = xp.flatnonzero(candidates < values[ids])
    improved = xp.zeros(len(ids), dtype=bool)
    if len(better) == 0:
        return improved
    target, offer = ids[better], candidates[better]
    if xp is np:
        np.minimum.at(values, target, offer)
    else:
        from .fused import scatter_min as exact_scatter_min

        exact_scatter_min(values, target, offer)
    reached = better[values[target] == offer]
    improved[reached[first_occurrence(ids[reached])]] = True
    return improved


def scatter_add(values, ids, amounts):
    """``values[ids] += amounts``, repeats in ``ids`` adding up.

    Returns
    -------
    first : bool array aligned with ``ids``
        True at one entry per distinct id, to build a frontier without repeats.
    """
    xp = array_namespace(values)
    amounts = xp.asarray(amounts, dtype=values.dtype)
    xp.add.at(values, ids, amounts)
    return first_occurrence(ids)


def count_down(counts, ids, *, where=None, to=0):
    """``counts[ids] -= 1``, repeats in ``ids`` counting once each; report
    the counts that this took down to ``to``.

    Parameters
    ----------
    counts : int32 or int64 array, one per vertex (updated in place; the
        types of a GPU's atomic decrements)
    ids : int array, the vertices to count down (repeats allowed)
    where : bool array aligned with ``ids``, optional
        Count down only the entries where it is true.
    to : int
        The value to report reaching.

    Returns
    -------
    reached : bool array aligned with ``ids``
        True at exactly one entry per vertex whose count was above ``to``
        before the call and is at or below it after; the entry whose
        decrement found the count at ``to + 1`` (on the CPU, the vertex's
        first entry counted down). So a vertex enters the output
        frontier once, when its last dependency is counted, with no sort on
        a GPU (one atomic decrement per entry).

    Examples
    --------
    >>> import numpy as np
    >>> pending = np.array([2, 1, 3])
    >>> count_down(pending, np.array([0, 1, 0, 2])).tolist(), pending.tolist()
    ([True, True, False, False], [0, 0, 2])
    """
    xp = array_namespace(counts)
    if counts.dtype not in (np.int32, np.int64):
        raise TypeError(f"count_down needs int32 or int64 counts, not {counts.dtype}")
    if xp is not np:
        from .fused import count_down as atomic_count_down

        return atomic_count_down(counts, ids, where, to)
    counted = xp.arange(len(ids)) if where is None else xp.flatnonzero(where)
    targets = ids[counted]
    before = counts[targets]
    xp.add.at(counts, targets, counts.dtype.type(-1))
    crossed = xp.flatnonzero((before > to) & (counts[targets] <= to))
    reached = xp.zeros(len(ids), dtype=bool)
    reached[counted[crossed[first_occurrence(targets[crossed])]]] = True
    return reached
