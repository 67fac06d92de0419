"""On a part of a larger graph (``duplication="one_hop"``: slots are not the
caller's ids) the fast claim and relaxation paths (host claims on the CPU,
fused kernels on a GPU) claim and relax what the general path does, and
store each predecessor as the caller's id, as the general path does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from partition.subgraph import build_parts

DEVICES = ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)]


def general(functor):
    """The same functor, hidden from the fast paths."""
    return lambda src, dst, edge, weight: functor(src, dst, edge, weight)


def a_part(edges, seed: int, device: str) -> fr.Graph:
    """Part 0 of a random split of the graph in two, on ``device``."""
    G = edges.graph("cpu")
    owner = np.random.default_rng(seed).integers(0, 2, G.num_vertices).astype(np.int32)
    return build_parts(G, owner, 2, "one_hop")[0].graph.to(device)


def arcs_in_caller_ids(part: fr.Graph) -> dict:
    """``{(u, v): [weights]}`` over the part's arcs, in the caller's ids."""
    ids = fr.to_numpy(part.vertex_slots.ids)
    src, dst, weights = (fr.to_numpy(a) if a is not None else None for a in part.edges())
    weights = np.ones(len(src)) if weights is None else weights
    found: dict = {}
    for s, d, w in zip(ids[src].tolist(), ids[dst].tolist(), weights.tolist()):
        found.setdefault((s, d), []).append(w)
    return found


@pytest.mark.parametrize("device", DEVICES)
@settings(deadline=None)
@given(edges=edge_lists(max_vertices=60, max_edges=200), seed=st.integers(0, 2**31),
       direction=st.sampled_from(["push", "pull"]))
def test_claims_on_a_part_store_caller_ids(device, edges, seed, direction):
    part = a_part(edges, seed, device)
    xp, n = part.xp, part.num_vertices
    rng = np.random.default_rng(seed)
    active = rng.random(n) < 0.4
    start = np.where(active, 0, np.where(rng.random(n) < 0.3, 5, -1)).astype(np.int32)
    results = []
    for wrap in (lambda f: f, general):
        labels, predecessor = xp.array(start), xp.full(n, -1, dtype=np.int64)
        functor = fr.functors.ClaimUnvisited(labels, 1, predecessor,
                                             vertex_slots=part.vertex_slots)
        out = fr.advance(part, fr.Frontier.from_mask(xp.asarray(active)), wrap(functor),
                         direction=direction)
        results.append((np.sort(fr.to_numpy(out.unique().ids)), fr.to_numpy(labels),
                        fr.to_numpy(predecessor)))
    (fast_ids, fast_labels, fast_parent), (ids, labels, parent) = results
    np.testing.assert_array_equal(fast_ids, ids)
    np.testing.assert_array_equal(fast_labels, labels)
    caller = fr.to_numpy(part.vertex_slots.ids)
    active_ids = set(caller[active].tolist())
    arcs = arcs_in_caller_ids(part)
    for v in fast_ids.tolist():
        u, w = int(fast_parent[v]), int(caller[v])
        # a pull finds u among v's in-edges, which an undirected part stores as v's out-arcs
        assert u in active_ids and ((u, w) in arcs or (not part.directed and (w, u) in arcs))
    assert set(parent[ids].tolist()) <= active_ids  # the general path: caller ids too


@pytest.mark.parametrize("device", DEVICES)
@settings(deadline=None)
@given(edges=edge_lists(max_vertices=60, max_edges=200, weighted=True, integer_weights=True),
       seed=st.integers(0, 2**31))
def test_relaxations_on_a_part_store_caller_ids(device, edges, seed):
    part = a_part(edges, seed, device)
    xp, n = part.xp, part.num_vertices
    rng = np.random.default_rng(seed)
    start = np.where(rng.random(n) < 0.4, rng.integers(0, 20, n), np.inf)
    results = []
    for wrap in (lambda f: f, general):
        distance, predecessor = xp.array(start), xp.full(n, -1, dtype=np.int64)
        frontier = fr.Frontier.from_mask(xp.asarray(np.isfinite(start)))
        functor = fr.functors.RelaxMin(distance, predecessor, vertex_slots=part.vertex_slots)
        while not frontier.is_empty():
            frontier = fr.advance(part, frontier, wrap(functor)).unique()
        results.append((fr.to_numpy(distance), fr.to_numpy(predecessor)))
    (fast_distance, fast_parent), (distance, _) = results
    np.testing.assert_array_equal(fast_distance, distance)
    caller = fr.to_numpy(part.vertex_slots.ids)
    slot_of = {int(v): slot for slot, v in enumerate(caller.tolist())}
    arcs = arcs_in_caller_ids(part)
    improved = np.flatnonzero(fast_distance < start)
    assert (fast_parent[improved] >= 0).all()
    for v in improved.tolist():
        u = int(fast_parent[v])
        assert any(fast_distance[slot_of[u]] + w == fast_distance[v]
                   for w in arcs[(u, int(caller[v]))])
