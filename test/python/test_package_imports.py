"""No module of the kaji package imports another in a cycle, not even inside a function: each
module's imports (every `import` and `from ... import` in its source) lead only to modules
that do not lead back to it. No GPU needed."""

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "python" / "kaji"
# Built from python/src: a module of the package whose own imports, in C++, are not read here.
EXTENSION_MODULES = {"kaji._core"}


def module_name(path):
    """kaji.cuda for kaji/cuda/__init__.py, kaji.cuda.config for kaji/cuda/config.py."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(path):
    """The package a relative import in `path` starts from."""
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imported_modules(path, package_modules):
    """The package's modules that `path` imports. `from package import name` imports the
    module package.name where there is one, else the package itself; an import of kaji.name
    counts as one of that module alone, since Python runs the package first whoever imports
    it."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package_of(path)
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = node.module if node.level == 0 else \
                ".".join(part for part in (base, node.module) if part)
            imported.update(f"{module}.{alias.name}" if f"{module}.{alias.name}" in package_modules
                            else module for alias in node.names)
    return imported & package_modules


def import_graph():
    paths = sorted(PACKAGE.rglob("*.py"))
    package_modules = {module_name(path) for path in paths} | EXTENSION_MODULES
    graph = {module_name(path): imported_modules(path, package_modules) - {module_name(path)}
             for path in paths}
    return graph | {module: set() for module in EXTENSION_MODULES}


def cycles(graph):
    """One cycle (a list of modules, the first repeated at the end) through each module that
    is on one."""
    found = []
    on_cycle = set()
    for start in sorted(graph):
        if start in on_cycle:
            continue
        path = find_path(graph, start, start)
        if path is not None:
            found.append(path)
            on_cycle.update(path)
    return found


def find_path(graph, origin, goal):
    """A shortest import path of at least one step from `origin` to `goal`, or None."""
    paths = {module: [origin, module] for module in graph[origin]}
    frontier = sorted(paths)
    while frontier:
        module = frontier.pop(0)
        if module == goal:
            return paths[module]
        for next_module in sorted(graph[module]):
            if next_module not in paths:
                paths[next_module] = paths[module] + [next_module]
                frontier.append(next_module)
    return None


def test_the_import_graph_sees_the_package():
    graph = import_graph()
    assert {"kaji", "kaji.cuda", "kaji.decorator", "kaji._globals"} <= set(graph)
    assert "kaji.cuda" in graph["kaji"]
    assert "kaji.decorator" in graph["kaji.vectorize"]


def test_no_module_of_the_package_imports_itself_through_others():
    assert cycles(import_graph()) == []


def test_a_cycle_is_found_and_named():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
