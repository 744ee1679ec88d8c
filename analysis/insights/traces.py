"""Round-trace metrics of one arm, from ``rounds`` (traced games) and ``seats`` (who won):
lead changes, drama, decisiveness, comebacks and stalls.

Definitions (``docs/metrics_play.md``). ``score_s(r)`` is seat s's score after round r
(``rounds.score``), ``top(r) = max_s score_s(r)``, and the *leaders* after round r are the
seats with ``score_s(r) = top(r)`` (joint leaders included). A game lasts ``R`` rounds (its
last traced round).

* **Eventual winner**: the seat with ``win_share > 0`` in ``seats``; for a shared win, the
  lowest-numbered winning seat (the tie means the winners ended level, so the choice is
  arbitrary but fixed). Games without a winner (truncated, no winner) are left out of drama,
  decisiveness and comebacks, and solo games out of every multi-seat metric.
* **Lead change**: round r >= 2 whose leader set differs from round r - 1's.
* **Static round**: round r >= 2 after which no seat's score differs from after round r - 1
  (nothing is assumed about the score before round 1). A **stall** is a run of at least K
  consecutive static rounds.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._intervals import LEVEL, clustered, records, t_mean

__all__ = ["TraceCube", "trace_cube", "game_trace_table", "lead_change_rate", "drama",
           "decisiveness", "comeback_table", "comeback", "nice_step"]

KEYS = ["master_seed", "game_index"]


@dataclass
class TraceCube:
    """The traced games of one arm as arrays.

    ``keys``: one row per game (``master_seed, game_index``, sorted); ``score``: float array
    ``(games, max rounds, seats)``, NaN after a game's last round; ``n_rounds``: rounds per
    game; ``win_share``: ``(games, seats)``, NaN when the game has no seat rows; ``winner``:
    the eventual winner's seat (-1 when none)."""

    keys: pd.DataFrame
    score: np.ndarray
    n_rounds: np.ndarray
    win_share: np.ndarray
    winner: np.ndarray

    @property
    def n_games(self) -> int:
        return len(self.keys)

    @property
    def n_seats(self) -> int:
        return self.score.shape[2]

    def valid(self) -> np.ndarray:
        """``(games, max rounds)``: True for the rounds a game played."""
        return np.arange(self.score.shape[1])[None, :] < self.n_rounds[:, None]

    def leaders(self) -> tuple[np.ndarray, np.ndarray]:
        """``top`` ``(games, rounds)`` and the leader mask ``(games, rounds, seats)``."""
        s = np.where(np.isnan(self.score), -np.inf, self.score)
        top = s.max(axis=2)
        lead = (s == top[:, :, None]) & self.valid()[:, :, None]
        return top, lead


def trace_cube(rounds: pd.DataFrame, seats: pd.DataFrame) -> TraceCube:
    """Arrange one arm's ``rounds`` rows into a :class:`TraceCube`.

    Raises
    ------
    ValueError
        A traced game lacks a (round, seat) row, repeats one, or does not start at round 1.
    """
    if not len(rounds):
        z = np.zeros(0, int)
        return TraceCube(pd.DataFrame(columns=KEYS), np.zeros((0, 0, 0)), z,
                         np.zeros((0, 0)), z)
    r = rounds[KEYS + ["round", "seat", "score"]]
    keys = r[KEYS].drop_duplicates().sort_values(KEYS).reset_index(drop=True)
    gid = pd.MultiIndex.from_frame(keys).get_indexer(pd.MultiIndex.from_frame(r[KEYS]))
    rnd = r["round"].to_numpy(int)
    seat = r["seat"].to_numpy(int)
    n_seats = int(seat.max()) + 1
    if "n_players" in rounds:
        n_seats = max(n_seats, int(rounds["n_players"].max()))
    g = len(keys)
    n_rounds = np.zeros(g, int)
    np.maximum.at(n_rounds, gid, rnd)
    rows = np.bincount(gid, minlength=g)
    bad = (rows != n_rounds * n_seats) | (rnd.min() < 1)
    key = (gid.astype(np.int64) * (int(rnd.max()) + 1) + rnd) * n_seats + seat
    dup = np.unique(key).size != key.size
    if bad.any() or dup:
        i = int(np.flatnonzero(bad)[0]) if bad.any() else 0
        k = keys.iloc[i]
        raise ValueError(
            f"rounds: traced game (master_seed={k.master_seed}, game_index={k.game_index}) "
            f"needs one row per round 1..R and seat 0..{n_seats - 1}, without repeats")
    score = np.full((g, int(n_rounds.max()), n_seats), np.nan)
    score[gid, rnd - 1, seat] = r["score"].to_numpy(float)
    share = np.full((g, n_seats), np.nan)
    if len(seats):
        s = seats[KEYS + ["seat", "win_share"]]
        sg = pd.MultiIndex.from_frame(keys).get_indexer(pd.MultiIndex.from_frame(s[KEYS]))
        ok = (sg >= 0) & (s["seat"].to_numpy(int) < n_seats)
        share[sg[ok], s["seat"].to_numpy(int)[ok]] = s["win_share"].to_numpy(float)[ok]
    won = np.nan_to_num(share, nan=0.0) > 0
    winner = np.where(won.any(axis=1), won.argmax(axis=1), -1)
    return TraceCube(keys, score, n_rounds, share, winner)


