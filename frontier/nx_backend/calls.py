"""How often the backend ran each function, and how often it declined one.

``calls[name]`` counts the runs of ``name`` by the backend, ``declined[name]``
the times it left ``name`` to NetworkX (``can_run`` said no, or the function
found the input unsupported). With the environment variable
``FRONTIER_NX_BACKEND_LOG`` set to a file name, each process appends one JSON
line with both counts when it exits: that is how a test running NetworkX's
suite in a subprocess proves the backend really ran.
"""

from __future__ import annotations

import atexit
import json
import os
from collections import Counter

LOG_VARIABLE = "FRONTIER_NX_BACKEND_LOG"

calls: Counter = Counter()
declined: Counter = Counter()


def record_call(name: str) -> None:
    calls[name] += 1


def record_decline(name: str) -> None:
    declined[name] += 1


def counts() -> dict:
    """``{"calls": {name: n}, "declined": {name: n}}`` so far in this process."""
    return {"calls": dict(calls), "declined": dict(declined)}


def _append_counts(path: str) -> None:
    with open(path, "a", encoding="utf-8") as log:
        log.write(json.dumps({"pid": os.getpid(), **counts()}) + "\n")


if os.environ.get(LOG_VARIABLE):
    atexit.register(_append_counts, os.environ[LOG_VARIABLE])
