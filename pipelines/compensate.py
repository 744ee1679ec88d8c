"""What fixes a favoured seat (``playtest compensate``): a points bonus per seat, checked by a run
with it in the rules, or the value of a rule parameter that equalises the seats, found by paired
runs. The statistics are :mod:`analysis.compensate` (``docs/metrics.md``); the user's view is
``docs/comparing.md``, "What fixes it?".

One study experiment per question, an ordinary stored experiment whose arms all share the master
seed and the game indices (common random numbers). Its name is derived from the game, the
player count, the question (``points`` or the parameter's name), the policies, the seed and a
hash of the base arms (variant, tweaks, policies, component data), so that running the command
again reuses its arms and a larger ``--games`` grows them:

* ``p<N>`` (and ``p<N>-<policy>`` per ``--also-policy``, the names ``playtest run`` gives): the
  game as it is, every seat on one policy, one arm per policy. Each question is answered per
  policy, from that policy's arms.
* **Points bonus** (no ``--param``): :func:`analysis.compensate.bonus_from_store` on each base
  arm (offline, from the final scores). Then, if the game declares the rule parameter
  :data:`RESIM_PARAM` (``end_bonus_points``: one value per seat, added to the final score before
  ranking and tie-breaks), one arm per policy with the best whole bonus in the rules
  (``bonus<b0>_<b1>...-p<N>[-<policy>]``), paired with the base arm:
  :func:`analysis.compensate.resimulation` says whether the seats then win their fair share
  and whether the bots play the games differently (they react to the bonus). A game without
  the parameter gets a note instead, and the same command checks the bonus once it has it.
  The bonus vector keeps seat 0 at 0 unless the parameter's range needs a common shift (adding
  the same points to every seat changes no ranking).
* **Rule parameter** (``--param NAME --range LO..HI``): :func:`analysis.compensate.search_parameter`
  with ``measure(value)`` = one arm with ``--set NAME=<value>`` (``<NAME><value>-p<N>[-<policy>]``)
  on the same seeds, read by :func:`analysis.compensate.seat_gap`. The *compensated seats* are
  those that win less than 1/N in the policy's base arm; the measure is their mean win share
  minus 1/N (target 0). A scalar parameter (``int``/``float``) is set as it is. A list
  parameter with one value per seat (as many values as the game's largest table, e.g.
  ``seat_bonus_gold``) takes the searched value at the compensated seats only; the other seats
  keep their value of the base arm. A value whose rules equal the base arm's is read from the
  base arm (no second run of the same games).

The manifest's ``spec`` records ``kind = "compensate"`` and the question; the answers are written
to the manifest's ``compensation`` (the same dictionary ``--format json`` prints), which
``playtest report`` renders (:mod:`analysis.reports.compensation`). Everything is validated
before the first run: bad input writes nothing.
"""
from __future__ import annotations

import contextlib
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from sim.spec import SpecError, short_hash, unknown_name

from . import settings
from .experiment import (ArmConfig, Experiment, ResolvedArm, check_name, check_run_options,
                         content_hash, parse_also_policies, parse_players, parse_set,
                         policy_slug, registry, resolve_arm, slug)

#: The rule parameter the points bonus is checked with: one value per seat, added to each
#: seat's final score before ranking and tie-breaks (default all 0).
RESIM_PARAM = "end_bonus_points"
#: ``--n-boot`` default and limits: bootstrap resamples of the offline bonus's interval.
DEFAULT_N_BOOT = 400
MIN_N_BOOT = 10
MAX_N_BOOT = 100_000
#: The grid values of a ``--range`` are validated up front when there are at most this many.
MAX_CHECKED_VALUES = 1000
#: Measurements per policy of a parameter search (:func:`analysis.compensate.search_parameter`).
MAX_EVALS = 12

_NUMBER = r"-?\d+(?:\.\d+)?"
_RANGE = re.compile(rf"^\s*({_NUMBER})\s*\.\.\s*({_NUMBER})\s*$")


@dataclass(frozen=True)
class Search:
    """A validated ``--param``: the parameter, its range and step on the grid, whether values
    are whole, and whether it is a list with one value per seat."""

    param: Any  # sim.spec.ParamSpec
    lo: float
    hi: float
    step: float
    integer: bool
    per_seat: bool


