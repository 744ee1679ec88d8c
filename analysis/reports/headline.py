"""The sentence every report opens with: the effect with its size and interval, the policy that
played, and whether the verdict survives other play (:mod:`analysis.robust`: it **holds**, is
**contradicted**, or rests on **one policy only**), in plain words, before any table.

An effect whose 95% interval still includes 0 is **undecided**: the sentence says so in amber
with the games a decision needs (normal approximation: the interval's half-width shrinks with
the square root of the games, so ``n · (half-width / |effect|)²`` games make it exclude 0 if
the effect is as large as measured) and the time they take at the speed the manifest records
(``games_per_s``, or the run's own start and finish times).

Colours (the template's classes): green (``ok``) only for a verdict that holds under two
policies or more; red (``bad``) for a contradicted verdict, or one that holds but is a defect
(a solo ladder that is not monotone); amber (``warn``) for undecided; blue (``verdict``) for a
verdict measured under one policy only.
"""
from __future__ import annotations

import datetime as _dt
import math
from typing import Sequence

import numpy as np
import pandas as pd

from .. import difficulty, robust, studies
from . import formatting as fmt

__all__ = ["UNDECIDED", "css", "games_needed", "games_per_second", "duration", "decision",
           "experiment", "solo", "compare", "sweep", "plan", "ladder", "target_grade"]

UNDECIDED = "undecided"


def css(status: str, bad: bool = False) -> str:
    """The class of an opening sentence: see the module docstring."""
    if status == robust.HOLDS:
        return "bad" if bad else "ok"
    if status == robust.CONTRADICTED:
        return "bad"
    if status in (UNDECIDED, robust.NONE):
        return "warn"
    return "verdict"


def _make(text: str, status: str, bad: bool = False) -> dict:
    return {"text": text, "status": status, "cls": css(status, bad)}


# ---- undecided: the games and the time a decision needs ----------------------------------------
def games_needed(estimate: float, low: float, high: float, n: int,
                 margin: float | None = None) -> int | None:
    """Games for the 95% interval of an effect as large as ``estimate`` to exclude 0 (or, with
    ``margin``, for its half-width to shrink below ``margin``), from its interval on ``n``
    games (normal approximation); None if the estimate (margin) is 0 or unknown."""
    half = (high - low) / 2
    margin = abs(estimate) if margin is None else abs(margin)
    if not all(np.isfinite([margin, half])) or margin == 0 or n <= 0:
        return None
    return int(math.ceil(n * (half / margin) ** 2))


def _about(n: int) -> str:
    """A count as a planner reads it: two significant figures (``190,000``, ``4,400``)."""
    if n < 1000:
        return f"{n:,}"
    digits = len(str(n)) - 2
    return f"{int(round(n, -digits)):,}"


def _time(value) -> _dt.datetime | None:
    try:
        return _dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except (TypeError, ValueError):
        return None


def games_per_second(manifest: dict | None) -> float | None:
    """The simulation speed the manifest records: ``games_per_s`` (top level or per arm, the
    slowest arm), else the run's games over the time from ``created_at`` to ``finished_at``
    when that is under a day (a run resumed days later says nothing about speed)."""
    m = manifest if isinstance(manifest, dict) else {}
    v = m.get("games_per_s")
    arms = [a for a in m.get("arms") or [] if isinstance(a, dict)]
    per_arm = [a.get("games_per_s") for a in arms if isinstance(a.get("games_per_s"), (int, float))]
    if isinstance(v, (int, float)) and v > 0:
        return float(v)
    if per_arm and min(per_arm) > 0:
        return float(min(per_arm))
    t0, t1 = _time(m.get("created_at")), _time(m.get("finished_at"))
    games = sum(int(a.get("n_games", 0)) for a in arms if isinstance(a.get("n_games"), int))
    if t0 and t1 and games:
        sec = (t1 - t0).total_seconds()
        if 0 < sec < 86400:
            return games / sec
    return None


