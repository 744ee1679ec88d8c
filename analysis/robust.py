"""Does a verdict survive stronger play? The same arms under two or more policies, side by side.

Every balance number is a number about the bots that played. A verdict ("seat 0 wins too
often", "hard is harder than base", "the tweak lowers seat 0's win rate") is trusted more when it
holds for at least two rungs of the skill ladder (for example ``greedy`` and ``search``). This
module groups the arms of an experiment that differ only in the policy all their seats play
(``playtest run/compare --also-policy``), classifies each verdict under each policy (above /
below / within the fair share; harder / no clear difference / wrong way; higher / lower / not
distinguishable) and says, per verdict, whether it holds under every policy measured.

Each verdict has a direction under each policy: +1 (above the fair share, harder, higher,
monotone), -1 (below, the wrong way, lower, not monotone) or 0 (no clear verdict). It **holds**
when at least two policies give it the same direction and none gives the opposite one; it is
**contradicted** when two policies give opposite directions; otherwise it rests on **one
policy** (or on **none**): a weak player often cannot tell a small difference, which is no
contradiction.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from .words import are, plural
from .words import count as count_words

HOLDS, CONTRADICTED, ONE, NONE = "holds", "contradicted", "one policy only", "no verdict"


@dataclass
class Verdict:
    """One verdict under several policies: a cell (numbers), its words and its direction (+1,
    -1 or 0 for no clear verdict) per policy."""

    what: str
    cells: dict[str, str] = field(default_factory=dict)
    classes: dict[str, str] = field(default_factory=dict)
    signs: dict[str, int] = field(default_factory=dict)
    # the direction that is a defect (-1: a solo ladder not monotone, a step the wrong way):
    # when that verdict holds, its row says what holds and is red, never green
    bad_sign: int = 0

    def add(self, policy: str, cell: str, words: str, sign: int) -> None:
        self.cells[policy], self.classes[policy], self.signs[policy] = cell, words, sign

    def status(self, order: Sequence[str] = ()) -> tuple[str, str]:
        """(status, the policies it rests on, in words, in ``order``)."""
        pols = sorted(self.signs, key=lambda p: list(order).index(p) if p in order else 0)
        pos = [p for p in pols if self.signs[p] > 0]
        neg = [p for p in pols if self.signs[p] < 0]
        if pos and neg:
            return CONTRADICTED, f"{', '.join(pos)} vs {', '.join(neg)}"
        side = pos or neg
        if len(side) >= 2:
            return HOLDS, ", ".join(side)
        if side:
            return ONE, side[0]
        return NONE, ""

    def held_sign(self) -> int:
        """The direction the policies agree on (0 if none)."""
        side = {s for s in self.signs.values() if s}
        return side.pop() if len(side) == 1 else 0

    def row(self, policies: Sequence[str]) -> dict:
        st, who = self.status(policies)
        defect = st == HOLDS and self.bad_sign and self.held_sign() == self.bad_sign
        words = next((self.classes[p] for p in policies if self.signs.get(p) == self.bad_sign),
                     "") if defect else ""
        status = st + (f": {words}" if words else "") + (f" ({who})" if who else "")
        return {"what": self.what, "status": status, "key": st,
                "cells": [(f"{self.cells[p]}: {self.classes[p]}" if p in self.cells else "–")
                          for p in policies],
                "cell_cls": [_word_class(self.signs.get(p, 0), self.bad_sign) if p in self.cells
                             else "" for p in policies],
                "cls": "bad" if defect else {HOLDS: "ok", CONTRADICTED: "bad",
                                             ONE: "warn"}.get(st, "")}


def _word_class(sign: int, bad_sign: int) -> str:
    """The colour of one policy's verdict word: red for a defect (a ladder not monotone, a step
    the wrong way), amber for no clear verdict, none otherwise (green is for "holds" only);
    verdicts without a defect direction (above or below the fair share, higher or lower) stay
    uncoloured."""
    if not bad_sign:
        return ""
    return "bad" if sign == bad_sign else "warn" if sign == 0 else ""


def uniform_policy(arm: dict) -> str | None:
    """The policy string every seat of a manifest arm plays, or None (mixed or unknown)."""
    pols = arm.get("policies") if isinstance(arm, dict) else None
    if not isinstance(pols, list) or not pols:
        return None
    texts = {(p.get("spec") or p.get("policy")) if isinstance(p, dict) else p for p in pols}
    return texts.pop() if len(texts) == 1 and None not in texts else None


def same_but_policy(arms: Iterable[dict]) -> list[dict[str, str]]:
    """Groups ``{policy: arm name}`` of manifest arms identical but for the one policy all
    their seats play (players, variant, rule values, components); groups of two or more
    policies, in manifest order."""
    groups: dict[str, dict[str, str]] = {}
    for a in arms:
        pol = uniform_policy(a)
        if pol is None or not a.get("name"):
            continue
        key = json.dumps([a.get("n_players"), a.get("variant"), a.get("rule_values"),
                          a.get("components")], sort_keys=True, default=str)
        groups.setdefault(key, {}).setdefault(pol, str(a["name"]))
    return [g for g in groups.values() if len(g) >= 2]


def fair_class(low: float, high: float, fair: float) -> tuple[str, int]:
    """A win rate against the fair share, in words and direction (its 95% interval decides)."""
    if low > fair:
        return "above the fair share", 1
    if high < fair:
        return "below the fair share", -1
    return "within the fair share", 0


def step_sign(label: str) -> int:
    """Direction of a solo ladder step (``stats.LadderStep.label``): +1 harder (Holm-
    significant), -1 significantly the wrong way, 0 otherwise."""
    if label == "harder" or label.startswith("harder ("):
        return 1
    return -1 if label.startswith("easier") else 0


def table(title: str, policies: Sequence[str], verdicts: Sequence[Verdict]) -> dict:
    """A template table: one row per verdict, one column per policy, and its status, with a
    summary sentence."""
    rows = [v.row(policies) for v in verdicts]
    count = {k: [r["what"] for r in rows if r["key"] == k] for k in (HOLDS, CONTRADICTED, ONE)}
    pols = ", ".join(policies)
    parts = [f"{len(count[HOLDS])} of {count_words(len(rows), 'verdict')} "
             f"{plural(len(count[HOLDS]), 'holds', 'hold')} under at least two of "
             f"{pols} (none of them says the opposite)"]
    # green only when every verdict holds; red when one is contradicted; else amber
    cls = ("bad" if count[CONTRADICTED] else
           "ok" if rows and len(count[HOLDS]) == len(rows) else "warn")
    if count[ONE]:
        parts.append(f"{len(count[ONE])} {plural(len(count[ONE]), 'rests', 'rest')} on one "
                     f"policy only")
    if count[CONTRADICTED]:
        n = len(count[CONTRADICTED])
        parts.append(f"{n} {are(n)} contradicted by a stronger or weaker "
                     f"player: " + "; ".join(count[CONTRADICTED]) + " — such a verdict is a "
                     "statement about the bots as much as about the game")
    return {"title": title, "policies": list(policies), "rows": rows,
            "summary": "; ".join(parts) + ".", "contradicted": count[CONTRADICTED], "cls": cls}


def pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def seat_verdicts(rates, group: dict[str, str], label_of) -> list[Verdict]:
    """Win rate by seat (or by another balance factor) against 1/N under each policy of
    ``group``. ``rates``: rows with ``arm, n_players, win_rate, low, high`` and the factor
    value in ``value`` (``label_of(value)`` names it)."""
    out: dict[Any, Verdict] = {}
    for pol, arm in group.items():
        d = rates[rates["arm"] == arm]
        for r in d.itertuples():
            fair = 1.0 / int(r.n_players)
            v = out.setdefault(r.value, Verdict(f"{label_of(r.value)} vs the fair share"))
            words, sign = fair_class(r.low, r.high, fair)
            v.add(pol, f"{pts(r.win_rate - fair)} pts [{pts(r.low - fair)}, "
                       f"{pts(r.high - fair)}]", words, sign)
    return [out[k] for k in sorted(out)]


def step_verdicts(checks: Sequence[dict]) -> list[Verdict]:
    """Solo difficulty: the ladder verdict and each step's verdict under each policy
    (``checks``: the solo section's ladder checks, one per policy and reading)."""
    out: dict[str, Verdict] = {}
    for c in checks:
        pol = c["policy"]
        key = f"difficulty order{' (' + c['reading'] + ')' if c['reading'] else ''}"
        v = out.setdefault(key, Verdict(key[0].upper() + key[1:] + " (win rates, easiest "
                                        "first)", bad_sign=-1))
        rates = [c["steps"][0]["rates"].split(" → ")[0]] + [s["rates"].split(" → ")[-1]
                                                              for s in c["steps"]]
        v.add(pol, " → ".join(rates) if c["steps"] else "–", c["verdict"],
              {"monotone": 1, "not monotone": -1}.get(c["verdict"], 0))
        for s in c["steps"]:
            k = f"{s['easier']} → {s['harder']}{' (' + c['reading'] + ')' if c['reading'] else ''}"
            v = out.setdefault(k, Verdict(f"{s['harder']} harder than {s['easier']}"
                                          + (f" ({c['reading']})" if c["reading"] else ""),
                                          bad_sign=-1))
            v.add(pol, f"{s['diff']} pts [{s['ci']}]", s["verdict"], step_sign(s["verdict"]))
    return list(out.values())


def effect_verdicts(sections: Sequence[dict], policy_of: dict[str, str]) -> list[dict]:
    """Comparisons: the sign of the tweak's effect on every metric under each policy, per
    player count (``sections``: the compare report's sections; ``policy_of``: arm -> the
    uniform policy of its baseline)."""
    by_n: dict[int, dict[str, dict]] = {}
    for s in sections:
        pol = policy_of.get(s["baseline"])
        if pol is not None:
            by_n.setdefault(int(s["n_players"]), {})[pol] = s
    tables = []
    for n, secs in sorted(by_n.items()):
        if len(secs) < 2:
            continue
        out: dict[str, Verdict] = {}
        for pol, s in secs.items():
            b = s.get("balance_raw")
            if b is not None:  # did balance improve? first: it is the question
                v = out.setdefault("balance", Verdict(
                    "distance to the fair share (largest gap; lower = closer to balance)"))
                v.add(pol, f"{100 * b['before']:.1f} → {100 * b['after']:.1f} pts, change "
                           f"{pts(b['change'])} [{pts(b['low'])}, {pts(b['high'])}]",
                      b["verdict"], 1 if b["low"] > 0 else -1 if b["high"] < 0 else 0)
            for r in s["rows"]:
                v = out.setdefault(r["label"], Verdict(f"effect on {r['label']}"))
                v.add(pol, f"{r['diff']} [{r['ci']}]", r["verdict"],
                      {"higher": 1, "lower": -1}.get(r["verdict"], 0))
        tables.append(table(f"The tweak's effect, {n} players", list(secs), list(out.values())))
    return tables


def one_policy_note(command: str) -> str:
    """What to run when an experiment was measured under one policy only."""
    return ("Every verdict here was measured under one policy. To see whether it holds for a "
            "stronger player, run the same arms under a second rung of the skill ladder: "
            f"{command} --also-policy search (or another policy; `playtest ladder GAME` "
            "shows the ladder).")
