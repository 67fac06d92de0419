"""What one all-to-all of worker processes costs by itself, apart from the
waiting for slower ranks that a run's boundary also pays.

K processes (one per GPU, as ``workers="processes"`` starts them: pipes
between every pair, one NCCL communicator each) meet at a barrier, then
time one operation on rank 0, with the device synchronized before and
after; median over ``--repeat`` meetings, microseconds:

* ``swap``: the host exchange alone (a small picklable item to each peer,
  as the table of contents of an all-to-all travels), pairwise over pipes;
* ``alltoall``: :meth:`PipeCommunicator.alltoall` of messages shaped like
  BFS's offers (three int32 arrays of ``--entries`` each to every peer):
  the table of contents over the pipes, then one NCCL group of a send and
  a receive per array;
* ``nccl``: the same NCCL group alone, its sizes known to every rank
  beforehand (no table of contents);
* ``nccl packed``: one send and receive per peer, the three arrays in one.

On a machine with K GPUs::

    NCCL_NVLS_ENABLE=0 PYTHONPATH=. python benchmarks/alltoall_cost.py --gpus 4 \\
        --entries 1000,300000

(The run makes no record: it prints one line per operation and size.)
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import statistics
import time


def _rank_main(rank: int, size: int, ends: list, unique_id, entries: list, repeat: int,
               results) -> None:
    import cupy
    import numpy as np
    from cupy.cuda import nccl

    from frontier.device import resolve_devices
    from frontier.multi.processes import PipeCommunicator, _nccl_communicator

    device = resolve_devices(f"cuda:{rank}")[0]
    cupy.cuda.Device(rank).use()
    comm = PipeCommunicator(rank, device, ends, _nccl_communicator(device, size, unique_id, rank))
    peers = [peer for peer in range(size) if peer != rank]

    def group(arrays_out: dict, arrays_in: dict) -> None:
        stream = cupy.cuda.get_current_stream().ptr
        nccl.groupStart()
        for peer in peers:
            for array in arrays_out[peer]:
                comm.nccl.send(array.data.ptr, array.nbytes, nccl.NCCL_UINT8, peer, stream)
            for array in arrays_in[peer]:
                comm.nccl.recv(array.data.ptr, array.nbytes, nccl.NCCL_UINT8, peer, stream)
        nccl.groupEnd()

    def timed(operation) -> float:
        comm.barrier()
        cupy.cuda.Device().synchronize()
        start = time.perf_counter()
        operation()
        cupy.cuda.Device().synchronize()
        return time.perf_counter() - start

    lines = []
    for count in entries:
        message = [cupy.arange(count, dtype=np.int32) for _ in range(3)]
        messages = [None if peer == rank else message for peer in range(size)]
        received = {peer: [cupy.empty(count, np.int32) for _ in range(3)] for peer in peers}
        packed = cupy.concatenate(message).view(np.uint8)
        packed_in = {peer: [cupy.empty_like(packed)] for peer in peers}
        header = [(np.dtype(np.int32).str, (count,))] * size
        operations = {
            "swap": lambda header=header: comm.swap(header),
            "alltoall": lambda messages=messages: comm.alltoall(messages),
            "nccl": lambda message=message, received=received:
                group({peer: message for peer in peers}, received),
            "nccl packed": lambda packed=packed, packed_in=packed_in:
                group({peer: [packed] for peer in peers}, packed_in),
        }
        for name, operation in operations.items():
            seconds = [timed(operation) for _ in range(repeat + 2)][2:]  # two warm-ups
            lines.append((name, count, statistics.median(seconds) * 1e6, min(seconds) * 1e6))
    if rank == 0:
        results.put(lines)
    comm.barrier()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gpus", type=int, default=2)
    parser.add_argument("--entries", default="1000,300000",
                        help="entries of each int32 array sent to each peer (comma list)")
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    from cupy.cuda import nccl

    size = args.gpus
    context = multiprocessing.get_context("spawn")
    ends = [[None] * size for _ in range(size)]
    for low, high in itertools.combinations(range(size), 2):
        ends[low][high], ends[high][low] = context.Pipe(duplex=True)
    unique_id = nccl.get_unique_id()
    results = context.Queue()
    entries = [int(value) for value in args.entries.split(",")]
    processes = [context.Process(target=_rank_main,
                                 args=(rank, size, ends[rank], unique_id, entries, args.repeat,
                                       results))
                 for rank in range(size)]
    for process in processes:
        process.start()
    lines = results.get(timeout=300)
    for process in processes:
        process.join(timeout=60)
    print(f"{size} GPUs, worker processes, rank 0, median (min) of {args.repeat} meetings")
    for name, count, median, best in lines:
        print(f"{name:12s} {count:9d} entries x 3 int32 a peer: {median:9.1f} us ({best:.1f})")


if __name__ == "__main__":
    main()
