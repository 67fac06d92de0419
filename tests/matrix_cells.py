"""The multi-device matrix of tests/test_multi_device.py for primitives
tested in their own files: one decorator for the cells on virtual CPU
devices, one for parts sharing ``cuda:0`` (marked ``gpu``), and the run of
one cell against the single-device answer."""

from __future__ import annotations

import pytest
import test_multi_device as multi
from hypothesis import given

small_graphs = multi.small_graphs


def on_virtual_devices(graphs=small_graphs):
    """2-4 virtual CPU devices x every partitioner x both duplications x both
    communications, a few random graphs per cell."""

    def decorate(test):
        for name, values, ids in (("communication", ["selective", "broadcast"], None),
                                  ("duplication", ["all", "one_hop"], None),
                                  ("partition", multi.PARTITIONS, multi.PARTITION_IDS),
                                  ("count", [2, 3, 4], None)):
            test = pytest.mark.parametrize(name, values, ids=ids)(test)
        return multi.matrix_settings(given(edges=graphs)(test))

    return decorate


def on_parts_sharing_a_gpu(graphs=small_graphs):
    """Two and three parts on ``cuda:0`` x every partitioner and strategy."""

    def decorate(test):
        for name, values, ids in (("communication", ["selective", "broadcast"], None),
                                  ("duplication", ["all", "one_hop"], None),
                                  ("partition", multi.PARTITIONS, multi.PARTITION_IDS),
                                  ("count", [2, 3], None)):
            test = pytest.mark.parametrize(name, values, ids=ids)(test)
        return pytest.mark.gpu(multi.matrix_settings(given(edges=graphs)(test)))

    return decorate


def in_worker_processes(graphs=small_graphs):
    """``workers="processes"``: 2 and 3 devices x both strategies, random partition."""

    def decorate(test):
        for name, values in (("communication", ["selective", "broadcast"]),
                             ("duplication", ["all", "one_hop"]), ("count", [2, 3])):
            test = pytest.mark.parametrize(name, values)(test)
        return multi.matrix_settings(given(edges=graphs)(test))

    return decorate


def run_cell(run, graph, devices, partition, duplication, communication, home="cpu",
             workers="threads"):
    """``(single-device answer, multi-device answer)`` of ``run(graph,
    **options)`` (any function of a graph taking enactor options)."""
    if partition == "metis":
        pytest.importorskip("pymetis")
    expected = run(graph, devices=home)
    actual = run(graph, devices=devices, partition=partition, duplication=duplication,
                 communication=communication, workers=workers)
    ran_on = getattr(actual, "devices", None)  # results that say where they ran
    if ran_on is not None:
        assert len(ran_on) == (devices if isinstance(devices, int) else len(devices))
    return expected, actual


def matrix_tests(check):
    """The three families of cells for ``check(edges, devices, partition,
    duplication, communication, home=..., workers=...)``: virtual CPU
    devices, parts sharing ``cuda:0`` (``gpu``) and worker processes.
    Assign them to ``test_...`` names in a test module."""

    @on_virtual_devices()
    def on_virtual_devices_(count, partition, duplication, communication, edges):
        check(edges, count, partition, duplication, communication)

    @on_parts_sharing_a_gpu()
    def on_parts_sharing_a_gpu_(count, partition, duplication, communication, edges):
        check(edges, ["cuda:0"] * count, partition, duplication, communication,
              home="cuda:0")

    @in_worker_processes()
    def in_worker_processes_(count, duplication, communication, edges):
        check(edges, count, "random", duplication, communication, workers="processes")

    return on_virtual_devices_, on_parts_sharing_a_gpu_, in_worker_processes_
