"""One cell of the multi-device matrix for a primitive given as a function:
the run on ``count`` virtual devices under a partitioner and both
strategies gives the single-device answer, or raises the same exception.

The matrix itself (partitioners, settings, graphs) is
``tests/test_multi_device.py``'s, reused here by the tests of the newer
primitives.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from test_multi_device import CELL_EXAMPLES, PARTITION_IDS, PARTITIONS, small_graphs

__all__ = ["CELL_EXAMPLES", "PARTITIONS", "PARTITION_IDS", "check_devices", "gpu_strategies",
           "matrix", "matrix_tests", "process_tests", "same_arrays", "small_graphs"]


def _strategies(function):
    for name, values in (("communication", ["selective", "broadcast"]),
                         ("duplication", ["all", "one_hop"])):
        function = pytest.mark.parametrize(name, values)(function)
    return function


def matrix(function):
    """Parametrize a test over 2-4 devices x partitioners x strategies."""
    function = _strategies(function)
    function = pytest.mark.parametrize("partition", PARTITIONS, ids=PARTITION_IDS)(function)
    return pytest.mark.parametrize("count", [2, 3, 4])(function)


def gpu_strategies(function):
    """Mark a test ``gpu`` and parametrize it over both strategies."""
    return pytest.mark.gpu(_strategies(function))


def same_arrays(*fields: str, atol: float = 0.0):
    """A ``compare`` for :func:`check_devices`: the results' ``fields``
    equal, or within ``atol``."""

    def compare(expected, actual):
        for field in fields:
            np.testing.assert_allclose(getattr(actual, field), getattr(expected, field),
                                       rtol=0, atol=atol, err_msg=field)

    return compare


def _outcome(run, **options):
    try:
        return run(**options), None
    except Exception as error:  # compared below: the same kind must be raised
        return None, error


def check_devices(run, compare, devices, partition, duplication, communication,
                  home="cpu", workers="threads") -> None:
    """``run(**options)`` on ``devices`` equals ``run(devices=home)`` by
    ``compare(expected, actual)``, or both raise the same exception type."""
    if partition == "metis":
        pytest.importorskip("pymetis")
    expected, expected_error = _outcome(run, devices=home)
    actual, actual_error = _outcome(run, devices=devices, partition=partition,
                                    duplication=duplication, communication=communication,
                                    workers=workers)
    if expected_error is not None or actual_error is not None:
        assert type(actual_error) is type(expected_error), (expected_error, actual_error)
        return
    compare(expected, actual)


def matrix_tests(run, compare, graph=lambda edges, device: edges.graph(device)):
    """The two matrix tests of a primitive: every cell on virtual CPU
    devices, and (marked ``gpu``) two parts sharing ``cuda:0``. ``run(G,
    edges, **options)`` runs the primitive on ``G`` (``graph(edges,
    device)``) and returns its result; bind the pair to ``test_...`` names."""

    @matrix
    @settings(max_examples=CELL_EXAMPLES)
    @given(edges=small_graphs)
    def on_virtual_devices(count, partition, duplication, communication, edges):
        G = graph(edges, "cpu")
        check_devices(lambda **options: run(G, edges, **options).to_numpy(), compare,
                      count, partition, duplication, communication)

    @gpu_strategies
    @settings(max_examples=CELL_EXAMPLES)
    @given(edges=small_graphs)
    def on_parts_sharing_a_gpu(duplication, communication, edges):
        G = graph(edges, "cuda:0")
        check_devices(lambda **options: run(G, edges, **options).to_numpy(), compare,
                      ["cuda:0"] * 2, "random", duplication, communication, home="cuda:0")

    return on_virtual_devices, on_parts_sharing_a_gpu


def process_tests(run, compare, graph=lambda edges, device: edges.graph(device)):
    """The matrix test of :func:`matrix_tests` with ``workers="processes"``:
    2 and 3 devices x both strategies (random partition)."""

    @_strategies
    @pytest.mark.parametrize("count", [2, 3])
    @settings(max_examples=CELL_EXAMPLES)
    @given(edges=small_graphs)
    def in_worker_processes(count, duplication, communication, edges):
        G = graph(edges, "cpu")
        check_devices(lambda **options: run(G, edges, **options).to_numpy(), compare,
                      count, "random", duplication, communication, workers="processes")

    return in_worker_processes
