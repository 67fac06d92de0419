"""``uniform_setup``: a primitive whose ``setup`` writes its declared arrays
the same on every part that has a slot for a vertex skips the first
boundary's refresh. With ``FRONTIER_CHECK_DECLARATIONS=1`` (as the suite
runs) the refresh runs anyway and must change nothing; these tests show
that a wrong declaration is caught, on threads and worker processes, and
that without the checks the declaring primitives keep one device's answers
while sending less."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from checks import declaring
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
import primitives
from frontier.primitive import CHECK_VARIABLE, DeclarationError
from primitives.bc import Brandes, WeightedBrandes
from primitives.bfs import BFS
from primitives.cc import ConnectedComponents
from primitives.dobfs import DOBFS
from primitives.edge_bc import ArcBrandes, WeightedArcBrandes
from primitives.sssp import SSSP


class OwnEdgesBFS(BFS):
    """Declares ``uniform_setup`` but writes each slot's predecessor from
    the part's own out-degree there, which a copy (whose row lies with its
    owner) does not share."""

    def setup(self):
        super().setup()
        degrees = self.graph.offsets[1:] - self.graph.offsets[:-1]
        self.predecessor[:] = degrees.astype(self.predecessor.dtype)


def _positive(G):
    """``G`` with a positive weight on every arc (weighted betweenness
    refuses others)."""
    src, dst, weights = G.edges()
    return G.with_edges(src, dst, 1.0 + (np.zeros(len(src)) if weights is None
                                         else np.abs(weights)))


def _betweenness(function, weighted: bool):
    """A run of ``function`` (vertex or edge betweenness) from two sampled
    sources, weighted by :func:`_positive` weights if ``weighted``."""
    def run(G, **options):
        if weighted:
            G, options = _positive(G), {**options, "weight": "weight"}
        return function(G, k=min(2, G.num_vertices), seed=1, **options)

    return run


#: each declaring primitive: (its class, the function that runs it, its
#: parameters, the fields one device's answer fixes)
RUNS = {
    "BFS": (BFS, primitives.bfs, {"source": 0}, ("depth",)),
    "DOBFS": (DOBFS, primitives.dobfs, {"source": 0}, ("depth",)),
    "SSSP": (SSSP, primitives.sssp, {"source": 0, "delta": 2.0}, ("distance",)),
    "ConnectedComponents": (ConnectedComponents, primitives.connected_components, {},
                            ("labels",)),
    "Brandes": (Brandes, _betweenness(primitives.betweenness_centrality, False), {},
                ("centrality",)),
    "WeightedBrandes": (WeightedBrandes, _betweenness(primitives.betweenness_centrality, True),
                        {}, ("centrality",)),
    "ArcBrandes": (ArcBrandes, _betweenness(primitives.edge_betweenness_centrality, False), {},
                   ("centrality",)),
    "WeightedArcBrandes": (WeightedArcBrandes,
                           _betweenness(primitives.edge_betweenness_centrality, True), {},
                           ("centrality",)),
}


def test_the_declaring_primitives_are_these():
    """Each declaring primitive is exercised below: a new one must be added."""
    assert declaring("uniform_setup") == set(RUNS)


@pytest.mark.parametrize("workers", ["threads", "processes"])
@pytest.mark.parametrize("duplication", ["all", "one_hop"])
def test_a_setup_from_a_parts_own_edges_is_caught(workers, duplication):
    G = fr.generators.kronecker(scale=7, seed=2, device="cpu")
    with pytest.raises(DeclarationError, match="uniform_setup"):
        fr.enact(OwnEdgesBFS, G, source=0, devices=2, duplication=duplication,
                 workers=workers)


@pytest.mark.parametrize("name", sorted(RUNS))
@given(edges=edge_lists(max_vertices=50, max_edges=160, weighted=True),
       count=st.integers(2, 4), duplication=st.sampled_from(["all", "one_hop"]))
def test_without_the_first_refresh_the_answers_stay_one_devices(name, edges, count,
                                                                duplication):
    """Unchecked, the declaring primitives skip the first refresh and still
    answer as one device does, sending no more than with the refresh."""
    primitive, run, params, fields = RUNS[name]
    G = edges.graph("cpu")
    one = run(G, **params).to_numpy()
    options = {"devices": count, "duplication": duplication}
    with mock.patch.dict("os.environ", {CHECK_VARIABLE: "0"}):
        skipped = run(G, **params, **options).to_numpy()
        with mock.patch.object(primitive, "uniform_setup", False):
            refreshed = run(G, **params, **options).to_numpy()
    for field in fields:  # sums over parts may round differently from one device's
        np.testing.assert_allclose(getattr(skipped, field), getattr(one, field), rtol=1e-12)
        np.testing.assert_allclose(getattr(refreshed, field), getattr(one, field), rtol=1e-12)
    assert skipped.exchanged_bytes <= refreshed.exchanged_bytes


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_first_refresh_is_not_sent(name):
    """On a graph whose parts share vertices, the first refresh carries
    bytes (the fills at least); unchecked, a declaring primitive sends none
    of them."""
    primitive, run, params, _ = RUNS[name]
    G = fr.generators.kronecker(scale=7, seed=2, weights=(1, 8), device="cpu")
    with mock.patch.dict("os.environ", {CHECK_VARIABLE: "0"}):
        skipped = run(G, **params, devices=2)
        with mock.patch.object(primitive, "uniform_setup", False):
            refreshed = run(G, **params, devices=2)
    assert skipped.exchanged_bytes < refreshed.exchanged_bytes


@pytest.mark.parametrize("communication, boundary_agrees", [("selective", True),
                                                            ("broadcast", False)])
def test_checks_are_agreed_only_where_they_change_the_collectives(communication,
                                                                  boundary_agrees):
    """Ranks that are not threads of one process agree on checking the
    declarations (an allreduce) only where the checks change what the
    boundary sends: the output boundary of a primitive whose copies may lag.
    The snapshot boundary (``broadcast``) of one that declares no
    ``uniform_setup`` makes no such collective."""
    from frontier.multi.communicator import Communicator, LocalCommunicator

    G = fr.generators.kronecker(scale=6, seed=1, device="cpu")
    calls = []

    def agreed(self, flag):
        calls.append(flag)
        return Communicator.agreed(self, flag)

    with mock.patch.object(BFS, "uniform_setup", False), \
            mock.patch.object(LocalCommunicator, "one_process", False), \
            mock.patch.object(LocalCommunicator, "agreed", agreed):
        result = primitives.bfs(G, source=0, devices=2, communication=communication)
    np.testing.assert_array_equal(result.to_numpy().depth,
                                  primitives.bfs(G, source=0).to_numpy().depth)
    assert bool(calls) == boundary_agrees
