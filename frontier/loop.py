"""The iteration loop every enactor runs: set up, step until converged."""

from __future__ import annotations

import contextlib
import dataclasses
import time

from .primitive import DeclarationError, checking_declarations
from .replay import HOST_LEVELS_PER_BATCH, LEVELS_PER_BATCH, level_batch
from .result import Result


@dataclasses.dataclass
class Steps:
    """What a run's loop counted: its iterations, the iterations replayed
    beyond one per step, the steps that ran on past one level, and the
    seconds before the first iteration."""

    iterations: int = 0
    replayed: int = 0
    ran_on: int = 0
    setup_s: float = 0.0
    #: on a GPU, events around the set-up, read by :func:`finish` once the
    #: device is done (so that the set-up's device work overlaps the first
    #: step's host work instead of being waited for)
    setup_events: tuple | None = None

    def __add__(self, other: Steps) -> Steps:
        return Steps(self.iterations + other.iterations, self.replayed + other.replayed,
                     self.ran_on + other.ran_on, max(self.setup_s, other.setup_s))


def iterate(run, max_iterations: int | None, boundary=None, budget=None,
            replay: bool = False) -> Result:
    """Run the primitive instance ``run`` to convergence and return its result
    with ``iterations``, ``elapsed_s``, ``setup_s``, ``replayed_levels``
    and ``replayed_steps`` filled in.

    ``boundary`` (multi-device runs) is called on the first frontier
    (``start``) and after every step (``synchronize``): it makes the
    devices' data consistent and returns the frontier of the next step.
    ``budget`` (a :class:`frontier.memory.Budget`) checks the memory the
    primitive allocated in ``setup`` before any iteration. ``replay``
    (one device, a primitive that declares ``replayable``) lets the
    operators run several levels of a step at once (:mod:`frontier.replay`);
    ``replayed_levels`` counts the levels so run beyond one per step, and
    ``replayed_steps`` the steps whose operator ran on past one level.
    """
    start = time.perf_counter()
    steps = run_steps(run, max_iterations, boundary, budget, replay)
    return finish(run, steps, start)


def run_steps(run, max_iterations: int | None, boundary=None, budget=None,
              replay: bool = False) -> Steps:
    """:func:`iterate`'s loop without the result: set up, step until
    converged, and say what was counted."""
    name = type(run).__name__
    start = time.perf_counter()
    began = _event_now(run.graph.device)
    run.setup()
    if budget is not None:
        budget.after_setup(run)
    frontier = run.initial_frontier()
    if boundary is not None:
        frontier = boundary.start(frontier)
    run.forget_fills()
    steps = Steps(setup_s=time.perf_counter() - start)
    if began is not None:
        steps.setup_events = (began, _event_now(run.graph.device))
    dense = _checks_dense_steps(run, boundary)
    joint = getattr(boundary, "joint", None)
    while not _stop(run, frontier, steps.iterations, boundary):
        iteration = steps.iterations
        if max_iterations is not None and iteration >= max_iterations:
            raise RuntimeError(f"{name} did not converge in {max_iterations} iterations")
        if dense:
            _check_dense(run, frontier, iteration)
        with _batch(replay or joint is not None, iteration, max_iterations,
                    run.graph.device.is_gpu, joint) as batch:
            frontier = run.step(frontier, iteration)
        if boundary is not None and not (batch is not None and batch.exchanged):
            frontier = boundary.synchronize(frontier)
        taken = 1 if batch is None else batch.taken
        steps.iterations += taken
        steps.replayed += taken - 1
        steps.ran_on += batch is not None and (taken > 1 or batch.ran_on)
    return steps


def finish(run, steps: Steps, start: float) -> Result:
    """``run``'s result with the counts of ``steps`` and the seconds since ``start``."""
    result = run.result()
    run.graph.device.synchronize()
    result.iterations = steps.iterations
    result.replayed_levels = steps.replayed
    result.replayed_steps = steps.ran_on
    result.elapsed_s = time.perf_counter() - start
    result.setup_s = steps.setup_s
    if steps.setup_events is not None:  # the device's time from the start to the first step
        began, ready = steps.setup_events
        result.setup_s = run.graph.xp.cuda.get_elapsed_time(began, ready) / 1e3
    return result


def _event_now(device):
    """On a GPU, a CUDA event recorded now on the current stream; ``None``
    on the CPU."""
    if not device.is_gpu:
        return None
    event = device.xp.cuda.Event()
    event.record()
    return event


def _batch(replay: bool, iteration: int, max_iterations: int | None, gpu: bool, joint=None):
    """The level batch a replayed step runs in (none without ``replay``),
    never reaching past ``max_iterations``; ``joint``: a part's joint
    levels (:mod:`frontier.multi.joint_levels`), the batch's only use then."""
    if not replay:
        return contextlib.nullcontext()
    most = LEVELS_PER_BATCH if gpu else HOST_LEVELS_PER_BATCH
    left = most if max_iterations is None else max_iterations - iteration
    return level_batch(min(most, left), joint)


def _stop(run, frontier, iteration: int, boundary) -> bool:
    """The primitive's ``converged``; on several devices, checked to be the
    same decision everywhere (a local answer would leave the others waiting)."""
    stop = bool(run.converged(frontier, iteration))
    return stop if boundary is None else boundary.agree(stop)


def _checks_dense_steps(run, boundary) -> bool:
    """Whether to check the primitive's ``dense_steps`` declaration: where
    it makes one and the declarations' checks are on; on every device if on
    any (the check is a collective)."""
    if not type(run).dense_steps:
        return False
    check = checking_declarations()
    return check if boundary is None else bool(run.reduce(int(check), "max"))


def _check_dense(run, frontier, iteration: int) -> None:
    """DeclarationError unless the frontier a step is given holds every
    vertex (after a boundary, each device holds its own vertices)."""
    held = int(run.reduce(frontier.unique().size))
    if held != run.num_vertices:
        raise DeclarationError(
            f"{type(run).__name__} declares dense_steps, but the frontier of its step "
            f"{iteration} holds {held} of the graph's {run.num_vertices} vertices")
