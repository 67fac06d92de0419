"""Every ``examples/*.py`` runs at its small size and prints what it should;
the k-hop example's primitive equals NetworkX on random graphs.

The small-size convention (``examples/README.md``): an example run with the
environment variable ``FRONTIER_EXAMPLE_SMALL=1`` finishes in seconds. New
examples are found by the glob; list the lines one must print in ``EXPECTED``.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import edge_lists, with_device

import frontier as fr

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
_NX_BACKEND = "frontier" in getattr(nx.utils.backends, "backends", {})

#: example file name -> text its standard output must contain
EXPECTED = {
    "quickstart.py": ["Graph500 validation passed", "connected components:",
                      "agree with NetworkX"],
    "k_hop.py": ["vertices at exactly 2 hops", "within 2 hops"],
    "networkx_backend.py": (["pagerank: Frontier's answer equals NetworkX's"] if _NX_BACKEND
                            else ["skipped: NetworkX", "no 'frontier' backend"]),
    "multi_device_primitive.py": ["same answers"],
    "distributed_graph.py": ["depths equal to the whole graph's: True",
                             "same answers on the parts and on the whole graph"],
    "graph500_bfs.py": ["SCALE: 10", "NBFS: 64", "all BFS trees passed", "min_TEPS:",
                        "firstquartile_TEPS:", "median_TEPS:", "thirdquartile_TEPS:",
                        "max_TEPS:", "harmonic_mean_TEPS:"],
}


def run_small(path: Path) -> subprocess.CompletedProcess:
    # The checkout's packages come first, whatever is installed.
    env = {**os.environ, "FRONTIER_EXAMPLE_SMALL": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                       os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, str(path)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)


def test_examples_are_found():
    assert {"quickstart.py", "k_hop.py", "networkx_backend.py", "graph500_bfs.py"} <= \
        {path.name for path in EXAMPLES}


@pytest.mark.parametrize("path", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_example_runs_small(path):
    done = run_small(path)
    assert done.returncode == 0, f"{path.name} exited {done.returncode}:\n{done.stderr}"
    assert done.stdout.strip(), f"{path.name} printed nothing"
    for text in EXPECTED.get(path.name, []):
        assert text in done.stdout, f"{path.name}: {text!r} not in its output:\n{done.stdout}"


# the k-hop primitive ------------------------------------------------------------------


def load_example(name: str):
    """An example imported by path (``examples/`` is not a package)."""
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" /
                                                  f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


k_hop = load_example("k_hop").k_hop


@with_device
@given(edge_lists(weighted=False), st.integers(0, 4), st.data())
def test_k_hop_matches_networkx(device, edges, k, data):
    G = edges.graph(device)
    source = data.draw(st.integers(0, G.num_vertices - 1))
    r = k_hop(G, source, k)
    expected = np.full(G.num_vertices, -1)
    lengths = nx.single_source_shortest_path_length(edges.networkx(), source, cutoff=k)
    expected[list(lengths)] = list(lengths.values())
    np.testing.assert_array_equal(r.to_numpy().hops, expected)
    assert r.iterations <= k


@pytest.mark.parametrize("source, k, message", [
    (5, 1, "out of range"), (-1, 1, "out of range"), (0, -1, "k=-1"), (0, 1.5, "k=1.5"),
])
def test_k_hop_rejects_bad_arguments(source, k, message):
    G = fr.Graph.from_edges([0, 1], [1, 2], device="cpu")
    with pytest.raises(ValueError, match=message):
        k_hop(G, source, k)
