"""Multi-device execution: the enactor that runs a primitive on several
devices, the per-iteration exchange, communication strategies and
communicators (docs/multi-device.md)."""

from .communicator import Communicator, LocalGroup
from .enactor import enact_on_devices

__all__ = ["Communicator", "LocalGroup", "enact_on_devices"]
