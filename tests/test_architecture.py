"""The shape of the house, checked: small modules, routes that import no routes, a pure cost model."""

import ast
import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"
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


def test_no_module_is_over_250_lines():
    assert [p.name for p in MODULES if len(p.read_text().splitlines()) > 250] == []


def test_no_route_module_imports_another():
    routes = [p for p in MODULES if "routes" in p.parts]
    for path in routes:
        assert not {m for m in _imports(path) if m == "app.routes" or m.startswith("app.routes.")}, path


def test_the_cost_model_imports_only_itself_and_the_standard_library():
    for path in (APP / "costing").rglob("*.py"):
        outside = {m for m in _imports(path) if not m.startswith("app.costing.")}
        assert {m.split(".")[0] for m in outside} <= sys.stdlib_module_names | {"__future__"}, (path, outside)
