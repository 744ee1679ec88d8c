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
============================ ====================================================================

The intervals are per pair or per step, each at 95%, not corrected for the number of steps.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import db, stats

__all__ = ["Ladder", "match_games", "pair_table", "fit_ratings", "skill_versus_luck",
           "solo_table", "solo_steps", "summarize"]

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
                level: float = 0.95) -> stats.Ratings:
    """Bradley-Terry ratings of the rungs from every stored game (:func:`match_games`), the
    lowest rung anchored at 0; cluster-robust intervals, a game index being one cluster (it is
    played on the same dice in every arm)."""
    idx = {r: i for i, r in enumerate(rungs)}
    return stats.bradley_terry(rungs, games["a"].map(idx), games["b"].map(idx),
                               games["a_share"], games["b_share"], n_players, 0, level,
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
        return Ladder(rungs, n, table, steps, None, None, text, ok)
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
    return Ladder(rungs, n, pairs, steps, ratings, skill, text, ok)
