"""What fixes a favoured seat: a points bonus per seat from stored final scores, and the value
of a rule parameter that equalises the seats from paired runs (``docs/metrics.md``).

Offline points bonus (:func:`seat_bonus`, :func:`bonus_from_store`)
    From the final scores alone, the bonus vector ``b`` (seat 0 gets 0) with which every seat
    wins 1/N of the games. *Tie rule*: a game is won by the seats with the highest
    ``score + bonus``, ties shared (1/k each), the rule of the store's ``win_share`` with the
    scores standing in for the game's ranking. The real games break some score ties by other
    means (money, cards...): the offline solver does not know them, so its win rates with no
    bonus (``before``) can differ slightly from the stored ones (``stored``).

    The win rates of whole-point scores are step functions of the bonus, so the root is
    searched on their continuous version: each whole-point score is read as a value rounded to
    the nearest point, ``score + U`` with ``U`` uniform on (−½, ½) independently per seat and
    game (a continuity correction), which makes each seat's win probability a smooth function,
    increasing in its own bonus, computed exactly per game (piecewise polynomial, Gauss-Legendre).
    ``scipy.optimize.root`` (Powell's hybrid method) solves the N − 1 equations
    ``win rate(seat j) = 1/N``, from the median score gap per seat; coordinate-wise bisection
    (each seat in turn, until no bonus moves by more than 1e-9) takes over if it fails. If seat
    ``j``'s scores are seat 0's shifted down by ``d`` points, the solution is ``b_j = d``.

    Interval: percentile bootstrap over games (the games resampled with replacement, the
    system solved again in each resample), per seat. Points are whole in these games, so it
    also gives the best *whole* values and the best *half* values (the candidates around the
    solution, 4 per seat, scored with the exact tie rule above: with a half point the holder
    wins the ties it would otherwise share, since ``score + 0.5`` never equals a whole score),
    each with its residual imbalance: max over seats of |win rate − 1/N|, with a conservative
    95% interval from per-seat Wilson intervals at level 1 − 0.05/N (Bonferroni: all seats
    inside theirs together at ≥ 95%; the interval is the range of that maximum over them).

Parameter search (:func:`search_parameter`)
    Given ``measure(value) -> (estimate, standard error)`` (the disadvantaged seat's win rate,
    or an imbalance, from paired runs), the value where the estimate meets ``target``:
    bracket the sign change on ``[lo, hi]``, then evaluate where a weighted straight line
    through the points inside the bracket meets the target (bisecting instead when the bracket
    fails to halve), until that root's 95% interval (Fieller: the values where the line's
    interval contains the target) is narrower than the parameter's step and the line fits the
    points inside the bracket. The best value on the step grid is then measured, with its
    residual (estimate − target) and interval.

Both return dataclasses with ``bonus``, ``interval``, ``residual`` and ``to_json()`` (keys
``bonus``, ``interval``, ``residual``, ``resimulated``: None until a run with the bonus in the
rules confirms it).

Paired runs in the store (:func:`seat_rates`, :func:`seat_gap`, :func:`resimulation`)
    What ``playtest compensate`` (``pipelines/compensate.py``) reads from its study's arms: the
    seat win rates of a run, the measure of the parameter search (the compensated seats' mean
    win share minus 1/N, per game, with its standard error) and the check of a bonus by a run
    with it in the rules (do the bots play the same games, do the seats win their fair share).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np
from scipy import optimize
from scipy import stats as _st

from . import db, stats

__all__ = ["TIE_RULE", "HALF_RULE", "Residual", "SeatBonus", "win_rates", "smoothed_win_rates",
           "solve_bonus", "residual_at", "seat_bonus", "bonus_from_store", "Point", "Gap",
           "ParameterSearch", "search_parameter", "seat_rates", "disadvantaged_seats", "seat_gap",
           "played_alike", "resimulation"]

TIE_RULE = ("a game is won by the seats with the highest score + bonus, ties shared (1/k each); "
            "the game's own tie-breaks are not applied")
HALF_RULE = ("a half point breaks the ties of the seat holding it in its favour (score + 0.5 "
             "never equals a whole score)")


def _json(x):
    """``x`` with every non-finite float as None (strict JSON has no NaN or Infinity)."""
    if isinstance(x, dict):
        return {k: _json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_json(v) for v in x]
    if isinstance(x, (float, np.floating)):
        return float(x) if math.isfinite(x) else None
    if isinstance(x, np.integer):
        return int(x)
    return x


# ----------------------------------------------------------------------------------------------
# Win rates on score + bonus
# ----------------------------------------------------------------------------------------------
def _scores(scores) -> np.ndarray:
    s = np.asarray(scores, dtype=float)
    if s.ndim != 2 or s.shape[0] == 0:
        raise ValueError(f"scores must be a non-empty [games, players] array, got shape {s.shape}")
    if s.shape[1] < 2:
        raise ValueError("a seat bonus needs at least 2 players (a solo game has no seats to "
                         "balance)")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores must be finite")
    return s


def _bonus(bonus, n: int) -> np.ndarray:
    """The full bonus vector: ``n`` values, or ``n - 1`` for seats 1.. (seat 0 then gets 0)."""
    b = np.atleast_1d(np.asarray(bonus, dtype=float))
    if b.size == n - 1:
        b = np.r_[0.0, b]
    if b.size != n:
        raise ValueError(f"bonus needs {n - 1} or {n} values, got {b.size}")
    return b


def _weights(w, n_games: int) -> np.ndarray:
    return np.ones(n_games) if w is None else np.asarray(w, dtype=float)


def win_rates(scores, bonus, weights=None) -> np.ndarray:
    """Each seat's win rate when games are ranked on ``score + bonus``, ties shared
    (:data:`TIE_RULE`). ``weights``: a count per game (a bootstrap resample), default 1."""
    s = _scores(scores)
    adj = s + _bonus(bonus, s.shape[1])
    top = adj == adj.max(axis=1, keepdims=True)
    share = top / top.sum(axis=1, keepdims=True)
    w = _weights(weights, len(s))
    return w @ share / w.sum()


def _gauss(n_players: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes and weights on [0, 1], exact for polynomials of degree N − 1."""
    x, w = np.polynomial.legendre.leggauss(max(1, math.ceil(n_players / 2)))
    return (x + 1.0) / 2.0, w / 2.0