def duration(seconds: float) -> str:
    """``"40 s"``, ``"12 min"``, ``"3.2 h"``, ``"2.1 days"``."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def decision(estimate: float, low: float, high: float, n: int, manifest: dict | None,
             unit: str = "games", arms: int = 1, margin: float | None = None,
             goal: str = "make the 95% interval exclude 0") -> str:
    """What an undecided effect needs, in words: games (per arm), how many more, and the time
    at the recorded speed (``arms`` arms grow together). ``margin`` and ``goal``: see
    :func:`games_needed` (default: the interval excluding 0)."""
    need = games_needed(estimate, low, high, n, margin)
    if need is None:
        return ("no number of games decides it: the estimate sits exactly on the line, so the "
                "effect is at most as large as the interval")
    more = max(0, need - n)
    text = (f"if the effect is as large as measured, about {_about(need)} {unit} would {goal} "
            f"({_about(more)} more than the {n:,} played")
    speed = games_per_second(manifest)
    if speed and more:
        text += (f"; about {duration(more * arms / speed)} at the measured "
                 f"{speed:,.0f} games/s")
    return text + ")"


def _pts(x: float) -> str:
    return fmt.pts(x)


def _ci_pts(lo: float, hi: float) -> str:
    return f"95% CI {_pts(lo)} to {_pts(hi)}"


def _stronger(game: str | None, policy: str) -> str:
    """The rung above ``policy`` in the game's ladder (to suggest as ``--also-policy``)."""
    ladder = list(difficulty.skill_ladder(game))
    name = policy.partition(":")[0]
    if name in ladder and ladder.index(name) + 1 < len(ladder):
        return ladder[ladder.index(name) + 1]
    return "search"


RULE, BOT = "a rule effect, not a bot effect", "a bot effect, not a rule effect"


def _robust_clause(v: robust.Verdict, lead: str, order: Sequence[str], cells: dict,
                   game: str | None, command: str, tails: tuple[str, str] = (RULE, BOT),
                   intervals: dict | None = None) -> tuple[str, str]:
    """``(status, clause)``: what the other policies of ``order`` say about the lead policy's
    verdict ``v`` (``cells``: policy -> its numbers in words; ``tails``: what a verdict that
    holds, and one that is contradicted, means; ``intervals``: policy -> ``(estimate, low,
    high)``, to say when another policy's interval, though it includes 0, excludes the lead
    policy's estimate: the effect is not reproduced, so at least part of it is the bot's)."""
    others = [p for p in order if p != lead and p in v.signs]
    st, who = v.status(order)
    cells = {p: (f"{p}: {c}" if len(others) > 1 else c) for p, c in cells.items()}
    if not others:
        return robust.ONE, (f"measured under one policy only (to see whether a stronger "
                            f"player agrees: {command} --also-policy {_stronger(game, lead)})")
    mine = v.signs.get(lead, 0)
    if st == robust.CONTRADICTED:
        opp = [p for p in others if v.signs[p] == -mine] if mine else \
            [p for p in others if v.signs[p] != 0]
        return st, (f"under {', '.join(opp)} it is contradicted ("
                    + "; ".join(cells[p] for p in opp) + f"): {tails[1]}")
    if st == robust.HOLDS:
        same = [p for p in others if v.signs[p] == mine] if mine else others
        return st, (f"it holds under {', '.join(same)} too ("
                    + "; ".join(cells[p] for p in same) + f"): {tails[0]}")
    if st == robust.ONE:
        if mine:
            iv = intervals or {}
            est = iv.get(lead, (np.nan,))[0]
            missed = [p for p in others if p in iv and not iv[p][1] <= est <= iv[p][2]]
            if missed:
                return st, (f"under {', '.join(others)} it is undecided ("
                            + "; ".join(cells[p] for p in others)
                            + f"), and {', '.join(missed)} does not reproduce it (its interval "
                            f"excludes {lead}'s {_pts(est)}): at least part of it is {lead}'s "
                            f"play, not the rules; the verdict rests on one policy only")
            return st, (f"under {', '.join(others)} it is undecided ("
                        + "; ".join(cells[p] for p in others)
                        + "), so the verdict rests on one policy only")
        dec = [p for p in others if v.signs[p] != 0]
        return st, (f"under {', '.join(dec)} it is decided (" + "; ".join(cells[p] for p in dec)
                    + "): one policy only")
    return st, ("no other policy decides it either ("
                + "; ".join(cells[p] for p in others) + "): no verdict under any policy")