def _longest_run(flags: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Longest run of True along axis 1, and the (0-based) index where it ends."""
    g, n = flags.shape
    run = np.zeros(g, int)
    best = np.zeros(g, int)
    end = np.full(g, -1)
    for j in range(n):
        run = np.where(flags[:, j], run + 1, 0)
        better = run > best
        best = np.where(better, run, best)
        end = np.where(better, j, end)
    return best, end


def game_trace_table(cube: TraceCube) -> pd.DataFrame:
    """One row per traced game: the per-game values behind the trace metrics.

    Columns: ``master_seed, game_index, rounds, winner`` (-1 none), ``lead_changes``,
    ``lead_change_rate`` (lead changes / (rounds - 1); NaN for 1-round or solo games),
    ``drama_deficit`` (mean over rounds of top score minus the winner's),
    ``drama_behind_share`` (share of rounds after which the winner was not a leader),
    ``decided_round`` (first round after which the winner leads, jointly or alone, until the
    end; the last round when the winner leads only after final scoring), ``decisiveness``
    (decided_round / rounds), ``decided_at_end`` (the winner did not lead after the last
    traced round: the final scoring decided), ``stall_rounds`` (longest run of static rounds)
    and ``stall_end`` (the round that run ends at; -1 none).
    """
    g, rmax = cube.score.shape[:2] if cube.n_games else (0, 0)
    out = cube.keys.copy()
    out["rounds"] = cube.n_rounds
    out["winner"] = cube.winner
    if g == 0:
        for c in ("lead_changes", "lead_change_rate", "drama_deficit", "drama_behind_share",
                  "decided_round", "decisiveness", "decided_at_end", "stall_rounds",
                  "stall_end"):
            out[c] = pd.Series(dtype=float)
        return out
    valid = cube.valid()
    top, lead = cube.leaders()
    multi = cube.n_seats >= 2
    # lead changes: rounds r >= 2 (index >= 1) whose leader set differs from the round before
    change = np.zeros((g, rmax), bool)
    change[:, 1:] = (lead[:, 1:] != lead[:, :-1]).any(axis=2) & valid[:, 1:]
    n_change = change.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where((cube.n_rounds >= 2) & multi, n_change / (cube.n_rounds - 1), np.nan)
    out["lead_changes"] = np.where(multi, n_change, 0)
    out["lead_change_rate"] = rate
    # drama and decisiveness, relative to the eventual winner
    has_w = (cube.winner >= 0) & multi
    w = np.maximum(cube.winner, 0)
    ws = cube.score[np.arange(g), :, w]  # (games, rounds)
    deficit = np.where(valid, top - np.where(np.isnan(ws), 0, ws), np.nan)
    behind = (deficit > 0) & valid
    nr = np.maximum(cube.n_rounds, 1)
    out["drama_deficit"] = np.where(has_w, np.nansum(deficit, axis=1) / nr, np.nan)
    out["drama_behind_share"] = np.where(has_w, behind.sum(axis=1) / nr, np.nan)
    last_behind = np.where(behind.any(axis=1), rmax - 1 - np.argmax(behind[:, ::-1], axis=1), -1)
    at_end = last_behind == cube.n_rounds - 1
    decided = np.where(at_end, cube.n_rounds, last_behind + 2)
    out["decided_round"] = np.where(has_w, decided, -1)
    out["decisiveness"] = np.where(has_w, decided / nr, np.nan)
    out["decided_at_end"] = has_w & at_end
    # stalls: static rounds r >= 2
    static = np.zeros((g, rmax), bool)
    same = np.all(cube.score[:, 1:] == cube.score[:, :-1], axis=2)
    static[:, 1:] = same & valid[:, 1:]
    longest, end = _longest_run(static)
    out["stall_rounds"] = longest
    out["stall_end"] = np.where(longest > 0, end + 1, -1)
    return out


def _mean_section(table: pd.DataFrame, column: str, level: float,
                  bounds: tuple[float, float] = (0.0, 1.0)) -> dict:
    x = table[column].to_numpy(float) if len(table) else np.zeros(0)
    x = x[np.isfinite(x)]
    return {"n_games": int(x.size), "mean": t_mean(x, level, bounds)}


def lead_change_rate(table: pd.DataFrame, level: float = LEVEL) -> dict:
    """Mean over traced multiplayer games of lead changes / (rounds - 1) (t interval);
    1-round games are left out."""
    out = _mean_section(table, "lead_change_rate", level)
    out["games_with_a_lead_change"] = int((table["lead_changes"] > 0).sum()) if len(table) else 0
    return out


def drama(table: pd.DataFrame, level: float = LEVEL) -> dict:
    """Mean per-game drama (t intervals): ``deficit``, the winner's mean gap to the top score
    after each round, and ``behind_share``, the share of rounds after which the winner was
    not a leader."""
    d = _mean_section(table, "drama_deficit", level, (0.0, np.inf))
    b = _mean_section(table, "drama_behind_share", level)
    return {"n_games": d["n_games"], "deficit": d["mean"], "behind_share": b["mean"],
            "winner_rule": "the seat with win_share > 0; shared win: the lowest-numbered "
                           "winning seat"}


def decisiveness(table: pd.DataFrame, level: float = LEVEL) -> dict:
    """Mean per-game decided_round / rounds (t interval): small = decided early."""
    out = _mean_section(table, "decisiveness", level)
    out["decided_at_end"] = int(table["decided_at_end"].sum()) if len(table) else 0
    return out


def nice_step(x: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50... that is >= x (at least 1)."""
    if not np.isfinite(x) or x <= 1:
        return 1
    e = 10 ** math.floor(math.log10(x))
    for m in (1, 2, 5, 10):
        if m * e >= x:
            return int(m * e)
    return int(10 * e)


def comeback_table(cube: TraceCube, round_edges=None, deficit_edges=None,
                   level: float = LEVEL) -> pd.DataFrame:
    """P(win | trailing the leader by d points after round r), by round bin and deficit bin.

    Observations: every seat after every round but its game's last (after the last round
    nothing is left to come back from), in traced multiplayer games with an eventual winner.
    ``d = top(r) - score_s(r)``: the bin ``0`` holds the leaders (the reference row); the
    positive deficits fall in ``1..e1, e1+1..e2, ..., > e_last`` for ``deficit_edges`` (default
    five steps of :func:`nice_step` of a fifth of the 90th percentile of positive deficits).
    Rounds fall in ``1..a1, a1+1..a2, ...`` for ``round_edges`` (default: one bin per round up
    to 12 rounds, else a nice step giving about 10 bins).

    Returns
    -------
    DataFrame
        ``round_bin, round_lo, round_hi, deficit_bin, deficit_lo, deficit_hi`` (NaN = open),
        ``n`` (seat-rounds), ``games``, ``wins`` (sum of ``win_share``), ``p_win`` and ``low``,
        ``high``: Wilson intervals widened by the design effect of games (a game gives several
        correlated seat-rounds to a cell; :func:`analysis.stats.clustered_proportion`).
        Only cells with observations.
    """
    cols = ["round_bin", "round_lo", "round_hi", "deficit_bin", "deficit_lo", "deficit_hi",
            "n", "games", "wins", "p_win", "low", "high"]
    if cube.n_games == 0 or cube.n_seats < 2:
        return pd.DataFrame(columns=cols)
    top, _ = cube.leaders()
    g, rmax, k = cube.score.shape
    use = (np.arange(rmax)[None, :] < cube.n_rounds[:, None] - 1) & (cube.winner >= 0)[:, None]
    gi, ri = np.nonzero(use)
    gi = np.repeat(gi, k)
    ri = np.repeat(ri, k)
    si = np.tile(np.arange(k), len(gi) // k)
    d = top[gi, ri] - cube.score[gi, ri, si]
    win = np.nan_to_num(cube.win_share[gi, si], nan=0.0)
    rnd = ri + 1
    if gi.size == 0:
        return pd.DataFrame(columns=cols)
    last = int(rnd.max())
    if round_edges is None:
        step = 1 if last <= 12 else nice_step(last / 10)
        round_edges = list(range(step, last, step))
    round_edges = sorted(int(e) for e in round_edges if e < last) + [last]
    pos = d[d > 0]
    if deficit_edges is None:
        step = nice_step(np.quantile(pos, 0.9) / 5) if pos.size else 1
        deficit_edges = [step * i for i in range(1, 6)]
    deficit_edges = sorted(int(e) for e in deficit_edges if e >= 1)
    r_bin = np.searchsorted(round_edges, rnd, side="left")
    d_bin = np.where(d > 0, np.searchsorted(deficit_edges, np.ceil(d), side="left") + 1, 0)
    r_lo = [1] + [e + 1 for e in round_edges[:-1]]
    r_labels = [f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in zip(r_lo, round_edges)]
    d_lo = [0, 1] + [e + 1 for e in deficit_edges]
    d_hi = [0] + deficit_edges + [np.nan]
    d_labels = ["0 (leading)"] + [f"{lo}" if lo == hi else f"{lo}-{hi}"
                                  for lo, hi in zip(d_lo[1:-1], deficit_edges)] + [f"{d_lo[-1]}+"]
    rows = []
    for (rb, db), idx in pd.Series(np.arange(gi.size)).groupby([r_bin, d_bin]).groups.items():
        idx = np.asarray(idx)
        e = clustered(win[idx], gi[idx], level)
        rows.append({"round_bin": r_labels[rb], "round_lo": r_lo[rb], "round_hi": round_edges[rb],
                     "deficit_bin": d_labels[db], "deficit_lo": d_lo[db],
                     "deficit_hi": d_hi[db], "n": int(idx.size),
                     "games": int(np.unique(gi[idx]).size), "wins": float(win[idx].sum()),
                     "p_win": e["estimate"], "low": e["low"], "high": e["high"]})
    return pd.DataFrame(rows, columns=cols).sort_values(["round_lo", "deficit_lo"],
                                                        ignore_index=True)


def comeback(cube: TraceCube, round_edges=None, deficit_edges=None, level: float = LEVEL
             ) -> dict:
    """:func:`comeback_table` as a JSON-ready section (``table``: list of rows), with the
    overall P(win | trailing) (every trailing seat-round; clustered Wilson)."""
    t = comeback_table(cube, round_edges, deficit_edges, level)
    trailing = t[t["deficit_lo"] > 0] if len(t) else t
    n = int(trailing["n"].sum()) if len(t) else 0
    multi = cube.n_seats >= 2
    out = {"n_games": int(((cube.winner >= 0) & (cube.n_rounds >= 2)).sum()) if multi else 0,
           "n_observations": int(t["n"].sum()) if len(t) else 0, "table": records(t)}
    out["p_win_trailing"] = _trailing_overall(cube, level) if n else clustered(
        np.zeros(0), np.zeros(0), level)
    return out


def _trailing_overall(cube: TraceCube, level: float) -> dict:
    top, _ = cube.leaders()
    g, rmax, k = cube.score.shape
    use = (np.arange(rmax)[None, :] < cube.n_rounds[:, None] - 1) & (cube.winner >= 0)[:, None]
    behind = use[:, :, None] & (cube.score < top[:, :, None])
    gi, _, si = np.nonzero(behind)
    return clustered(np.nan_to_num(cube.win_share[gi, si], nan=0.0), gi, level)
