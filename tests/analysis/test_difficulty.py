"""The solo ladder comes from the game (``GameSpec.solo_difficulty``, ``component_notes``):
analysis applies whatever a game declares and holds no game's knowledge itself."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from analysis import difficulty
from sim.registry import available_games, make
from sim.spec import Readings, SoloDifficulty

ROOT = Path(__file__).resolve().parents[2]

# A made-up game: three rungs, the middle one garbled and read two ways.
MADE_UP = SoloDifficulty(
    rungs=("calm", "windy", "storm"),
    readings={"windy": Readings("windy", "X-WIND-1", (("windy", "gusts every turn"),
                                                      ("windy_alt", "gusts every other turn")))},
    end_day=4,
)


def test_any_declared_ladder_orders_and_reads():
    assert difficulty.variant_order(["storm", "extra", "windy_alt", "calm", "windy"], MADE_UP) \
        == ["calm", "windy", "windy_alt", "storm", "extra"]
    assert difficulty.solo_ladders(["calm", "windy", "windy_alt", "storm"], MADE_UP) == [
        ("'windy' reading 1 of 2 (windy)", ["calm", "windy", "storm"]),
        ("'windy' reading 2 of 2 (windy_alt)", ["calm", "windy_alt", "storm"])]
    assert difficulty.solo_ladders(["calm", "storm"], MADE_UP) == [("", ["calm", "storm"])]
    assert difficulty.reading_note("windy_alt", MADE_UP) == (
        "'windy' reading 2 of 2 of a garbled source sentence (X-WIND-1): gusts every other turn")
    assert difficulty.reading_tag("calm", MADE_UP) == "" == difficulty.reading_note("calm", MADE_UP)


def test_a_game_without_a_solo_ladder_keeps_the_order_given():
    empty = make("rattlebones").solo_difficulty
    assert empty == SoloDifficulty() == difficulty.of_game("no_such_game")
    assert difficulty.variant_order(["b", "a"], empty) == ["b", "a"]
    assert [rungs for _, rungs in difficulty.solo_ladders(["b", "a"], empty)] == [[]]


def test_the_flower_shop_declares_its_ladder_and_components():
    spec = make("flower_shop")
    solo = spec.solo_difficulty
    assert set(solo.rungs) | {"solo_very_hard_one_free"} == set(spec.variants_for(1))
    assert solo.end_day == 7  # loss_day = days + 1 (6 days by default)
    assert difficulty.reading_tag("solo_very_hard_one_free", solo) == "'very hard' reading 2 of 2"
    notes = spec.component_notes(spec.load_components(None))
    assert [c.name for c in notes.cards][:2] == ["T1", "T2"]
    assert notes.cards[0].rule == "rows: SUM_FLOWERS_EQ 10; columns: SAME_KNICK"
    assert {"A-02", "A-03"} <= {a for a, _ in notes.assumptions} and "A-02" in notes.alternatives


def _code_strings(path: Path) -> list[str]:
    """String constants of a module, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and id(n) not in docs]


def test_analysis_names_no_game_variant_or_rule_id():
    """No code, SQL or template of analysis/ names a game, one of its variants (those with an
    underscore: plain words such as "base" are not knowledge) or a rule/assumption ID."""
    names = set(available_games())
    for g in available_games():
        names |= {v for v in make(g).variants if "_" in v}
    ids = re.compile(r"\b(?:[A-Z]{2,}-[A-Z0-9-]*\d|A-\d\d)\b")
    bad = []
    for path in sorted((ROOT / "analysis").rglob("*")):
        if path.suffix == ".py":
            texts = _code_strings(path)
        elif path.suffix in (".sql", ".j2"):
            texts = [path.read_text(encoding="utf-8")]
        else:
            continue
        for text in texts:
            bad += [f"{path.relative_to(ROOT)}: {n}" for n in names if n in text]
            bad += [f"{path.relative_to(ROOT)}: {m}" for m in ids.findall(text)]
    assert not bad, sorted(set(bad))
