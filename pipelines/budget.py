"""Game counts a designer can afford: ``playtest run|compare ... --also-policy P --budget 10m``.

A search policy plays 1-150 games/s (``docs/search.md``), a heuristic tens of thousands: the
same ``--games`` for every arm would make ``--also-policy search`` on a 100,000-game run a
day-long job. So, for each ``--also-policy`` arm of ``playtest run`` (and each pair of
``playtest compare``: its baseline and tweak arms under the also-policy get one count, the
first N game indices, so they stay paired):

* ``--also-games P=N`` gives it N games (:func:`pipelines.experiment.parse_also_games`);
* else ``--budget DURATION`` (``90s``, ``10m``, ``1h``, ``1h30m``) estimates its count: a short
  timed **pilot** (:func:`measure_speed`, after the kernel is loaded) measures the arm's games
  per second, the budget is split equally over the arms (compare: pairs) to estimate, and
  each gets what fits in its share (:func:`affordable`), rounded down to two significant
  digits, never more than ``--games``;
* else it plays ``--games`` games, as before; when that arm plays a search (the
  ``search``/``oracle`` policies, :func:`sim.search.uses_search`) the pilot still runs and
  the command prints its estimated time, with a hint (``--also-games search=400`` or
  ``--budget 10m``).

The pilot plays the arm's first games (the same seeds as the run) and **stores nothing**: the
run plays them again. So the stored data depend only on the command, the seed and the chosen
count, never on the pilot or the worker count. The count a budget picks depends on the
machine's speed; the manifest records it per arm (``n_games`` and ``games_from``), and a later
run of the same command keeps the recorded count instead of estimating again (give
``--also-games`` to change it). Before the run, every arm estimated above
:data:`SLOW_ARM_S` seconds is announced with its estimated time.
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from sim.spec import SpecError

#: An arm whose estimated time is above this many seconds is announced before the run.
SLOW_ARM_S = 60.0
#: The pilot plays batches of 1, 2, 4... games until one takes this long (or PILOT_GAMES).
PILOT_S = 1.0
PILOT_GAMES = 4096
#: Largest accepted --budget (a week).
MAX_BUDGET_S = 7 * 24 * 3600.0

_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_PART = re.compile(r"(\d+(?:\.\d+)?)([smhd])")


def parse_duration(text: str, where: str = "--budget") -> float:
    """``90s``, ``10m``, ``1h``, ``1h30m``, ``2.5m`` (or plain seconds, ``600``) -> seconds
    (SpecError saying the format otherwise)."""
    t = str(text).strip().lower().replace(" ", "")
    bad = SpecError(f"{where} {text!r}: give a duration like 90s, 10m, 1h or 1h30m (a number "
                    f"then s, m, h or d; at most 7d)")
    if re.fullmatch(r"\d+(?:\.\d+)?", t):
        seconds = float(t)
    else:
        parts = _PART.findall(t)
        if not t or "".join(a + b for a, b in parts) != t:
            raise bad
        seconds = sum(float(a) * _UNITS[u] for a, u in parts)
    if not math.isfinite(seconds) or seconds <= 0 or seconds > MAX_BUDGET_S:
        raise bad
    return seconds


def check_options(also_policies, also_games, budget: str | None,
                  precision: float | None) -> float | None:
    """The ``--budget`` of ``run``/``compare`` in seconds (None without), after the checks
    that involve the other options: ``--precision`` picks every count itself, a budget is for
    the ``--also-policy`` arms. SpecError (exit 2) otherwise; ``--also-games`` is checked with
    the arms (:func:`pipelines.experiment.parse_also_games`)."""
    budget_s = parse_duration(budget) if budget is not None else None
    if precision is not None and (also_games or budget is not None):
        raise SpecError("--precision picks every arm's game count itself; remove "
                        + ("--also-games" if also_games else "--budget"))
    if budget is not None and not also_policies:
        raise SpecError("--budget picks the game counts of the --also-policy arms; add an "
                        "--also-policy (e.g. --also-policy search)")
    return budget_s


def readable(n: float) -> int:
    """``n`` rounded down to two significant digits (``4321`` -> 4300, ``187`` -> 180)."""
    n = int(n)
    if n < 100:
        return max(0, n)
    step = 10 ** (len(str(n)) - 2)
    return n // step * step


def affordable(games_per_s: float, seconds: float, max_games: int) -> int:
    """Games that fit in ``seconds`` at ``games_per_s``, readable, at most ``max_games``."""
    return min(max_games, readable(games_per_s * seconds))


def duration(seconds: float) -> str:
    """``75`` -> ``1 min 15 s``; ``5400`` -> ``1 h 30 min``."""
    s = int(round(seconds))
    if s < 60:
        return f"{max(s, 1)} s"
    if s < 3600:
        m, r = divmod(s, 60)
        return f"{m} min" + (f" {r} s" if r and m < 10 else "")
    h, r = divmod(s, 3600)
    return f"{h} h" + (f" {r // 60} min" if r // 60 else "")


def measure_speed(arm, seed: int, clock: Callable[[], float] = time.perf_counter,
                  play: Callable | None = None, pilot_s: float = PILOT_S,
                  max_games: int = PILOT_GAMES) -> tuple[float, int]:
    """Games per second of ``arm`` (:class:`sim.batch.Arm`, kernel loaded): batches of its
    first 1, 2, 4... games (``seed``) until one takes ``pilot_s`` or ``max_games`` are
    played; the speed of the last (largest) batch. Nothing is stored.

    Returns (games per second, games played by the pilot)."""
    if play is None:
        from sim.batch import run_games as play
    n, played = 1, 0
    while True:
        t0 = clock()
        play(arm, seed, 0, n)
        took = clock() - t0
        played += n
        if took >= pilot_s or played + 2 * n > max_games:
            return (n / took if took > 0 else float("inf")), played
        n *= 2


@dataclass
class Estimate:
    """What the pilot found for one also-arm, and the count it plays."""

    arm: str
    games_per_s: float
    games: int  # games this run plays of the arm (remaining ones: ``todo``)
    todo: int
    chosen: bool  # the count comes from --budget now

    @property
    def seconds(self) -> float:
        return self.todo / self.games_per_s if self.games_per_s > 0 else 0.0


def plan_also_counts(exp, old_manifest: dict | None, budget_s: float | None,
                     explicit: Iterable[str] = (), is_slow: Callable | None = None,
                     speed: Callable | None = None) -> tuple[list[Estimate], list[str]]:
    """Set the game count of every ``--also-policy`` arm of ``exp`` (a ``playtest run`` or
    ``playtest compare`` experiment) that has none, and estimate the time of the slow ones.

    The also-arms are counted by group (:meth:`~pipelines.experiment.Experiment.also_groups`:
    per also-policy and player count; ``run``: one arm, ``compare``: the baseline and tweak
    arms, which play the same count so that they stay paired):

    * a group with ``--also-games`` (``explicit``: its arm names) keeps its count;
    * a group the manifest already holds with one count from ``--also-games``/``--budget``
      (``games_from``) keeps the recorded count: a resume never estimates again;
    * with ``budget_s``, the other groups get what fits in an equal share of the budget at
      the pilot's speed (``speed(resolved_arm) -> games/s``; a group of several arms plays
      each game index once per arm), at most ``--games``;
    * without, they play ``--games``; only the slow arms (``is_slow(resolved_arm)``: search
      seats) are piloted, to announce their time.

    Returns (the estimates of the piloted arms, notes to print). Nothing is written; a budget
    too small for 10 games of a group raises SpecError.
    """
    if is_slow is None:
        from sim.search import uses_search

        def is_slow(ra):
            return uses_search(ra.arm)
    if speed is None:
        def speed(ra):
            return measure_speed(ra.arm, exp.seed)[0]
    old = {a.get("name"): a for a in (old_manifest or {}).get("arms", [])}
    explicit = set(explicit)
    notes: list[str] = []
    to_budget = []
    for group in exp.also_groups():
        recs = [old.get(ra.name) or {} for ra in group]
        recorded = [r for r in recs if r.get("games_from") and r.get("n_games")]
        counts = {int(r["n_games"]) for r in recorded}
        if any(ra.name in explicit for ra in group):
            for ra in group:
                ra.games_from = {"how": "--also-games"}
        elif len(recorded) == len(group) and len(counts) == 1:
            for ra, rec in zip(group, recs):
                ra.n_games = next(iter(counts))
                ra.games_from = dict(rec["games_from"])
            how = group[0].games_from.get("how", "an earlier run")
            notes.append(f"{_arms(group)}: {group[0].n_games:,} games"
                         f"{' each' if len(group) > 1 else ''}, as recorded in the manifest "
                         f"(chosen by {how}; --also-games changes it)")
        elif budget_s is not None:
            to_budget.append(group)
    estimates: list[Estimate] = []
    share = budget_s / len(to_budget) if to_budget else 0.0
    for group in to_budget:
        speeds = [float(speed(ra)) for ra in group]
        gps = _together(speeds)
        n = affordable(gps, share, exp.n_games)
        if n < 10:
            raise SpecError(
                f"--budget {duration(budget_s)}: {_arms(group)} "
                f"{'plays' if len(group) == 1 else 'play'} about {rate(gps)} games/s"
                f"{'' if len(group) == 1 else ' (each game in every arm)'}, so "
                f"{'its' if len(group) == 1 else 'their'} share ({duration(share)}) affords "
                f"{n} games; give a larger --budget or --also-games {_policy_of(group[0])}=N")
        for ra, s in zip(group, speeds):
            ra.n_games = n
            ra.games_from = {"how": "--budget", "budget_s": budget_s, "share_s": share,
                             "games_per_s": round(s, 3)}
            estimates.append(Estimate(ra.name, s, n, _todo(ra, old.get(ra.name)), True))
    budgeted = {ra.name for group in to_budget for ra in group}
    for ra in exp.arms:  # the other slow arms with games to play (also --policy search)
        todo = _todo(ra, old.get(ra.name))
        if ra.name not in budgeted and todo and is_slow(ra):
            estimates.append(Estimate(ra.name, float(speed(ra)), ra.n_games, todo, False))
    return estimates, notes


def _together(speeds: list[float]) -> float:
    """Game indices per second of arms that each play every index: 1 / sum(1 / speed)."""
    if any(s <= 0 for s in speeds):
        return 0.0
    return 1.0 / sum(1.0 / s for s in speeds)


def _arms(group) -> str:
    """``arm p2-search`` or ``arms baseline-p2-search and tweak-p2-search``."""
    names = [ra.name for ra in group]
    return (f"arm {names[0]}" if len(names) == 1
            else "arms " + ", ".join(names[:-1]) + f" and {names[-1]}")


def rate(games_per_s: float) -> str:
    """``2512345.6`` -> ``2,512,346``; ``3.456`` -> ``3.46``."""
    return f"{games_per_s:,.0f}" if games_per_s >= 100 else f"{games_per_s:.3g}"


def _policy_of(ra) -> str:
    return ra.config.policy.partition(":")[0]


def _todo(ra, rec: dict | None) -> int:
    """Games of the arm this run still plays (its count minus the finished games)."""
    if not rec:
        return ra.n_games
    from analysis.storage import expand, from_ranges

    done = from_ranges(rec.get("finished", []))
    return max(0, ra.n_games - sum(b - a for c, a, b in expand(rec.get("chunks", []))
                                   if c in done and b <= ra.n_games))


def describe(estimates: Iterable[Estimate], exp, budget_given: bool) -> list[str]:
    """Lines to print before the run: each estimated arm's count and time (always for a
    budget, else when above :data:`SLOW_ARM_S`), with a hint for a slow arm without a
    count of its own."""
    lines = []
    also = {ra.name for ra in exp.also_arms()}
    # arms that play one count together: a compare pair (its baseline and tweak) is 2
    together = {a: 2 for p in (exp.source or {}).get("pairs") or [] if isinstance(p, dict)
                for a in (p.get("baseline"), p.get("tweak"))}
    for e in estimates:
        ra = exp.arm(e.arm)
        speed = f"{rate(e.games_per_s)} games/s in a pilot"
        if e.chosen:
            lines.append(f"arm {e.arm}: {e.games:,} games fit the budget ({speed}; about "
                         f"{duration(e.seconds)} to play)")
        elif e.seconds > SLOW_ARM_S:
            # the count that takes 10 minutes (for a compare pair: its two arms together)
            n10 = max(10, affordable(e.games_per_s / together.get(e.arm, 1), 600, exp.n_games))
            hint = (f"--also-games {_policy_of(ra)}={n10} or --budget 10m" if e.arm in also
                    else f"--games {n10}")
            lines.append(f"arm {e.arm} ({ra.label(64)}): {e.todo:,} games take about "
                         f"{duration(e.seconds)} ({speed}); for fewer: {hint}")
    return lines
