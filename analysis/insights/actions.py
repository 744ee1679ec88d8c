"""Which actions matter: per decision point, option kind and policy, from ``actions`` (traced
games) and ``seats`` (each seat's policy and win share).

A *real choice* is a decision with two or more legal options (what a policy is asked);
``faced`` counts every decision at the point, ``forced`` those with one legal option and
``no_legal`` those with none, so ``choices = faced - forced - no_legal``. The per-kind counts
``legal`` and ``chosen`` are over real choices only, so a kind that is only ever forced is
not "always picked".

* ``legal_rate = sum(legal) / sum(choices)``: how often the kind is on offer;
* ``pick_rate = sum(chosen) / sum(legal)``: how often it is taken when on offer;
* ``win_lift``: among the policy's seats that faced the point, the win rate (mean
  ``win_share``) of those that chose the kind at least ``min_pick`` times minus that of the
  others. **Association, not cause**: a seat that is winning may pick differently.
* ``forced_share = sum(forced) / sum(faced)``, ``mean_options = sum(n_options_sum) /
  sum(faced)``, ``no_legal_share = sum(no_legal) / sum(faced)``.

Every interval is a percentile bootstrap over traced games (ratios of per-game sums; the
same resamples for every cell).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ._intervals import LEVEL, N_RESAMPLES, SEED, Bootstrap, ratio_table, records, wilson

__all__ = ["CAVEAT", "POINT_COLUMNS", "policy_win_rates", "strongest_policy", "point_table",
           "kind_table", "actions_summary"]

CAVEAT = "association, not cause"
KEYS = ["master_seed", "game_index"]
# Per (game, seat, point) counts, repeated on every kind row of that point.
POINT_COLUMNS = ("faced", "forced", "no_legal", "n_options_sum")
ALL_POINTS = "(all)"


def policy_win_rates(seats: pd.DataFrame, level: float = LEVEL) -> dict[str, dict]:
    """Win rate (mean ``win_share``, Wilson) per policy over the arm's seats."""
    if not len(seats) or "policy" not in seats:
        return {}
    g = seats.assign(policy=seats["policy"].fillna("(unknown)").astype(str)).groupby("policy")
    return {p: wilson(float(d["win_share"].sum()), len(d), level=level) for p, d in g}


def strongest_policy(seats: pd.DataFrame) -> str | None:
    """The policy with the highest win rate in the arm (ties: the first name in sort order)."""
    rates = policy_win_rates(seats)
    if not rates:
        return None
    return max(sorted(rates), key=lambda p: rates[p]["estimate"] or 0.0)