def _smoothed_shares(adj: np.ndarray) -> np.ndarray:
    """Per game and seat, the probability that ``adj + U`` is the highest, ``U`` uniform on
    (−½, ½) independently per seat (:func:`smoothed_win_rates`). A game whose leader is a
    point or more ahead is won by it for sure; only the others are integrated."""
    g, n = adj.shape
    top2 = -np.partition(-adj, 1, axis=1)[:, :2] if n > 1 else adj
    open_ = top2[:, 0] - top2[:, 1] < 1.0
    out = np.zeros_like(adj)
    sure = ~open_
    out[np.flatnonzero(sure), np.argmax(adj[sure], axis=1)] = 1.0
    if open_.any():
        out[open_] = _integrate_shares(adj[open_])
    return out


def _integrate_shares(adj: np.ndarray) -> np.ndarray:
    """:func:`_smoothed_shares` by integration, for every game."""
    g, n = adj.shape
    nodes, gw = _gauss(n)
    out = np.empty_like(adj)
    for j in range(1, n):  # seat 0 takes the rest: the shares sum to 1
        d = np.delete(adj, j, axis=1) - adj[:, [j]]  # gaps to the others, [g, n - 1]
        # with y = x - adj_j + 1/2 on [0, 1], seat k is below x with probability
        # clip(y - d_k, 0, 1): kinks at d_k and d_k + 1, linear between
        cuts = np.sort(np.clip(np.concatenate([np.zeros((g, 1)), d, d + 1.0, np.ones((g, 1))],
                                              axis=1), 0.0, 1.0), axis=1)
        lo, width = cuts[:, :-1], np.diff(cuts, axis=1)  # [g, 2n - 1]
        y = lo[:, :, None] + width[:, :, None] * nodes  # [g, 2n - 1, m]
        f = np.prod(np.clip(y[:, :, :, None] - d[:, None, None, :], 0.0, 1.0), axis=3)
        out[:, j] = np.einsum("gim,m,gi->g", f, gw, width)
    out[:, 0] = 1.0 - out[:, 1:].sum(axis=1)
    return out


def smoothed_win_rates(scores, bonus, weights=None) -> np.ndarray:
    """Each seat's win rate with whole-point scores read as rounded values: ``score + bonus +
    U``, ``U`` uniform on (−½, ½) independently per seat and game, the highest wins (ties have
    probability 0). Continuous and increasing in a seat's own bonus wherever that seat can
    win; the function :func:`solve_bonus` sets to 1/N. Exact per game (each seat's chance is
    the integral of a piecewise polynomial of degree N − 1, by Gauss-Legendre)."""
    s = _scores(scores)
    w = _weights(weights, len(s))
    return w @ _smoothed_shares(s + _bonus(bonus, s.shape[1])) / w.sum()


class _Patterns:
    """The games as their distinct score gaps to seat 0 with counts: the win rates depend on
    nothing else, and a bootstrap resample is a new set of counts."""

    def __init__(self, scores: np.ndarray):
        rel = scores - scores[:, :1]
        self.rows, self.inverse, self.counts = np.unique(rel, axis=0, return_inverse=True,
                                                         return_counts=True)
        self.inverse = self.inverse.ravel()
        self.n_games, self.n_players = scores.shape
        self._cache: tuple[bytes, np.ndarray] | None = None

    def shares(self, bonus: np.ndarray) -> np.ndarray:
        key = bonus.tobytes()
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, _smoothed_shares(self.rows + bonus))
        return self._cache[1]

    def rates(self, bonus: np.ndarray, counts: np.ndarray) -> np.ndarray:
        return counts @ self.shares(bonus) / counts.sum()


