"""Python's cyclic garbage collector, paused while a block builds many
Python containers (a path per vertex, a tuple per edge)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Turn Python's cyclic garbage collector off for the block, and leave
    it as it was (on or off) after, also when the block raises.

    Each few hundred new containers set the collector off, and its fuller
    runs walk every tracked object the process holds: an answer of a list
    per vertex, next to a NetworkX graph's dict per node and per edge,
    spends most of its time there (1.0 of the 1.5 s of
    ``single_source_shortest_path`` on a 200,000-node Barabasi-Albert graph,
    development CPU; 2-3x the time of building the paths at Kronecker 20).
    What the block drops is still freed by reference counting; a cycle it
    leaves is collected by the first collection after it.

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
