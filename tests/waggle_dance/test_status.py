"""The rule status table: every implemented rule ID names a scenario test that exists."""
import ast
from pathlib import Path

from sim.games.waggle_dance.rules import RULES

HERE = Path(__file__).resolve().parent


def test_every_implemented_rule_names_an_existing_test():
    tests = {(p.name, n.name) for p in HERE.glob("test_*.py")
             for n in ast.walk(ast.parse(p.read_text())) if isinstance(n, ast.FunctionDef)}
    for r in RULES:
        if r.implemented:
            path, name = r.note.removeprefix("test: ").split("::")
            assert (path, name) in tests, (r.rule_id, r.note)
        else:
            assert r.note.startswith("not yet: "), r.rule_id
