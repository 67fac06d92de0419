"""Graph primitives written against the Frontier operator API."""

from .bc import BCResult, betweenness_centrality
from .bfs import BFSResult, bfs
from .cc import CCResult, connected_components
from .coloring import ColoringResult, greedy_color
from .dobfs import DOBFSResult, dobfs
from .edge_bc import EdgeBCResult, edge_betweenness_centrality
from .eigenvector import EigenvectorResult, eigenvector_centrality
from .hits import HITSResult, hits
from .katz import KatzResult, katz_centrality
from .kcore import CoreResult, core_number, k_core
from .label_propagation import LabelPropagationResult, label_propagation
from .pagerank import PageRankResult, pagerank
from .paths import (
    dijkstra_path,
    has_path,
    shortest_path,
    single_source_dijkstra,
    single_source_shortest_path,
)
from .scc import SCCResult, strongly_connected_components
from .sssp import SSSPResult, sssp
from .triangles import average_clustering, clustering, transitivity, triangles

__all__ = ["BCResult", "BFSResult", "CCResult", "DOBFSResult", "PageRankResult",
           "SSSPResult", "betweenness_centrality", "bfs", "connected_components", "dobfs",
           "pagerank", "sssp"]
__all__ += ["EigenvectorResult", "HITSResult", "KatzResult", "eigenvector_centrality",
            "hits", "katz_centrality", "SCCResult", "strongly_connected_components",
            "ColoringResult", "LabelPropagationResult", "greedy_color", "label_propagation"]
__all__ += ["dijkstra_path", "has_path", "shortest_path", "single_source_dijkstra",
            "single_source_shortest_path"]
__all__ += ["CoreResult", "EdgeBCResult", "average_clustering", "clustering", "core_number",
            "edge_betweenness_centrality", "k_core", "transitivity", "triangles"]
