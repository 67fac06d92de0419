"""The benchmark harness: statistics, checks, peers, records and ``frontier bench``."""

from __future__ import annotations

import io
import json
import re
import sys
import time

import networkx as nx
import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr
from frontier.bench import analytics, answers, checks, measure, peers, plot, records
from frontier.bench.harness import bc_seed, pick_roots
from frontier.cli import main
from frontier.device import to_numpy
from frontier.validate import BFSValidationError
from primitives import bfs

# statistics ---------------------------------------------------------------------------


def test_harmonic_mean_known_values():
    assert measure.harmonic_mean([1.0, 2.0, 4.0]) == pytest.approx(3 / (1 + 1 / 2 + 1 / 4))
    assert measure.harmonic_mean([5.0, 5.0, 5.0]) == pytest.approx(5.0)
    # One slow root dominates, as the Graph500 statistic intends.
    assert measure.harmonic_mean([1.0, 1000.0]) == pytest.approx(2000 / 1001)


@given(st.lists(st.floats(1e-3, 1e12), min_size=1, max_size=20))
def test_harmonic_mean_between_min_and_arithmetic_mean(values):
    mean = measure.harmonic_mean(values)
    assert min(values) * (1 - 1e-9) <= mean <= np.mean(values) * (1 + 1e-9)


@pytest.mark.parametrize("values", [[], [1.0, 0.0], [2.0, -1.0]])
def test_harmonic_mean_rejects_empty_and_non_positive(values):
    with pytest.raises(ValueError):
        measure.harmonic_mean(values)


def test_median_ms_warms_up_then_times_each_run():
    calls = []
    ms = measure.median_ms(fr.get_device("cpu"), lambda: calls.append(1), repeat=3, warmup=2)
    assert len(calls) == 5 and ms >= 0


def test_median():
    assert measure.median([3.0, 1.0, 2.0]) == 2.0
    assert measure.median([4.0, 1.0, 2.0, 3.0]) == 2.5
    with pytest.raises(ValueError):
        measure.median([])


def test_traversed_edges_counts_the_reached_component(device):
    # component {0, 1, 2} has 3 edges and a self loop on 2; component {3, 4} one edge
    G = fr.Graph.from_edges([0, 1, 2, 2, 3], [1, 2, 0, 2, 4], device=device)
    xp = G.xp
    assert measure.traversed_edges(G, xp.asarray([True, True, True, False, False])) == 4
    assert measure.traversed_edges(G, xp.asarray([False, False, False, True, True])) == 1
    D = fr.Graph.from_edges([0, 1, 1, 3], [1, 0, 2, 0], directed=True, device=device)
    assert measure.traversed_edges(D, xp.asarray([True, True, True, False])) == 3
    with pytest.raises(ValueError, match="one per vertex"):
        measure.traversed_edges(G, xp.asarray([True]))


def test_timer_and_peak_memory(device):
    dev = fr.get_device(device)
    value, ms = measure.timer(dev)(lambda: time.sleep(0.02) or 7)
    assert value == 7 and ms >= 19.0
    array, peak = measure.peak_device_bytes(dev, lambda: dev.xp.ones(2**18, dtype=np.float32))
    if dev.is_gpu:
        assert peak >= array.nbytes
    else:
        assert peak is None


def test_pick_roots():
    G = fr.Graph.from_edges([0, 2, 5], [2, 3, 6], num_vertices=9, directed=True, device="cpu")
    roots = pick_roots(G, 2, seed=3)
    assert len(set(roots)) == 2 and set(roots) <= {0, 2, 5}
    assert roots == pick_roots(G, 2, seed=3)
    assert sorted(pick_roots(G, 8, seed=3)) == [0, 2, 5]
    with pytest.raises(ValueError, match="no edges"):
        pick_roots(fr.Graph.from_edges([], [], num_vertices=3, device="cpu"), 2, seed=0)


# checks -------------------------------------------------------------------------------


def test_depth_from_parent():
    parent = np.array([-1, 0, 1, -1, 2, 1])
    assert checks.depth_from_parent(parent, 0).tolist() == [0, 1, 2, -1, 3, 2]
    with pytest.raises(ValueError, match="cycle|ends at"):
        checks.depth_from_parent(np.array([-1, 2, 3, 1]), 0)
    with pytest.raises(ValueError, match="ends at vertex 2"):
        checks.depth_from_parent(np.array([-1, 2, -1]), 0)


def test_parent_from_depth_validates_only_true_depths(device):
    G = fr.Graph.from_edges([0, 0, 1, 2, 4], [1, 2, 3, 3, 5], device=device)
    xp = G.xp
    depth = xp.asarray([0, 1, 1, 2, -1, -1], dtype=np.int32)
    parent = checks.parent_from_depth(G, depth)
    assert to_numpy(parent)[:3].tolist() == [-1, 0, 0]
    assert int(parent[3]) in (1, 2)
    fr.validate.graph500_bfs(G, 0, depth, parent)
    wrong = xp.asarray([0, 1, 1, 3, -1, -1], dtype=np.int32)
    with pytest.raises(BFSValidationError):
        fr.validate.graph500_bfs(G, 0, wrong, checks.parent_from_depth(G, wrong))


