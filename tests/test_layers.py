"""The three packages are layers, imported one way: ``sim`` <- ``analysis`` <- ``pipelines``.

``sim`` (games and kernels) imports neither ``analysis`` nor ``pipelines``; ``analysis`` (the
store's read side, views, statistics, plots, reports) imports ``sim`` but never ``pipelines``
(the orchestration and CLI on top). Checked on the source with ``ast``, imports inside
functions included (a lazy import would hide a cycle), so it holds without importing anything.
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# package -> the packages of this project it must not import
FORBIDDEN = {
    "sim": {"analysis", "pipelines"},
    "analysis": {"pipelines"},
    "pipelines": set(),
}


def imported_packages(path: Path, package: str) -> list[tuple[int, str]]:
    """``(line, top-level package)`` of every import in ``path``, a module of ``package``,
    wherever it stands (module level, inside a function, under ``if``). A relative import is
    resolved against the module's own package, so it counts as that package."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.lineno, package if node.level else (node.module or "").split(".")[0]))
        elif isinstance(node, ast.Call) and _dynamic_import(node):
            out.append((node.lineno, node.args[0].value.split(".")[0]))
    return out


def _dynamic_import(node: ast.Call) -> bool:
    """``importlib.import_module("pkg...")`` or ``__import__("pkg...")`` with a literal name."""
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    return (name in ("import_module", "__import__") and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_go_one_way(package):
    modules = _modules(package)
    assert modules, f"no modules under {package}/"
    bad = [f"{p.relative_to(ROOT)}:{line} imports {pkg}"
           for p in modules for line, pkg in imported_packages(p, package)
           if pkg in FORBIDDEN[package]]
    assert not bad, bad


def test_the_check_sees_every_kind_of_import(tmp_path):
    """The checker finds module-level, nested, ``from`` and dynamic imports of a package, and
    treats relative imports as the module's own package."""
    src = tmp_path / "m.py"
    src.write_text(
        "import os\n"
        "import pipelines.store as s\n"
        "from pipelines import cli\n"
        "from . import db\n"
        "def f():\n"
        "    from pipelines.store import Store\n"
        "    import importlib\n"
        "    return importlib.import_module('pipelines.runner')\n"
        "if True:\n"
        "    from sim.spec import GameSpec\n")
    got = sorted(imported_packages(src, "analysis"))
    assert got == [(1, "os"), (2, "pipelines"), (3, "pipelines"), (4, "analysis"),
                   (6, "pipelines"), (7, "importlib"), (8, "pipelines"), (10, "sim")]