def _start(scores: np.ndarray) -> np.ndarray:
    """First guess: per seat, the median gap between seat 0's score and its own."""
    return np.median(scores[:, :1] - scores[:, 1:], axis=0)


def _solve(pat: _Patterns, counts: np.ndarray, x0: np.ndarray, tol: float = 1e-9,
           jac: np.ndarray | None = None) -> tuple[np.ndarray, str]:
    """Seats 1..N-1's bonuses with smoothed win rates 1/N; (nan..., "failed") if none.

    With ``jac`` (the Jacobian at a nearby solution: a bootstrap resample started from the
    full sample's solution), chord-Newton steps first, one evaluation each."""
    n = pat.n_players
    fair = 1.0 / n

    def resid(x):
        return pat.rates(np.r_[0.0, x], counts)[1:] - fair

    if jac is not None:
        x = np.asarray(x0, dtype=float).copy()
        for _ in range(30):
            r = resid(x)
            if np.max(np.abs(r)) < 1e-9:
                return x, "chord"
            x = x - np.linalg.solve(jac, r)
    sol = optimize.root(resid, x0, method="hybr", options={"xtol": 1e-12})
    if sol.success and np.max(np.abs(resid(sol.x))) < 1e-8:
        return sol.x, "scipy.optimize.root (hybr)"
    return _bisect_seats(resid, np.asarray(x0, dtype=float), pat, tol)


def _jacobian(pat: _Patterns, counts: np.ndarray, x: np.ndarray, h: float = 1e-4
              ) -> np.ndarray:
    """Central differences of seats 1..N-1's smoothed win rates in their bonuses at ``x``."""
    cols = []
    for k in range(x.size):
        e = np.zeros_like(x)
        e[k] = h
        cols.append((pat.rates(np.r_[0.0, x + e], counts)[1:]
                     - pat.rates(np.r_[0.0, x - e], counts)[1:]) / (2 * h))
    return np.column_stack(cols)


def _bisect_seats(resid, x: np.ndarray, pat: _Patterns, tol: float) -> tuple[np.ndarray, str]:
    """Coordinate-wise bisection, iterated: each seat's bonus in turn set to the root of its
    own (increasing) win rate with the others held, until no bonus moves by more than tol."""
    span = float(pat.rows.max() - pat.rows.min()) + 2.0
    x = x.copy()
    for _ in range(500):
        moved = 0.0
        for j in range(x.size):
            def f(v, j=j):
                y = x.copy()
                y[j] = v
                return resid(y)[j]
            lo, hi = -span, span
            if not f(lo) < 0 < f(hi):
                return np.full(x.size, np.nan), "failed"
            v = optimize.brentq(f, lo, hi, xtol=tol / 10)
            moved = max(moved, abs(v - x[j]))
            x[j] = v
        if moved <= tol:
            return x, "coordinate-wise bisection"
    return np.full(x.size, np.nan), "failed"


def solve_bonus(scores, weights=None) -> np.ndarray:
    """The bonus per seat (seat 0 = 0) with which every seat's smoothed win rate
    (:func:`smoothed_win_rates`) is 1/N; NaN where no solution exists (a seat that can never
    win, whatever its bonus within the range of the scores)."""
    s = _scores(scores)
    pat = _Patterns(s)
    counts = pat.counts if weights is None else np.bincount(
        pat.inverse, weights=np.asarray(weights, float), minlength=len(pat.rows))
    x, _ = _solve(pat, counts, _start(s))
    return np.r_[0.0, x]


# ----------------------------------------------------------------------------------------------
# Residual imbalance and the report of the offline solver
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Residual:
    """The imbalance left at a bonus vector: ``estimate`` = max over seats of |win rate − 1/N|,
    ``low``/``high`` its conservative interval (per-seat Wilson intervals at level
    1 − (1 − level)/N, Bonferroni); ``win_rate``/``win_low``/``win_high`` per seat."""

    bonus: tuple[float, ...]
    estimate: float
    low: float
    high: float
    win_rate: tuple[float, ...]
    win_low: tuple[float, ...]
    win_high: tuple[float, ...]
    level: float = 0.95

    def to_json(self) -> dict:
        return _json({"bonus": list(self.bonus), "estimate": self.estimate, "low": self.low,
                      "high": self.high, "win_rate": list(self.win_rate),
                      "win_low": list(self.win_low), "win_high": list(self.win_high),
                      "level": self.level})


