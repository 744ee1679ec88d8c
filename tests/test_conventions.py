"""Kernel and game-folder conventions checked by script (style.md §1.9, design.md §3).

Over every jitted module of every game (and sim/rng.py, sim/trace.py): each ``@njit`` has
``cache=True`` and a docstring, nothing uses ``np.random``, no ``fastmath``, and module-level
assignments are UPPER_CASE constants (Numba freezes globals at compile time, so anything a
designer may change must arrive as an argument).
"""
import ast
import re
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
                if isinstance(n, ast.Name) and n.id in ("__getattr__", "__dir__"):
                    continue  # sim.layout.exports: the declared offsets as module attributes
                if isinstance(n, ast.Name) and not (n.id.isupper() or n.id.startswith("_") and n.id[1:].isupper()):
                    problems.append(f"line {node.lineno}: module global '{n.id}' is not an UPPER_CASE constant")
    assert not problems, problems


# ---- one shape for every game (docs/adding_a_game.md) --------------------------------------

from sim import registry  # noqa: E402
from sim.spec import layout  # noqa: E402

GAMES = registry.available_games()
FOLDER_FILES = ("__init__.py", "layout.py", "rules.py", "options.py", "policies.py", "kernel.py",
                "replay.py", "README.md", "components")


def _game_dir(game):
    return ROOT / "sim" / "games" / game


@pytest.mark.parametrize("game", GAMES)
def test_every_game_folder_has_the_same_files(game):
    missing = [f for f in FOLDER_FILES if not (_game_dir(game) / f).exists()]
    assert not missing, missing


@pytest.mark.parametrize("game", GAMES)
def test_no_offset_is_numbered_by_hand(game):
    """Every constant of a declared block (rule and policy parameters, state, seat block,
    output rows, component arrays...) comes from its declaration: no module of the game folder
    assigns a number literal to a name with a block's prefix, and the blocks cover the packed
    parameter arrays exactly (Numba freezes these constants into the kernels)."""
    spec = registry.make(game)
    prefixes = tuple(sorted({b.prefix for b in spec.layouts}))
    assert {"R_", "P_"} <= set(prefixes), prefixes
    by_prefix = {b.prefix: b for b in spec.layouts}
    assert by_prefix["R_"].offsets == {"R_" + k.upper(): v for k, v in layout(spec.params).items()}
    assert by_prefix["P_"].offsets == {"P_" + k.upper(): v
                                       for k, v in layout(spec.policy_params).items()}
    problems = []
    for path in sorted(_game_dir(game).glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, int):
                for t in node.targets:
                    if isinstance(t, ast.Name) and t.id.startswith(prefixes):
                        problems.append(f"{path.name}:{node.lineno} {t.id} = {node.value.value}")
    assert not problems, problems


def _sibling_imports(path, siblings):
    """(module-level imports, imports inside functions) of sibling modules in ``path``."""
    top, nested = set(), set()
    tree = ast.parse(path.read_text())
    top_nodes = set(map(id, tree.body))
    for node in ast.walk(tree):
        names = set()
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and ".games." in node.module:
            names = {node.module.split(".")[3]} if node.module.count(".") >= 3 else set()
        names &= siblings
        (top if id(node) in top_nodes else nested).update(names)
    return top, nested


@pytest.mark.parametrize("game", GAMES)
def test_game_folder_imports_go_one_way(game):
    """The modules of a game folder import each other without a cycle, and never from inside a
    function (a lazy import that would hide one); ``layout`` imports no sibling at all."""
    paths = {p.stem: p for p in _game_dir(game).glob("*.py") if p.stem != "__init__"}
    edges, lazy = {}, []
    for name, path in paths.items():
        top, nested = _sibling_imports(path, set(paths))
        edges[name] = top - {name}
        lazy += [f"{name} -> {m} (inside a function)" for m in sorted(nested)]
    assert not lazy, lazy
    assert not edges["layout"], edges["layout"]
    state: dict[str, int] = {}

    def visit(m, stack):
        state[m] = 1
        for n in sorted(edges[m]):
            if state.get(n) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack + [m, n]))
            if not state.get(n):
                visit(n, stack + [m])
        state[m] = 2

    for m in sorted(edges):
        if not state.get(m):
            visit(m, [])


@pytest.mark.parametrize("game", GAMES)
def test_the_layout_command_prints_every_block(game):
    from typer.testing import CliRunner

    from pipelines.cli import app
    r = CliRunner().invoke(app, ["layout", game])
    assert r.exit_code == 0, r.output
    for block in registry.make(game).layouts:
        for constant in block.offsets:
            assert constant in r.output


# ---- constants read through their module (sim.layout.exports) -------------------------------

MAX_KERNEL_IMPORTS = 30  # names a kernel.py imports from its game's layout and rules modules
_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")


def _game_modules(game):
    return {p.stem: p for p in sorted(_game_dir(game).glob("*.py"))}


def _imported_from(tree, modules):
    """Top-level ``from .m import a, b`` (m in modules) and ``from . import m as X``: the
    names each brings in."""
    names = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module in modules:
                names += [a.asname or a.name for a in node.names]
            elif node.module is None:
                names += [a.asname or a.name for a in node.names if a.name in modules]
    return names


@pytest.mark.parametrize("game", GAMES)
def test_constants_are_read_through_their_module(game):
    """Layout and rule constants are declared without ``globals().update`` (``layout.py`` and
    ``rules.py`` end with ``__getattr__, __dir__ = exports(...)``), read elsewhere as ``L.S_*``
    / ``R.R_*`` (never imported by name; the option codes likewise as ``O.encode_*``), and
    every such attribute exists: linters cannot see
    module attributes a hook provides, so a misspelt constant is caught here. The declaring
    module never names an exported constant bare, and ``kernel.py`` imports at most
    MAX_KERNEL_IMPORTS names from ``layout`` and ``rules`` (a module alias counts as one)."""
    import importlib
    problems = []
    homes = {m: importlib.import_module(f"sim.games.{game}.{m}") for m in ("layout", "rules")}
    for stem, path in _game_modules(game).items():
        source = path.read_text()
        tree = ast.parse(source)
        if "globals()" in source:
            problems.append(f"{stem}.py uses globals()")
        aliases = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None:
                aliases.update({a.asname or a.name: homes[a.name] for a in node.names
                                if a.name in homes})
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module in homes:
                problems += [f"{stem}.py imports {node.module}.{a.name} by name"
                             for a in node.names if _CONSTANT.fullmatch(a.name)]
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == "options":
                problems.append(f"{stem}.py imports from options by name (read O.encode_*)")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases and not hasattr(aliases[node.value.id], node.attr):
                problems.append(f"{stem}.py:{node.lineno} {node.value.id}.{node.attr} does not exist")
        if stem in homes:
            mod = homes[stem]
            exported = set(dir(mod)) - set(vars(mod))
            bare = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} & exported)
            if bare:
                problems.append(f"{stem}.py names its exported constants bare: {bare}")
            if not exported:
                problems.append(f"{stem}.py exports no declared offsets")
        if stem == "kernel":
            n = len(_imported_from(tree, set(homes)))
            if n > MAX_KERNEL_IMPORTS:
                problems.append(f"kernel.py imports {n} names from layout and rules")
    assert not problems, problems
