"""The base class of a primitive and the view it has of the whole graph.

A primitive subclasses :class:`Primitive` and declares

* its vertex data, allocated in :meth:`Primitive.setup`;
* its first frontier, :meth:`Primitive.initial_frontier`;
* one iteration, :meth:`Primitive.step` (a few operator calls);
* when to stop, :meth:`Primitive.converged` (default: no vertex is active);
* its answer, :meth:`Primitive.result`;
* ``communicate``: which vertex arrays a multi-device run keeps consistent
  and how (:mod:`frontier.communicate`).

``self.graph`` is the graph the operators walk: the whole graph on one
device, this device's part of it on several. Whatever needs the whole graph
goes through the methods below, which are the identity on one device:
global counts (:attr:`num_vertices`, :attr:`num_arcs`), global reductions
(:meth:`reduce`, :meth:`vertex_sum`), and the caller's vertex ids
(:meth:`vertex_ids`, :meth:`slot_of`, :meth:`local_slots`, and
:meth:`vertex_array` filled from a per-vertex array).
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

from .direction import AutoDirection
from .frontier import Frontier
from .graph import Graph, check_vertex, index_dtype
from .kernels.fill import fill as fill_array
from .kernels.fill import put
from .result import Result

REDUCTIONS = ("sum", "min", "max")


def same_slots(graph: Graph, vertices: list, num_vertices: int):
    """``vertices`` (checked ids of a graph of ``num_vertices``) as slots of
    ``graph`` where every vertex is its own slot, in ``index_dtype`` (the
    fused kernels' usual type); one vertex is a fill queued on the stream,
    not a synchronous copy."""
    dtype = index_dtype(num_vertices)
    if len(vertices) == 1 and graph.xp is not np:
        slots = graph.xp.empty(1, dtype=dtype)
        fill_array(slots, vertices[0])
        return slots
    return graph.xp.asarray(vertices, dtype=dtype)


class WholeGraph:
    """The view of a primitive that runs on the whole graph: slots are the
    caller's vertex ids and every reduction is already global."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.num_vertices = graph.num_vertices
        self.num_arcs = graph.num_arcs
        self._ids = None

    def vertex_ids(self):
        if self._ids is None:
            n = self.num_vertices
            self._ids = self.graph.xp.arange(n, dtype=index_dtype(n))
        return self._ids

    def slot_of(self, vertices):
        return self.graph.xp.asarray(vertices)

    def local_slots(self, vertices: list):
        # every vertex has its slot here
        return same_slots(self.graph, vertices, self.num_vertices)

    def per_vertex(self, values):
        return self.graph.device.asarray(values)

    def refill(self, array, value, touched) -> None:
        array[touched] = value

    def reduce(self, value, op: str):
        return value

    def reduce_each(self, values, op: str):
        return list(values)

    def vertex_sum(self, values):
        return values.sum()

    def vertex_sums(self, arrays) -> list:
        return [values.sum() for values in arrays]


#: Environment variable that turns on the checks of a primitive's
#: declarations (``changes_only_in_output``, ``copies_may_lag``,
#: ``uniform_setup``, ``replayable``, ``dense_steps``); the test suite sets it.
CHECK_VARIABLE = "FRONTIER_CHECK_DECLARATIONS"


class DeclarationError(AssertionError):
    """A primitive broke one of its declarations (``changes_only_in_output``,
    ``uniform_setup``, ``replayable``, ``dense_steps``)."""


def checking_declarations() -> bool:
    """Whether :data:`CHECK_VARIABLE` asks for the declarations' checks."""
    return os.environ.get(CHECK_VARIABLE, "") not in ("", "0")


class Primitive:
    """Base class of a graph primitive; see the module docstring."""

    #: vertex arrays a multi-device run keeps consistent: name -> combiner
    communicate: dict[str, str | Callable] = {}
    #: True if the step writes the ``communicate`` arrays only at vertices of
    #: the frontier it returns, each only in its combiner's direction ("min":
    #: down, "max": up): a multi-device run's boundary then works from that
    #: frontier instead of comparing every slot (:mod:`frontier.multi.output_exchange`;
    #: checked in tests with ``FRONTIER_CHECK_DECLARATIONS=1``).
    changes_only_in_output: bool = False
    #: True if the answer does not depend on a device's copies of other
    #: devices' vertices being current: a copy that lags behind its owner in
    #: its combiner's direction (higher for "min", lower for "max") costs at
    #: most an offer the owner turns down. With ``changes_only_in_output``
    #: the boundary then sends offers only and no refreshes (SSSP, BFS that
    #: only pushes: a property where it depends on the parameters; checked
    #: in tests against one device, without refreshes and, with
    #: ``FRONTIER_CHECK_DECLARATIONS=1``, with a random half of them).
    copies_may_lag: bool = False
    #: True if ``setup`` writes the ``communicate`` arrays from the
    #: parameters and the vertices' ids alone (``vertex_array`` fills,
    #: ``put`` at ``local_slots``, ``vertex_ids``), never from a part's own
    #: edges or frontier: every copy of a vertex then starts equal to its
    #: owner's entry, and a multi-device run skips the first boundary's
    #: refresh (checked in tests with ``FRONTIER_CHECK_DECLARATIONS=1``: the
    #: refresh runs and must change nothing).
    uniform_setup: bool = False
    #: True if the step's work is one ``advance`` with a built-in claim (its
    #: value growing by one per iteration) or relaxation whose output it
    #: returns, and the run ends when the frontier is empty: on one device
    #: the operators may then run several iterations per host round trip
    #: (:mod:`frontier.replay`; checked in tests with
    #: ``FRONTIER_CHECK_DECLARATIONS=1``).
    replayable: bool = False
    #: True if every step's frontier holds every vertex (a power iteration,
    #: as PageRank and HITS are): each boundary then refreshes the declared
    #: values of most vertices, which a device holding only its own vertices
    #: and their neighbours receives for its neighbours alone, so a
    #: multi-device run's default ``duplication`` is ``"one_hop"``
    #: (:func:`frontier.enactor.default_duplication`; checked in tests with
    #: ``FRONTIER_CHECK_DECLARATIONS=1``).
    dense_steps: bool = False
    #: The name of a list option whose items the run takes one after
    #: another, each on its own (betweenness's ``sources``), where
    #: :meth:`absorb` adds one run's work to another's: on a CPU with several
    #: cores a run may then split the list, run the pieces side by side in
    #: threads and absorb them into the first before its ``result``
    #: (:mod:`frontier.split_runs`; checked in tests with
    #: ``FRONTIER_CHECK_DECLARATIONS=1`` against one run over the whole list).
    independent_items: str | None = None
    #: the names of the primitive's own options (``self.params``); when set,
    #: the enactor rejects others and requires these. ``None``: not checked.
    parameters: tuple[str, ...] | None = None
    #: values of those ``parameters`` a caller may leave out
    defaults: dict = {}
    #: the options that name one vertex each (a source): on a graph with
    #: ``node_labels`` the caller names it by node, and the enactor hands
    #: the primitive its vertex id (:meth:`Graph.vertex_id`)
    vertex_parameters: tuple[str, ...] = ()

    def __init__(self, graph: Graph, **params):
        self.graph = graph
        self.xp = graph.xp
        self.params = {**self.defaults, **params}
        self.view = WholeGraph(graph)
        # id(array) -> (array, fill) of vertex_array's scalar fills, until the
        # first boundary has used them (forget_fills): None from then on
        self._fills: dict | None = {}
        # id(array) -> array of local_slots' results: slots checked on the
        # host, which frontier_of need not check again on the device
        self._checked_slots: dict = {}

    def setup(self) -> None:
        """Allocate and initialise the primitive's vertex data."""

    def initial_frontier(self) -> Frontier:
        raise NotImplementedError(f"{type(self).__name__} must define initial_frontier()")

    def step(self, frontier: Frontier, iteration: int) -> Frontier:
        raise NotImplementedError(f"{type(self).__name__} must define step()")

    def converged(self, frontier: Frontier, iteration: int) -> bool:
        """True when the run is over; by default when no vertex is active."""
        return self.reduce(frontier.size) == 0

    def result(self) -> Result:
        raise NotImplementedError(f"{type(self).__name__} must define result()")

    def absorb(self, other: Primitive) -> None:
        """Add the work of ``other``, a run of the same primitive over other
        items of :attr:`independent_items`, to this run's. ``result`` is
        then called on this run with ``self.params`` those of the whole run."""
        raise NotImplementedError(f"{type(self).__name__} declares independent_items "
                                  "and must define absorb()")

    # the whole graph ---------------------------------------------------------------

    @property
    def num_vertices(self) -> int:
        """Vertices of the whole graph (``self.graph`` may hold a part)."""
        return self.view.num_vertices

    @property
    def num_arcs(self) -> int:
        """Stored arcs of the whole graph."""
        return self.view.num_arcs

    def reduce(self, value, op: str = "sum"):
        """``value`` (a scalar) combined over all devices with ``"sum"``,
        ``"min"`` or ``"max"``: the same result everywhere, for decisions
        such as "is any vertex still active". The identity on one device."""
        if op not in REDUCTIONS:
            raise ValueError(f"reduce op={op!r}: expected one of {REDUCTIONS}")
        return self.view.reduce(value, op)

    def reduce_each(self, values, op: str = "sum") -> list:
        """Each of ``values`` (scalars) combined over all devices with
        ``op``, in one meeting of the devices where :meth:`reduce` would
        make one per value: a decision on several global counts (a
        direction rule's frontier size and edges). A list, the same
        everywhere."""
        if op not in REDUCTIONS:
            raise ValueError(f"reduce op={op!r}: expected one of {REDUCTIONS}")
        return self.view.reduce_each(values, op)

    def vertex_sum(self, values):
        """The sum of a per-vertex array over the vertices of the whole
        graph, each counted once (a scalar, the same on every device)."""
        return self.view.vertex_sum(values)

    def vertex_sums(self, arrays) -> list:
        """:meth:`vertex_sum` of each of ``arrays``, in one meeting of the
        devices where :meth:`vertex_sum` makes one per array (PageRank's
        change and dangling mass). A list, the same on every device."""
        return self.view.vertex_sums(arrays)

    def auto_direction(self, rule: str = "beamer", **settings) -> AutoDirection:
        """An :class:`~frontier.AutoDirection` for one traversal of this run:
        pass it as ``advance(..., direction=...)`` at every level. Its counts
        are those of the whole graph, on any number of devices.
        ``settings``: ``alpha``, ``beta``, ``do_a``, ``do_b``, ``force``."""
        parts = not isinstance(self.view, WholeGraph)
        # the view's reduce, not this run's: the run holds the direction, and a
        # method of the run would tie the two in a reference cycle
        return AutoDirection(rule, **settings, reduce=self.view.reduce if parts else None,
                             reduce_each=self.view.reduce_each if parts else None,
                             num_vertices=self.num_vertices, num_arcs=self.num_arcs)

    # vertex ids ----------------------------------------------------------------------

    def vertex_ids(self):
        """The caller's vertex id of every slot of this primitive's arrays
        (``arange(n)`` on one device). Use it where a vertex id is a value,
        as a component label is."""
        return self.view.vertex_ids()

    def slot_of(self, vertices):
        """The slot of each caller vertex id in ``vertices`` (an array); -1
        for a vertex without a slot here (never on one device)."""
        return self.view.slot_of(vertices)

    def local_slots(self, vertices, name: str = "vertex"):
        """The slots of those of the caller's ``vertices`` (a sequence of
        ints, e.g. ``[source]``) that have one here.

        Raises
        ------
        ValueError
            If an entry is not an integer vertex id of the whole graph
            (the message names ``name``).
        """
        slots = self.view.local_slots([check_vertex(self.num_vertices, v, name)
                                       for v in vertices])
        self._checked_slots[id(slots)] = slots
        return slots

    def put(self, array, slots, value) -> None:
        """``array[slots] = value``: a vertex array's entries at ``slots``
        set to one ``value`` (a source's depth or distance). Slots from
        :meth:`local_slots` take one launch on a GPU, where CuPy's indexed
        assignment makes several (45-90 us of host work before the first
        step); other slots are assigned as the array library does."""
        if self._checked(slots):
            put(array, slots, value)
        else:
            array[slots] = value

    def refill(self, array, value, touched) -> None:
        """Set ``array`` (a vertex array) back to ``value`` at least at the
        slots ``touched`` (those this run wrote since the last refill): on
        one device there, on several at every slot, alike on every device,
        so that every copy of a vertex holds ``value`` and no boundary need
        send it (betweenness clears its arrays between sources so). Call it
        on every device in the same step, as a decision taken on global
        values leads there: a run whose devices refilled a different number
        of times ends in :class:`DeclarationError`."""
        self.view.refill(array, value, touched)

    def _checked(self, slots) -> bool:
        """Whether ``slots`` is an array :meth:`local_slots` returned (its
        slots checked on the host already)."""
        return self._checked_slots.get(id(slots)) is slots

    # allocation ------------------------------------------------------------------------

    def vertex_array(self, fill, dtype=None):
        """A new array with one entry per vertex slot, on the graph's device:
        ``fill`` everywhere, or, for a per-vertex array in the caller's
        vertex order, each slot's entry of it."""
        if np.isscalar(fill):
            # empty + fill: about 10 us less host work per array than CuPy's
            # full(), and the fill runs at the copy rate (kernels.fill)
            array = self.xp.empty(self.graph.num_vertices,
                                  dtype=np.asarray(fill).dtype if dtype is None else dtype)
            fill_array(array, fill)
            if self._fills is not None:
                self._fills[id(array)] = (array, fill)
            return array
        values = self.view.per_vertex(fill)
        return values if dtype is None else values.astype(dtype, copy=False)

    def fills_of(self, arrays: dict) -> dict | None:
        """``{name: fill}`` for arrays :meth:`vertex_array` made with a
        scalar fill (whatever was written to them since), or None if any of
        ``arrays`` was made otherwise or :meth:`forget_fills` was called."""
        if self._fills is None:
            return None
        fills = {}
        for name, array in arrays.items():
            made = self._fills.get(id(array))
            if made is None or made[0] is not array:
                return None
            fills[name] = made[1]
        return fills

    def forget_fills(self) -> None:
        """Stop recording :meth:`vertex_array`'s fills (only the first
        boundary reads them): arrays made later are not kept alive by the
        record."""
        self._fills = None

    def frontier_of(self, ids) -> Frontier:
        """A sparse frontier of the given slots (``[]`` for an empty one).
        Slots from :meth:`local_slots` are not checked again (on a GPU the
        check is a device read)."""
        if self._checked(ids):
            return Frontier(self.graph.num_vertices, self.graph.device, ids=ids)
        return Frontier.from_ids(ids, self.graph.num_vertices, self.graph.device)

    def all_vertices(self) -> Frontier:
        """A dense frontier of every vertex slot."""
        return Frontier.all(self.graph.num_vertices, self.graph.device)