def _prepare(actions: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    a = actions.copy()
    for c in POINT_COLUMNS:
        if c not in a:
            a[c] = 0
    s = seats[KEYS + ["seat", "policy", "win_share"]] if len(seats) else pd.DataFrame(
        columns=KEYS + ["seat", "policy", "win_share"])
    a = a.merge(s, on=KEYS + ["seat"], how="left")
    a["policy"] = a["policy"].fillna("(unknown)").astype(str)
    a["win_share"] = a["win_share"].astype(float).fillna(0.0)
    a["kind"] = a["kind"].fillna("").astype(str)
    a["point"] = a["point"].astype(str)
    a["gid"] = a.groupby(KEYS, sort=True).ngroup()
    return a


def _per_game(gid: np.ndarray, cell: np.ndarray, values: np.ndarray, n_games: int,
              n_cells: int) -> np.ndarray:
    out = np.zeros((n_games, n_cells))
    np.add.at(out, (gid, cell), values)
    return out


def _with(df: pd.DataFrame, name: str, ests: list[dict]) -> None:
    df[name] = [e["estimate"] for e in ests]
    df[f"{name}_low"] = [e["low"] for e in ests]
    df[f"{name}_high"] = [e["high"] for e in ests]


def _points(a: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, seat, point): the point counts, policy, win share, gid."""
    p = a.groupby(KEYS + ["seat", "point"], sort=False, as_index=False).first()
    p["choices"] = p["faced"] - p["forced"] - p["no_legal"]
    return p


def point_table(actions: pd.DataFrame, seats: pd.DataFrame, level: float = LEVEL,
                n_resamples: int = N_RESAMPLES, seed: int = SEED) -> pd.DataFrame:
    """Per policy and decision point (plus a ``(all)`` row per policy): ``faced, choices,
    forced, no_legal``, ``forced_share``, ``mean_options`` and ``no_legal_share`` with
    bootstrap ``_low``/``_high``."""
    cols = ["policy", "point", "faced", "choices", "forced", "no_legal"]
    if not len(actions):
        return pd.DataFrame(columns=cols)
    a = _prepare(actions, seats)
    p = _points(a)
    p_all = p.assign(point=ALL_POINTS)
    p = pd.concat([p, p_all], ignore_index=True)
    cell, cells = pd.MultiIndex.from_frame(p[["policy", "point"]]).factorize(sort=True)
    n = int(a["gid"].max()) + 1
    k = len(cells)
    gid = p["gid"].to_numpy()
    sums = {c: _per_game(gid, cell, p[c].to_numpy(float), n, k)
            for c in ("faced", "choices", "forced", "no_legal", "n_options_sum")}
    out = pd.DataFrame({"policy": cells.get_level_values(0), "point": cells.get_level_values(1)})
    for c in ("faced", "choices", "forced", "no_legal"):
        out[c] = sums[c].sum(axis=0).astype(int)
    boot = Bootstrap(n, n_resamples, seed)
    _with(out, "forced_share", ratio_table(boot, sums["forced"], sums["faced"], level))
    _with(out, "mean_options", ratio_table(boot, sums["n_options_sum"], sums["faced"], level))
    _with(out, "no_legal_share", ratio_table(boot, sums["no_legal"], sums["faced"], level))
    out["_all"] = out["point"] == ALL_POINTS
    return out.sort_values(["policy", "_all", "point"], ignore_index=True).drop(columns="_all")


def kind_table(actions: pd.DataFrame, seats: pd.DataFrame, min_pick: int = 1,
               level: float = LEVEL, n_resamples: int = N_RESAMPLES, seed: int = SEED
               ) -> pd.DataFrame:
    """Per policy, decision point and option kind: ``legal, chosen`` (real choices),
    ``legal_rate``, ``pick_rate`` and ``win_lift`` (with ``_low``/``_high``), and the two
    groups of the lift: ``n_picked, win_rate_picked, n_not, win_rate_not`` (seats)."""
    cols = ["policy", "point", "kind", "legal", "chosen"]
    if not len(actions):
        return pd.DataFrame(columns=cols)
    a = _prepare(actions, seats)
    p = _points(a)
    p = p[p["faced"] > 0]
    n = int(a["gid"].max()) + 1
    k_rows = a[a["kind"] != ""]
    kcell, kcells = pd.MultiIndex.from_frame(k_rows[["policy", "point", "kind"]]).factorize(
        sort=True)
    nk = len(kcells)
    if nk == 0:
        return pd.DataFrame(columns=cols)
    # the (policy, point) cell of each kind cell, and each point row's cell
    pp = pd.MultiIndex.from_arrays([kcells.get_level_values(0), kcells.get_level_values(1)])
    pcells = pp.unique()
    of_kind = pcells.get_indexer(pp)
    pcell = pcells.get_indexer(pd.MultiIndex.from_frame(p[["policy", "point"]]))
    keep = pcell >= 0
    p, pcell = p[keep], pcell[keep]
    np_ = len(pcells)
    kg = k_rows["gid"].to_numpy()
    pg = p["gid"].to_numpy()
    legal = _per_game(kg, kcell, k_rows["legal"].to_numpy(float), n, nk)
    chosen = _per_game(kg, kcell, k_rows["chosen"].to_numpy(float), n, nk)
    choices = _per_game(pg, pcell, p["choices"].to_numpy(float), n, np_)[:, of_kind]
    pop_n = _per_game(pg, pcell, np.ones(len(p)), n, np_)[:, of_kind]
    pop_w = _per_game(pg, pcell, p["win_share"].to_numpy(float), n, np_)[:, of_kind]
    picked = k_rows["chosen"].to_numpy() >= min_pick
    pick_n = _per_game(kg[picked], kcell[picked], np.ones(int(picked.sum())), n, nk)
    pick_w = _per_game(kg[picked], kcell[picked], k_rows["win_share"].to_numpy(float)[picked],
                       n, nk)
    out = pd.DataFrame({"policy": kcells.get_level_values(0),
                        "point": kcells.get_level_values(1),
                        "kind": kcells.get_level_values(2),
                        "legal": legal.sum(axis=0).astype(int),
                        "chosen": chosen.sum(axis=0).astype(int)})
    boot = Bootstrap(n, n_resamples, seed)
    _with(out, "legal_rate", ratio_table(boot, legal, choices, level))
    _with(out, "pick_rate", ratio_table(boot, chosen, legal, level))

    def lift(s):
        wp, np1, pw, pn = (s[..., i * nk:(i + 1) * nk] for i in range(4))
        return wp / np1 - (pw - wp) / (pn - np1)

    est_, lo, hi = boot.interval(np.hstack([pick_w, pick_n, pop_w, pop_n]), lift, level)
    out["win_lift"], out["win_lift_low"], out["win_lift_high"] = est_, lo, hi
    n1, n_all = pick_n.sum(axis=0), pop_n.sum(axis=0)
    w1, w_all = pick_w.sum(axis=0), pop_w.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["n_picked"] = n1.astype(int)
        out["win_rate_picked"] = np.where(n1 > 0, w1 / n1, np.nan)
        out["n_not"] = (n_all - n1).astype(int)
        out["win_rate_not"] = np.where(n_all > n1, (w_all - w1) / (n_all - n1), np.nan)
    return out


def actions_summary(actions: pd.DataFrame | None, seats: pd.DataFrame, min_pick: int = 1,
                    min_legal: int = 10, level: float = LEVEL, n_resamples: int = N_RESAMPLES,
                    seed: int = SEED) -> dict:
    """The ``actions`` section: point and kind tables, the strongest policy (highest win rate
    over the arm's seats) and the kinds it never picks / always picks when legal (among kinds
    legal in at least ``min_legal`` of its real choices)."""
    rates = policy_win_rates(seats, level)
    best = strongest_policy(seats)
    out = {"n_games": 0, "caveat": CAVEAT, "min_pick": int(min_pick),
           "min_legal": int(min_legal), "strongest_policy": best, "policy_win_rates": rates,
           "never_picked": [], "always_picked": [], "points": [], "kinds": []}
    if actions is None or not len(actions):
        return out
    out["n_games"] = int(actions[KEYS].drop_duplicates().shape[0])
    kt = kind_table(actions, seats, min_pick, level, n_resamples, seed)
    out["points"] = records(point_table(actions, seats, level, n_resamples, seed))
    out["kinds"] = records(kt)
    if best is not None and len(kt):
        mine = kt[(kt["policy"] == best) & (kt["legal"] >= min_legal)]
        cols = ["point", "kind", "legal", "chosen", "win_lift", "win_lift_low", "win_lift_high"]
        out["never_picked"] = records(mine[mine["chosen"] == 0][cols])
        out["always_picked"] = records(mine[mine["chosen"] == mine["legal"]][cols])
    return out
