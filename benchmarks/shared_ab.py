"""A/B of a module constant on parts sharing one GPU: whole calls on 1, 2
and 4 parts of ``cuda:0``, the variants alternating (5 rounds after a
warm-up each), median of the calls' ``elapsed_s`` (issue 27).

    python benchmarks/shared_ab.py 12,24 \\
        frontier.multi.output_exchange.FUSED_BOUNDARY=True,False bfs,sssp,cc
"""

import ast
import importlib
import statistics
import sys

import frontier as fr
from primitives import bfs, connected_components, pagerank, sssp


def _call(primitive: str, G, source: int):
    """A call of ``primitive`` on ``G`` (from ``source``) taking device options."""
    return {"bfs": lambda **o: bfs(G, source, **o),
            "sssp": lambda **o: sssp(G, source, **o),
            "cc": lambda **o: connected_components(G, **o),
            "pagerank": lambda **o: pagerank(G, tol=1e-9, max_iter=1000, **o)}[primitive]


def main() -> None:
    scales = [int(scale) for scale in sys.argv[1].split(",")]
    target, values = sys.argv[2].split("=")
    module_name, name = target.rsplit(".", 1)
    module = importlib.import_module(module_name)
    values = [ast.literal_eval(value) for value in values.split(",")]
    for scale in scales:
        G = fr.generators.kronecker(scale, 16, seed=0, device="cuda:0", progress=False)
        source = int(fr.to_numpy(G.out_degree()).argmax())
        for primitive in sys.argv[3].split(","):
            call = _call(primitive, G, source)
            for parts in (1, 2, 4):
                options = {} if parts == 1 else {"devices": ["cuda:0"] * parts}
                variants = values if parts > 1 else values[:1]
                times = {value: [] for value in variants}
                for value in variants:  # warm-up
                    setattr(module, name, value)
                    call(**options)
                for _ in range(5):
                    for value in variants:
                        setattr(module, name, value)
                        result = call(**options)
                        times[value].append(result.elapsed_s * 1e3)
                for value in variants:
                    print(f"K{scale} {primitive} parts={parts} {name}={value}: "
                          f"{statistics.median(times[value]):.2f} ms "
                          f"({result.iterations} iterations)", flush=True)


if __name__ == "__main__":
    main()
