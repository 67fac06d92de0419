"""Result objects: named arrays plus run statistics."""

from __future__ import annotations

import dataclasses

from .device import to_numpy


@dataclasses.dataclass
class Result:
    """Base of every primitive's result: a dataclass whose fields are arrays.

    After a run, ``iterations`` holds the number of enactor iterations,
    ``elapsed_s`` the wall time of the run (device work included) and
    ``setup_s`` the part of it spent before the first iteration (allocating
    and initialising the primitive's data).
    """

    def __post_init__(self):
        self.iterations = 0
        self.elapsed_s = 0.0
        self.setup_s = 0.0

    def arrays(self) -> dict:
        """The result's arrays by field name."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    def to_numpy(self) -> Result:
        """A copy of this result with every array on the host (NumPy)."""
        host = dataclasses.replace(self, **{k: to_numpy(v) for k, v in self.arrays().items()})
        host.iterations, host.elapsed_s, host.setup_s = \
            self.iterations, self.elapsed_s, self.setup_s
        return host