@given(edge_lists(weighted=False), st.data())
def test_check_distances_accepts_dijkstra_and_rejects_changes(edges, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    weights = rng.uniform(0.5, 10.0, len(edges.src))
    G = fr.Graph.from_edges(edges.src, edges.dst, weights, edges.num_vertices, edges.directed,
                            device="cpu")
    source = data.draw(st.integers(0, G.num_vertices - 1))
    matrix = peers.PeerInputs(G).scipy_matrix
    distance = csgraph.dijkstra(matrix, directed=True, indices=source)
    checks.check_distances(G, source, distance)
    others = np.flatnonzero(np.arange(G.num_vertices) != source)
    if len(others):
        v = data.draw(st.sampled_from(others.tolist()))
        changed = distance.copy()
        changed[v] = 0.25 if np.isinf(distance[v]) else distance[v] * 1.5 + 0.1
        with pytest.raises(ValueError, match=r"distance\["):
            checks.check_distances(G, source, changed)


# peers --------------------------------------------------------------------------------


@with_device
@given(edge_lists(weighted=False), st.data())
def test_bfs_peers_match_networkx(device, edges, data):
    G = edges.graph(device)
    source = data.draw(st.integers(0, G.num_vertices - 1))
    lengths = nx.single_source_shortest_path_length(edges.networkx(), source)
    expected = np.full(G.num_vertices, -1)
    expected[list(lengths)] = list(lengths.values())

    depth = peers.spmv_bfs(peers.PeerInputs(G).transposed_matrix, source)
    assert to_numpy(depth).tolist() == expected.tolist()
    depth, parent = peers.frontier_bfs(G.offsets, G.columns, source)
    assert to_numpy(depth).tolist() == expected.tolist()
    fr.validate.graph500_bfs(G, source, depth, parent)


def test_select_peers_and_skip_reasons():
    assert peers.select_peers("auto") == (list(peers.PEERS), False)
    assert peers.select_peers("none") == ([], True)
    with pytest.raises(ValueError, match="unknown peer 'gunrock'"):
        peers.select_peers("scipy-csgraph,gunrock")
    small = fr.Graph.from_edges([0], [1], device="cpu")
    assert "CUDA" in peers.skip_reason("cupy-frontier", small, explicit=True)
    assert peers.skip_reason("networkx", small, explicit=False) is None
    big = fr.Graph.from_edges([0], [2**20], device="cpu")
    assert "2^16" in peers.skip_reason("networkx", big, explicit=True)
    assert "auto" in peers.skip_reason("scipy-csgraph", big, explicit=False)
    assert peers.skip_reason("scipy-csgraph", big, explicit=True) is None
    assert peers.covering("bc", ["scipy-csgraph", "networkx"]) == ["networkx"]


def test_scipy_peer_is_skipped_without_scipy(monkeypatch):
    """SciPy is optional: its peer says it is not installed, not a traceback."""
    assert peers.scipy_csgraph.__wrapped__() is not None
    monkeypatch.setitem(sys.modules, "scipy.sparse.csgraph", None)  # an import fails
    assert peers.scipy_csgraph.__wrapped__() is None
    monkeypatch.setattr(peers, "scipy_csgraph", lambda: None)
    small = fr.Graph.from_edges([0], [1], device="cpu")
    assert "not installed" in peers.skip_reason("scipy-csgraph", small, explicit=True)


# the command --------------------------------------------------------------------------


def run_bench(tmp_path, capsys, *arguments):
    status = main(["bench", *arguments, "--results", str(tmp_path / "results"),
                   "--markdown", str(tmp_path / "bench.md")])
    files = sorted((tmp_path / "results").glob("*.json"))
    return status, files, capsys.readouterr()


def test_bench_kronecker_writes_complete_records(tmp_path, capsys, device):
    status, files, output = run_bench(tmp_path, capsys, "--kronecker", "8", "--roots", "2",
                                      "--repeat", "1", "--device", device)
    assert status == 0
    assert len(files) == 1 and device.replace(":", "") in files[0].name
    found = json.loads(files[0].read_text())
    for record in found:
        assert set(records.REQUIRED_FIELDS) <= set(record)
        assert record["status"] in ("ok", "skipped"), record
    by_name = {(r["primitive"], r["implementation"]): r for r in found}
    assert {p for p, i in by_name if i == "frontier"} == \
        {"bfs", "dobfs", "sssp", "cc", "bc", "pagerank"}
    for name in ("scipy-csgraph", "networkx"):
        assert by_name[("bfs", name)]["status"] == "ok"
    gpu_peer = by_name[("bfs", "cusparse-spmv")]

    first = by_name[("bfs", "frontier")]
    assert first["graph"] == "kronecker-8-16" and first["scale"] == 8
    assert first["vertices"] == 256 and first["num_devices"] == 1
    assert first["validation"] == "graph500" and first["checked_runs"] == 2 + 1 + 1
    assert first["command"].startswith("frontier bench --kronecker 8 --edgefactor 16")
    assert f"--device {device}" in first["command"]
    # the statistic, recomputed from the recorded per-root times (the generator
    # draws on the device, so the graph is rebuilt there)
    G = fr.generators.kronecker(8, 16, seed=0, device=device)
    rates = []
    for root, ms in zip(first["roots"], first["times_ms"], strict=True):
        reached = bfs(G, source=root, devices=device).depth >= 0
        rates.append(measure.traversed_edges(G, reached) / (ms / 1e3))
    assert first["gteps"] == pytest.approx(measure.harmonic_mean(rates) / 1e9)
    assert first["gteps_median"] == pytest.approx(np.median(rates) / 1e9)
    assert first["graph_bytes"] == G.storage_bytes()

    pagerank = by_name[("pagerank", "frontier")]
    assert pagerank["iterations"] > 1
    # the loop's share: set-up time is left out of the per-iteration figure
    assert 0 < pagerank["ms_per_iteration"] < pagerank["time_ms"] / pagerank["iterations"]
    assert by_name[("sssp", "frontier")]["weighted"] is True
    assert by_name[("sssp", "scipy-csgraph")]["validation"] == "distances"

    if device == "cpu":
        assert first["peak_bytes"] is None
        assert gpu_peer["status"] == "skipped" and "CUDA" in gpu_peer["reason"]
        assert gpu_peer["time_ms"] is None
    else:
        # at least the depth and predecessor arrays of the result
        assert first["peak_bytes"] >= 8 * first["vertices"]
        for name in peers.GPU_PEERS:
            peer = by_name[("bfs", name)]
            assert peer["status"] == "ok" and peer["gteps"] > 0
            assert peer["peak_bytes"] >= 4 * peer["vertices"] and peer["graph_bytes"] > 0
    assert "kronecker-8-16" in output.out and "GTEPS hmean" in output.out
    assert f"records in {files[0]}" in output.err  # and no progress: stderr is no terminal
    assert "frontier: bench" not in output.err
    markdown = (tmp_path / "bench.md").read_text()
    assert "| bfs | frontier |" in markdown and first["command"] in markdown
    assert records.read_records(files) == found


def test_bench_grid_with_named_peers_and_json(tmp_path, capsys):
    status, files, output = run_bench(
        tmp_path, capsys, "--grid", "4x5", "--primitives", "bfs,sssp", "--peers",
        "scipy-csgraph", "--roots", "3", "--repeat", "2", "--warmup", "0", "--device", "cpu",
        "--json")
    assert status == 0
    lines = [json.loads(line) for line in output.out.splitlines()]
    assert [(r["primitive"], r["implementation"]) for r in lines] == [
        ("bfs", "frontier"), ("bfs", "scipy-csgraph"), ("sssp", "frontier"),
        ("sssp", "scipy-csgraph")]
    assert all(r["graph"] == "grid-4x5" and r["scale"] is None and r["vertices"] == 20
               for r in lines)
    assert all(len(r["roots"]) == 3 and r["checked_runs"] == 3 * 2 + 1 for r in lines)


def test_bench_times_each_device_count(tmp_path, capsys):
    status, _, output = run_bench(
        tmp_path, capsys, "--kronecker", "7", "--primitives", "bfs,pagerank", "--peers",
        "none", "--roots", "2", "--repeat", "1", "--warmup", "1", "--device", "cpu",
        "--devices", "1,2,3", "--duplication", "one_hop", "--json")
    assert status == 0
    lines = [json.loads(line) for line in output.out.splitlines()]
    assert [(r["primitive"], r["num_devices"]) for r in lines] == [
        ("bfs", 1), ("bfs", 2), ("bfs", 3), ("pagerank", 1), ("pagerank", 2), ("pagerank", 3)]
    single, multi = lines[0], lines[1:3]
    assert single["exchanged_bytes"] is None and single["edge_cut"] is None
    for record in multi:
        assert record["exchanged_bytes"] > 0 and record["exchange_ms"] > 0
        assert record["edge_cut"] > 0 and record["partition"]["duplication"] == "one_hop"
        assert record["exchanged_bytes_per_iteration"] == pytest.approx(
            record["exchanged_bytes"] / record["iterations"])
        assert record["validation"] == "graph500"  # every multi-device tree validated


def test_bench_times_threads_and_worker_processes(tmp_path, capsys):
    status, _, output = run_bench(
        tmp_path, capsys, "--kronecker", "7", "--primitives", "bfs", "--peers", "none",
        "--roots", "2", "--repeat", "1", "--device", "cpu", "--devices", "1,2",
        "--workers", "threads,processes", "--json")
    assert status == 0
    lines = [json.loads(line) for line in output.out.splitlines()]
    assert [(r["num_devices"], r["workers"]) for r in lines] == [
        (1, None), (2, "threads"), (2, "processes")]
    assert [r["partition"]["workers"] for r in lines[1:]] == ["threads", "processes"]
    assert all(r["validation"] == "graph500" for r in lines)
    assert [records._devices(r) for r in lines] == ["cpu", "cpu x2", "cpu x2 processes"]


def test_scaling_lines_start_every_worker_kind_at_one_device():
    found = [r for r in chart_records(devices=(1, 2)) if r["num_devices"] == 2]
    for record in found:
        record["workers"] = "threads"
    processes = [dict(r, workers="processes", time_ms=r["time_ms"] / 2) for r in found]
    ones = [r for r in chart_records(devices=(1, 2)) if r["num_devices"] == 1]
    lines = plot._scaling(ones + found + processes)
    key = ("kronecker-10-16", "bfs", "frontier")
    threads, by_process = lines[(*key, "threads")], lines[(*key, "processes")]
    assert threads[1] == by_process[1] == 10.0
    assert by_process[2] == threads[2] / 2


def test_bench_records_a_wrong_peer_answer_and_fails(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(nx, "single_source_shortest_path_length", lambda g, root: {root: 0})
    status, files, output = run_bench(tmp_path, capsys, "--kronecker", "6", "--primitives",
                                      "bfs", "--peers", "networkx", "--roots", "2",
                                      "--repeat", "1", "--device", "cpu")
    assert status == 1
    found = {r["implementation"]: r for r in json.loads(files[0].read_text())}
    assert found["frontier"]["status"] == "ok"
    assert found["networkx"]["status"] == "failed"
    assert "BFSValidationError" in found["networkx"]["reason"]
    assert "FAILED" in output.err


def test_bench_file_with_labels_gives_peers_vertex_ids(tmp_path, capsys):
    path = tmp_path / "labelled.txt"
    path.write_text("10 20\n20 30\n30 10\n40 50\n70 40\n")
    status, files, output = run_bench(tmp_path, capsys, "--graph", str(path), "--peers",
                                      "networkx,scipy-csgraph", "--roots", "3", "--repeat",
                                      "1", "--device", "cpu")
    assert status == 0, output.err
    found = json.loads(files[0].read_text())
    assert {r["status"] for r in found} == {"ok"}
    assert {r["graph"] for r in found} == {"labelled.txt"}
    assert found[0]["directed"] is True and found[0]["vertices"] == 6


@pytest.mark.parametrize("arguments, message", [
    (["--kronecker", "6", "--primitives", "bfs,tc"], "unknown primitive 'tc'"),
    (["--kronecker", "6", "--peers", "gunrock"], "unknown peer 'gunrock'"),
    (["--kronecker", "6", "--roots", "0"], "roots=0"),
    (["--kronecker", "6", "--devices", "1,0"], "at least 1"),
    (["--kronecker", "6", "--workers", "fibres"], "workers="),
    (["--graph", "no/such/file.mtx"], "no/such/file.mtx"),
])
def test_bench_rejects_bad_arguments(tmp_path, capsys, arguments, message):
    assert main(["bench", *arguments, "--device", "cpu", "--results", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_bench_rejects_a_bad_grid_shape(capsys):
    assert main(["bench", "--grid", "4by5"]) == 2
    assert "ROWSxCOLS" in capsys.readouterr().err


def test_records_tabulate_and_reject_incomplete_files(tmp_path, capsys):
    record = records.make_record(primitive="cc", implementation="frontier", graph="g",
                                 device="cpu (x)", status="ok", time_ms=1.0, date="d",
                                 command="frontier bench --grid 2x2")
    good = tmp_path / "good.json"
    good.write_text(json.dumps([record]))
    assert records.main([str(good)]) == 0
    assert "frontier" in capsys.readouterr().out
    assert records.main(["--markdown", str(good)]) == 0
    assert "`frontier bench --grid 2x2`" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"primitive": "cc"}]))
    with pytest.raises(ValueError, match="lacks the field"):
        records.read_records([bad])
    with pytest.raises(ValueError, match="unknown record field 'speed'"):
        records.make_record(speed=1)