@dataclass
class Compensation:
    """A validated ``playtest compensate`` question, ready to run (:func:`run_compensation`)."""

    spec: Any  # sim.spec.GameSpec
    n_players: int
    variant: str | None
    tweaks: tuple[tuple[str, Any], ...]
    policies: list[str]  # --policy first, then every --also-policy
    games: int
    seed: int
    chunk_size: int | None
    components: str | None
    n_boot: int
    search: Search | None
    name: str
    name_derived: bool
    base: dict[str, ResolvedArm] = field(default_factory=dict)  # per policy
    source: dict = field(default_factory=dict)

    def experiment(self, arms: Iterable[ResolvedArm]) -> Experiment:
        """The study experiment with ``arms`` to run now (arms run before are kept)."""
        return Experiment(self.name, self.seed, self.games, self.chunk_size, list(arms),
                          self.source, self.name_derived)

    def suffix(self, policy: str) -> str:
        return "" if policy == self.policies[0] else f"-{policy_slug(policy)}"

    def arm(self, label: str, policy: str, tweaks: tuple = ()) -> ResolvedArm:
        """The arm ``[<label>-]p<N>[-<policy>]``: the base settings plus ``tweaks``."""
        name = f"{label}-" * bool(label) + f"p{self.n_players}{self.suffix(policy)}"
        if len(name) > 100:  # long values or policy options: keep a valid partition value
            name = name[:90].rstrip("-_.") + "-" + short_hash(name, 8)
        return resolve_arm(ArmConfig(name, self.spec.id, self.n_players, self.variant,
                                     self.tweaks + tuple(tweaks), policy, (), self.components),
                           self.games)

    def search_value(self, base: ResolvedArm, seats, value):
        """The searched parameter's value in the rules for ``value``: the value itself, or for a
        per-seat list the base arm's list (all its values) with ``value`` at ``seats``."""
        s = self.search
        if not s.per_seat:
            return value
        cur = list(base.arm.rule_values[s.param.name])
        full = [cur[min(j, len(cur) - 1)] for j in range(s.param.length)]
        for seat in seats:
            full[seat] = value
        return tuple(full)

    def question(self) -> str:
        return "points" if self.search is None else self.search.param.name


def _num_text(v) -> str:
    if isinstance(v, (list, tuple)):
        return "_".join(_num_text(x) for x in v)
    f = float(v)
    return str(int(f)) if f == int(f) else format(f, ".10g")


def _whole(x: float) -> bool:
    return x is None or float(x).is_integer()


# ---- validation --------------------------------------------------------------------------------

def parse_range(text: str, where: str = "--range") -> tuple[float, float]:
    """``LO..HI`` (numbers, LO < HI) -> ``(lo, hi)``."""
    m = _RANGE.match(str(text))
    if not m:
        raise SpecError(f"{where} '{text}' must look like LO..HI (e.g. 0..10 or 0.5..2.5)")
    lo, hi = float(m.group(1)), float(m.group(2))
    if not lo < hi:
        raise SpecError(f"{where} {text}: needs LO < HI")
    return lo, hi


def parse_search(spec, n_players: int, name: str, range_text: str | None, step: float | None,
                 tweaks: tuple) -> Search:
    """Validate ``--param NAME [--range LO..HI] [--step S]`` against the game's parameters."""
    by_name = {p.name: p for p in spec.params}
    if name not in by_name:
        raise SpecError(f"--param {name}: "
                        + unknown_name("parameter", name, sorted(by_name), f" of {spec.id}"))
    p = by_name[name]
    numeric = sorted(q.name for q in spec.params if q.kind in ("int", "float")
                     or (q.kind == "list" and q.length == spec.max_players))
    if p.kind not in ("int", "float", "list"):
        raise SpecError(f"--param {name}: not a numeric parameter ({p.kind}: "
                        f"{p.range_text()}); numeric parameters of {spec.id}: "
                        f"{', '.join(numeric)}")
    per_seat = p.kind == "list"
    if per_seat and p.length != spec.max_players:
        raise SpecError(f"--param {name}: a list of {p.length} values, not one value per seat "
                        f"({spec.max_players}); numeric parameters of {spec.id}: "
                        f"{', '.join(numeric)}")
    if any(k == name for k, _ in tweaks):
        raise SpecError(f"--set {name}: also searched by --param; remove one of them")
    if range_text is None:
        if p.lo is None or p.hi is None:
            raise SpecError(f"--param {name}: its range is open ({p.range_text()}); give "
                            f"--range LO..HI")
        lo, hi = float(p.lo), float(p.hi)
    else:
        lo, hi = parse_range(range_text)
        if (p.lo is not None and lo < p.lo) or (p.hi is not None and hi > p.hi):
            raise SpecError(f"--range {range_text}: outside the declared range of {name} "
                            f"({p.range_text()})")
    defaults = p.default if per_seat else (p.default,)
    integer = p.kind == "int" or (per_seat and all(_whole(x) for x in (*defaults, p.lo, p.hi)))
    if integer and not (lo.is_integer() and hi.is_integer()):
        raise SpecError(f"--range {range_text}: {name} takes whole values; give whole LO and HI")
    if step is None:
        step = 1.0 if integer else (hi - lo) / 20.0
    elif isinstance(step, bool) or not (isinstance(step, (int, float)) and math.isfinite(step)
                                        and step > 0):
        raise SpecError(f"--step: must be a positive number, got {step!r}")
    elif integer and not float(step).is_integer():
        raise SpecError(f"--step {step:g}: {name} takes whole values; give a whole step")
    elif step > hi - lo:
        raise SpecError(f"--step {step:g}: larger than the range {_num_text(lo)}.."
                        f"{_num_text(hi)}")
    return Search(p, lo, hi, float(step), bool(integer), per_seat)