def _residual(rates: np.ndarray, n_games: float, bonus: np.ndarray, level: float) -> Residual:
    n = rates.size
    fair = 1.0 / n
    lo, hi = stats.wilson_interval(rates * n_games, np.full(n, n_games), 1.0 - (1.0 - level) / n)
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    dist_lo = np.maximum(0.0, np.maximum(lo - fair, fair - hi))  # 0 when fair is inside
    dist_hi = np.maximum(np.abs(lo - fair), np.abs(hi - fair))
    return Residual(tuple(float(x) for x in bonus), float(np.max(np.abs(rates - fair))),
                    float(dist_lo.max()), float(dist_hi.max()), tuple(map(float, rates)),
                    tuple(map(float, lo)), tuple(map(float, hi)), level)


def residual_at(scores, bonus, level: float = 0.95) -> Residual:
    """The residual imbalance of ``bonus`` on these games (:data:`TIE_RULE`)."""
    s = _scores(scores)
    b = _bonus(bonus, s.shape[1])
    return _residual(win_rates(s, b), len(s), b, level)


def _best_on_grid(s: np.ndarray, center: np.ndarray, step: float) -> np.ndarray:
    """The bonus on the ``step`` grid (seat 0 = 0) with the smallest residual imbalance, among
    the 4 grid values around each seat's ``center`` (ties: nearest to ``center``)."""
    fair = 1.0 / s.shape[1]
    options = []
    for c in center[1:]:
        f = math.floor(c / step) if np.isfinite(c) else 0
        options.append([(f + k) * step for k in (-1, 0, 1, 2)])
    best, key = None, None
    for combo in itertools.product(*options):
        b = np.r_[0.0, combo]
        k = (float(np.max(np.abs(win_rates(s, b) - fair))),
             float(np.sum((b - np.nan_to_num(center)) ** 2)))
        if key is None or k < key:
            best, key = b, k
    return best


@dataclass(frozen=True)
class SeatBonus:
    """Result of :func:`seat_bonus` (the offline points bonus; see the module docstring).

    ``bonus``: the continuous solution per seat (seat 0 = 0); ``interval``: its bootstrap
    percentile interval per seat, ``[[low, high], ...]``; ``whole`` / ``half``: the best
    whole and half values; ``residual``: the imbalance left at ``whole`` (points are whole in
    these games), ``half_residual`` at ``half``, ``before`` with no bonus (all by
    :data:`TIE_RULE`); ``stored``: the stored win rates per seat (the game's own tie-breaks),
    when read from a store."""

    n_players: int
    games: int
    bonus: tuple[float, ...]
    interval: tuple[tuple[float, float], ...]
    whole: tuple[int, ...]
    half: tuple[float, ...]
    residual: Residual
    half_residual: Residual
    before: Residual
    level: float
    n_boot: int
    boot_failed: int
    seed: int
    method: str
    stored: tuple[float, ...] | None = None
    source: dict = field(default_factory=dict)
    resimulated: dict | None = None

    def to_json(self) -> dict:
        """Plain JSON: ``bonus`` (per seat), ``interval`` (per seat), ``residual`` (at the whole
        values), ``resimulated`` (None until re-simulated), and the rest."""
        return _json({
            "bonus": list(self.bonus), "interval": [list(x) for x in self.interval],
            "residual": self.residual.to_json(), "resimulated": self.resimulated,
            "whole": list(self.whole), "half": list(self.half),
            "half_residual": self.half_residual.to_json(), "before": self.before.to_json(),
            "stored": None if self.stored is None else list(self.stored),
            "n_players": self.n_players, "games": self.games, "level": self.level,
            "n_boot": self.n_boot, "boot_failed": self.boot_failed, "seed": self.seed,
            "method": self.method, "tie_rule": TIE_RULE, "half_rule": HALF_RULE,
            "source": dict(self.source)})

    def describe(self) -> list[str]:
        """Plain sentences for the terminal."""
        pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
        seats = range(1, self.n_players)
        lines = [
            f"Offline points bonus from {self.games:,} games' final scores ({TIE_RULE}).",
            "Without a bonus, win rate per seat: " + ", ".join(
                f"seat {s} {pct(r)}" for s, r in enumerate(self.before.win_rate))
            + f" (fair share {pct(1 / self.n_players)}; largest gap {pct(self.before.estimate)})"
            + (", stored (the game's tie-breaks): " + ", ".join(pct(r) for r in self.stored)
               if self.stored is not None else "") + ".",
            "Bonus that equalises the seats (seat 0 gets 0): " + "; ".join(
                f"seat {s} {self.bonus[s]:+.2f} points (95% CI {self.interval[s][0]:+.2f} to "
                f"{self.interval[s][1]:+.2f})" for s in seats) + ".",
        ]
        for name, b, r in (("whole", self.whole, self.residual),
                           ("half", self.half, self.half_residual)):
            lines.append(
                f"Best {name} points: " + ", ".join(f"seat {s} {b[s]:+g}" for s in seats)
                + f": largest gap from the fair share {pct(r.estimate)} (95% CI "
                f"{pct(r.low)} to {pct(r.high)})" + (f"; {HALF_RULE}" if name == "half" else "")
                + ".")
        if self.boot_failed:
            lines.append(f"{self.boot_failed} of {self.n_boot} bootstrap resamples had no "
                         f"solution and were left out.")
        return lines

    def with_resimulation(self, result: dict) -> "SeatBonus":
        """The same result with ``resimulated`` set (a run with the bonus in the rules)."""
        return replace(self, resimulated=dict(result))