def test_bench_progress_bars_on_a_terminal_only(tmp_path, capsys, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    arguments = ["bench", "--kronecker", "5", "--primitives", "bfs,cc", "--peers", "none",
                 "--roots", "2", "--repeat", "2", "--device", "cpu", "--results", str(tmp_path)]
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)  # in the body: capture resets it after setup
    assert main(arguments) == 0
    shown = terminal.getvalue()
    # a bar per workload counting its runs (1 warm-up + 2 roots x 2 + 1 memory run)
    assert "frontier: bench kronecker-5-16: bfs frontier" in shown and "6/6" in shown
    assert "bfs frontier root" in shown and "graph500 valid" in shown
    assert "frontier: bench kronecker-5-16: cc frontier" in shown
    assert main([*arguments, "--quiet"]) == 0
    quiet = terminal.getvalue()[len(shown):]
    assert "frontier" not in quiet.replace("frontier bench: 2 records in", "")


# charts -------------------------------------------------------------------------------


def chart_records(devices=(1,)):
    """Records of two graphs, three implementations, and ``devices`` device counts."""
    found = []
    for graph, scale in (("kronecker-10-16", 10), ("grid-32x32", None)):
        for primitive, implementation, gteps in (
                ("bfs", "frontier", 0.8), ("bfs", "scipy-csgraph", 0.05),
                ("bfs", "networkx", 0.002), ("dobfs", "frontier", 1.2),
                ("sssp", "frontier", 0.1), ("cc", "frontier", None)):
            for count in devices:
                found.append(records.make_record(
                    primitive=primitive, implementation=implementation, graph=graph,
                    scale=scale, device="cpu (x)", num_devices=count, status="ok",
                    time_ms=10.0 / count ** 0.8, gteps=gteps and gteps * count ** 0.8,
                    date="2026-01-01T00:00:00+00:00", command="frontier bench"))
    found.append(records.make_record(primitive="sssp", implementation="networkx",
                                     graph="grid-32x32", device="cpu (x)", status="skipped"))
    return found