# ---- the experiment report -----------------------------------------------------------------
def _who(factor, value, label) -> str:
    if factor.is_seat:
        v = int(value)
        return "seat 0 (the start player)" if v == 0 else f"seat {v}"
    return f"the {label} holder"


def experiment(manifest: dict, factor, rows: pd.DataFrame, multi_arms: Sequence[str],
               game: str | None, games_of: dict[str, int]) -> dict | None:
    """The multiplayer report's first sentence: the largest gap from the fair share (of the
    game's balance factor) under the first arm's policy, decided or not, and what the same arms
    under other policies say about it.

    ``rows``: win rates by value of the balance factor (``arm, n_players, value, label,
    win_rate, low, high``), of the arms ``multi_arms``; ``games_of``: games per arm."""
    arms = [a for a in manifest.get("arms") or [] if isinstance(a, dict)
            and a.get("name") in set(multi_arms)]
    names = [a["name"] for a in arms] or list(multi_arms)
    rows = rows[rows["arm"].isin(names)]
    if rows.empty:
        return None
    first = next(a for a in names if a in set(rows["arm"]))
    policy_of = {a["name"]: robust.uniform_policy(a) for a in arms}
    lead_pol = policy_of.get(first)
    mine = [a for a in names if lead_pol is not None and policy_of.get(a) == lead_pol] or [first]
    d = rows[rows["arm"].isin(mine)].copy()
    d["fair"] = 1.0 / d["n_players"].astype(float)
    d["gap"] = d["win_rate"] - d["fair"]
    d["off"] = (d["low"] > d["fair"]) | (d["high"] < d["fair"])
    pick = d[d["off"]] if d["off"].any() else d
    r = pick.loc[pick["gap"].abs().idxmax()]
    arm, n, fair = r["arm"], int(r["n_players"]), float(r["fair"])
    games = int(games_of.get(arm, 0))
    pol = lead_pol or "mixed policies (see the arms below)"
    who = _who(factor, r["value"], r["label"])
    group = next((g for g in robust.same_but_policy(arms) if arm in g.values()), None)
    group = group or {pol: arm}
    order = list(group)
    v = robust.Verdict(who)
    cells, intervals = {}, {}
    for p, a in group.items():
        x = rows[(rows["arm"] == a) & (rows["value"] == r["value"])]
        if x.empty:
            continue
        x = x.iloc[0]
        words, sign = robust.fair_class(x["low"], x["high"], fair)
        v.add(p, words, words, sign)
        intervals[p] = (x["win_rate"] - fair, x["low"] - fair, x["high"] - fair)
        cells[p] = (f"{_pts(x['win_rate'] - fair)} points, "
                    f"{_ci_pts(x['low'] - fair, x['high'] - fair)}")
    lead = next(p for p, a in group.items() if a == arm)
    st, clause = _robust_clause(v, lead, order, cells, game, "playtest run",
                                intervals=intervals)
    size = f"{n} players, {games:,} games"
    if r["off"]:
        side = "above" if r["gap"] > 0 else "below"
        text = (f"Under {pol}, {who} wins {abs(100 * r['gap']):.1f} points {side} its fair share "
                f"({size}: {fmt.pct(r['win_rate'])} against 1/{n} = {fmt.pct(fair)}, "
                f"{_ci_pts(r['low'] - fair, r['high'] - fair)}); {clause}.")
        return _make(text, st)
    text = (f"Under {pol}, no {factor.name} wins clearly more or less than its fair share "
            f"({size}): the largest gap, {who}'s, is {_pts(r['gap'])} points "
            f"({_ci_pts(r['low'] - fair, r['high'] - fair)}), undecided: "
            + decision(r["gap"], r["low"] - fair, r["high"] - fair, games, manifest)
            + f"; {clause}.")
    return _make(text, UNDECIDED)