def seat_bonus(scores, n_boot: int = 400, seed: int = 0, level: float = 0.95) -> SeatBonus:
    """The offline points bonus of ``scores[n_games, n_players]`` (final scores, seat 0 first),
    with a percentile bootstrap interval per seat (``n_boot`` resamples of the games, seeded)
    and the best whole and half values with their residual imbalance (module docstring)."""
    s = _scores(scores)
    g, n = s.shape
    pat = _Patterns(s)
    x, method = _solve(pat, pat.counts.astype(float), _start(s))
    if not np.all(np.isfinite(x)):
        raise ValueError("no bonus equalises the seats: some seat never comes within a point "
                         "of winning whatever its bonus")
    rng = np.random.default_rng(seed)
    boot = np.full((n_boot, n - 1), np.nan)
    p = pat.counts / g
    jac = _jacobian(pat, pat.counts.astype(float), x)
    if not np.all(np.isfinite(jac)) or abs(np.linalg.det(jac)) < 1e-300:
        jac = None
    for i in range(n_boot):
        counts = rng.multinomial(g, p).astype(float)
        boot[i], _ = _solve(pat, counts, x, jac=jac)
    ok = np.all(np.isfinite(boot), axis=1)
    a = (1.0 - level) / 2.0
    if ok.sum() >= 2:
        lo, hi = np.quantile(boot[ok], [a, 1.0 - a], axis=0)
    else:
        lo = hi = np.full(n - 1, np.nan)
    bonus = np.r_[0.0, x]
    whole = _best_on_grid(s, bonus, 1.0)
    half = _best_on_grid(s, bonus, 0.5)
    return SeatBonus(
        n, g, tuple(map(float, bonus)),
        ((0.0, 0.0),) + tuple((float(u), float(v)) for u, v in zip(lo, hi)),
        tuple(int(v) for v in whole), tuple(float(v) for v in half),
        _residual(win_rates(s, whole), g, whole, level),
        _residual(win_rates(s, half), g, half, level),
        _residual(win_rates(s, np.zeros(n)), g, np.zeros(n), level),
        level, n_boot, int((~ok).sum()), seed,
        f"{method}; continuity-corrected win rates; percentile bootstrap over games")


def bonus_from_store(con, experiment: str, arm: str, n_boot: int = 400, seed: int = 0,
                     level: float = 0.95) -> SeatBonus:
    """:func:`seat_bonus` of one stored arm (``seats``: ``score`` per game and seat), with the
    stored win rates (``win_share``, the game's own tie-breaks) alongside."""
    d = db.query(con, """
        SELECT master_seed, game_index, seat, CAST(score AS DOUBLE) AS score,
               CAST(win_share AS DOUBLE) AS win_share, n_players
        FROM stg_seats WHERE experiment = ? AND arm = ?
        ORDER BY master_seed, game_index, seat""", [experiment, arm])
    if d.empty:
        raise ValueError(f"no stored games for experiment '{experiment}', arm '{arm}'")
    n = int(d["n_players"].max())
    if int(d["n_players"].min()) != n or len(d) % n:
        raise ValueError(f"arm {experiment}/{arm}: mixed player counts or missing seat rows")
    if n < 2:
        raise ValueError(f"arm {experiment}/{arm} is solo: no seats to balance")
    scores = d["score"].to_numpy(float).reshape(-1, n)
    shares = d["win_share"].to_numpy(float).reshape(-1, n)
    res = seat_bonus(scores, n_boot, seed, level)
    return replace(res, stored=tuple(map(float, shares.mean(axis=0))),
                   source={"experiment": experiment, "arm": arm})


# ----------------------------------------------------------------------------------------------
# Parameter search from paired runs
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Point:
    """One measurement: ``measure(value) = (estimate, se)``."""

    value: float
    estimate: float
    se: float


@dataclass(frozen=True)
class Gap:
    """``estimate − target`` at one value, with its ``level`` normal interval."""

    value: float
    estimate: float
    se: float
    low: float
    high: float

    def to_json(self) -> dict:
        return _json({"value": self.value, "estimate": self.estimate, "se": self.se,
                      "low": self.low, "high": self.high})