def test_plot_renders_gteps_and_speedup_panels(tmp_path):
    image = pytest.importorskip("matplotlib.image")
    single = plot.plot_records(chart_records(), tmp_path / "one.png")
    several = chart_records(devices=(1, 2, 4))
    for record in several[::3]:
        del record["num_devices"]  # records without the field count as one device
    double = plot.plot_records(several, tmp_path / "charts" / "scaling.png")
    for path in (single, double):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    one, two = image.imread(single), image.imread(double)
    assert one.shape[0] == two.shape[0] and two.shape[1] > one.shape[1] + 400


def test_plot_needs_something_to_draw(tmp_path):
    pytest.importorskip("matplotlib")
    only_cc = [r for r in chart_records() if r["primitive"] == "cc"]
    with pytest.raises(ValueError, match="nothing to plot"):
        plot.plot_records(only_cc, tmp_path / "empty.png")


def test_plot_without_matplotlib_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    with pytest.raises(ImportError, match=r"pip install 'frontier-graph\[plot\]'"):
        plot.plot_records(chart_records(), tmp_path / "x.png")
    status = main(["bench", "--kronecker", "5", "--device", "cpu", "--results",
                   str(tmp_path / "results"), "--plot", str(tmp_path / "x.png")])
    assert status == 2 and not (tmp_path / "results").exists()  # refused before timing
    assert "pip install 'frontier-graph[plot]'" in capsys.readouterr().err
    saved = tmp_path / "records.json"
    saved.write_text(json.dumps(chart_records()))
    assert records.main([str(saved), "--plot", str(tmp_path / "x.png")]) == 2
    assert "frontier-graph[plot]" in capsys.readouterr().err


