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
    and initialising the primitive's data). ``devices`` names the devices it
    ran on; a multi-device run also sets ``partition`` (the partition's
    metrics, :meth:`partition.Partition.to_dict`), ``exchanged_bytes`` (bytes
    sent between devices) and ``exchange_s`` (time spent exchanging, summed
    over devices). Other non-field attributes a subclass sets (DOBFS's
    ``directions``) travel with the result too.
    """

    def __post_init__(self):
        self.iterations = 0
        self.elapsed_s = 0.0
        self.setup_s = 0.0
        self.devices: tuple[str, ...] = ()
        self.partition: dict | None = None
        self.exchanged_bytes = 0
        self.exchange_s = 0.0

    def arrays(self) -> dict:
        """The result's arrays by field name."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    def to_numpy(self) -> Result:
        """A copy of this result with every array on the host (NumPy)."""
        host = dataclasses.replace(self, **{k: to_numpy(v) for k, v in self.arrays().items()})
        fields = {field.name for field in dataclasses.fields(self)}
        host.__dict__.update({k: v for k, v in self.__dict__.items() if k not in fields})
        return host
