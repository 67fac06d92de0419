"""Graph primitives written against the Frontier operator API."""

from .bc import BCResult, betweenness_centrality
from .bfs import BFSResult, bfs
from .cc import CCResult, connected_components
from .dobfs import DOBFSResult, dobfs
from .edge_bc import EdgeBCResult, edge_betweenness_centrality
from .kcore import CoreResult, core_number, k_core
from .pagerank import PageRankResult, pagerank
from .paths import (
    dijkstra_path,
    has_path,
    shortest_path,
    single_source_dijkstra,
    single_source_shortest_path,
)
from .sssp import SSSPResult, sssp
from .triangles import average_clustering, clustering, transitivity, triangles

__all__ = ["BCResult", "BFSResult", "CCResult", "DOBFSResult", "PageRankResult",
           "SSSPResult", "betweenness_centrality", "bfs", "connected_components", "dobfs",
           "pagerank", "sssp"]
# shortest paths, not only lengths (primitives/paths.py)
__all__ += ["EdgeBCResult", "edge_betweenness_centrality"]
__all__ += ["CoreResult", "core_number", "k_core"]
__all__ += ["average_clustering", "clustering", "transitivity", "triangles"]
__all__ += ["dijkstra_path", "has_path", "shortest_path", "single_source_dijkstra",
            "single_source_shortest_path"]