def test_bench_plot_needs_a_traversal(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    status = main(["bench", "--kronecker", "5", "--primitives", "cc,pagerank", "--device",
                   "cpu", "--results", str(tmp_path), "--plot", str(tmp_path / "x.png")])
    assert status == 2 and "--plot draws GTEPS" in capsys.readouterr().err


def test_bench_plot_option(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    chart = tmp_path / "bench.png"
    status, files, output = run_bench(tmp_path, capsys, "--kronecker", "6", "--primitives",
                                      "bfs,sssp", "--peers", "scipy-csgraph", "--roots", "2",
                                      "--repeat", "1", "--device", "cpu", "--plot", str(chart))
    assert status == 0 and f"chart in {chart}" in output.err
    assert chart.read_bytes()[:4] == b"\x89PNG"
    saved = tmp_path / "again.png"
    assert records.main([*map(str, files), "--plot", str(saved)]) == 0 and saved.exists()


@given(edge_lists(weighted=False), st.data(), st.integers(1, 5))
def test_check_distances_in_small_arc_batches(edges, data, batch):
    """The check walks the arcs in batches: any batch size gives the same verdicts."""
    import frontier.bench.checks as checks_module

    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    weights = rng.integers(1, 9, len(edges.src)).astype(np.float64)
    G = fr.Graph.from_edges(edges.src, edges.dst, weights, edges.num_vertices, edges.directed,
                            device="cpu")
    source = data.draw(st.integers(0, G.num_vertices - 1))
    distance = csgraph.dijkstra(peers.PeerInputs(G).scipy_matrix, directed=True, indices=source)
    changed = distance.copy()
    others = np.flatnonzero(np.arange(G.num_vertices) != source)
    if len(others):
        v = data.draw(st.sampled_from(others.tolist()))
        changed[v] = 0.25 if np.isinf(distance[v]) else distance[v] * 1.5 + 0.1
    saved = checks_module.ARC_BATCH
    try:
        checks_module.ARC_BATCH = batch
        checks.check_distances(G, source, distance)
        if len(others):
            with pytest.raises(ValueError, match=r"distance\["):
                checks.check_distances(G, source, changed)
    finally:
        checks_module.ARC_BATCH = saved


@pytest.mark.parametrize("seed", [0, 1, 5])
def test_betweenness_source_lies_in_the_giant_component(seed):
    from networkx.utils import create_py_random_state

    from primitives import connected_components

    G = fr.generators.kronecker(10, seed=seed, device="cpu")
    chosen = bc_seed(G, seed)
    assert chosen >= seed
    (source,) = create_py_random_state(chosen).sample(range(G.num_vertices), 1)
    labels = to_numpy(connected_components(G).labels)
    sizes = np.bincount(labels)
    assert sizes[labels[source]] == sizes.max() > 1


def test_the_sssp_width_script_counts_relaxations(tmp_path):
    """benchmarks/sssp_delta.py on a connected grid: every arc is relaxed at
    least once, and the plain Bellman-Ford (delta=inf) relaxes more than a
    narrow split does."""
    out = tmp_path / "widths.json"
    _script("sssp_delta.py", "--grid", "30x30", "--deltas", "1,inf", "--roots", "1",
            "--repeat", "1", "--json", str(out))
    narrow, plain = json.loads(out.read_text())["rows"]
    assert narrow["relaxations_per_arc"] >= 1.0
    assert plain["relaxations_per_arc"] > narrow["relaxations_per_arc"]
    assert plain["iterations"] < narrow["iterations"]


def _script(name: str, *arguments: str):
    """Run benchmarks/``name`` with ``arguments`` from the repository root,
    as it is timed: without the declarations' checks (which rerun a call)."""
    import os
    import subprocess
    from pathlib import Path

    from frontier.primitive import CHECK_VARIABLE

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, str(root / "benchmarks" / name), *arguments],
                          capture_output=True, text=True, timeout=240, cwd=root,
                          env={**os.environ, CHECK_VARIABLE: "0"})
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_parts_script_times_parts_on_devices_of_their_own(tmp_path):
    """benchmarks/shared_parts.py --spread on virtual CPU devices: one part,
    then two parts on ``cpu`` and ``cpu:1``, joint levels and the output
    boundary, each with the bytes sent and their lower bound."""
    _script("shared_parts.py", "--device", "cpu", "--spread", "--kronecker", "8", "--parts",
            "2", "--primitives", "bfs", "--duplication", "all", "--boundaries", "joint,output",
            "--roots", "1", "--repeat", "1", "--results", str(tmp_path))
    (path,) = tmp_path.glob("*_shared-parts-kronecker-8.json")
    records = json.loads(path.read_text())
    assert [(r["num_devices"], r["boundary"]) for r in records] == \
        [(1, "none"), (2, "joint"), (2, "output")]
    assert [r["devices"] for r in records[1:]] == [["cpu", "cpu:1"]] * 2
    assert all(r["exchanged_bytes"] > 0 and r["bound_bytes"] > 0 for r in records[1:])


