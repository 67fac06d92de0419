"""One call per primitive, as the benchmark tools time it: ``CALLS[name](G, root)``
(BC from one sampled source; CC and PageRank ignore ``root``)."""

import primitives

CALLS = {
    "bfs": lambda G, root: primitives.bfs(G, source=root),
    "dobfs": lambda G, root: primitives.dobfs(G, source=root),
    "sssp": lambda G, root: primitives.sssp(G, source=root),
    "cc": lambda G, root: primitives.connected_components(G),
    "pagerank": lambda G, root: primitives.pagerank(G),
    "bc": lambda G, root: primitives.betweenness_centrality(G, k=1, seed=0),
}
