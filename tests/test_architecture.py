"""The shape of the house, checked: functions of few branches, routes that import no routes, a pure
cost model, and a README map that names every room."""

import ast
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
MODULES = sorted(APP.rglob("*.py"))


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, relative imports resolved, `from app import x` read as app.x."""
    package = ".".join(path.relative_to(APP.parent).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _complexities(source: str) -> Iterator[tuple[str, int]]:
    """Each function, method and closure of `source`, named as `Class.method.closure`, with its own
    complexity. `cc_visit` lists each class's methods beside the class too: they are read in it."""
    return _functions(block for block in cc_visit(source) if isinstance(block, Class) or not block.is_method)


def _functions(blocks: Iterable[Function | Class], outer: str = "") -> Iterator[tuple[str, int]]:
    """Each function with its closures, each class's methods and inner classes: a class's own
    complexity is its methods' average, no function's."""
    for block in blocks:
        if isinstance(block, Class):
            yield from _functions([*block.methods, *block.inner_classes], f"{outer}{block.name}.")
        else:
            name = f"{outer}{block.name}"
            yield name, block.complexity
            yield from _functions(block.closures, f"{name}.")


def test_no_function_is_more_complex_than_15():
    """Cyclomatic complexity as radon counts it: past 15 branches a function wants helpers, whatever its length."""
    too_complex = [
        f"{path}:{name} {complexity}"
        for path in (p.relative_to(ROOT).as_posix() for p in MODULES)
        for name, complexity in _complexities((ROOT / path).read_text())
        if complexity > 15
    ]
    assert not too_complex, "more complex than 15 (path:function complexity):\n" + "\n".join(too_complex)


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def test_no_page_area_imports_another_areas_routes():
    """Only the wiring includes a router: an area shares a view or a page, never another area's routes."""
    routers = {_module(p) for p in MODULES if "APIRouter(" in p.read_text()}
    assert routers, "no module defines a router"
    for path in MODULES:
        if path != APP / "main.py":
            assert not {m for m in _imports(path) if m.rpartition(".")[0] in routers or m in routers}, path


def test_the_layers_import_downwards():
    """web -> refresh, quoting, scenarios, catalog -> costing, with platform beneath them all."""
    below = {
        "platform": {"platform"},
        "catalog": {"catalog", "costing", "platform"},
        "quoting": {"quoting", "catalog", "costing", "platform"},
        "scenarios": {"scenarios", "quoting", "catalog", "costing", "platform"},
        "refresh": {"refresh", "catalog", "costing", "platform"},
    }
    for path in MODULES:
        layer = path.relative_to(APP).parts[0]
        if layer in below:
            reached = {m.split(".")[1] for m in _imports(path) if m.startswith("app.")}
            assert reached <= below[layer], (path, reached - below[layer])


def test_the_cost_model_imports_only_itself_and_the_standard_library():
    for path in (APP / "costing").rglob("*.py"):
        outside = {m for m in _imports(path) if not m.startswith("app.costing.")}
        assert {m.split(".")[0] for m in outside} <= sys.stdlib_module_names | {"__future__"}, (path, outside)


def test_the_readme_map_names_every_module_and_template():
    """Each by a tail of its path that no other file shares: `contenders.py`, `scenarios/tables.py`."""
    files = sorted(p.relative_to(ROOT).as_posix() for p in [*MODULES, *(ROOT / "templates").rglob("*.html")])
    where_things_are = (ROOT / "README.md").read_text().split("\n## Where things are\n")[1].split("\n## ")[0]
    named = set()
    for name in re.findall(r"`([^`]+)`", where_things_are):
        meant = [f for f in files if f == name or f.endswith(f"/{name}")]
        if len(meant) == 1:
            named.update(meant)
    missing = [f for f in files if f not in named and not f.endswith("/__init__.py")]
    assert not missing, f"the README's map (Where things are) does not name {', '.join(missing)}"