# ---- the solo report -------------------------------------------------------------------------
def target_grade(rate: float, low: float, high: float, target: float) -> tuple[str, str]:
    """A win probability against its target: ``(words, class)``: "on target" (the interval
    includes it), "too easy" (the interval lies above it) or "too hard" (below)."""
    if low > target:
        return "too easy", "bad"
    if high < target:
        return "too hard", "bad"
    return "on target", "ok"


def solo(ladder: pd.DataFrame, checks: list[dict], policies: Sequence[str],
         targets: dict, manifest: dict, game: str | None) -> dict | None:
    """The solo report's first sentence: under the strongest policy played, whether the ladder
    is monotone (with the wrong-way or undecided step, or the range of win probabilities), what
    the other policies say about it, and the variants against their target win rates."""
    if ladder.empty:
        return None
    lead = policies[-1]
    strongest = "the strongest policy played" if len(policies) > 1 else "the only policy played"
    d = ladder[(ladder["policy"] == lead) & (ladder["label"] == ladder["variant"])]
    mine = [c for c in checks if c["policy"] == lead]
    target_text = _targets_clause(ladder, lead, targets)
    if not mine:  # one variant: its win probability
        r = d.iloc[0] if len(d) else ladder[ladder["policy"] == lead].iloc[0]
        text = (f"Under {lead} ({strongest}), {r['label']} is won {fmt.pct(r['win_rate'])} of "
                f"{int(r['n_games']):,} games (95% CI {fmt.ci(r['low'], r['high'])}); one "
                f"variant, so no ladder to check; measured under one policy only"
                if len(policies) == 1 else
                f"Under {lead} ({strongest}), {r['label']} is won {fmt.pct(r['win_rate'])} "
                f"(95% CI {fmt.ci(r['low'], r['high'])}); one variant per policy, so no ladder "
                f"to check (one policy only for every verdict)")
        return _make(text + target_text + ".", robust.ONE)
    c = mine[0]
    raw, n_of = c["_raw"], c["_n"]
    reading = f", with {c['reading']}," if c["reading"] else ""
    head = f"Under {lead} ({strongest}), the solo ladder{reading} is "
    verdicts = robust.step_verdicts(checks)
    order_v = verdicts[0]  # the difficulty order
    cells = {p: w for p, w in order_v.classes.items()}
    st, clause = _robust_clause(order_v, lead, list(policies), cells, game, "playtest run",
                                ("the difficulty is the game's, not the bots'",
                                 "the order depends on the player's skill"))
    bad = c["verdict"] == "not monotone"
    if c["verdict"] == "monotone":
        lo, hi = raw[0], raw[-1]
        text = (head + f"monotone: the win probability falls from {fmt.pct(lo.p_easier)} "
                f"({lo.easier}) to {fmt.pct(hi.p_harder)} ({hi.harder}), every step harder "
                f"than the one before; {clause}")
        status = st
    elif bad:
        s = next(s for s in raw if robust.step_sign(s.label) < 0)
        text = (head + f"not monotone: {s.harder} is won {abs(100 * s.diff):.1f} points more "
                f"often than {s.easier} ({fmt.pct(s.p_harder)} vs {fmt.pct(s.p_easier)}, "
                f"{_ci_pts(-s.high, -s.low)}); {clause}")
        status = st
    else:
        undecided = [s for s in raw if robust.step_sign(s.label) == 0]
        s = max(undecided, key=lambda s: games_needed(s.diff, s.low, s.high,
                                                      min(n_of[s.easier], n_of[s.harder]))
                or 0)
        n = min(n_of[s.easier], n_of[s.harder])
        text = (head + f"undecided: {s.harder} against {s.easier} is {_pts(-s.diff)} points of "
                f"win probability ({_ci_pts(-s.high, -s.low)}); "
                + decision(s.diff, s.low, s.high, n, manifest, "games per variant",
                           arms=len(n_of))
                + f"; {clause}")
        status = UNDECIDED
    return _make(text + target_text + ".", status, bad)