@dataclass(frozen=True)
class ParameterSearch:
    """Result of :func:`search_parameter`.

    ``bonus``: the value to use, on the parameter's step grid (an int for an integer
    parameter); ``root``: where the fitted line meets the target; ``interval``: the root's
    Fieller interval (``(nan, nan)`` when no sign change was found; may be infinite when the
    slope is not distinguishable from 0); ``residual``: estimate − target measured at
    ``bonus``; ``converged``: the interval is narrower than ``step`` and the line fits;
    ``note``: what happened, in words."""

    bonus: float
    root: float
    interval: tuple[float, float]
    residual: Gap
    points: tuple[Point, ...]
    converged: bool
    bracketed: bool
    note: str
    target: float
    step: float
    integer: bool
    level: float
    resimulated: dict | None = None

    def to_json(self) -> dict:
        return _json({
            "bonus": self.bonus, "interval": list(self.interval),
            "residual": self.residual.to_json(), "resimulated": self.resimulated,
            "root": self.root, "converged": self.converged, "bracketed": self.bracketed,
            "note": self.note, "target": self.target, "step": self.step,
            "integer": self.integer, "level": self.level,
            "points": [{"value": p.value, "estimate": p.estimate, "se": p.se}
                       for p in self.points]})

    def with_resimulation(self, result: dict) -> "ParameterSearch":
        return replace(self, resimulated=dict(result))


def _line(pts: list[Point]) -> tuple[float, float, np.ndarray, float, int]:
    """Weighted least squares ``estimate = a + b·value`` (weights 1/se², the standard errors
    taken as known): ``a, b``, their covariance, the chi-square of the fit and its df."""
    x = np.array([p.value for p in pts], float)
    y = np.array([p.estimate for p in pts], float)
    se = np.array([p.se for p in pts], float)
    w = 1.0 / np.maximum(se, 1e-12) ** 2
    X = np.column_stack([np.ones_like(x), x])
    info = X.T @ (X * w[:, None])
    cov = np.linalg.pinv(info)
    coef = cov @ (X.T @ (w * y))
    chi2 = float(np.sum(w * (y - X @ coef) ** 2))
    return float(coef[0]), float(coef[1]), cov, chi2, len(pts) - 2


def _fieller(a: float, b: float, cov: np.ndarray, target: float, z: float
             ) -> tuple[float, float, float]:
    """Root of ``a + b x = target`` and its interval: the ``x`` where
    ``(a + b x − target)² ≤ z² var(a + b x)`` (Fieller). Infinite ends when the slope is not
    distinguishable from 0 at that level."""
    root = (target - a) / b if b != 0 else math.nan
    c = a - target
    # (c + b x)^2 - z^2 (v_aa + 2 x v_ab + x^2 v_bb) <= 0  ->  A x^2 + B x + C <= 0
    A = b * b - z * z * cov[1, 1]
    B = 2 * (c * b - z * z * cov[0, 1])
    C = c * c - z * z * cov[0, 0]
    disc = B * B - 4 * A * C
    if A <= 0 or disc < 0:
        return root, -math.inf, math.inf
    r = math.sqrt(disc)
    return root, (-B - r) / (2 * A), (-B + r) / (2 * A)


