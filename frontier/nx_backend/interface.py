"""The object NetworkX's dispatcher loads for ``backend="frontier"``.

NetworkX asks it ``can_run(name, args, kwargs)`` before converting anything,
then calls ``convert_from_nx`` on the graph arguments (caching the result in
``G.__networkx_cache__`` when ``nx.config.cache_converted_graphs`` is on) and
the function of the same name, and ``convert_to_nx`` on results in its test
mode. ``can_run`` declines the keyword values the backend does not
implement, with the reason as a string (NetworkX logs it); anything a
function can only see in the graph's data (a negative weight, say) makes it
raise :class:`~.graph.Declined`, a ``NotImplementedError``, which the
dispatcher treats the same way. Either way NetworkX runs instead when
``nx.config.fallback_to_nx`` is set or ``networkx`` follows ``frontier`` in
``nx.config.backend_priority``.
"""

from __future__ import annotations

import functools
import inspect

from frontier_backend_info import FUNCTIONS

from ..collector import collector_paused
from ..enactor import on_graph_devices
from . import (
    calls,
    centrality,
    clustering,
    cold_start,
    community,
    components,
    cores,
    edge_betweenness,
    link_analysis,
    paths,
    shortest_paths,
    spectral,
    strongly_connected,
    traversal,
)
from .centrality import check_sources
from .graph import Declined, convert_from_nx, convert_to_nx
from .link_analysis import check_distributions, check_numbers
from .shortest_paths import check_weight
from .traversal import check_limit, check_sort_neighbors

IMPLEMENTATIONS = {
    name: getattr(module, name)
    for module in (traversal, shortest_paths, components, centrality, link_analysis, spectral,
                   strongly_connected, community)
    + (paths, edge_betweenness, cores, clustering)
    for name in FUNCTIONS
    if hasattr(module, name)
}


# keyword checks, on the bound arguments: raise Declined for what is not implemented

def _bfs(a) -> None:
    check_sort_neighbors(a["sort_neighbors"])
    check_limit("depth_limit", a["depth_limit"])


def _shortest_path_length(a) -> None:
    if a["method"] not in ("dijkstra", "bellman-ford"):
        return  # the function raises NetworkX's ValueError
    check_weight(a["weight"])
    if a["source"] is None:
        raise Declined("lengths without a source (all pairs, or to one target)")
    if a["weight"] is not None and a["method"] == "bellman-ford":
        raise Declined("method='bellman-ford' (negative weights) is NetworkX's")


def _dijkstra(a) -> None:
    check_weight(a["weight"])
    check_limit("cutoff", a.get("cutoff"))


def _betweenness(a) -> None:
    check_weight(a["weight"])
    check_sources(a["G"], a["k"])


def _pagerank(a) -> None:
    if len(a["G"]):  # an empty graph gives {} whatever the other arguments
        check_weight(a["weight"])
        check_numbers(a["alpha"], a["max_iter"], a["tol"])
        check_distributions(a["G"], a["personalization"], a["nstart"], a["dangling"])


KEYWORD_CHECKS = {
    "bfs_edges": _bfs,
    "bfs_tree": _bfs,
    "bfs_predecessors": _bfs,
    "bfs_successors": _bfs,
    "descendants_at_distance": lambda a: check_limit("distance", a["distance"]),
    "single_source_shortest_path_length": lambda a: check_limit("cutoff", a["cutoff"]),
    "single_source_shortest_path": lambda a: check_limit("cutoff", a["cutoff"]),
    "shortest_path_length": _shortest_path_length,
    "single_source_dijkstra_path_length": _dijkstra,
    "dijkstra_path_length": _dijkstra,
    "betweenness_centrality": _betweenness,
    "pagerank": _pagerank,
}
KEYWORD_CHECKS.update(paths.KEYWORD_CHECKS)
KEYWORD_CHECKS.update(edge_betweenness.KEYWORD_CHECKS)
KEYWORD_CHECKS.update(cores.KEYWORD_CHECKS)
KEYWORD_CHECKS.update(clustering.KEYWORD_CHECKS)


def _counted(name: str, function):
    """``function``, counting its runs and its declines in :mod:`.calls`,
    running each graph on the device it was built on (the configured
    device, or the cold-start policy's choice: :mod:`.cold_start`), with
    the cyclic garbage collector paused (:func:`frontier.collector_paused`:
    an answer of a container per node would set it walking the caller's
    graph again and again). A generator's items, computed after the call,
    are not paused: two switches an item would cost more than its answer."""

    @functools.wraps(function)
    def run(*args, **kwargs):
        ran = True  # also when it raises NetworkX's error for the input
        try:
            with on_graph_devices(), collector_paused():
                result = function(*args, **kwargs)
            return _each_on_graph_devices(result) if inspect.isgenerator(result) else result
        except Declined:
            ran = False
            calls.record_decline(name)
            raise
        finally:
            if ran:
                calls.record_call(name)
            cold_start.after_call()

    return run


def _each_on_graph_devices(generator):
    """``generator``'s items, each computed within :func:`on_graph_devices`
    (a generator runs its primitives when asked for items, after the call
    returned), and the caller's code between items outside it."""
    placed = on_graph_devices()
    while True:
        with placed:
            try:
                item = next(generator)
            except StopIteration:
                cold_start.after_call()  # its runs chose their devices after the call
                return
        yield item


class BackendInterface:
    """NetworkX's backend interface: ``convert_from_nx``, ``convert_to_nx``,
    ``can_run``, ``should_run``, and one attribute per implemented function
    (see :data:`frontier_backend_info.FUNCTIONS`)."""

    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)

    def __init__(self):
        for name, function in IMPLEMENTATIONS.items():
            setattr(self, name, _counted(name, function))

    @staticmethod
    def can_run(name: str, args, kwargs) -> bool | str:
        """True, or why the backend leaves this call to NetworkX."""
        function = IMPLEMENTATIONS.get(name)
        if function is None:
            return f"{name} is not implemented by the frontier backend"
        try:
            bound = inspect.signature(function).bind(*args, **kwargs)
        except TypeError:
            return True  # the call raises the TypeError NetworkX raises
        bound.apply_defaults()
        check = KEYWORD_CHECKS.get(name)
        try:
            if check is not None:
                check(bound.arguments)
        except Declined as reason:
            calls.record_decline(name)
            return str(reason)
        return True

    @staticmethod
    def should_run(name: str, args, kwargs) -> bool:
        """Always: when chosen (by ``backend=`` or ``backend_priority``), it runs."""
        return True


backend_interface = BackendInterface()
