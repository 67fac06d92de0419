"""Arrays between GPUs by NCCL: the array half of an all-to-all.

Both transports that run one process per GPU (MPI ranks, and the enactor's
worker processes) move a message the same way: each message's table of
contents (the dtype and shape of every array) goes over the host, then one
NCCL group of sends and receives moves the arrays GPU to GPU (over NVLink
between the GPUs of one host), queued on the current stream: no host copy
and no host synchronization.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..device import Device


def alltoall(messages: list, rank: int, device: Device, communicator,
             exchange_contents: Callable[[list], list]) -> list:
    """Personalized all-to-all of lists of arrays (see
    :meth:`~frontier.multi.communicator.Communicator.alltoall`) over the NCCL
    ``communicator``; ``exchange_contents(posted)`` is a host all-to-all of
    the tables of contents (``posted[peer]``: ``[(dtype, shape), ...]`` or
    ``None``) that returns the tables received, by sender."""
    import cupy
    from cupy.cuda import nccl

    outgoing = [None if message is None else
                [cupy.ascontiguousarray(device.asarray(array)) for array in message]
                for message in messages]
    posted = [None if arrays is None else [(array.dtype.str, array.shape) for array in arrays]
              for arrays in outgoing]
    contents = exchange_contents(posted)
    incoming = [None if content is None else
                [cupy.empty(shape, dtype=np.dtype(dtype)) for dtype, shape in content]
                for content in contents]
    incoming[rank] = outgoing[rank]
    stream = cupy.cuda.get_current_stream().ptr
    nccl.groupStart()
    try:
        for peer in range(len(messages)):
            if peer == rank:
                continue
            for array in outgoing[peer] or ():
                if array.nbytes:
                    communicator.send(array.data.ptr, array.nbytes, nccl.NCCL_UINT8, peer, stream)
            for array in incoming[peer] or ():
                if array.nbytes:
                    communicator.recv(array.data.ptr, array.nbytes, nccl.NCCL_UINT8, peer, stream)
    finally:
        nccl.groupEnd()
    return incoming
