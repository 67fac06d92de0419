"""Where a multi-GPU run spends its time: a per-rank timeline of phases.

Runs a primitive once to warm up, then once more with the exchange's and
the primitive's phases wrapped in timers that synchronize the rank's device
before and after (so a phase is charged with its own GPU work, not with work
queued before it). Prints each rank's exclusive time per phase, summed over
the run; ``collective`` is time in the communicator's barriers, i.e. waiting
for the other ranks. The synchronization slows the run a little; the
unwrapped run's time is printed beside it.

    python benchmarks/profile_multi_gpu.py --scale 22 --primitive bfs --gpus 2
    python benchmarks/profile_multi_gpu.py --scale 22 --primitive bfs --workers processes
    python benchmarks/profile_multi_gpu.py --scale 22 --primitive bfs --shared --cprofile 25
    python benchmarks/profile_multi_gpu.py --scale 22 --shared --cprofile 25 --blocking
    mpirun -n 2 python benchmarks/profile_multi_gpu.py --scale 22 --mpi

With ``--workers processes`` rank 0 runs here and the others in worker
processes (``workers="processes"``); only rank 0's timeline is printed, with
``collective`` its pipe exchanges and NCCL calls (waiting for the others).
With ``--mpi`` every rank is a process (``devices="mpi"``) and prints its
own timeline; ``collective`` is then the MPI communicator's calls (waiting
for the other ranks, and the transfers). ``--mpi --cprofile N`` instead
prints rank 0's N functions with the most host time of their own, and
Frontier's N with the most in all (cProfile;
one thread per process, so the time lands in the right frames; waiting for
the device is charged to the call that synchronizes). ``--blocking`` sets
``CUDA_LAUNCH_BLOCKING=1`` before CuPy loads, so that each kernel's time is
charged to the line that launched it (parts sharing a GPU still wait for
each other's kernels). ``--host-only`` leaves the phases unsynchronized:
each is charged with its host time, waits for the device or the
interpreter lock included. ``--calls N`` times N calls and prints the
average per call.

Besides the boundaries' phases it times a call's fixed work (the
primitive's ``setup``, the first boundary, the gather on rank 0) and the
joint levels' pieces (their start, the claims' and merges' launches, the
meeting, and ``read``, which holds the wait for the device):

    python benchmarks/profile_multi_gpu.py --scale 24 --gpus 2 --host-only --calls 10
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections import defaultdict

if "--blocking" in sys.argv:  # before CuPy loads
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"

import frontier as fr  # noqa: E402
import frontier.multi.communicator as communicator  # noqa: E402
import frontier.multi.enactor as enactor  # noqa: E402
import frontier.multi.exchange as exchange  # noqa: E402
import frontier.multi.joint_levels as joint_levels  # noqa: E402
import frontier.multi.mpi as mpi  # noqa: E402
import frontier.multi.output_exchange as output_exchange  # noqa: E402
import frontier.multi.processes as processes  # noqa: E402
import frontier.multi.view as view  # noqa: E402
from frontier.bench.harness import bc_seed  # noqa: E402
from primitives import betweenness_centrality, bfs, connected_components, dobfs, pagerank, sssp  # noqa: E402
from primitives.bc import Brandes  # noqa: E402
from primitives.bfs import BFS  # noqa: E402
from primitives.cc import ConnectedComponents  # noqa: E402
from primitives.dobfs import DOBFS  # noqa: E402
from primitives.pagerank import PageRank  # noqa: E402
from primitives.sssp import SSSP  # noqa: E402

#: name -> (the primitive class whose step is timed, a call from source s)
PRIMITIVES = {
    "bfs": (BFS, lambda G, s, **o: bfs(G, s, **o)),
    "dobfs": (DOBFS, lambda G, s, **o: dobfs(G, s, **o)),
    "sssp": (SSSP, lambda G, s, **o: sssp(G, s, **o)),
    "cc": (ConnectedComponents, lambda G, s, **o: connected_components(G, **o)),
    "pagerank": (PageRank, lambda G, s, **o: pagerank(G, tol=1e-9, max_iter=1000, **o)),
    "bc": (Brandes, lambda G, s, **o: betweenness_centrality(G, k=1, seed=bc_seed(G, 0), **o)),
}

_local = threading.local()
#: Whether a phase synchronizes its device before and after (``--host-only``: no)
SYNCHRONIZE = True
totals: dict = defaultdict(lambda: defaultdict(float))


def _timed(owner, attribute: str, phase: str) -> None:
    """Wrap ``owner.attribute`` so its exclusive time is charged to ``phase``
    of the calling rank (a thread named after its device)."""
    plain = getattr(owner, attribute)

    def wrapped(*arguments, **keywords):
        device = getattr(_local, "device", None)
        if device is None:
            return plain(*arguments, **keywords)
        if SYNCHRONIZE:
            device.synchronize()
        stack = _local.stack
        stack.append(0.0)
        begin = time.perf_counter()
        try:
            return plain(*arguments, **keywords)
        finally:
            if SYNCHRONIZE:
                device.synchronize()
            spent = time.perf_counter() - begin
            children = stack.pop()
            totals[_local.rank][phase] += spent - children
            if stack:
                stack[-1] += spent
    setattr(owner, attribute, wrapped)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=22)
    parser.add_argument("--primitive", default="bfs", choices=sorted(PRIMITIVES))
    parser.add_argument("--gpus", type=int, default=2)
    parser.add_argument("--duplication", default="all")
    parser.add_argument("--workers", default="threads", choices=("threads", "processes"))
    parser.add_argument("--cpu", action="store_true", help="virtual CPU devices (a smoke run)")
    parser.add_argument("--shared", action="store_true",
                        help="the --gpus parts all on device 0 (issue 27)")
    parser.add_argument("--mpi", action="store_true",
                        help="one process per device, under mpirun (devices='mpi')")
    parser.add_argument("--cprofile", type=int, metavar="N",
                        help="rank 0's top N functions by own host time")
    parser.add_argument("--host-only", action="store_true",
                        help="no synchronization around phases: host time, waits included")
    parser.add_argument("--blocking", action="store_true",
                        help="CUDA_LAUNCH_BLOCKING=1: kernel time on its launching line")
    parser.add_argument("--calls", type=int, default=1,
                        help="timed calls; the phases are averaged over them")
    args = parser.parse_args()
    global SYNCHRONIZE
    SYNCHRONIZE = not args.host_only
    if args.mpi:
        rank = mpi.world().Get_rank()
        home = mpi.rank_device(mpi.world()).name
        devices, count = "mpi", mpi.world().Get_size()
    else:
        base = "cpu" if args.cpu else "cuda"
        rank, home, count = 0, f"{base}:0", args.gpus
        devices = [f"{base}:{0 if args.shared else i}" for i in range(args.gpus)]
    G = fr.generators.kronecker(args.scale, 16, seed=0, device=home, progress=False)
    source = int(fr.to_numpy(G.out_degree()).argmax())
    kind, run = PRIMITIVES[args.primitive]
    options = {"devices": devices, "duplication": args.duplication}
    if not args.mpi:
        options["workers"] = args.workers
    run(G, source, devices=home)
    single = run(G, source, devices=home)
    run(G, source, **options)
    plain = run(G, source, **options)

    if args.cprofile and args.mpi:
        _host_profile(run, G, source, options, rank, args.cprofile)
        return
    if args.cprofile:
        _thread_profile(run, G, source, options, args.cprofile)
        return
    rank_plain = enactor.run_rank

    def run_rank(*arguments, **keywords):
        communicator = keywords["communicator"] if "communicator" in keywords else arguments[4]
        _local.device, _local.rank, _local.stack = communicator.device, communicator.rank, []
        return rank_plain(*arguments, **keywords)

    enactor.run_rank = mpi.run_rank = processes.run_rank = run_rank
    _timed(kind, "setup", "setup")
    _timed(kind, "step", "step")
    _timed(enactor, "gather_result", "gather on rank 0")
    _timed(exchange.Exchange, "start", "first boundary")
    levels = joint_levels._Buffers
    for verb in ("start", "bind"):
        _timed(levels, verb, "joint levels: start")
    _timed(levels, "claim", "joint levels: claim launches")
    _timed(levels, "merge", "joint levels: merge launches")
    _timed(levels, "read", "joint levels: read (waits for the device)")
    _timed(joint_levels.JointLevels, "_meet", "joint levels: meeting")
    # an automatic direction's joint levels (DOBFS)
    _timed(levels, "clear_front", "joint levels: start")
    _timed(levels, "pull", "joint levels: pull launches")
    _timed(levels, "tally", "joint levels: tally launches")
    _timed(levels, "read_tally", "joint levels: read (waits for the device)")
    if args.workers == "threads" and kind.converged is not fr.Primitive.converged:
        # wrapping the default converged would make the framework take stop
        # votes and leave out the joint levels (it would no longer be the
        # default); worker processes run the plain class and would not vote
        # with rank 0
        _timed(kind, "converged", "converged")
    _timed(exchange.Exchange, "synchronize", "exchange: change masks, restore, refresh lists")
    _timed(exchange.Exchange, "_offer_and_merge", "exchange: offers (select, gather)")
    _timed(exchange, "merge", "exchange: merge offers")
    _timed(exchange.Exchange, "_refresh", "exchange: refresh (gather, scatter)")
    _timed(exchange.Exchange, "_next_frontier", "exchange: next frontier")
    _timed(exchange.Exchange, "agree", "agree on stopping")
    output = output_exchange.OutputExchange
    _timed(output, "synchronize", "output boundary: rest")
    _timed(output, "_split", "output boundary: split by owner")
    _timed(output, "_combine", "output boundary: combine offers")
    _timed(output, "_changed", "output boundary: changed slots")
    _timed(output, "_push_refreshes", "output boundary: refresh copies")
    _timed(output, "_alltoall", "output boundary: alltoall")
    _timed(view.PartView, "reduce", "reductions")
    _timed(view.PartView, "vertex_sum", "reductions")
    _timed(communicator.LocalCommunicator, "_exchange", "collective (barriers, peer copies)")
    for verb in ("alltoall", "alltoall_and_sum", "allreduce", "barrier"):
        _timed(mpi.MpiCommunicator, verb, "collective (MPI calls, transfers)")
    _timed(processes.PipeCommunicator, "swap", "collective (pipes, waiting for the others)")
    _timed(processes.nccl, "alltoall", "alltoall (NCCL transfers, buffers)")
    for _ in range(args.calls):
        timed = run(G, source, **options)
    for phases in totals.values():
        for phase in phases:
            phases[phase] /= args.calls
    if args.mpi and rank != 0:
        mpi.world().gather(dict(totals), root=0)
        return
    if args.mpi:
        for other in mpi.world().gather(dict(totals), root=0)[1:]:
            totals.update(other)
    print(f"{args.primitive} scale {args.scale}: 1 GPU {single.elapsed_s * 1e3:.2f} ms; "
          f"{count} GPUs {plain.elapsed_s * 1e3:.2f} ms ({timed.elapsed_s * 1e3:.2f} ms "
          f"timed; phases per call over {args.calls}) in {plain.iterations} iterations, "
          f"{plain.exchanged_bytes / 2**20:.1f} MiB sent"
          f"{', ' + plain.partition['transport'] if args.mpi else ''}")
    for rank in sorted(totals):
        print(f"rank {rank}:")
        for phase, seconds in sorted(totals[rank].items(), key=lambda item: -item[1]):
            print(f"  {seconds * 1e3:9.2f} ms  {phase}")


def _host_profile(run, G, source, options, rank: int, top: int) -> None:
    """One more run under cProfile; rank 0 prints its ``top`` functions."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.enable()
    result = run(G, source, **options)
    profile.disable()
    if rank == 0:
        print(f"{result.elapsed_s * 1e3:.2f} ms under cProfile, {result.iterations} iterations")
        stats = pstats.Stats(profile)
        stats.sort_stats("tottime").print_stats(top)
        stats.sort_stats("cumulative").print_stats("frontier|primitives", top)


def _thread_profile(run, G, source, options, top: int) -> None:
    """One more run with rank 0's thread under cProfile; prints its ``top``
    functions by own time and Frontier's by cumulative time."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    rank_plain = enactor.run_rank

    def run_rank(*arguments, **keywords):
        communicator = keywords["communicator"] if "communicator" in keywords else arguments[4]
        if communicator.rank != 0:
            return rank_plain(*arguments, **keywords)
        profile.enable()
        try:
            return rank_plain(*arguments, **keywords)
        finally:
            profile.disable()

    enactor.run_rank = run_rank
    result = run(G, source, **options)
    enactor.run_rank = rank_plain
    print(f"{result.elapsed_s * 1e3:.2f} ms with rank 0 under cProfile, "
          f"{result.iterations} iterations")
    stats = pstats.Stats(profile)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats("frontier|primitives", top)


if __name__ == "__main__":
    main()