def _target_of(targets: dict, variant: str, policy: str) -> float | None:
    t = targets.get(variant)
    if isinstance(t, dict):
        t = t.get(policy, t.get(policy.partition(":")[0]))
    return float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else None


def _targets_clause(ladder: pd.DataFrame, policy: str, targets: dict) -> str:
    parts = []
    d = ladder[(ladder["policy"] == policy) & (ladder["label"] == ladder["variant"])]
    for r in d.itertuples():
        t = _target_of(targets, r.variant, policy)
        if t is None:
            continue
        words, _ = target_grade(r.win_rate, r.low, r.high, t)
        parts.append(f"{r.variant} is {words} ({fmt.pct(r.win_rate)}, 95% CI "
                     f"{fmt.ci(r.low, r.high)}, for a target of {fmt.pct(t)})")
    return ("; against its targets, " + "; ".join(parts)) if parts else ""


# ---- the comparison report ---------------------------------------------------------------------
def _change_sign(bc: dict) -> int:
    return 1 if bc["low"] > 0 else -1 if bc["high"] < 0 else 0


def compare(sections: list[dict], policy_of: dict, manifest: dict, game: str | None
            ) -> dict | None:
    """The comparison's first sentence: under the first pair's policy, whether the tweak
    brings the game closer to balance (the largest gap from the fair share before and after,
    with the change's interval; an overshoot named), and whether the other policies agree."""
    if not sections:
        return None
    s = sections[0]
    pol = policy_of.get(s["baseline"]) or "mixed policies"
    same_n = [x for x in sections if x["n_players"] == s["n_players"]
              and policy_of.get(x["baseline"])]
    order = [policy_of[x["baseline"]] for x in same_n] or [pol]
    size = f"{s['n_players']} players, {s['n_games']:,} paired games"
    bc = s.get("balance_raw")
    v = robust.Verdict("balance")
    cells, intervals = {}, {}
    if bc is None:  # solo: the win probability
        r = next((r for r in s["rows"] if r["label"] == "solo win probability"), s["rows"][0])
        for x in same_n or [s]:
            y = next((y for y in x["rows"] if y["label"] == r["label"]), None)
            if y is None:
                continue
            p = policy_of.get(x["baseline"]) or pol
            v.add(p, y["diff"], y["verdict"], {"higher": 1, "lower": -1}.get(y["verdict"], 0))
            cells[p] = f"{y['diff']}, 95% CI {y['ci']}"
        st, clause = _robust_clause(v, pol, order, cells, game, "playtest compare")
        if r["verdict"] in ("higher", "lower"):
            text = (f"Under {pol}, {s['question']} ({size}) changes the {r['label']} by "
                    f"{r['diff']} (95% CI {r['ci']}); {clause}.")
            return _make(text, st)
        raw = s["_raw"].get(r["label"])
        more = decision(*raw, s["n_games"], manifest, "games per arm", arms=2) if raw else ""
        text = (f"Under {pol}, {s['question']} ({size}) changes the {r['label']} by {r['diff']} "
                f"(95% CI {r['ci']}), undecided: {more}; {clause}.")
        return _make(text, UNDECIDED)
    for x in same_n or [s]:
        b = x.get("balance_raw")
        if b is None:
            continue
        p = policy_of.get(x["baseline"]) or pol
        v.add(p, "", b["verdict"], _change_sign(b))
        intervals[p] = (b["change"], b["low"], b["high"])
        cells[p] = (f"{100 * b['before']:.1f} → {100 * b['after']:.1f} points, change "
                    f"{_pts(b['change'])}, {_ci_pts(b['low'], b['high'])}")
    st, clause = _robust_clause(v, pol, order, cells, game, "playtest compare",
                                intervals=intervals)
    gaps = (f"the largest gap from the fair share goes from {100 * bc['before']:.1f} points "
            f"({bc['before_value']} {_pts(bc['before_gap'])}) to {100 * bc['after']:.1f} points "
            f"({bc['after_value']} {_pts(bc['after_gap'])}), a change of {_pts(bc['change'])} "
            f"points ({_ci_pts(bc['low'], bc['high'])})")
    over = (f"; it overshoots: {bc['before_value']} goes from {_pts(bc['before_gap'])} to "
            f"{_pts(bc['gap_after_of_before_value'])} points" if bc["overshoot"] else "")
    if bc["verdict"] == UNDECIDED:
        text = (f"Under {pol}, {s['question']} ({size}) leaves it undecided whether balance "
                f"improves: {gaps}{over}; "
                + decision(bc["change"], bc["low"], bc["high"], bc["n"], manifest,
                           "games per arm", arms=2)
                + f"; {clause}.")
        return _make(text, UNDECIDED)
    better = bc["verdict"] == "closer to balance"
    text = (f"Under {pol}, {s['question']} ({size}) "
            f"{'improves balance' if better else 'makes balance worse'}: {gaps}{over}; "
            f"{clause}.")
    return _make(text, st)


