"""``copies_may_lag``: a primitive whose answer does not need current
copies of other devices' vertices gets a boundary without refreshes
(:mod:`frontier.multi.output_exchange`). The declaration is checked the way
the suite runs every multi-device test (``FRONTIER_CHECK_DECLARATIONS=1``):
each boundary sets every copy as far back as its combiner allows, and the
answer must still be one device's. A wrong declaration then answers wrongly,
which these tests show they catch."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import numpy as np
import pytest
from checks import assert_shortest_path_tree
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
import primitives
from frontier.multi.output_exchange import OutputExchange, applies
from frontier.primitive import CHECK_VARIABLE
from primitives.bfs import BFS
from primitives.sssp import SSSP


def _declaring() -> set[str]:
    """The names of the primitives in :mod:`primitives` that declare ``copies_may_lag``."""
    found = set()
    for module in pkgutil.iter_modules(primitives.__path__):
        loaded = importlib.import_module(f"primitives.{module.name}")
        for name, value in inspect.getmembers(loaded, inspect.isclass):
            if issubclass(value, fr.Primitive) and value.__module__ == loaded.__name__ \
                    and value.copies_may_lag:
                found.add(name)
    return found


#: each declaring primitive: (class, its options from a source, the check of
#: a multi-device answer against one device's)
def _same_sssp(G, source, one, many):
    np.testing.assert_array_equal(many.distance, one.distance)
    assert_shortest_path_tree(G, source, many.distance, many.predecessor)


DECLARING = {"SSSP": (SSSP, lambda source: {"source": source, "delta": 2.0}, _same_sssp)}


class RefreshingSSSP(SSSP):
    copies_may_lag = False


class LaggingBFS(BFS):
    """Declares copies_may_lag wrongly: a BFS claims only vertices it sees
    unvisited, and its "max" combiner takes a later level over an earlier one."""

    copies_may_lag = True


def test_every_declaring_primitive_is_checked_here():
    assert _declaring() == set(DECLARING)


@pytest.mark.parametrize("name", sorted(DECLARING))
@given(edges=edge_lists(max_vertices=40, max_edges=140, integer_weights=True),
       count=st.integers(2, 4), duplication=st.sampled_from(["all", "one_hop"]),
       partition=st.sampled_from(["random", "contiguous", "biased_random"]),
       workers=st.sampled_from(["threads", "threads", "processes"]))
@settings(max_examples=max(5, settings().max_examples // 4))
def test_lagging_copies_give_one_devices_answer(name, edges, count, duplication, partition,
                                                workers):
    """Under the suite's checks (copies set back after every boundary)."""
    primitive, options, same = DECLARING[name]
    assert fr.primitive.checking_declarations()
    G = edges.graph("cpu")
    source = edges.num_vertices // 2
    one = fr.enact(primitive, G, **options(source)).to_numpy()
    many = fr.enact(primitive, G, **options(source), devices=count, duplication=duplication,
                    partition=partition, partition_seed=5, workers=workers).to_numpy()
    same(G, source, one, many)


@pytest.mark.parametrize("checking", ["0", "1"])
def test_sssp_sends_offers_only(monkeypatch, checking):
    """No refresh all-to-all, fewer bytes than with refreshes, the same
    distances and iterations; with and without the checks."""
    monkeypatch.setenv(CHECK_VARIABLE, checking)
    refreshes = []
    real = OutputExchange._push_refreshes

    def spy(self, arrays, changed):
        refreshes.append(type(self.run).__name__)
        return real(self, arrays, changed)

    monkeypatch.setattr(OutputExchange, "_push_refreshes", spy)
    G = fr.generators.kronecker(10, 8, seed=4, weights=(1, 9), device="cpu")
    source = int(np.argmax(G.out_degree()))
    one = fr.enact(SSSP, G, source=source, delta=4.0).to_numpy()
    lagging = fr.enact(SSSP, G, source=source, delta=4.0, devices=3).to_numpy()
    assert refreshes == []
    refreshing = fr.enact(RefreshingSSSP, G, source=source, delta=4.0, devices=3).to_numpy()
    assert refreshes and set(refreshes) == {"RefreshingSSSP"}
    _same_sssp(G, source, one, lagging)
    assert lagging.iterations == refreshing.iterations
    if checking == "0":  # copies set back make more offers
        assert 0 < lagging.exchanged_bytes < refreshing.exchanged_bytes


@pytest.mark.parametrize("checking", ["0", "1"])
def test_a_wrong_declaration_answers_wrongly(monkeypatch, checking):
    """A BFS that declares copies_may_lag answers wrongly on two devices, so
    the comparison above would catch it. Without the checks, a device claims
    a copy it was not told was visited, and "max" keeps the later level;
    with them, copies set back to the lowest depth are never claimed."""
    monkeypatch.setenv(CHECK_VARIABLE, checking)
    n = 40  # a path 0..n-1 and a chord 0 - (n-2); vertices 20.. on the second part
    G = fr.Graph.from_edges(np.r_[np.arange(n - 1), 0], np.r_[np.arange(1, n), n - 2],
                            device="cpu")
    one = fr.enact(BFS, G, source=n - 1).to_numpy()
    assert applies(LaggingBFS, "selective")
    options = {"source": n - 1, "devices": 2, "partition": "contiguous"}
    np.testing.assert_array_equal(fr.enact(BFS, G, **options).to_numpy().depth, one.depth)
    wrong = fr.enact(LaggingBFS, G, **options).to_numpy()
    assert not np.array_equal(wrong.depth, one.depth)


def test_the_declaration_needs_min_or_max():
    class Lagging(fr.Primitive):
        communicate = {"mark": lambda current, offer: current | offer}
        changes_only_in_output = True
        copies_may_lag = True

    with pytest.raises(ValueError, match="copies_may_lag needs 'min' or 'max'"):
        applies(Lagging, "selective")
