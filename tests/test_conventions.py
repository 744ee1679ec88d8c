"""Kernel conventions checked by script (style.md §1.9).

Over every jitted module of every game (and sim/rng.py, sim/trace.py): each ``@njit`` has
``cache=True`` and a docstring, nothing uses ``np.random``, no ``fastmath``, and module-level
assignments are UPPER_CASE constants (Numba freezes globals at compile time, so anything a
designer may change must arrive as an argument).
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _jit_modules():
    mods = [ROOT / "sim" / "rng.py", ROOT / "sim" / "trace.py"]
    for path in sorted((ROOT / "sim" / "games").glob("*/*.py")):
        if "njit" in path.read_text():
            mods.append(path)
    return mods


def _njit_decorator(dec):
    target = dec.func if isinstance(dec, ast.Call) else dec
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("njit", "jit")


@pytest.mark.parametrize("path", _jit_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_kernel_module_conventions(path):
    tree = ast.parse(path.read_text())
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "random" and \
                isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy"):
            problems.append(f"line {node.lineno}: np.random")
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                if not _njit_decorator(dec):
                    continue
                kw = {k.arg: k.value for k in getattr(dec, "keywords", [])}
                cache = kw.get("cache")
                if not (isinstance(cache, ast.Constant) and cache.value is True):
                    problems.append(f"{node.name}: @njit without cache=True")
                if "fastmath" in kw:
                    problems.append(f"{node.name}: fastmath")
                if not ast.get_docstring(node):
                    problems.append(f"{node.name}: no docstring")
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for t in targets:
            names = [e for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
            for n in names:
                if isinstance(n, ast.Name) and not (n.id.isupper() or n.id.startswith("_") and n.id[1:].isupper()):
                    problems.append(f"line {node.lineno}: module global '{n.id}' is not an UPPER_CASE constant")
    assert not problems, problems
