"""Distributed graphs: parts built on their devices from the edge stream equal
the parts of the whole graph, and every primitive gives the whole graph's answer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import edge_lists

import frontier as fr
from frontier.generators import kronecker, kronecker_parts
from partition import make_partition
from partition.subgraph import build_parts
from primitives import betweenness_centrality, bfs, connected_components, dobfs, pagerank, sssp

CONVERGED = {"tol": 1e-12, "max_iter": 1000}


def answers(G, source: int) -> dict:
    """Every primitive's host result on ``G``."""
    return {
        "bfs": bfs(G, source).to_numpy().depth,
        "dobfs": dobfs(G, source).to_numpy().depth,
        "sssp": sssp(G, source).to_numpy().distance,
        "cc": connected_components(G).to_numpy().labels,
        "bc": betweenness_centrality(G, k=6, seed=1).to_numpy().centrality,
        "pagerank": pagerank(G, **CONVERGED).to_numpy().rank,
    }


def assert_same_answers(G, D) -> int:
    """Exact depths, distances and labels, centralities and ranks within 1e-9,
    from the highest-degree vertex (returned)."""
    source = int(np.argmax(fr.to_numpy(G.out_degree())))
    expected, actual = answers(G, source), answers(D, source)
    for name in ("bfs", "dobfs", "sssp", "cc"):
        np.testing.assert_array_equal(actual[name], expected[name], err_msg=name)
    for name in ("bc", "pagerank"):
        np.testing.assert_allclose(actual[name], expected[name], rtol=0, atol=1e-9,
                                   err_msg=name)
    return source


