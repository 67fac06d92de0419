"""Keep your NetworkX code, run it on Frontier: the ``frontier`` NetworkX backend.

NetworkX (3.3 and later) hands a call to an installed backend when asked
with ``backend="frontier"``, or for every call when the backend is first in
``nx.config.backend_priority``. The graph stays a NetworkX graph in your code;
the backend converts it (NetworkX caches the conversion) and runs Frontier's
primitive on the default device. Each answer here is compared with plain
NetworkX. If the installed Frontier has no NetworkX backend, the example says
so and exits.

    python examples/networkx_backend.py                 # Kronecker scale 10
    python examples/networkx_backend.py --scale 8
    FRONTIER_EXAMPLE_SMALL=1 python examples/networkx_backend.py   # the CI size
"""

import argparse
import math
import os
import sys

import networkx as nx

import frontier as fr

if "frontier" not in getattr(nx.utils.backends, "backends", {}):
    print(f"skipped: NetworkX {nx.__version__} finds no 'frontier' backend (pip registers it "
          "when it installs a Frontier that has one: python -m pip install -e .)")
    sys.exit(0)

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--scale", type=int, default=10, help="2^SCALE vertices (default 10)")
args = parser.parse_args()
scale = 7 if os.environ.get("FRONTIER_EXAMPLE_SMALL") else args.scale

# Any NetworkX graph will do; this one comes from Frontier's Graph500 generator.
g = fr.generators.kronecker(scale, edgefactor=8, seed=0, device="cpu").to_networkx()
source = max(g.degree, key=lambda pair: pair[1])[0]
print(f"{g}, source {source}")
# NetworkX converts g once and reuses the conversion; g is never changed here, so the
# note it prints about that cache is not needed.
nx.config.warnings_to_ignore.add("cache")


def same(a: dict, b: dict) -> bool:
    """Equal keys and values (floats to within 1e-6)."""
    return a.keys() == b.keys() and all(math.isclose(a[k], b[k], abs_tol=1e-6) for k in a)


calls = {
    "pagerank": lambda **kw: nx.pagerank(g, alpha=0.85, **kw),
    "single_source_shortest_path_length":
        lambda **kw: dict(nx.single_source_shortest_path_length(g, source, **kw)),
    "connected_components":
        lambda **kw: {v: min(c) for c in nx.connected_components(g, **kw) for v in c},
    "betweenness_centrality": lambda **kw: nx.betweenness_centrality(g, **kw),
}
for name, call in calls.items():
    try:
        answer = call(backend="frontier")  # the one change to your code
    except NotImplementedError:  # a backend need not implement every function
        print(f"{name}: not implemented by the frontier backend, skipped")
        continue
    assert same(answer, call()), f"{name}: Frontier and NetworkX disagree"
    print(f"{name}: Frontier's answer equals NetworkX's ({len(answer)} vertices)")

# Or make Frontier the first choice for every call in a block, without backend=:
with nx.config.backend_priority(algos=["frontier"]):
    rank = nx.pagerank(g)
top = sorted(rank, key=rank.get, reverse=True)[:3]
print(f"pagerank with backend priority: top vertices {top}")
