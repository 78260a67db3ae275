"""The layers of opsdk point one way: every import (at the top of a file or inside a function)
goes to the same layer or one below, and no file imports itself back through others.

The order, lowest first (a module belongs to the layer of its longest listed prefix):
the Tensor, then autograd's recording and engine, the ops (functional), the PyLayer protocol
and the gradient API, the Tensor's method table; then the kernel machinery, the packs
(packs/: hooks, registry, loading, the built-in pack), the Paddle-facing layers (nn, optimizer,
amp, compat), verification (verification/), interop, the framework route of verification
(which drives interop's exports), scaffolding and the command line; ``opsdk/__init__`` (the
public face) on top.
A policy from above is handed down by registration (functional.cast_policy, maths.provide,
tensor_methods.provide), never imported up.

Run it as a script to print every edge that points up and every circle:
``python tests/test_layering.py``.
"""
import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1] / "opsdk"

LAYERS = [
    ("base", ["opsdk.errors", "opsdk.dtypes", "opsdk.device", "opsdk.device_queries",
              "opsdk.device_memory", "opsdk.device_cuda", "opsdk.writable", "opsdk.env",
              "opsdk.exclusive", "opsdk.printable", "opsdk.version", "opsdk.size"]),
    ("tensor", ["opsdk.tensor"]),
    ("autograd core", ["opsdk.autograd.grad_mode", "opsdk.autograd.node",
                       "opsdk.autograd.call_site", "opsdk.autograd.record",
                       "opsdk.autograd.engine", "opsdk.autograd.sparse_rows",
                       "opsdk.autograd.saved_hooks"]),
    ("ops", ["opsdk.functional"]),
    ("PyLayer and grad API", ["opsdk.autograd"]),
    ("tensor methods", ["opsdk.tensor_methods"]),
    ("kernels", ["opsdk.kernels"]),
    # opsdk.registry, opsdk.hookspecs, opsdk.plugins, opsdk.ops: public names re-exporting packs/
    ("packs", ["opsdk.packs", "opsdk.registry", "opsdk.hookspecs", "opsdk.plugins", "opsdk.ops"]),
    ("Paddle-facing", ["opsdk.linalg", "opsdk.serialization", "opsdk.amp", "opsdk.nn",
                       "opsdk.optimizer", "opsdk.compat"]),
    # opsdk.check, opsdk.gradcheck: public names re-exporting verification/
    ("verification", ["opsdk.verification", "opsdk.check", "opsdk.gradcheck", "opsdk.testing"]),
    ("interop", ["opsdk.interop"]),
    # ops exported through interop, checked with each framework's own tools
    ("verification through frameworks", ["opsdk.verification.frameworks"]),
    ("foreign ops", ["opsdk.foreign"]),
    ("scaffold", ["opsdk.scaffold"]),
    ("cli", ["opsdk.cli"]),
    ("public face", ["opsdk"]),
]

def _module_name(path):
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules():
    """{module name: (path, its package)} for every file of opsdk."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        name = _module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found[name] = (path, package)
    return found


def _resolve(name, known):
    """The module an imported dotted name lives in (``pkg.mod.attr`` -> ``pkg.mod``)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def _import_module_call(node):
    """The module named by ``importlib.import_module("opsdk...")`` (a literal), or None."""
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        fn = node.func
        name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", None)
        if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
            return node.args[0].value
    return None


def imports(source, package, known):
    """The opsdk modules a file imports, at the top or inside functions (also by
    ``importlib.import_module`` of a literal name): {module: line}."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        literal = _import_module_call(node)
        if literal is not None:
            names = [literal]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names = [f"{module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name == "opsdk" or name.startswith("opsdk."):
                target = _resolve(name, known)
                if target:
                    found.setdefault(target, node.lineno)
    return found


def graph():
    """{module: {imported module: line}} over opsdk (self-imports left out)."""
    known = modules()
    edges = {}
    for name, (path, package) in known.items():
        targets = imports(path.read_text(encoding="utf-8"), package, known)
        targets.pop(name, None)
        edges[name] = targets
    return edges


def layer_of(module):
    """The index in LAYERS of module's layer (its longest matching prefix)."""
    best, rank = -1, None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, rank = len(p), i
    return rank


def up_edges(edges):
    """(importer, imported) pairs where the imported module's layer is above the importer's."""
    return sorted((a, b) for a, targets in edges.items() for b in targets
                  if layer_of(b) > layer_of(a))


def circles(edges, ignored=()):
    """The strongly connected groups of more than one module (import circles)."""
    graph_ = {a: [b for b in targets if (a, b) not in ignored] for a, targets in edges.items()}
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        # Tarjan's algorithm, iterative: (node, its remaining targets)
        work = [(v, iter(graph_.get(v, ())))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, targets = work[-1]
            for w in targets:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(graph_.get(w, ()))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        group.append(w)
                        if w == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))

    for v in sorted(graph_):
        if v not in index:
            visit(v)
    return sorted(found)


EDGES = graph()


def test_every_module_has_a_layer():
    assert [m for m in EDGES if layer_of(m) is None] == []


def test_no_import_points_up_the_layers():
    bad = [f"{a} -> {b} (line {EDGES[a][b]}: {LAYERS[layer_of(a)][0]} imports "
           f"{LAYERS[layer_of(b)][0]})"
           for a, b in up_edges(EDGES)]
    assert bad == []


def test_no_file_imports_itself_back_through_others():
    assert circles(EDGES) == []



def test_the_scan_sees_imports_inside_functions():
    src = "def f():\n    from ..amp.matmul import autocast_matmul\n"
    known = {"opsdk.amp.matmul": None, "opsdk.amp": None}
    assert "opsdk.amp.matmul" in imports(src, "opsdk.functional", known)


def test_the_scan_sees_import_module_of_a_literal_name():
    src = "def f():\n    return importlib.import_module('opsdk.gradcheck')\n"
    assert list(imports(src, "opsdk.autograd", {"opsdk.gradcheck": None})) == ["opsdk.gradcheck"]


def test_the_scan_finds_a_circle():
    assert circles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [
        ["a", "b", "c"]]


if __name__ == "__main__":
    for a, b in up_edges(EDGES):
        print(f"up: {a} -> {b} line {EDGES[a][b]}")
    for group in circles(EDGES):
        print("circle:", " ".join(group))
    sys.exit(0)
