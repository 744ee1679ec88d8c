"""What the reports say about the Flower Shop that only the game knows.

``SOLO_DIFFICULTY`` (``GameSpec.solo_difficulty``): the solo ladder of
``shared/rules/flower_shop.md`` §7, easiest first, with the two readings of the garbled
"very hard" sentence (FS-V-VHARD-1, AMB-22) and the ``loss_day`` of a game played to its end.

:func:`component_notes` (``GameSpec.component_notes``): a component data set's task cards (name,
rule, provenance) and the assumptions (``assumption_id``) its files rest on, with the
alternatives the rules spec documents for them (§2.3-2.4).
"""
from __future__ import annotations

import csv
import tomllib
from pathlib import Path

from sim.spec import CardNote, ComponentNotes, Components, Readings, SoloDifficulty, resolve

from . import rules

SOLO_DIFFICULTY = SoloDifficulty(
    rungs=("solo_easy", "solo_base", "solo_hard", "solo_very_hard", "solo_hell"),
    # The source's sentence for "very hard" is garbled: one variant per reading of it.
    readings={"solo_very_hard": Readings("very hard", "FS-V-VHARD-1", (
        ("solo_very_hard", "the spec's reading: the 1st to 4th extra die locked in one step "
                           "cost $1, $2, $3, $4 (AMB-22, assumption A-10)"),
        ("solo_very_hard_one_free", "the other reading: only one die per step is locked for "
                                    "free"),
    ))},
    # loss_day is days + 1 when the game reached its end, won or lost (FS-SOLO-E2).
    end_day=resolve(rules.PARAMS)["days"] + 1,
)

SUMMARY = ("No source lists the tiles, die faces or task cards: the component data are "
           "documented assumptions (spec §2, IDs A-01 to A-07).")

# Alternatives the rules spec documents for assumed component data (shared/rules/flower_shop.md
# §2.3-2.4), by assumption ID: named in the report while no arm plays them.
COMPONENT_ALTERNATIVES = {
    "A-02": "a flower die with 5 flower types + 1 wild face (spec §2.3)",
    "A-03": "a vase die with 3 colours x 2 faces (spec §2.4)",
}


def _card_rule(row: dict) -> str:
    """``rows: SUM_FLOWERS_EQ 10; columns: SAME_KNICK`` for one row of tasks.csv."""
    def cond(kind):
        c, prm = row.get(f"{kind}_condition"), row.get(f"{kind}_param")
        return f"{c} {prm}" if prm not in (None, "", 0, "0") else str(c)

    return f"rows: {cond('row')}; columns: {cond('col')}"


def component_notes(comps: Components) -> ComponentNotes:
    """The task cards of ``comps`` (as written in its tasks.csv: condition names) and the
    assumptions its files rest on: the ``assumption_id`` entries of components.toml's
    ``[provenance]`` and the rows of tiles.csv and tasks.csv that carry one."""
    assumptions: dict[str, list[str]] = {}
    toml = Path(comps.source_dir) / "components.toml"
    prov = tomllib.loads(toml.read_text()).get("provenance", {}) if toml.is_file() else {}
    for key, p in prov.items():
        if isinstance(p, dict) and p.get("assumption_id"):
            assumptions.setdefault(p["assumption_id"], []).append(
                f"{key} ({p['note']})" if p.get("note") else key)
    for table, what in (("tiles", "tiles.csv"), ("tasks", "tasks.csv")):
        rows = comps.tables.get(table) or []
        ids = sorted({r.get("assumption_id") for r in rows if r.get("assumption_id")})
        for a in ids:
            n = sum(r.get("assumption_id") == a for r in rows)
            assumptions.setdefault(a, []).append(f"{what}: {n} of {len(rows)} rows")
    raw = Path(comps.source_dir) / "tasks.csv"  # the cards as written (condition names)
    tasks = (list(csv.DictReader(raw.read_text().splitlines())) if raw.is_file()
             else list(comps.tables.get("tasks") or []))
    names = list(comps.tables.get("task_ids", []))
    cards = tuple(CardNote(name=str(names[i]) if i < len(names) else str(i), rule=_card_rule(r),
                           provenance=str(r.get("provenance") or ""),
                           assumption_id=str(r.get("assumption_id") or ""))
                  for i, r in enumerate(tasks))
    return ComponentNotes(summary=SUMMARY, cards=cards,
                          assumptions=tuple((a, tuple(w)) for a, w in sorted(assumptions.items())),
                          alternatives=COMPONENT_ALTERNATIVES)
