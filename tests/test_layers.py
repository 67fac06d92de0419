"""Structure rules: primitives name no device, partition, peer or
communicator, and the modules of frontier/, primitives/ and partition/
import each other without a circle."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).parents[1]
FORBIDDEN = {"device", "devices", "partition", "partitions", "partitioner", "peer", "peers",
             "communicator", "communicators", "comm", "cupy", "cuda", "mpi", "nccl"}


def words(name: str) -> set[str]:
    """The lower-case words of an identifier or string (snake_case, CamelCase)."""
    return {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)}
PACKAGES = ("frontier", "primitives", "partition")


def code_names(path: Path) -> set[str]:
    """The identifiers and strings of a module's code (not comments or docstrings)."""
    source = path.read_text()
    doc_lines = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body \
                and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            doc_lines.update(range(node.body[0].lineno, node.body[0].end_lineno + 1))
    names = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.start[0] in doc_lines:
            continue
        if token.type in (tokenize.NAME, tokenize.STRING):
            names.add(token.string)
    return names


def test_primitives_name_no_device_partition_peer_or_communicator():
    modules = sorted((ROOT / "primitives").glob("*.py"))
    assert modules
    for path in modules:
        offending = sorted(name for name in code_names(path) if words(name) & FORBIDDEN)
        assert not offending, f"{path.name} names {offending}"


def test_the_rule_catches_a_violation(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text('"""A primitive (devices are fine in a docstring)."""\n'
                      "def step(self):\n    return self.graph.device\n")
    assert "device" in code_names(module)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Modules among ``modules`` that ``path`` imports (at any depth of the
    code); ``from package import name`` counts as importing the submodule
    ``package.name`` when there is one, else the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    package = parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                found.add(submodule if submodule in modules else module)
    return found & modules


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_import_circle():
    paths = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    modules = {module_name(p): p for p in paths}
    graph = {name: imports_of(path, set(modules)) - {name} for name, path in modules.items()}
    state: dict[str, int] = {}

    def visit(name, trail):
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                circle = trail[trail.index(target):] + [target]
                raise AssertionError("import circle: " + " -> ".join(circle))
            if target not in state:
                visit(target, trail + [target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