# ---- sweep, plan, ladder -------------------------------------------------------------------
def sweep(long: pd.DataFrame, names: Sequence[str], grades: dict, factor, tolerance: float,
          policy: str, manifest: dict) -> dict | None:
    """The sweep's first sentence: per player count, the point closest to balance (its largest
    gap from the fair share, graded in the one vocabulary of :mod:`analysis.studies`)."""
    prefix = studies.factor_prefix(factor)
    rows = long[long["metric"].str.startswith(prefix)]
    if rows.empty:
        solo_rows = long[long["metric"] == "solo_win"]
        if solo_rows.empty:
            return None
        lo = solo_rows.loc[solo_rows["estimate"].idxmin()]
        hi = solo_rows.loc[solo_rows["estimate"].idxmax()]
        at = lambda r: ", ".join(f"{k} = {r[k]}" for k in names)  # noqa: E731
        return _make(f"Under {policy}, the solo win probability runs from "
                     f"{fmt.pct(lo['estimate'])} ({at(lo)}, 95% CI "
                     f"{fmt.ci(lo['low'], lo['high'])}) to {fmt.pct(hi['estimate'])} ({at(hi)}, "
                     f"95% CI {fmt.ci(hi['low'], hi['high'])}); measured under one policy only.",
                     robust.ONE)
    parts, statuses = [], []
    for n, dn in rows.groupby("n_players", sort=True):
        n = int(n)
        fair = 1.0 / n
        dn = dn.assign(gap=dn["estimate"] - fair)
        worst = dn.loc[dn.groupby("arm")["gap"].apply(lambda g: g.abs().idxmax())]
        best = worst.loc[worst["gap"].abs().idxmin()]
        grade = grades.get(best["arm"], "n/a")
        at = ", ".join(f"{k} = {best[k]}" for k in names)
        label = str(best["label"]).removeprefix("win rate, ")
        text = (f"{n} players: {at} comes closest to balance, graded {grade} (band ±"
                f"{100 * tolerance:g} points around 1/{n}; its largest gap, {label}'s, is "
                f"{_pts(best['gap'])} points, {_ci_pts(best['low'] - fair, best['high'] - fair)})")
        if grade in (studies.UNDECIDED, studies.PLAUSIBLY_BALANCED):
            n_games = int(long.loc[long["arm"] == best["arm"], "n"].max())
            text += ("; " + decision(best["gap"], best["low"] - fair, best["high"] - fair,
                                     n_games, manifest, "games per point",
                                     margin=tolerance - abs(best["gap"]),
                                     goal=f"settle whether it lies inside the "
                                          f"±{100 * tolerance:g}-point band"))
        statuses.append(grade)
        parts.append(text)
    status = (UNDECIDED if any(g in (studies.UNDECIDED, studies.PLAUSIBLY_BALANCED)
                               for g in statuses) else robust.ONE)
    text = (f"Under {policy}, " + "; ".join(parts)
            + "; measured under one policy only (a stronger player may balance elsewhere).")
    return _make(text, status)