def test_the_profile_script_times_each_ranks_joint_levels():
    """benchmarks/profile_multi_gpu.py on two virtual CPU devices, without
    synchronizations: BFS's levels run jointly (the profile leaves its
    default converged alone), and each rank's phases include their launches."""
    output = _script("profile_multi_gpu.py", "--cpu", "--scale", "8", "--gpus", "2",
                     "--host-only", "--calls", "2")
    ranks = output.split("\nrank ")[1:]
    assert len(ranks) == 2
    for phases in ranks:
        for phase in ("joint levels: claim launches", "joint levels: merge launches",
                      "setup", "gather on rank 0", "first boundary"):
            assert phase in phases, (phase, phases)


# the primitives of issue 32 ------------------------------------------------------------

NEW_PRIMITIVES = ("kcore", "triangles", "scc", "label_propagation", "hits", "eigenvector",
                  "katz", "edge_bc", "paths", "dijkstra")


def test_bench_times_and_checks_every_new_primitive(tmp_path, capsys, device):
    status, files, output = run_bench(
        tmp_path, capsys, "--kronecker", "7", "--primitives", ",".join(NEW_PRIMITIVES),
        "--peers", "auto", "--roots", "2", "--repeat", "1", "--device", device, "--json")
    assert status == 0, output.err
    found = [json.loads(line) for line in output.out.splitlines()]
    by_name = {(r["primitive"], r["implementation"]): r for r in found}
    assert [p for p, i in by_name if i == "frontier"] == list(NEW_PRIMITIVES)
    for primitive in NEW_PRIMITIVES:
        record = by_name[(primitive, "frontier")]
        assert record["status"] == "ok" and record["time_ms"] > 0, record
        assert record["checked_runs"] == 1 + record["repeat"] * (
            2 if primitive in ("paths", "dijkstra") else 1) + 1
        assert by_name[(primitive, "networkx")]["status"] == "ok"
    validations = {p: by_name[(p, "frontier")]["validation"] for p in NEW_PRIMITIVES}
    assert validations == {
        "kcore": "h-index+networkx", "triangles": "bounds+sampled+networkx", "scc": "scipy",
        "label_propagation": "settled+networkx", "hits": "residual",
        "eigenvector": "residual", "katz": "residual", "edge_bc": "path-sum+networkx",
        "paths": "graph500", "dijkstra": "distances"}
    assert by_name[("scc", "scipy-csgraph")]["status"] == "ok"
    # SCC and HITS run on the directed Kronecker graph, Dijkstra on the weighted one
    assert [p for p, i in by_name if by_name[(p, i)]["directed"]] == ["scc"] * 3 + ["hits"] * 3
    assert by_name[("dijkstra", "frontier")]["weighted"] is True
    assert by_name[("kcore", "frontier")]["weighted"] is False
    assert len(by_name[("paths", "frontier")]["roots"]) == 2
    assert by_name[("paths", "networkx")]["validation"] == "graph500"
    assert by_name[("scc", "frontier")]["iterations"] > 0
    spmv = by_name[("katz", "cusparse-spmv")]
    assert spmv["status"] == ("skipped" if device == "cpu" else "ok")


def test_bench_default_primitives_are_the_six():
    from frontier.bench.harness import Settings

    assert Settings().primitives == ("bfs", "dobfs", "sssp", "cc", "bc", "pagerank")
    with pytest.raises(ValueError, match="unknown primitive 'cores'.*kcore"):
        Settings(primitives=("cores",))


def sampled_with_room() -> int:
    """A vertex of Kronecker 7 whose triangles the bench counts directly and
    whose count stays within its bound when raised by 3."""
    G = fr.generators.kronecker(7, 16, seed=0, device="cpu")
    distinct = G.simplified().degree()
    counts = np.array([nx.triangles(G.to_networkx())[v] for v in range(G.num_vertices)])
    room = [v for v in answers.triangle_sample(G)
            if 2 * (counts[v] + 3) <= distinct[v] * (distinct[v] - 1)]
    return int(room[0])