def search_parameter(measure: Callable[[float], tuple[float, float]], lo: float, hi: float,
                     *, target: float = 0.0, step: float = 1.0, integer: bool | None = None,
                     level: float = 0.95, max_evals: int = 12) -> ParameterSearch:
    """The value of a rule parameter on ``[lo, hi]`` at which ``measure`` meets ``target``.

    Parameters
    ----------
    measure : callable
        ``measure(value) -> (estimate, standard error)``, e.g. the disadvantaged seat's win
        rate (``target`` = 1/N) or seat 0's win rate minus 1/N (``target`` = 0), from runs on
        the same seeds at every value (paired runs make neighbouring values comparable).
        Called once per value, never twice for the same one.
    lo, hi : float
        The parameter's range (both ends are measured first).
    target : float
        The value of ``measure`` that means "balanced".
    step : float
        The parameter's resolution (1 for an integer parameter): values are taken on the grid
        ``lo + k·step``, and the search stops when the root's interval is narrower than this.
    integer : bool, optional
        Report ``bonus`` as an int (default: ``step`` and ``lo`` are whole numbers).
    level : float
        Level of the root's interval and of the residual's.
    max_evals : int
        Measurements for the search (the best value's, when not already measured, may add up
        to 2 more).

    Returns
    -------
    ParameterSearch
        Without a sign change on ``[lo, hi]`` (``bracketed`` False), ``bonus`` is the end
        nearer the target and ``note`` says so.
    """
    if not hi > lo or not step > 0:
        raise ValueError("need lo < hi and step > 0")
    if integer is None:
        integer = float(step).is_integer() and float(lo).is_integer()
    z = float(_st.norm.ppf(0.5 + level / 2.0))
    seen: dict[float, Point] = {}

    def snap(x: float) -> float:
        v = lo + round((x - lo) / step) * step
        v = min(max(v, lo), hi)
        return float(round(v)) if integer else round(float(v), 10)

    def f(x: float) -> Point:
        x = snap(x)
        if x not in seen:
            est, se = measure(int(x) if integer else x)
            seen[x] = Point(x, float(est), float(se))
        return seen[x]

    def gap(p: Point) -> Gap:
        d = p.estimate - target
        return Gap(int(p.value) if integer else p.value, d, p.se, d - z * p.se, d + z * p.se)

    def result(best: Point, root, ival, converged, bracketed, note) -> ParameterSearch:
        return ParameterSearch(int(best.value) if integer else best.value, float(root),
                               (float(ival[0]), float(ival[1])), gap(best),
                               tuple(sorted(seen.values(), key=lambda p: p.value)),
                               bool(converged), bool(bracketed), note, target, float(step),
                               bool(integer), level)

    pa, pb = f(lo), f(hi)
    if pa.estimate == target or pb.estimate == target:
        best = pa if pa.estimate == target else pb
        return result(best, best.value, (best.value, best.value), False, True,
                      f"the measure meets the target exactly at {best.value:g} (an end)")
    if (pa.estimate - target) * (pb.estimate - target) > 0:
        best = min((pa, pb), key=lambda p: abs(p.estimate - target))
        return result(best, math.nan, (math.nan, math.nan), False, False,
                      f"no sign change on [{lo:g}, {hi:g}]: the measure stays on one side of "
                      f"the target; {best.value:g} comes closest")
    a, b = pa.value, pb.value  # bracket: the measure is on opposite sides of the target
    widths = [b - a]
    exact = None
    while True:
        inside = [p for v, p in seen.items() if a <= v <= b]
        ca, cb, cov, chi2, df = _line(inside)
        root, r_lo, r_hi = _fieller(ca, cb, cov, target, z)
        ival = (r_lo, r_hi)
        fits = df == 0 or _st.chi2.sf(chi2, df) > 1.0 - level
        local = (b - a) <= 2 * step + 1e-12
        converged = r_hi - r_lo < step and fits and (df > 0 or local)
        if converged:
            note = (f"root {root:.4g}, {level:.0%} interval {r_lo:.4g} to {r_hi:.4g} "
                    f"(narrower than the step {step:g})")
            break
        if len(seen) >= max_evals:
            note = (f"stopped after {len(seen)} measurements: the root's {level:.0%} interval "
                    f"({r_lo:.4g} to {r_hi:.4g}) is not yet narrower than the step {step:g}"
                    + ("" if fits else " and a straight line does not fit the points inside the "
                       "bracket") + "; measure more games per value")
            break
        halved = len(widths) < 3 or widths[-1] <= widths[-3] / 2
        x = root if (np.isfinite(root) and a < root < b and halved) else (a + b) / 2
        cand = [v for v in dict.fromkeys([snap(x), snap(x - step), snap(x + step),
                                          snap((a + b) / 2)]) if a < v < b and v not in seen]
        if not cand:
            note = (f"every value on the step grid inside the bracket [{a:g}, {b:g}] is measured;"
                    f" the root's {level:.0%} interval is {r_lo:.4g} to {r_hi:.4g}: measure "
                    f"more games per value to narrow it")
            break
        p = f(cand[0])
        if p.estimate == target:
            exact = p
            break
        if (p.estimate - target) * (seen[a].estimate - target) > 0:
            a = p.value
        else:
            b = p.value
        widths.append(b - a)
    if exact is not None:
        return result(exact, exact.value, (exact.value, exact.value), False, True,
                      f"the measure meets the target exactly at {exact.value:g}")
    # the best value on the grid: the grid values on either side of the root, measured
    if np.isfinite(root):
        base = lo + math.floor((root - lo) / step) * step
        grid = sorted({snap(base), snap(base + step)})
    else:
        grid = [snap((a + b) / 2)]
    pool = [f(v) for v in grid]
    best = min(pool, key=lambda p: (abs(p.estimate - target),
                                    abs(p.value - root) if np.isfinite(root) else 0.0))
    return result(best, root, ival, converged, True, note)


