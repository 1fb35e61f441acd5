"""The shape of the house, checked: small modules, routes that import no routes, a pure cost model,
and a README map that names every room."""

import ast
import re
import sys
from pathlib import Path

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
