"""``frontier info`` and ``frontier convert`` on the shared real-world datasets
(counts from their README), the memory estimate, and the degree plot."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from graphs import DATASETS

import frontier as fr
from frontier.cli import main
from frontier.device import to_numpy
from frontier.graphinfo import expected_proxies, graph_statistics, memory_estimate

needs_datasets = pytest.mark.skipif(not DATASETS.is_dir(),
                                    reason=f"datasets folder {DATASETS} is absent")

# From datasets/README.md, for each file read with read_graph's defaults:
# vertices, edges as stored, directed, then the counts the README gives
# (None where it gives none): self loops, parallel (duplicate) arcs,
# (weakly) connected components, singleton components, largest component.
README = {
    "rome99.gr": (3353, 8870, True, 0, 11, 1, 0, 3353),
    "DE.gr": (49109, 121024, True, 448, 1280, 82, 1, None),
    "VT.gr": (97975, 215116, True, 990, 2137, 756, 3, None),
    "luxembourg_osm.mtx": (114599, 119666, False, 0, 0, 1, 0, 114599),
    "facebook_combined.txt": (4039, 88234, True, None, None, 1, 0, 4039),
    "wiki-Vote.txt": (7115, 103689, True, None, None, 24, None, 7066),
    "ca-GrQc.txt.gz": (5242, 28980, True, 12, None, 355, None, 4158),
    "cit-HepTh.txt.gz": (27770, 352807, True, 39, None, 143, None, 27400),
    "chesapeake.mtx": (39, 170, False, None, None, 1, 0, 39),
    "netscience.mtx": (1589, 2742, False, None, None, 396, 128, 379),
}
FIELDS = ("self_loops", "parallel_edges", "components", "singleton_components",
          "largest_component")


def run_json(capsys, *argv) -> tuple[int, dict]:
    code = main([*map(str, argv), "--json", "--quiet"])
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1, out
    return code, json.loads(out[0])


@needs_datasets
@pytest.mark.parametrize("name", sorted(README))
def test_info_reports_the_readme_counts(capsys, name):
    n, m, directed, *counts = README[name]
    code, report = run_json(capsys, "info", DATASETS / name)
    assert code == 0
    assert (report["vertices"], report["edges"], report["directed"]) == (n, m, directed)
    for field, expected in zip(FIELDS, counts):
        if expected is not None:
            assert report[field] == expected, field
    degree_keys = {"out_degree", "in_degree"} if directed else {"degree"}
    assert degree_keys <= set(report) and report["memory"]["devices"] == 1


@needs_datasets
def test_info_degrees_match_the_readme(capsys):
    _, luxembourg = run_json(capsys, "info", DATASETS / "luxembourg_osm.mtx")
    assert luxembourg["degree"]["max"] == 6 and round(luxembourg["degree"]["mean"], 2) == 2.09
    _, facebook = run_json(capsys, "info", DATASETS / "facebook_combined.txt", "--undirected")
    assert facebook["degree"]["max"] == 1045 and not facebook["directed"]
    assert facebook["edges"] == 88234


def host_csr(G):
    return (to_numpy(G.offsets), to_numpy(G.columns),
            None if G.weights is None else to_numpy(G.weights))


def assert_identical(G, H):
    assert (G.num_vertices, G.num_edges, G.directed, G.node_labels) == \
        (H.num_vertices, H.num_edges, H.directed, H.node_labels)
    for mine, theirs in zip(host_csr(G), host_csr(H)):
        if theirs is None:
            assert mine is None
        else:
            assert mine.dtype == theirs.dtype
            np.testing.assert_array_equal(mine, theirs)


@needs_datasets
@pytest.mark.parametrize("name", sorted(README))
def test_convert_to_binary_and_back_is_exact(tmp_path, capsys, name):
    original = fr.read_graph(DATASETS / name, device="cpu")
    binary = tmp_path / "g.fgb"
    code, summary = run_json(capsys, "convert", DATASETS / name, binary)
    assert code == 0 and summary["vertices"] == original.num_vertices
    assert_identical(fr.read_graph(binary, device="cpu"), original)
    back = tmp_path / name  # the dataset's own format, from the binary file
    code, _ = run_json(capsys, "convert", binary, back)
    assert code == 0
    H = fr.read_graph(back, device="cpu")
    if name.endswith((".gr", ".mtx")):  # 1-based ids: labels are not stored
        H.node_labels = original.node_labels
    assert_identical(H, original)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["g.fgb", name])


@needs_datasets
def test_convert_to_npz_and_csv(tmp_path, capsys):
    original = fr.read_graph(DATASETS / "wiki-Vote.txt", device="cpu")
    for name in ("w.npz", "w.csv", "w.csv.gz", "w.txt"):
        assert main(["convert", str(DATASETS / "wiki-Vote.txt"), str(tmp_path / name),
                     "--quiet"]) == 0
        assert_identical(fr.read_graph(tmp_path / name, device="cpu"), original)
    assert "wrote" in capsys.readouterr().out


def test_convert_csv_options_and_direction(tmp_path, capsys):
    source = tmp_path / "trips.csv"
    source.write_text("day;to;from;km\n1;20;10;5\n2;30;20;7\n")
    target = tmp_path / "trips.mtx"
    code = main(["convert", str(source), str(target), "--columns", "from,to,km",
                 "--delimiter", ";", "--undirected", "--json", "--quiet"])
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert code == 0 and not summary["directed"] and summary["weighted"]
    assert "original node labels are not kept" in err
    G = fr.read_graph(target, device="cpu")
    assert not G.directed and G.num_edges == 2 and to_numpy(G.weights).tolist() == \
        [5, 5, 7, 7]


def test_failed_convert_keeps_the_old_output(tmp_path, capsys):
    good = tmp_path / "g.txt"
    good.write_text("0 1\n1 2\n")
    lonely = tmp_path / "lonely.mtx"
    lonely.write_text("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n")
    before = good.read_bytes()
    assert main(["convert", str(lonely), str(good), "--quiet"]) == 2
    assert "an edge list cannot hold the 1 isolated vertices" in capsys.readouterr().err
    assert good.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.txt", "lonely.mtx"]


# memory estimate ---------------------------------------------------------------------


def test_info_kronecker_memory_per_device(capsys):
    _, one = run_json(capsys, "info", "--kronecker", "8")
    _, four = run_json(capsys, "info", "--kronecker", "8", "--devices", "4")
    assert one["graph"] == "kronecker-8-16" and one["vertices"] == 256
    assert one["memory"]["primitives"].keys() == {
        "bfs", "dobfs", "sssp", "connected_components", "betweenness_centrality", "pagerank"}
    local = four["memory"]["per_device"]
    assert local["owned"] == 64 and 0 < local["proxies"] < 192
    assert local["arcs"] == round(four["arcs"] / 4)
    for name, need in four["memory"]["primitives"].items():
        assert need["total_bytes"] == one["memory"]["primitives"][name]["total_bytes"]
        assert need["per_device_bytes"] < need["total_bytes"], name


def test_memory_estimate_counts_the_primitive_arrays():
    G = fr.Graph.from_edges(np.arange(999), np.arange(1, 1000), directed=True, device="cpu")
    estimate = memory_estimate(G)
    assert estimate["graph_bytes"] == G.storage_bytes() == 8 * 1001 + 4 * 999
    bfs = estimate["primitives"]["bfs"]["total_bytes"]
    # graph + depth (int32) + predecessor and two frontiers (int32) + workspace
    assert bfs == G.storage_bytes() + 1000 * (4 + 3 * 4) + 56 * 999
    # a pull on a directed graph needs the in-edge CSC too
    dobfs = estimate["primitives"]["dobfs"]["total_bytes"]
    assert dobfs - bfs == 1000 * 3 + 8 * 1001 + 999 * (4 + 4)
    with pytest.raises(ValueError, match="devices=0"):
        memory_estimate(G, 0)


def test_expected_proxies_match_a_random_partition():
    G = fr.generators.kronecker(12, 8, seed=3, device="cpu")
    src, dst, _ = G.edges()
    rng = np.random.default_rng(0)
    for k in (2, 4):
        counts = []
        for _ in range(5):
            owner = rng.integers(0, k, G.num_vertices)
            # proxies of device 0: vertices it does not own with an arc from it
            proxy = np.zeros(G.num_vertices, dtype=bool)
            proxy[dst[owner[src] == 0]] = True
            counts.append(np.count_nonzero(proxy & (owner != 0)))
        assert abs(np.mean(counts) - expected_proxies(G, k)) < 0.03 * np.mean(counts)


def test_statistics_of_a_small_multigraph():
    G = fr.Graph.from_edges([0, 0, 1, 3, 2], [1, 1, 1, 3, 1], num_vertices=6, directed=True,
                            device="cpu")
    stats = graph_statistics(G)
    assert (stats["self_loops"], stats["parallel_edges"], stats["components"]) == (2, 1, 4)
    assert (stats["singleton_components"], stats["isolated_vertices"]) == (3, 2)
    assert stats["out_degree"] == {"min": 0, "mean": round(5 / 6, 4), "max": 2}
    assert stats["in_degree"]["max"] == 4


# the degree plot ---------------------------------------------------------------------


def test_info_plots_the_degree_distribution(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    target = tmp_path / "degrees.png"
    code, report = run_json(capsys, "info", "--kronecker", "8", "--plot", target)
    assert code == 0 and report["plot"] == str(target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["degrees.png"]


def test_plot_without_matplotlib_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    code = main(["info", "--kronecker", "4", "--plot", str(tmp_path / "d.png"), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "matplotlib" in err[0] and "frontier-graph[plot]" in err[0]
    assert not (tmp_path / "d.png").exists()