@pytest.mark.parametrize("primitive, wrong, message", [
    ("triangles", lambda counts: counts + (np.arange(len(counts)) == 5), "triangles|multiple"),
    # three more at a sampled vertex (one under its bound): only the direct count sees it
    ("triangles", lambda counts: counts + 3 * (np.arange(len(counts)) == sampled_with_room()),
     "counted directly"),
    ("kcore", lambda result: setattr(result, "core", result.core + 1) or result, "core number"),
    ("scc", lambda result: setattr(result, "labels", result.labels[::-1].copy()) or result,
     "SCC labels"),
    ("label_propagation",
     lambda result: setattr(result, "labels", np.arange(len(result.labels))) or result,
     "holds label"),
    ("eigenvector",
     lambda result: setattr(result, "centrality", np.roll(result.centrality, 1)) or result,
     "eigenvector centrality"),
    ("edge_bc",
     lambda result: setattr(result, "centrality", result.centrality * 1.01) or result,
     "edge betweenness"),
    # the same sum, edges swapped: only the comparison with NetworkX sees it
    ("edge_bc",
     lambda result: setattr(result, "centrality", result.centrality[::-1].copy()) or result,
     "NetworkX"),
])
def test_bench_records_a_wrong_answer_of_a_new_primitive(tmp_path, capsys, monkeypatch,
                                                         primitive, wrong, message):
    import primitives
    from frontier.bench.workload import ANALYTICS

    right = getattr(primitives, ANALYTICS[primitive])
    monkeypatch.setattr(primitives, ANALYTICS[primitive],
                        lambda *args, **kwargs: wrong(right(*args, **kwargs)))
    status, files, output = run_bench(tmp_path, capsys, "--kronecker", "7", "--primitives",
                                      primitive, "--peers", "none", "--repeat", "1",
                                      "--device", "cpu")
    assert status == 1
    (record,) = json.loads(files[0].read_text())
    assert record["status"] == "failed" and record["primitive"] == primitive
    assert re.search(message, record["reason"]), record["reason"]


def test_bench_new_primitives_on_a_labelled_directed_file(tmp_path, capsys):
    path = tmp_path / "labelled.txt"
    path.write_text("10 20\n20 30\n30 10\n40 50\n70 40\n50 40\n")
    status, files, output = run_bench(
        tmp_path, capsys, "--graph", str(path), "--primitives",
        "kcore,triangles,scc,label_propagation,paths,hits", "--peers", "networkx,scipy-csgraph",
        "--roots", "3", "--repeat", "1", "--device", "cpu")
    assert status == 0, output.err
    found = {(r["primitive"], r["implementation"]): r for r in json.loads(files[0].read_text())}
    for name in ("triangles", "label_propagation"):  # NetworkX refuses directed graphs
        for implementation in ("frontier", "networkx"):
            record = found[(name, implementation)]
            assert record["status"] == "skipped" and "undirected" in record["reason"]
    for name in ("kcore", "scc", "paths", "hits"):
        assert found[(name, "frontier")]["status"] == "ok"
        assert found[(name, "networkx")]["status"] == "ok"
    assert found[("scc", "scipy-csgraph")]["status"] == "ok"


# the checks of the new primitives -----------------------------------------------------


@given(edge_lists(weighted=False), st.data())
def test_core_number_check_accepts_networkx_and_rejects_a_change(edges, data):
    G = edges.graph("cpu")
    g = nx.Graph(edges.networkx(multigraph=False)) if not edges.directed \
        else nx.DiGraph(edges.networkx(multigraph=False))
    g.remove_edges_from(list(nx.selfloop_edges(g)))
    core = np.zeros(G.num_vertices, dtype=np.int64)
    found = nx.core_number(g)
    core[list(found)] = list(found.values())
    answers.check_core_numbers(G, core)
    v = data.draw(st.integers(0, G.num_vertices - 1))
    changed = core.copy()
    # v itself breaks the h-index rule (the first vertex reported may be a neighbour)
    changed[v] += 1 if core[v] == 0 or data.draw(st.booleans()) else -1
    with pytest.raises(ValueError, match="core number"):
        answers.check_core_numbers(G, changed)


@given(edge_lists(directed=False, weighted=False))
def test_settled_check_accepts_networkx_communities(edges):
    G = edges.graph("cpu")
    labels = np.empty(G.num_vertices, dtype=np.int64)
    for index, members in enumerate(
            nx.community.label_propagation_communities(edges.networkx(multigraph=False))):
        labels[list(members)] = index
    answers.check_settled(G, labels)


def test_settled_check_rejects_an_outvoted_label():
    # vertex 0's neighbours 1, 2, 3 hold 7, 7, 8: 0 must hold 7
    G = fr.Graph.from_edges([0, 0, 0, 1, 2], [1, 2, 3, 2, 1], device="cpu")
    answers.check_settled(G, np.array([7, 7, 7, 7]))
    with pytest.raises(ValueError, match="vertex 0 holds label 8"):
        answers.check_settled(G, np.array([8, 7, 7, 8]))