def _check_n_boot(n_boot: Any) -> int:
    if isinstance(n_boot, bool) or not isinstance(n_boot, int) \
            or not MIN_N_BOOT <= n_boot <= MAX_N_BOOT:
        raise SpecError(f"--n-boot: bootstrap resamples must be an integer from {MIN_N_BOOT} to "
                        f"{MAX_N_BOOT:,}, got {n_boot!r}")
    return n_boot


def _grid(s: Search) -> list:
    k = int(math.floor((s.hi - s.lo) / s.step + 1e-9))
    vals = [s.lo + i * s.step for i in range(k + 1)] + [s.hi]
    out = []
    for v in vals:
        v = float(round(v)) if s.integer else round(v, 10)
        v = int(v) if s.integer else v
        if v not in out:
            out.append(v)
    return out


def compensation(game: str, players=None, variant: str | None = None,
                 tweaks: Iterable[str] = (), policy: str | None = None,
                 also_policies: Iterable[str] = (), games: int = settings.DEFAULT_GAMES,
                 seed: int = settings.DEFAULT_SEED, experiment: str | None = None,
                 chunk_size: int | None = None, components: str | None = None,
                 param: str | None = None, range_text: str | None = None,
                 step: float | None = None, n_boot: int = DEFAULT_N_BOOT) -> Compensation:
    """Validate a ``playtest compensate`` question completely (raises SpecError naming the
    problem and the valid choices) and build its base arms; nothing is written."""
    spec = registry().make(game)
    counts = parse_players(spec.max_players if players is None else players, spec)
    if len(counts) != 1:
        raise SpecError(f"--players: a compensation is for one player count, got {players!r} "
                        f"(valid for {spec.id}: {max(2, spec.min_players)}-{spec.max_players})")
    n = counts[0]
    if n < 2:
        what = f"--param {param}" if param else "a points bonus per seat"
        raise SpecError(f"--players {n}: {what} balances the seats of a multiplayer game; a "
                        f"solo game has no seats to balance (valid for {spec.id}: "
                        f"{max(2, spec.min_players)}-{spec.max_players})")
    check_run_options(games, seed, chunk_size)
    n_boot = _check_n_boot(n_boot)
    tw = parse_set(tweaks)
    policy = policy or settings.DEFAULT_POLICY
    also = parse_also_policies(spec, policy, also_policies)
    if param is None:
        if range_text is not None or step is not None:
            raise SpecError(f"{'--range' if range_text is not None else '--step'} needs "
                            f"--param NAME (the rule parameter to search)")
        if any(k == RESIM_PARAM for k, _ in tw):
            raise SpecError(f"--set {RESIM_PARAM}: the points bonus sets it for the check by "
                            f"re-simulation; remove it (or search it: --param {RESIM_PARAM})")
        search = None
    else:
        search = parse_search(spec, n, param, range_text, step, tw)
    c = Compensation(spec, n, variant, tw, [policy] + also, games, seed, chunk_size, components,
                     n_boot, search, "", experiment is None)
    c.base = {p: c.arm("", p) for p in c.policies}  # the arms of `playtest run`: p<N>[-<P>]
    if search is not None:  # every value of the range must make valid rules
        grid = _grid(search)
        if len(grid) > MAX_CHECKED_VALUES:
            grid = [grid[0], grid[len(grid) // 2], grid[-1]]
        base = c.base[policy].arm
        for v in grid:
            value = c.search_value(c.base[policy], range(n), v)
            try:
                spec.rule_values(n, base.variant, {**base.rule_values, search.param.name: value})
            except SpecError as e:
                raise SpecError(f"--range: {search.param.name} = {_num_text(v)}: {e}") from None
    name = experiment
    if name is None:
        parts = ["compensate", spec.id, f"{n}p", c.question()] + [
            policy_slug(p) for p in c.policies]
        base = "-".join(slug(x) for x in parts)[:90].rstrip("-_.")
        name = f"{base}-s{seed}-{content_hash(seed, c.base.values())}"
    check_name(name, "experiment")
    c.name = name
    c.source = {"kind": "compensate", "game": spec.id, "players": n, "variant": variant,
                "set": [f"{k}={v}" for k, v in tw], "policy": policy, "also_policy": also,
                "games": games, "seed": seed, "components": components, "n_boot": n_boot,
                "question": c.question(),
                "base_arms": {p: ra.name for p, ra in c.base.items()}}
    if search is not None:
        c.source.update({"param": search.param.name, "range": [search.lo, search.hi],
                         "step": search.step, "integer": search.integer,
                         "per_seat": search.per_seat})
    return c


# ---- running -----------------------------------------------------------------------------------

@contextlib.contextmanager
def _reading(store):
    """A DuckDB connection to the store as it is now (reconnect to see later chunks)."""
    from analysis import db

    con = db.connect(store)
    try:
        yield con
    finally:
        con.close()


def _bonus_value(whole, p, n: int) -> tuple[tuple | None, str]:
    """The whole bonus per seat (seat 0 = 0) as a value of the parameter ``p``
    (:data:`RESIM_PARAM`): shifted by a common amount when the range needs it; ``(None,
    why)`` when it does not fit."""
    b = [float(x) for x in whole][:n]
    if p.kind != "list" or p.length < n:
        return None, (f"{p.name} is not a list with one value per seat ({p.kind}, "
                      f"{p.range_text()})")
    if p.lo is not None and min(b) < p.lo:
        shift = p.lo - min(b)
        b = [x + shift for x in b]
    if p.hi is not None and max(b) > p.hi:
        return None, (f"the bonus {_fmt_list(whole)} does not fit the range of {p.name} "
                      f"({p.range_text()})")
    b += [b[-1]] * (p.length - n)  # the seats a smaller table lacks: as the game packs lists
    return tuple(int(x) if float(x).is_integer() else x for x in b), ""


def _fmt_list(v) -> str:
    return "[" + ", ".join(_num_text(x) for x in v) + "]"


def _same_rules(a: ResolvedArm, b: ResolvedArm) -> bool:
    return dict(a.arm.rule_values) == dict(b.arm.rule_values)


def run_compensation(c: Compensation, run: Callable[[Experiment], Any],
                     echo: Callable[[str], None] = lambda s: None) -> dict:
    """Answer the question: run the base arms (``run(experiment)`` returns the runner's result,
    with ``store``), then the bonus check or the search; write the answers to the manifest
    (``compensation``) and return them (module docstring)."""
    res = run(c.experiment(c.base.values()))
    store = res.store
    notes: list[str] = []
    if c.search is None:
        per_policy = _points(c, store, run, echo, notes)
    else:
        per_policy = _searches(c, store, run, echo, notes)
    result = {"experiment": c.name, "game": c.spec.id, "n_players": c.n_players,
              "question": c.question(), "mode": "points" if c.search is None else "parameter",
              "policies": list(c.policies), "seed": c.seed, "results": per_policy,
              "notes": notes, "resim_param": RESIM_PARAM}
    if c.search is not None:
        s = c.search
        result.update({"param": s.param.name, "range": [s.lo, s.hi], "step": s.step,
                       "integer": s.integer, "per_seat": s.per_seat})
    _save(store, c.name, result)
    return result


def _save(store, name: str, result: dict) -> None:
    from .store import Store

    st = Store(store)
    with st.lock(name):
        m = st.read_manifest(name) or {}
        if m:
            m["compensation"] = result
            st.write_manifest(m)


def _points(c: Compensation, store, run, echo, notes: list[str]) -> dict:
    """The offline bonus per policy, then the check by re-simulation where the game can."""
    from analysis import compensate

    out: dict[str, dict] = {}
    bonuses = {}
    with _reading(store) as con:
        for pol, ra in c.base.items():
            try:
                b = compensate.bonus_from_store(con, c.name, ra.name, n_boot=c.n_boot,
                                                seed=c.seed)
            except ValueError as e:
                out[pol] = {"bonus": None, "interval": None, "residual": None,
                            "resimulated": None, "arm": ra.name, "note": str(e)}
                continue
            bonuses[pol] = b
    p = next((q for q in c.spec.params if q.name == RESIM_PARAM), None)
    if p is None:
        notes.append(f"Not re-simulated: {c.spec.id} has no rule parameter {RESIM_PARAM} yet "
                     f"(one value per seat, added to the final score before ranking); once it "
                     f"has, the same command checks the bonus by a run with it in the rules.")
    todo: dict[str, tuple[ResolvedArm, tuple]] = {}
    for pol, b in bonuses.items():
        if p is None:
            continue
        value, why = _bonus_value(b.whole, p, c.n_players)
        if value is None:
            notes.append(f"Not re-simulated under {pol}: {why}.")
            continue
        try:
            ra = c.arm(f"bonus{_num_text(value[:c.n_players])}", pol, ((RESIM_PARAM, value),))
        except SpecError as e:
            notes.append(f"Not re-simulated under {pol}: {RESIM_PARAM} = {_fmt_list(value)}: "
                         f"{e}.")
            continue
        todo[pol] = (c.base[pol] if _same_rules(ra, c.base[pol]) else ra, value)
    new = [ra for pol, (ra, _) in todo.items() if ra is not c.base[pol]]
    if new:
        echo(f"re-simulating with {RESIM_PARAM} = "
             + "; ".join(f"{_fmt_list(v[:c.n_players])} ({pol})"
                         for pol, (_, v) in todo.items()))
        run(c.experiment(new))
    with _reading(store) as con:
        for pol, b in bonuses.items():
            if pol in todo:
                ra, value = todo[pol]
                r = compensate.resimulation(con, c.name, ra.name, c.base[pol].name, value)
                b = b.with_resimulation({**r, "param": RESIM_PARAM,
                                         "value": list(value[:c.n_players])})
            out[pol] = {**b.to_json(), "arm": c.base[pol].name}
    return {pol: out[pol] for pol in c.policies}


def _searches(c: Compensation, store, run, echo, notes: list[str]) -> dict:
    """The parameter search per policy (module docstring)."""
    from analysis import compensate

    s = c.search
    name = s.param.name
    out: dict[str, dict] = {}
    for pol, base in c.base.items():
        with _reading(store) as con:
            before = compensate.seat_rates(con, c.name, base.name)
        seats = compensate.disadvantaged_seats(before["win_rate"])
        arms: dict[Any, tuple[str, Any]] = {}
        who = f"seat {seats[0]} wins" if len(seats) == 1 else \
            "seats " + ", ".join(map(str, seats)) + " win"

        def measure(v, pol=pol, base=base, seats=seats, arms=arms, who=who):
            value = c.search_value(base, seats, v)
            shown = value[:c.n_players] if isinstance(value, tuple) else value
            ra = c.arm(f"{slug(name)}{_num_text(shown)}", pol, ((name, value),))
            if _same_rules(ra, base):
                ra = base
            else:
                run(c.experiment([ra]))
            with _reading(store) as con:
                est, se, g = compensate.seat_gap(con, c.name, ra.name, seats)
            arms[v] = (ra.name, shown)
            echo(f"{name} = {_num_text(v)} ({pol}): {who} {100 * (est + 1 / c.n_players):.1f}%"
                 f" ± {100 * 1.96 * se:.1f} (fair share {100 / c.n_players:.1f}%, "
                 f"{g:,} games)")
            return est, se

        r = compensate.search_parameter(measure, s.lo, s.hi, step=s.step, integer=s.integer,
                                        max_evals=MAX_EVALS)
        arm, value = arms[r.bonus]
        with _reading(store) as con:
            rates = compensate.seat_rates(con, c.name, arm)
        r = r.with_resimulation({**rates, "param": name,
                                 "value": list(value) if isinstance(value, tuple) else value})
        now = base.arm.rule_values[name]
        if s.per_seat:
            now = {now[min(j, len(now) - 1)] for j in seats}
            now = now.pop() if len(now) == 1 else None
        out[pol] = {**r.to_json(), "seats": list(seats), "base_rates": before,
                    "arm": base.name, "base_value": now,
                    "arms": [{"value": v, "arm": a, "rules": list(x) if isinstance(x, tuple)
                              else x} for v, (a, x) in sorted(arms.items())]}
    return {pol: out[pol] for pol in c.policies}