@settings(max_examples=max(4, settings().max_examples // 10))
@given(scale=st.integers(1, 8), edgefactor=st.integers(1, 8), seed=st.integers(0, 50),
       count=st.integers(1, 4), partition_seed=st.integers(0, 5),
       chunk_edges=st.integers(1, 500), sort_arcs=st.integers(1, 500))
def test_parts_are_the_whole_graphs_parts(scale, edgefactor, seed, count, partition_seed,
                                          chunk_edges, sort_arcs):
    D = kronecker_parts(scale, edgefactor, seed, devices=count, partition_seed=partition_seed,
                        chunk_edges=chunk_edges, sort_arcs=sort_arcs)
    G = kronecker(scale, edgefactor, seed, device="cpu")
    assert (D.num_vertices, D.num_arcs, D.num_edges) == (G.num_vertices, G.num_arcs,
                                                         G.num_edges)
    layout = make_partition(G, count, "random", partition_seed)
    np.testing.assert_array_equal(D.layout.owner, layout.owner)
    assert D.layout.to_dict() == layout.to_dict()
    for placed, part in zip(D.parts, build_parts(G, layout.owner, count, "all")):
        np.testing.assert_array_equal(fr.to_numpy(placed.graph.offsets), part.graph.offsets)
        np.testing.assert_array_equal(fr.to_numpy(placed.graph.columns), part.graph.columns)
        np.testing.assert_array_equal(fr.to_numpy(placed.owned), part.owned)
    np.testing.assert_array_equal(D.degree(), fr.to_numpy(G.degree()))


@pytest.mark.parametrize("count", [2, 3])
def test_every_primitive_gives_the_whole_graphs_answer(count):
    G = kronecker(9, 8, seed=4, device="cpu")
    D = kronecker_parts(9, 8, seed=4, devices=count, chunk_edges=700, sort_arcs=900)
    source = assert_same_answers(G, D)
    result = bfs(D, source)
    assert result.devices == tuple(f"cpu:{i}" if i else "cpu" for i in range(count))
    assert result.partition["edge_cut"] == D.layout.edge_cut


def test_runs_keep_the_layout_it_was_built_with():
    D = kronecker_parts(6, devices=2, partition_seed=3)
    bfs(D, 0, devices=["cpu", "cpu:1"], partition="random", partition_seed=3)
    with pytest.raises(ValueError, match="lives on"):
        bfs(D, 0, devices=3)
    with pytest.raises(ValueError, match="keeps the random partition"):
        bfs(D, 0, partition="contiguous")
    with pytest.raises(ValueError, match="keeps the random partition"):
        bfs(D, 0)  # partition_seed 0, built with 3
    with pytest.raises(ValueError, match="duplication='all'"):
        bfs(D, 0, duplication="one_hop", partition_seed=3)
    with pytest.raises(ValueError, match="source=64 is out of range"):
        bfs(D, 64, partition_seed=3)
    D.release()
    with pytest.raises(ValueError, match="released"):
        bfs(D, 0, partition_seed=3)


def test_the_command_line_builds_parts(capsys):
    from frontier.cli import main

    assert main(["run", "bfs", "--kronecker", "9", "--devices", "2", "--distributed",
                 "--source", "2", "--json"]) == 0
    import json

    summary = json.loads(capsys.readouterr().out)
    whole = bfs(kronecker(9, device="cpu"), 2)
    assert summary["num_devices"] == 2 and summary["iterations"] == whole.iterations
    assert summary["partition"]["partitioner"] == "random"
    assert main(["run", "bfs", "--kronecker", "9", "--weighted", "--distributed"]) == 2


@pytest.mark.gpu
@pytest.mark.multi_gpu
def test_parts_built_on_two_gpus_give_one_gpus_answer():
    G = kronecker(12, seed=2, device="cuda:0")
    D = kronecker_parts(12, seed=2, devices=["cuda:0", "cuda:1"], chunk_edges=10_000,
                        sort_arcs=20_000)
    assert D.num_arcs == G.num_arcs
    assert_same_answers(G, D)


def test_the_largest_graph_script_runs_and_checks(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "record.json"
    done = subprocess.run([sys.executable, str(root / "benchmarks" / "distributed_largest.py"),
                           "10", "--devices", "3", "--output", str(out)],
                          capture_output=True, text=True, timeout=120, cwd=root)
    assert done.returncode == 0, done.stderr[-2000:]
    record = json.loads(out.read_text())
    assert record["vertices"] == 1024 and len(record["part_bytes"]) == 3
    assert all(run["reached"] > 1 for run in record["bfs"])
    assert abs(record["pagerank"]["rank_sum"] - 1) < 1e-6


# parts read from a .fgb file ---------------------------------------------------------


def assert_parts_of(D, G, count: int, partition_seed: int = 0) -> None:
    """``D``'s parts, layout and counts are those of ``G`` split by the random partition."""
    assert (D.num_vertices, D.num_arcs, D.num_edges, D.directed) == (
        G.num_vertices, G.num_arcs, G.num_edges, G.directed)
    layout = make_partition(G, count, "random", partition_seed)
    assert D.layout.to_dict() == layout.to_dict()
    for placed, part in zip(D.parts, build_parts(G, layout.owner, count, "all")):
        np.testing.assert_array_equal(fr.to_numpy(placed.graph.offsets), part.graph.offsets)
        np.testing.assert_array_equal(fr.to_numpy(placed.graph.columns), part.graph.columns)
        assert placed.graph.num_edges == part.graph.num_edges
    assert D.is_simple() == G.is_simple()


@settings(max_examples=max(5, settings().max_examples // 5),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edges=edge_lists(weighted=False), count=st.integers(1, 4),
       batch_arcs=st.integers(1, 50))
def test_parts_read_from_a_file_are_the_whole_graphs_parts(tmp_path, edges, count,
                                                           batch_arcs):
    from frontier.multi.distributed import read_distributed

    G = edges.graph("cpu")
    path = tmp_path / "graph.fgb"
    fr.write_graph(G, path)
    devices = [fr.get_device(f"cpu:{i}") for i in range(count)]
    D = read_distributed(path, devices, batch_arcs=batch_arcs)
    assert_parts_of(D, G, count)
    source = edges.num_vertices // 2
    np.testing.assert_array_equal(bfs(D, source).to_numpy().depth,
                                  bfs(G, source).to_numpy().depth)
    np.testing.assert_array_equal(connected_components(D).to_numpy().labels,
                                  connected_components(G).to_numpy().labels)
    np.testing.assert_allclose(pagerank(D, **CONVERGED).to_numpy().rank,
                               pagerank(G, **CONVERGED).to_numpy().rank, rtol=0, atol=1e-9)
    expected = G.out_degree() if G.directed else G.degree()
    np.testing.assert_array_equal(D.degree(), fr.to_numpy(expected))


def test_files_read_as_parts_and_what_they_refuse(tmp_path):
    G = kronecker(8, seed=3, device="cpu")
    path = tmp_path / "k.fgb"
    fr.write_graph(G, path)
    D = fr.read_parts(path, devices=2)
    assert_parts_of(D, G, 2)
    assert_same_answers(G, D)  # BC included: the graph is simple
    loops = fr.Graph.from_edges([0, 1, 1], [0, 2, 2], device="cpu")
    fr.write_graph(loops, tmp_path / "loops.fgb")
    with pytest.raises(ValueError, match="self loops or parallel edges"):
        betweenness_centrality(fr.read_parts(tmp_path / "loops.fgb", devices=2))
    weighted = fr.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0], device="cpu")
    fr.write_graph(weighted, tmp_path / "w.fgb")
    with pytest.raises(ValueError, match="w.fgb: a distributed graph is unweighted"):
        fr.read_parts(tmp_path / "w.fgb", devices=2)
    fr.write_graph(G, tmp_path / "k.mtx")
    with pytest.raises(ValueError, match="read_parts reads .fgb files"):
        fr.read_parts(tmp_path / "k.mtx", devices=2)
    with pytest.raises(FileNotFoundError, match="graph file not found"):
        fr.read_parts(tmp_path / "missing.fgb", devices=2)


def test_the_command_line_reads_parts(tmp_path, capsys):
    import json

    from frontier.cli import main

    G = kronecker(9, device="cpu")
    fr.write_graph(G, tmp_path / "k.fgb")
    assert main(["run", "connected_components", "--graph", str(tmp_path / "k.fgb"),
                 "--devices", "3", "--distributed", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["num_devices"] == 3 and summary["edges"] == G.num_edges