def test_partition_checks():
    answers.check_same_partition(np.array([3, 3, 1, 1]), np.array([0, 0, 9, 9]), "parts")
    with pytest.raises(ValueError, match="vertex 2"):
        answers.check_same_partition(np.array([3, 3, 3, 1]), np.array([0, 0, 9, 9]), "parts")
    assert answers.smallest_member(np.array([4, 4, 1, 4])).tolist() == [0, 0, 2, 0]


@pytest.mark.parametrize("directed", [False, True])
def test_spectral_checks_accept_networkx_and_reject_other_vectors(directed):
    g = nx.gnm_random_graph(60, 240, seed=3, directed=directed)
    G = fr.Graph.from_networkx(g)
    ids = np.arange(60)

    def array(values):
        return np.array([values[v] for v in ids])

    eigenvector = array(nx.eigenvector_centrality(g, tol=1e-6, max_iter=1000))
    answers.check_eigenvector(G, eigenvector, 1e-6)
    with pytest.raises(ValueError, match="moves it"):
        answers.check_eigenvector(G, np.roll(eigenvector, 1), 1e-6)
    alpha = analytics.katz_alpha(G)
    katz = array(nx.katz_centrality(g, alpha=alpha, tol=1e-6))
    answers.check_katz(G, katz, alpha, 1.0, 1e-6)
    with pytest.raises(ValueError, match="moves it"):
        answers.check_katz(G, np.sqrt(katz), alpha, 1.0, 1e-6)
    hub, authority = (array(d) for d in nx.hits(g, tol=1e-10, max_iter=1000))
    answers.check_hits(G, hub, authority, 1e-8)
    if directed:  # undirected: hubs and authorities are one vector
        with pytest.raises(ValueError, match="HITS"):
            answers.check_hits(G, authority, hub, 1e-8)


@given(edge_lists(weighted=False))
def test_katz_alpha_is_below_one_over_the_spectral_radius(edges):
    G = edges.graph("cpu")
    matrix = np.zeros((G.num_vertices, G.num_vertices))
    np.add.at(matrix, (edges.src, edges.dst), 1.0)
    if not edges.directed:
        np.add.at(matrix, (edges.dst[edges.src != edges.dst], edges.src[edges.src != edges.dst]),
                  1.0)
    radius = max(abs(np.linalg.eigvals(matrix))) if G.num_vertices else 0.0
    assert analytics.katz_alpha(G) * radius < 1


def test_tree_of_paths_and_tree_arcs():
    paths = nx.single_source_dijkstra_path(nx.path_graph(4), 0)
    hops, parent = answers.tree_of_paths(paths, 5, 0)
    assert hops.tolist() == [0, 1, 2, 3, -1] and parent.tolist() == [-1, 0, 1, 2, -1]
    for broken, message in (({0: [0], 1: [1]}, "runs from 1"),
                            ({0: [0], 1: [0, 1], 2: [0, 3, 2]}, "through 3"),
                            ({0: [0], 1: [0, 1], 2: [0, 2], 3: [0, 1, 3], 4: [0, 2, 1, 4]},
                             "does not extend"),
                            # the right length and last step, another middle
                            ({0: [0], 1: [0, 1], 2: [0, 1, 2], 3: [0, 3], 4: [0, 3, 2, 4]},
                             "does not extend")):
        with pytest.raises(ValueError, match=message):
            answers.tree_of_paths(broken, 5, 0)
    G = fr.Graph.from_edges([0, 1, 0, 0], [1, 2, 2, 2], [2.0, 2.0, 9.0, 4.0], directed=True,
                            device="cpu")
    answers.check_tree_arcs(G, np.array([-1, 0, 0]), np.array([0.0, 2.0, 4.0]))  # the lighter
    with pytest.raises(ValueError, match="path to 2 steps from 0"):
        answers.check_tree_arcs(G, np.array([-1, 0, 0]), np.array([0.0, 2.0, 3.0]))


def test_bench_new_primitives_on_two_devices(tmp_path, capsys):
    status, _, output = run_bench(
        tmp_path, capsys, "--kronecker", "6", "--primitives", "kcore,triangles,paths",
        "--peers", "none", "--roots", "1", "--repeat", "1", "--device", "cpu",
        "--devices", "1,2", "--json")
    assert status == 0, output.err
    lines = [json.loads(line) for line in output.out.splitlines()]
    assert [(r["primitive"], r["num_devices"], r["status"]) for r in lines] == [
        (p, count, "ok") for p in ("kcore", "triangles", "paths") for count in (1, 2)]
    kcore = lines[1]
    assert kcore["exchanged_bytes"] > 0 and kcore["validation"] == "h-index+networkx"
    # triangles and paths answer with arrays and dicts: no exchange figures to record
    assert lines[3]["exchanged_bytes"] is None and lines[5]["validation"] == "graph500"


@given(edge_lists(directed=False, weighted=False))
def test_triangles_counted_directly_match_networkx(edges):
    G = edges.graph("cpu")
    expected = nx.triangles(edges.networkx(multigraph=False))
    vertices = answers.triangle_sample(G, seed=1)
    assert len(vertices) <= answers.TRIANGLE_SAMPLE
    assert answers.triangles_through(G, vertices).tolist() == [expected[v] for v in vertices]
    counts = np.array([expected[v] for v in range(G.num_vertices)])
    answers.check_triangle_counts(G, counts, vertices, answers.triangles_through(G, vertices))
