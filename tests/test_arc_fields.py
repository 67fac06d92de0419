"""Per-arc result fields (``Result.arc_fields``): a run on several devices
assembles them from the parts' owned rows in the whole graph's CSR order,
as one device holds them, under every partitioner and both duplications."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from strategies import edge_lists
from test_multi_device import PARTITION_IDS, PARTITIONS, matrix_settings

import frontier as fr


@dataclass
class ArcLabels(fr.Result):
    """``label[a]``: ``tail * n + head`` of arc ``a`` in the caller's ids, as
    the device that pushed over it saw them; ``weight[a]`` its weight."""

    label: object
    weight: object
    degree: object  # a vertex field beside them

    arc_fields = ("label", "weight")


class LabelArcs(fr.Primitive):
    """One push over every arc, writing each arc's ends into an arc array."""

    parameters = ()

    def setup(self):
        self.label = self.xp.full(self.graph.num_arcs, -1, np.int64)
        self.weight = self.xp.zeros(self.graph.num_arcs, np.float64)
        self.degree = self.graph.out_degree().astype(np.int64)
        self.ids = self.vertex_ids()

    def initial_frontier(self):
        return self.all_vertices()

    def step(self, frontier, iteration):
        ids, label, weights, n = self.ids, self.label, self.weight, self.num_vertices

        def write(src, dst, edge, weight):
            label[edge] = ids[src] * n + ids[dst]
            if weight is not None:
                weights[edge] = weight
            return self.xp.zeros(len(dst), dtype=bool)

        fr.advance(self.graph, frontier, write)
        return self.frontier_of([])

    def result(self):
        return ArcLabels(self.label, self.weight, self.degree)


def _expected(G: fr.Graph) -> tuple:
    src, dst, weights = G.edges()
    return (src * G.num_vertices + dst,
            np.zeros(len(dst)) if weights is None else weights, fr.to_numpy(G.out_degree()))


def _check(result, G) -> None:
    label, weight, degree = _expected(G)
    np.testing.assert_array_equal(fr.to_numpy(result.label), label)
    np.testing.assert_array_equal(fr.to_numpy(result.weight), weight)
    np.testing.assert_array_equal(fr.to_numpy(result.degree), degree)


def test_one_device_keeps_the_arcs_as_they_are():
    G = fr.Graph.from_edges([0, 0, 2, 3], [1, 2, 3, 1], weights=[1.0, 2.0, 3.0, 4.0],
                            directed=True, device="cpu")
    _check(fr.enact(LabelArcs, G), G)


@pytest.mark.parametrize("duplication", ["all", "one_hop"])
@pytest.mark.parametrize("partition", PARTITIONS, ids=PARTITION_IDS)
@pytest.mark.parametrize("count", [2, 3])
@matrix_settings
@given(edges=edge_lists(max_vertices=20, max_edges=60))
def test_several_devices_assemble_the_arcs_in_the_graphs_order(count, partition, duplication,
                                                                edges):
    if partition == "metis":
        pytest.importorskip("pymetis")
    G = edges.graph("cpu")
    _check(fr.enact(LabelArcs, G, devices=count, partition=partition, duplication=duplication),
           G)


@pytest.mark.parametrize("workers", ["processes"])
def test_worker_processes_send_their_arcs(workers):
    G = fr.generators.kronecker(8, 8, seed=2, device="cpu", progress=False)
    _check(fr.enact(LabelArcs, G, devices=2, workers=workers, duplication="one_hop"), G)


@pytest.mark.gpu
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
def test_parts_sharing_a_gpu_assemble_the_arcs(duplication):
    G = fr.generators.kronecker(10, 8, seed=2, device="cuda:0", progress=False)
    _check(fr.enact(LabelArcs, G, devices=["cuda:0"] * 3, duplication=duplication), G)


def test_an_arc_field_of_the_wrong_size_is_named():
    class Short(LabelArcs):
        def result(self):
            return ArcLabels(self.label[:-1], self.weight, self.degree)

    G = fr.Graph.from_edges([0, 1, 2], [1, 2, 3], device="cpu")
    with pytest.raises(TypeError, match="label must be an arc array of"):
        fr.enact(Short, G, devices=2)
