"""The solo difficulty ladder a game declares (``GameSpec.solo_difficulty``, a
:class:`sim.spec.SoloDifficulty`): its variants in ladder order, the readings of a rung whose
source sentence is garbled, and the ladders to check (one per reading).

The policies of a solo report are ordered by skill, weakest first (:func:`skill_order`: the
game's ``GameSpec.ladder``, search last), and the variants by difficulty, easiest first.

The game holds the knowledge (which variants, in which order, which rung has which readings);
this module only applies it, so it serves any game with solo variants. A game without any (or
one the registry does not know, e.g. a store written by another version) declares an empty
ladder: its solo variants keep the order given.
"""
from __future__ import annotations

import itertools
from typing import Sequence

import pandas as pd

from sim.spec import Readings, SoloDifficulty

__all__ = ["of_game", "of_frame", "variant_order", "reading_of", "reading_tag", "reading_note",
           "solo_ladders", "is_search", "skill_ladder", "skill_order"]


def of_game(game: str | None) -> SoloDifficulty:
    """The solo ladder ``game`` declares; empty for a game the registry does not know."""
    try:
        from sim.registry import make

        return make(str(game)).solo_difficulty
    except Exception:
        return SoloDifficulty()


def of_frame(df: pd.DataFrame) -> SoloDifficulty:
    """The solo ladder of the game in ``df``'s ``game`` column (its first row)."""
    game = df["game"].iloc[0] if "game" in df.columns and len(df) else None
    return of_game(game)


def _rung_variants(rung: str, solo: SoloDifficulty) -> list[str]:
    readings = solo.readings.get(rung)
    return [v for v, _ in readings.variants] if readings else [rung]


def variant_order(variants: Sequence[str], solo: SoloDifficulty) -> list[str]:
    """The ladder's variants among ``variants`` in ladder order (easiest first; the readings of
    one rung side by side), then the others as given."""
    seen = list(dict.fromkeys(variants))
    known = [v for rung in solo.rungs for v in _rung_variants(rung, solo) if v in seen]
    return known + [v for v in seen if v not in known]


def reading_of(variant: str, solo: SoloDifficulty) -> tuple[Readings, int, int, str] | None:
    """``(readings, k, of, meaning)`` if ``variant`` is reading k of ``of`` of a garbled rung."""
    for readings in solo.readings.values():
        for k, (v, meaning) in enumerate(readings.variants, 1):
            if v == variant:
                return readings, k, len(readings.variants), meaning
    return None


def reading_tag(variant: str, solo: SoloDifficulty) -> str:
    """``"'very hard' reading 1 of 2"`` for a reading of a garbled rung, else ``""``."""
    r = reading_of(variant, solo)
    return f"'{r[0].name}' reading {r[1]} of {r[2]}" if r else ""


def reading_note(variant: str, solo: SoloDifficulty) -> str:
    """What a reading means, with the rule ID of the garbled sentence (``""`` if none)."""
    r = reading_of(variant, solo)
    if r is None:
        return ""
    return (f"{reading_tag(variant, solo)} of a garbled source sentence ({r[0].source}): "
            f"{r[3]}")


def solo_ladders(variants: Sequence[str], solo: SoloDifficulty) -> list[tuple[str, list[str]]]:
    """The ladders to check among the ladder's variants present, easiest first: one per
    reading of a garbled rung (that reading in the rung's place), each with a note saying which
    reading it uses (``""`` when no rung has two readings present)."""
    seen = set(variants)
    choices = [[v for v in _rung_variants(rung, solo) if v in seen] for rung in solo.rungs]
    choices = [c for c in choices if c]
    out = []
    for pick in itertools.product(*choices):
        notes = [f"{reading_tag(v, solo)} ({v})" for v, c in zip(pick, choices) if len(c) > 1]
        out.append(("; ".join(notes), list(pick)))
    return out


def is_search(policy: str) -> bool:
    """A search policy (``search``, ``search:base=expert,...``): the strongest rung, last."""
    return str(policy).partition(":")[0].startswith("search")


def skill_ladder(game: str | None) -> tuple[str, ...]:
    """The policies ``game`` declares weakest to strongest (``GameSpec.ladder``); empty for a
    game the registry does not know."""
    try:
        from sim.registry import make

        return tuple(make(str(game)).ladder)
    except Exception:
        return ()


def skill_order(policies: Sequence[str], ladder: Sequence[str] = ()) -> list[str]:
    """``policies`` weakest to strongest: by the game's ``ladder`` (:func:`skill_ladder`; a
    policy with options, ``greedy:w_stars=2``, ranks with its name), then policies the ladder
    does not name (as given), search policies last."""
    pols = list(dict.fromkeys(str(p) for p in policies))
    rank = {name: i for i, name in enumerate(ladder)}

    def key(p):
        name = p.partition(":")[0]
        return (is_search(p), rank.get(p, rank.get(name, len(rank))), pols.index(p))

    return sorted(pols, key=key)