# ----------------------------------------------------------------------------------------------
# The paired runs of a compensation study, read from the store (``playtest compensate``)
# ----------------------------------------------------------------------------------------------
def _seat_matrix(con, experiment: str, arm: str, column: str) -> np.ndarray:
    """``column`` of one stored arm as ``[games, seats]`` in ``(master_seed, game_index)``
    order (ValueError when the arm has no games or misses seat rows)."""
    d = db.query(con, f"""
        SELECT n_players, CAST("{column}" AS DOUBLE) AS v FROM stg_seats
        WHERE experiment = ? AND arm = ? ORDER BY master_seed, game_index, seat""",
                 [experiment, arm])
    if d.empty:
        raise ValueError(f"no stored games for experiment '{experiment}', arm '{arm}'")
    n = int(d["n_players"].max())
    if int(d["n_players"].min()) != n or len(d) % n:
        raise ValueError(f"arm {experiment}/{arm}: mixed player counts or missing seat rows")
    return d["v"].to_numpy(float).reshape(-1, n)


def seat_rates(con, experiment: str, arm: str, level: float = 0.95) -> dict:
    """Each seat's win rate (mean ``win_share``) in one stored arm with its Wilson interval:
    ``{"arm", "games", "n_players", "fair", "win_rate", "low", "high"}`` (lists per seat)."""
    shares = _seat_matrix(con, experiment, arm, "win_share")
    g, n = shares.shape
    lo, hi = stats.wilson_interval(shares.sum(axis=0), np.full(n, g), level)
    return _json({"arm": arm, "games": g, "n_players": n, "fair": 1.0 / n,
                  "win_rate": shares.mean(axis=0).tolist(), "low": np.asarray(lo).tolist(),
                  "high": np.asarray(hi).tolist(), "level": level})


def disadvantaged_seats(win_rate) -> tuple[int, ...]:
    """The seats to compensate: those winning less than the fair share 1/N (the lowest one
    alone when every seat wins exactly 1/N)."""
    r = np.asarray(win_rate, dtype=float)
    below = np.flatnonzero(r < 1.0 / r.size)
    return tuple(int(s) for s in below) if below.size else (int(np.argmin(r)),)


def seat_gap(con, experiment: str, arm: str, seats) -> tuple[float, float, int]:
    """The measure a parameter search sets to 0: per game, the mean win share of ``seats``
    minus 1/N; its mean over the arm's games, the standard error of that mean, and the number
    of games. Negative while those seats win less than their fair share."""
    shares = _seat_matrix(con, experiment, arm, "win_share")
    g, n = shares.shape
    x = shares[:, list(seats)].mean(axis=1) - 1.0 / n
    se = float(x.std(ddof=1) / math.sqrt(g)) if g > 1 else math.inf
    return float(x.mean()), se, g


def played_alike(con, experiment: str, arm: str, base_arm: str, bonus) -> tuple[int, int]:
    """How many games of ``arm`` (a run with an end-of-game bonus per seat) ended with the
    final scores of the same game in ``base_arm``, or those plus ``bonus``: the games the
    bonus did not change before the final count. Returns ``(alike, paired games)``."""
    d = db.query(con, """
        SELECT a.n_players, CAST(a.score AS DOUBLE) - CAST(b.score AS DOUBLE) AS d
        FROM stg_seats AS a JOIN stg_seats AS b
          ON a.master_seed = b.master_seed AND a.game_index = b.game_index AND a.seat = b.seat
        WHERE a.experiment = ? AND a.arm = ? AND b.experiment = ? AND b.arm = ?
        ORDER BY a.master_seed, a.game_index, a.seat""", [experiment, arm, experiment, base_arm])
    if d.empty:
        return 0, 0
    n = int(d["n_players"].max())
    diff = d["d"].to_numpy(float).reshape(-1, n)
    b = np.zeros(n)
    b[:min(n, len(bonus))] = np.asarray(bonus, dtype=float)[:n]
    alike = np.all(diff == b, axis=1) | np.all(diff == 0.0, axis=1)
    return int(alike.sum()), int(len(diff))


def resimulation(con, experiment: str, arm: str, base_arm: str, bonus,
                 level: float = 0.95) -> dict:
    """A run with the bonus in the rules, against the run without it on the same seeds: each
    seat's win rate with its interval (:func:`seat_rates`), ``off_fair`` (the seats whose
    interval excludes 1/N), ``played_differently`` (the share of games whose final scores are
    not the base game's plus the bonus: the bots played them otherwise) and ``reacted`` (some
    seat is off its fair share and some games went differently: the bots react to the
    bonus)."""
    r = seat_rates(con, experiment, arm, level)
    alike, paired = played_alike(con, experiment, arm, base_arm, bonus)
    fair = r["fair"]
    off = [s for s, (lo, hi) in enumerate(zip(r["low"], r["high"])) if not lo <= fair <= hi]
    changed = (paired - alike) / paired if paired else math.nan
    return _json({**r, "bonus": list(bonus), "base_arm": base_arm, "paired_games": paired,
                  "played_differently": changed, "off_fair": off,
                  "reacted": bool(off) and paired > alike})
