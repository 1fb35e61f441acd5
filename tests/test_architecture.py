"""The shape of the house, checked: small modules, routes that import no routes, a pure cost model."""

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"
MODULES = sorted(APP.rglob("*.py"))


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_module_is_over_250_lines():
    assert [p.name for p in MODULES if len(p.read_text().splitlines()) > 250] == []


def test_no_route_module_imports_another():
    routes = [p for p in MODULES if "routes" in p.parts]
    for path in routes:
        assert not {m for m in _imports(path) if m.startswith("app.routes")}, path


def test_the_cost_model_imports_nothing_of_ours_outside_itself():
    for path in (APP / "costing").rglob("*.py"):
        ours = {m for m in _imports(path) if m.startswith("app.")}
        assert all(m.startswith("app.costing") for m in ours), (path, ours)
