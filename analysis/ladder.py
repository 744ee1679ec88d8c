"""Ladder statistics: how strong are the bots? (``playtest ladder``, its report, ``show``).

A ladder experiment (:func:`pipelines.studies.ladder_experiment`) records in its manifest
``spec`` the ``rungs`` (policies, weakest first) and the ``matches``: for every pair of rungs,
one arm per seat in which the higher rung ``a`` plays that seat and the lower rung ``b`` every
other seat, all arms on the same per-game seeds. Solo ladders have one arm per rung.

============================ ====================================================================
figure                       how
============================ ====================================================================
pair win rate                ``a``'s seat win rate (mean ``win_share``) pooled over its seats
                             (equal games per seat), Wilson 95% interval on the effective number
                             of games (:func:`stats.clustered_proportion`: the seat-rotated
                             copies of one game index share its dice), against the fair share
                             1/N: ``a`` *beats* ``b`` when the interval lies above 1/N, *loses
                             to* it when below, else no clear difference
ratings                      Bradley-Terry (Luce for N > 2) maximum likelihood over every game,
                             Elo scale anchored at the lowest rung = 0, 95% Wald intervals with
                             cluster-robust standard errors, a game index being one cluster
                             (:func:`stats.bradley_terry`)
skill versus luck            how often the better-rated policy of each pair wins per seat,
                             pooled over the pairs (clustered by game index), against 1/N;
                             ``skill index`` = (rate − 1/N) / (1 − 1/N): 0 = its seat wins no
                             more than its fair share (luck decides), 1 = it always wins
steps                        each rung against the one just below it: the ladder verdict
solo                         win probability per rung (Wilson); each step's paired difference
                             (same seeds) with a t interval (:func:`stats.paired_difference`)
skill chain                  (θ_best − θ_random) / ln 1.5 from the ratings (θ on the log-odds
                             scale: Elo / :data:`stats.ELO_PER_LOGIT`): how many links of "wins
                             60% of two-way contests against the rung below" separate random
                             play from the best-rated rung; Wald interval of the rating gap
                             (a linear map, so the delta method is exact)
skill share                  p = (W − 1/N) / (1 − 1/N), W the best-rated rung's seat win rate
                             against random seats: the share of games skill decides, the rest a
                             fair lottery; W's clustered Wilson interval mapped through p
solo skill score             1 − w_random / w_best (solo win probabilities): the share of the
                             best policy's wins random play does not get; MOVER interval of the
                             ratio from the two Wilson intervals
============================ ====================================================================

The intervals are per pair or per step, each at 95%, not corrected for the number of steps.
Definitions, interval methods and sources of the skill figures: ``docs/metrics.md``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as _st

from . import db, stats

__all__ = ["Ladder", "match_games", "pair_table", "fit_ratings", "skill_versus_luck",
           "solo_table", "solo_steps", "summarize", "LINK_WIN", "random_rung", "skill_chain",
           "skill_share", "solo_skill_score", "skill_and_luck", "solo_skill", "skill_luck_lines"]

BEATS, LOSES, UNCLEAR = "beats", "loses to", "no clear difference"


def match_games(con, experiment: str, matches: list[dict]) -> pd.DataFrame:
    """One row per game of every match arm: ``arm, a, b, seat, master_seed, game_index,
    n_players, a_share`` (win share of ``a``'s seat), ``b_share`` (of all the other seats).
    Computed in DuckDB (one pass over the seats), in arm and game order."""
    m = pd.DataFrame(matches, columns=["arm", "a", "b", "seat"])
    con.register("_ladder_matches", m)
    try:
        return db.query(con, """
            SELECT s.arm, any_value(m.a) AS a, any_value(m.b) AS b, any_value(m.seat) AS seat,
                   s.master_seed, s.game_index, any_value(s.n_players) AS n_players,
                   sum(CASE WHEN s.seat = m.seat THEN s.win_share ELSE 0 END)::DOUBLE
                       AS a_share,
                   sum(CASE WHEN s.seat <> m.seat THEN s.win_share ELSE 0 END)::DOUBLE
                       AS b_share
            FROM stg_seats s JOIN _ladder_matches m ON s.arm = m.arm
            WHERE s.experiment = ?
            GROUP BY s.arm, s.master_seed, s.game_index
            ORDER BY s.arm, s.master_seed, s.game_index""", [experiment])
    finally:
        con.unregister("_ladder_matches")


def pair_table(games: pd.DataFrame, rungs: list[str], n_players: int,
               level: float = 0.95) -> pd.DataFrame:
    """One row per pair of rungs (higher rung ``a``, lower ``b``, in ladder order): ``a, b,
    games, a_wins, b_wins, rate`` (``a``'s seat), ``low, high, fair, verdict`` and ``by_seat``
    (``a``'s win rate in each seat)."""
    fair = 1.0 / n_players
    rows = []
    for i, b in enumerate(rungs):
        for a in rungs[i + 1:]:
            d = games[(games["a"] == a) & (games["b"] == b)]
            if d.empty:
                continue
            e = stats.clustered_proportion(d["a_share"], d["game_index"], level)
            verdict = BEATS if e.low > fair else LOSES if e.high < fair else UNCLEAR
            by_seat = d.groupby("seat")["a_share"].mean()
            rows.append({"a": a, "b": b, "games": len(d), "a_wins": float(d["a_share"].sum()),
                         "b_wins": float(d["b_share"].sum()), "rate": e.estimate, "low": e.low,
                         "high": e.high, "fair": fair, "verdict": verdict,
                         "by_seat": [float(by_seat.get(s, np.nan)) for s in range(n_players)]})
    return pd.DataFrame(rows, columns=["a", "b", "games", "a_wins", "b_wins", "rate", "low",
                                       "high", "fair", "verdict", "by_seat"])


def fit_ratings(games: pd.DataFrame, rungs: list[str], n_players: int,
                level: float = 0.95, anchor: int = 0) -> stats.Ratings:
    """Bradley-Terry ratings of the rungs from every stored game (:func:`match_games`), the
    rung ``anchor`` (default the lowest) at 0; cluster-robust intervals, a game index being one
    cluster (it is played on the same dice in every arm)."""
    idx = {r: i for i, r in enumerate(rungs)}
    return stats.bradley_terry(rungs, games["a"].map(idx), games["b"].map(idx),
                               games["a_share"], games["b_share"], n_players, anchor, level,
                               clusters=games["game_index"])


def skill_versus_luck(games: pd.DataFrame, ratings: stats.Ratings, n_players: int,
                      level: float = 0.95) -> dict:
    """How often the better-rated policy of a pair wins, per seat, pooled over the pairs.

    Returns ``rate, low, high`` (:func:`stats.clustered_proportion`: the games of one index
    share their dice in every arm), ``fair`` (1/N), ``index`` ((rate − 1/N) / (1 − 1/N), with
    ``index_low``/``index_high``) and ``games``. The better policy's seat counts as ``a``'s one
    seat, or one of ``b``'s N − 1 seats (their wins divided by N − 1)."""
    rating = dict(zip(ratings.names, ratings.rating))
    a_better = games["a"].map(rating) >= games["b"].map(rating)
    share = np.where(a_better, games["a_share"], games["b_share"] / (n_players - 1))
    e = stats.clustered_proportion(share, games["game_index"], level)
    fair = 1.0 / n_players
    scale = lambda x: (x - fair) / (1.0 - fair)  # noqa: E731
    return {"rate": e.estimate, "low": e.low, "high": e.high, "fair": fair, "games": e.n,
            "index": scale(e.estimate), "index_low": scale(e.low), "index_high": scale(e.high)}


def solo_table(games: pd.DataFrame, rungs: list[str], level: float = 0.95) -> pd.DataFrame:
    """Solo ladder: ``policy, games, wins, rate, low, high`` per rung (Wilson)."""
    rows = []
    for r in rungs:
        d = games[games["a"] == r]
        if d.empty:
            continue
        e = stats.proportion_estimate(float(d["a_share"].sum()), len(d), level)
        rows.append({"policy": r, "games": len(d), "wins": float(d["a_share"].sum()),
                     "rate": e.estimate, "low": e.low, "high": e.high})
    return pd.DataFrame(rows, columns=["policy", "games", "wins", "rate", "low", "high"])


def solo_steps(games: pd.DataFrame, rungs: list[str], level: float = 0.95) -> pd.DataFrame:
    """Each solo rung minus the one below: paired difference of the win probability (the rungs
    play the same seeds), ``a, b, diff, low, high, games, verdict``."""
    rows = []
    keys = ["master_seed", "game_index"]
    for b, a in zip(rungs, rungs[1:]):
        da = games[games["a"] == a].set_index(keys)["a_share"]
        dbb = games[games["a"] == b].set_index(keys)["a_share"]
        common = da.index.intersection(dbb.index)
        if not len(common):
            continue
        d = stats.paired_difference(da.loc[common].to_numpy(), dbb.loc[common].to_numpy(), level)
        verdict = BEATS if d.low > 0 else LOSES if d.high < 0 else UNCLEAR
        rows.append({"a": a, "b": b, "diff": d.estimate, "low": d.low, "high": d.high,
                     "games": d.n, "verdict": verdict})
    return pd.DataFrame(rows, columns=["a", "b", "diff", "low", "high", "games", "verdict"])


# ---- skill and luck ------------------------------------------------------------------------------
#: A link of the skill chain: the stronger side wins this share of two-way contests (odds 1.5).
LINK_WIN = 0.6
_LINK_LOGIT = math.log(LINK_WIN / (1.0 - LINK_WIN))  # ln 1.5

CHAIN_MEANING = ("how many links of \"wins 60% of two-way contests against the rung below\" "
                 "separate random play from the best-rated rung: more links, more room for "
                 "skill")
SHARE_MEANING = ("the share of games skill decides: the rung's seat wins as often as if that "
                 "share of games went to it and the rest were a fair lottery among the seats")
SOLO_MEANING = ("the share of the best policy's wins that random play does not get: 0 = random "
                "play wins as often (luck decides), 1 = random play never wins")


def random_rung(rungs: list[str]) -> int | None:
    """Index of the rung that plays uniformly at random (the policy named ``random``), or
    None."""
    for i, r in enumerate(rungs):
        if str(r).split(":", 1)[0].strip() == "random":
            return i
    return None


def skill_chain(ratings: stats.Ratings, low: int, best: int | None = None) -> dict:
    """Skill-chain length from Bradley-Terry ratings: (θ_best − θ_low) / ln 1.5.

    ``ratings`` are Elo points (:func:`stats.bradley_terry`); θ = Elo / ELO_PER_LOGIT is the
    log-strength, so a gap of ln 1.5 is one link (60% of two-way contests; in the Luce model
    of an N-player game, a seat's chance among two-way comparisons). ``low`` is the random
    rung, ``best`` the best-rated (default). The ratings must be anchored at ``low`` or at
    ``best``: the gap's standard error is then the other rung's (otherwise refit with
    ``anchor=low``). Interval: the Wald interval of the gap, mapped linearly.

    Returns ``estimate, low, high, elo, best, random, level, method, meaning``.
    """
    r = np.asarray(ratings.rating, float)
    best = int(np.argmax(r)) if best is None else int(best)
    if ratings.anchor == low:
        se = float(ratings.se[best])
    elif ratings.anchor == best:
        se = float(ratings.se[low])
    else:
        raise ValueError("skill_chain needs ratings anchored at the low or the best rung "
                         f"(anchor {ratings.names[ratings.anchor]}); refit with anchor={low}")
    z = float(_st.norm.ppf(0.5 + ratings.level / 2.0))
    gap = float(r[best] - r[low])
    per_link = stats.ELO_PER_LOGIT * _LINK_LOGIT  # about 70.4 Elo points
    return {"metric": "skill chain", "estimate": gap / per_link,
            "low": (gap - z * se) / per_link, "high": (gap + z * se) / per_link,
            "elo": gap, "best": ratings.names[best], "random": ratings.names[low],
            "level": ratings.level, "adjusted": bool(ratings.adjusted),
            "method": f"Wald interval of the rating gap ({ratings.method} standard errors), "
                      "divided by ln 1.5 (exact for a linear map)",
            "meaning": CHAIN_MEANING}


def skill_share(rate: float, low: float, high: float, n_players: int) -> dict:
    """Share of games decided by skill, p = (W − 1/N) / (1 − 1/N), from the best rung's seat
    win rate ``rate`` against N − 1 random seats and its interval (mapped through p, which is
    increasing: the interval's coverage is W's). Duersch, Lambrecht & Oechssler (2020): if a
    share p of games goes to the better player and the rest are a fair lottery, W = p + (1 −
    p)/N."""
    fair = 1.0 / n_players
    f = lambda x: (x - fair) / (1.0 - fair)  # noqa: E731
    return {"metric": "skill share", "estimate": f(rate), "low": f(low), "high": f(high),
            "rate": rate, "fair": fair,
            "method": "the win rate's clustered Wilson interval, mapped through p",
            "meaning": SHARE_MEANING}


def _mover_ratio(p1: float, l1: float, u1: float, p2: float, l2: float, u2: float
                 ) -> tuple[float, float]:
    """Interval of p1 / p2 from the two proportions' intervals (MOVER-R, Donner & Zou 2012):
    the limits solve ``(p1 − L·p2)² = (p1 − l1)² + L²(u2 − p2)²`` and
    ``(p1 − U·p2)² = (u1 − p1)² + U²(p2 − l2)²``. Independent samples assumed."""
    a = p1 * p2
    den_l = u2 * (2 * p2 - u2)
    disc_l = a * a - l1 * (2 * p1 - l1) * den_l
    lo = (a - math.sqrt(disc_l)) / den_l if den_l > 0 and disc_l >= 0 else 0.0
    den_u = l2 * (2 * p2 - l2)
    disc_u = a * a - u1 * (2 * p1 - u1) * den_u
    hi = (a + math.sqrt(disc_u)) / den_u if den_u > 0 and disc_u >= 0 else math.inf
    return max(lo, 0.0), hi


def solo_skill_score(wins_random: float, games_random: int, wins_best: float, games_best: int,
                     level: float = 0.95) -> dict:
    """Solo skill score 1 − w_random / w_best (win probabilities of the random and the best
    policy), with the MOVER interval of the ratio from the two Wilson intervals: it holds when
    random play never wins (the ratio's lower limit is then 0 and its upper limit comes from
    the random rung's Wilson upper limit), where the delta method and the bootstrap give a
    zero-width interval. It treats the rungs as independent samples; they play the same seeds,
    which correlates them positively, so the interval is conservative."""
    e_r = stats.proportion_estimate(wins_random, games_random, level)
    e_b = stats.proportion_estimate(wins_best, games_best, level)
    if not e_b.estimate > 0:
        est, lo, hi = math.nan, math.nan, math.nan
    else:
        ratio = e_r.estimate / e_b.estimate
        r_lo, r_hi = _mover_ratio(e_r.estimate, e_r.low, e_r.high, e_b.estimate, e_b.low,
                                  e_b.high)
        est, lo, hi = 1.0 - ratio, 1.0 - r_hi, 1.0 - r_lo
    return {"metric": "solo skill score", "estimate": est, "low": lo, "high": hi,
            "w_random": e_r.estimate, "w_best": e_b.estimate,
            "method": "MOVER interval of w_random / w_best from the two Wilson intervals "
                      "(independent samples; conservative for same-seed games)",
            "meaning": SOLO_MEANING}


def skill_and_luck(games: pd.DataFrame, rungs: list[str], n_players: int,
                   pairs: pd.DataFrame, ratings: stats.Ratings | None,
                   level: float = 0.95) -> dict:
    """The skill figures of a multiplayer ladder: ``chain`` (:func:`skill_chain` from the
    random rung to the best-rated one), ``share`` (:func:`skill_share` from the best-rated
    rung's pair with random: when the best-rated rung did not play random, from the
    best-rated rung that did, named) and ``notes`` (what could not be computed, and why).
    Without a random rung, the lowest rung stands in for it, and a note says so."""
    out: dict = {"chain": None, "share": None, "solo": None, "notes": []}
    if ratings is None:
        out["notes"].append("No skill chain or skill share: not every rung has stored games.")
        return out
    low = random_rung(rungs)
    if low is None:
        low = 0
        out["notes"].append(f"No rung plays at random: the skill chain and share start from the "
                            f"lowest rung, {rungs[0]}.")
    if ratings.anchor != low:
        ratings = fit_ratings(games, rungs, n_players, level, anchor=low)
    best = int(np.argmax(ratings.rating))
    if best == low:
        out["notes"].append(f"{rungs[low]} is rated highest: no skill above it to measure.")
        return out
    out["chain"] = skill_chain(ratings, low, best)
    if ratings.adjusted:
        out["notes"].append("Some rung won (or lost) every game of a pair, so the ratings were "
                            "shrunk (0.5 wins added per side): the chain is a lower bound.")
    by_rating = sorted(range(len(rungs)), key=lambda i: -ratings.rating[i])
    for i in by_rating:
        row = pairs[(pairs["a"] == rungs[i]) & (pairs["b"] == rungs[low])] if len(pairs) else pairs
        if i != low and len(row):
            r = row.iloc[0]
            share = skill_share(float(r["rate"]), float(r["low"]), float(r["high"]), n_players)
            share.update(best=rungs[i], random=rungs[low], games=int(r["games"]))
            out["share"] = share
            if i != best:
                out["notes"].append(
                    f"The best-rated rung, {rungs[best]}, did not play {rungs[low]}: the skill "
                    f"share is that of {rungs[i]}, the best-rated rung that did.")
            break
    else:
        out["notes"].append(f"No rung played {rungs[low]} head to head: no skill share.")
    return out


def solo_skill(table: pd.DataFrame, rungs: list[str], level: float = 0.95) -> dict:
    """The skill figure of a solo ladder: ``solo`` (:func:`solo_skill_score`, the random rung
    against the rung with the highest win probability) and ``notes``."""
    out: dict = {"chain": None, "share": None, "solo": None, "notes": []}
    low = random_rung(rungs)
    if table.empty:
        out["notes"].append("No solo skill score: no stored games yet.")
        return out
    if low is None or rungs[low] not in set(table["policy"]):
        out["notes"].append("No solo skill score: no rung plays at random.")
        return out
    t = table.set_index("policy")
    best = t["rate"].idxmax()
    if best == rungs[low]:
        out["notes"].append(f"{best} wins most often: no skill above random play to measure.")
        return out
    r, b = t.loc[rungs[low]], t.loc[best]
    s = solo_skill_score(float(r["wins"]), int(r["games"]), float(b["wins"]), int(b["games"]),
                         level)
    s.update(best=best, random=rungs[low])
    out["solo"] = s
    if not np.isfinite(s["estimate"]):
        out["notes"].append(f"No solo skill score: even {best} never won.")
    return out


def _num(x: float, digits: int = 2) -> str:
    return f"{round(float(x), digits) + 0.0:.{digits}f}" if np.isfinite(x) else "n/a"


def skill_luck_lines(lad: "Ladder") -> list[str]:
    """The skill figures in plain sentences (the report, ``playtest ladder`` and ``show``),
    each with its 95% interval and its meaning; then the notes."""
    sk = lad.skill_luck or {}
    lines = []
    c = sk.get("chain")
    if c:
        lines.append(
            f"Skill chain from {c['random']} to {c['best']}: {_num(c['estimate'], 1)} links "
            f"(95% CI {_num(c['low'], 1)} to {_num(c['high'], 1)}; {c['elo']:+.0f} Elo points, "
            f"one link = 70 points): {c['meaning']}.")
    s = sk.get("share")
    if s:
        lines.append(
            f"Share of games decided by skill ({s['best']} against {s['random']} seats): "
            f"{100 * s['estimate']:.1f}% (95% CI {100 * s['low']:.1f}% to "
            f"{100 * s['high']:.1f}%; its seat wins {100 * s['rate']:.1f}% against a fair share "
            f"of {100 * s['fair']:.1f}%): {s['meaning']}.")
    o = sk.get("solo")
    if o and np.isfinite(o["estimate"]):
        lines.append(
            f"Solo skill score ({o['random']} against {o['best']}): {_num(o['estimate'])} (95% "
            f"CI {_num(o['low'])} to {_num(o['high'])}; win probability "
            f"{100 * o['w_random']:.1f}% against {100 * o['w_best']:.1f}%): {o['meaning']}.")
    return lines + list(sk.get("notes") or [])


@dataclass
class Ladder:
    """Everything a ladder report and the CLI show (see :func:`summarize`)."""

    rungs: list[str]
    n_players: int
    pairs: pd.DataFrame  # pair_table (multiplayer) or solo_table (solo)
    steps: pd.DataFrame  # adjacent rungs: rows of pairs (multiplayer) or solo_steps
    ratings: stats.Ratings | None
    skill: dict | None
    verdict: str
    all_steps_hold: bool
    skill_luck: dict | None = None  # skill_and_luck (multiplayer) or solo_skill (solo)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _step_text(r, solo: bool) -> str:
    """One step in words (``r``: a row of the steps table, as a Series)."""
    if solo:
        return (f"{r['a']} over {r['b']}: {stats.points(r['diff'])} points of win probability "
                f"(95% CI {stats.points(r['low'])} to {stats.points(r['high'])})")
    return (f"{r['a']} over {r['b']}: {_pct(r['rate'])} (95% CI {_pct(r['low'])}–"
            f"{_pct(r['high'])}) against the fair share {_pct(r['fair'])}")


def _verdict(steps: pd.DataFrame, n_steps: int, solo: bool) -> tuple[str, bool]:
    """"Each rung beats the one below with 95% confidence: yes/no", naming the steps that fail."""
    if steps.empty:
        return "No stored games yet: nothing to rank.", False
    holds = steps["verdict"] == BEATS
    if holds.all() and len(steps) == n_steps:
        worst = steps.loc[(steps["low"] if solo else steps["low"] - steps["fair"]).idxmin()]
        return ("Each rung beats the one below with 95% confidence: yes (the closest step: "
                + _step_text(worst, solo) + ")."), True
    bad = [("goes the wrong way: " if r["verdict"] == LOSES else "not shown: ")
           + _step_text(r, solo) for _, r in steps[~holds].iterrows()]
    return ("Each rung beats the one below with 95% confidence: no; " + "; ".join(bad) + "."), \
        False


def summarize(con, experiment: str, source: dict, level: float = 0.95) -> Ladder:
    """The ladder of a stored experiment (its manifest ``spec``: rungs, players, matches)."""
    rungs = list(source["rungs"])
    n = int(source["players"])
    games = match_games(con, experiment, source["matches"])
    if n == 1:
        table = solo_table(games, rungs, level)
        steps = solo_steps(games, rungs, level)
        text, ok = _verdict(steps, len(rungs) - 1, True)
        return Ladder(rungs, n, table, steps, None, None, text, ok,
                      solo_skill(table, rungs, level))
    pairs = pair_table(games, rungs, n, level)
    ratings = skill = None
    if len(pairs) and len(set(pairs["a"]) | set(pairs["b"])) == len(rungs):
        ratings = fit_ratings(games, rungs, n, level)
        pairs["expected"] = [ratings.expected(rungs.index(r.a), rungs.index(r.b), n)
                             for r in pairs.itertuples()]
        skill = skill_versus_luck(games, ratings, n, level)
    adjacent = {(a, b) for b, a in zip(rungs, rungs[1:])}
    steps = pairs[[(r.a, r.b) in adjacent for r in pairs.itertuples()]] if len(pairs) else pairs
    text, ok = _verdict(steps, len(rungs) - 1, False)
    return Ladder(rungs, n, pairs, steps, ratings, skill, text, ok,
                  skill_and_luck(games, rungs, n, pairs, ratings, level))
