"""What a primitive shares between devices: its ``communicate`` declaration.

A primitive maps the names of its vertex arrays to how a multi-device run
keeps them consistent. At every iteration boundary each vertex's slots on
all devices hold the value of its owner (the device the partition gave it
to); what differs is what a write to a proxy (a non-owned slot) means:

``"min"``, ``"max"``
    The proxy's new value is an offer to the owner, which keeps the
    smaller (larger) of its value and the offers.
``"earliest"``
    As ``"min"`` among set values, for signed integers with -1 (any
    negative) for unset: an offer replaces an unset value or a larger one,
    never a set value with -1. A BFS depth is found once, at the earliest
    level, so an offer from a copy that lagged (a device that did not yet
    know the vertex was found) loses to the owner's depth.
``"sum"``
    The proxy's change since the last boundary is a contribution, added
    once to the owner's value.
a function ``f(current, offer) -> merged``
    Vectorized, associative, commutative and idempotent (``f(a, a) == a``,
    as for min, max or a bitwise or): applied to the owner's value and each
    offer in turn. An offer is the proxy's whole new value, which already
    includes the owner's old one, so an adding function would count it
    twice: use ``"sum"`` for that.
``"owner"``
    Only the owner's value counts: proxies are read-only copies, and what a
    step writes to them is dropped.
``follows("leader")``
    Paired merge: the array takes its value from the same update as the
    winning offer of ``leader`` (a ``"min"``, ``"max"`` or ``"earliest"``
    array), as a BFS predecessor follows the depth it was found with.

Arrays not declared stay local to each device; only their owned slots
reach the result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

COMBINERS = ("min", "max", "earliest", "sum", "owner")
#: The combiners an array may lead (``follows``) and under which a proxy may
#: keep the value it offered: the owner's value only moves one way.
ONE_WAY = ("min", "max", "earliest")


@dataclass(frozen=True)
class Follows:
    """Declaration of an array merged together with ``leader``'s winner."""

    leader: str


def follows(leader: str) -> Follows:
    """Declare a paired merge: take this array's value from the update whose
    ``leader`` value wins (see the module docstring)."""
    return Follows(leader)


@dataclass(frozen=True)
class Shared:
    """One declared array: its name, how proxies' writes merge, and the
    arrays that follow its winners."""

    name: str
    combine: str | Callable
    followers: tuple[str, ...] = ()

    @property
    def offers(self) -> bool:
        """Whether a write to a proxy is sent to the owner."""
        return self.combine != "owner"


def declarations(primitive: type) -> list[Shared]:
    """The validated ``communicate`` declaration of a primitive class, with
    each follower listed under its leader.

    Raises
    ------
    ValueError
        For an unknown combiner, a follower of an undeclared array, or a
        leader that is not a ``"min"``/``"max"``/``"earliest"`` array.
    """
    declared = dict(primitive.communicate)
    where = f"{primitive.__name__}.communicate"
    followers: dict[str, list[str]] = {}
    for name, combine in declared.items():
        if isinstance(combine, Follows):
            leader = declared.get(combine.leader)
            if leader not in ONE_WAY:
                raise ValueError(
                    f"{where}[{name!r}] follows {combine.leader!r}, which must be declared "
                    f"'min', 'max' or 'earliest' (it is {leader!r})")
            followers.setdefault(combine.leader, []).append(name)
        elif combine not in COMBINERS and not callable(combine):
            raise ValueError(f"{where}[{name!r}] = {combine!r}: expected one of {COMBINERS}, "
                             "follows(name) or a function")
    return [Shared(name, combine, tuple(followers.get(name, ())))
            for name, combine in declared.items() if not isinstance(combine, Follows)]