def plan(blocks: list[dict], delta: float, policy: str, factor_name: str) -> dict | None:
    """The plan's first sentence: the games a difference of ``delta`` needs, under the pilot's
    policy, per design (against the fair share, two arms unpaired, two arms paired)."""
    if not blocks:
        return None
    b = blocks[0]
    most = b["_most"]
    parts = []
    if most.get("vs_fair"):
        parts.append(f"about {_about(most['vs_fair'])} games to tell it from the fair share")
    if most.get("unpaired"):
        parts.append(f"{_about(most['unpaired'])} games per arm to compare two independent arms")
    if most.get("paired"):
        parts.append(f"{_about(most['paired'])} per arm paired (same seeds)")
    if not parts:
        return None
    what = "the solo win probability" if b.get("solo") else f"one {factor_name}'s win rate"
    gap = b.get("_gap")
    pilot = ""
    if gap and b.get("solo"):
        pilot = (f"; the pilot wins {fmt.pct(gap[1])} of its solo games (95% CI "
                 f"{fmt.ci(gap[2], gap[3])})")
    elif gap:
        pilot = (f"; the pilot's largest gap from the fair share is {gap[0]}'s, {_pts(gap[1])} "
                 f"points ({_ci_pts(gap[2], gap[3])})")
    text = (f"Under {policy}, a {100 * delta:g}-point difference in {what} takes "
            + ", ".join(parts) + f" ({b['title']}, from a pilot of {b['pilot_games']:,} games; "
            f"the largest over every {factor_name}){pilot}; estimated under one policy only: a "
            f"stronger player's results vary differently.")
    return _make(text, robust.ONE)


def ladder(lad, manifest: dict) -> dict | None:
    """The ladder's first sentence: the closest step (or the failing one) with its interval;
    the order holds at every step, is contradicted by a step the wrong way, or undecided."""
    steps = lad.steps
    if steps is None or not len(steps):
        return None
    solo = lad.n_players == 1
    eff = (steps["diff"] if solo else steps["rate"] - steps["fair"]).astype(float)
    lo = (steps["low"] if solo else steps["low"] - steps["fair"]).astype(float)
    hi = (steps["high"] if solo else steps["high"] - steps["fair"]).astype(float)
    order = " < ".join(lad.rungs)
    what = "points of win probability" if solo else "points above the fair share"
    wrong = steps["verdict"] == "loses to"
    unclear = steps["verdict"] == "no clear difference"
    if wrong.any():
        i = eff[wrong].idxmin()
        r = steps.loc[i]
        return _make(f"Playing {order}: {r['a']} loses to {r['b']} ({_pts(eff[i])} {what}, "
                     f"{_ci_pts(lo[i], hi[i])}), so the order is contradicted at that step.",
                     robust.CONTRADICTED)
    if unclear.any():
        i = (eff[unclear].abs()).idxmin()
        r = steps.loc[i]
        n = int(r["games"])
        return _make(f"Playing {order}: {r['a']} over {r['b']} is undecided ({_pts(eff[i])} "
                     f"{what}, {_ci_pts(lo[i], hi[i])}); "
                     + decision(eff[i], lo[i], hi[i], n, manifest, "games per pair")
                     + "; the other steps hold.", UNDECIDED)
    i = lo.idxmin()
    r = steps.loc[i]
    return _make(f"Playing {order}: each rung beats the one below, so the order holds at every "
                 f"step (the closest: {r['a']} over {r['b']}, {_pts(eff[i])} {what}, "
                 f"{_ci_pts(lo[i], hi[i])}).", robust.HOLDS)
