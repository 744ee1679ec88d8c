"""Studies built on experiments: paired tweak comparisons, parameter sweeps, sample-size plans,
policy ladders and precision-targeted runs (``playtest compare / sweep / plan / ladder``,
``--precision``).

Each study is an ordinary :class:`~pipelines.experiment.Experiment` (validated up front, stored,
resumable, growable) whose arms share the master seed and the game indices, so every pair of arms
is paired game by game (common random numbers). What makes it a study is recorded in the
manifest's ``spec`` (``kind = "compare"`` with its baseline/tweak ``pairs``, ``kind = "sweep"``
with its ``params`` and ``points``, ``kind = "ladder"`` with its ``rungs`` and ``matches``), so
``playtest report EXPERIMENT`` renders the same study report again later. The statistics live in
:mod:`analysis.studies` and :mod:`analysis.ladder`.

Precision-targeted runs (:func:`run_to_precision`): run the arms, measure the widest 95% interval
on the probability scale (win rates, first-player advantage, end-reason shares, and for a
comparison their paired differences), and grow the arms that are not precise enough (to the
size the observed variance says is needed, +10%, rounded) until every interval's half-width is
below the target or ``max_games`` per arm is reached. Arms that are compared stay the same size.
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from analysis.words import count, half_width
from sim.spec import SpecError, short_hash

from . import settings
from .experiment import (ArmConfig, Experiment, check_games, check_name, check_run_options,
                         content_hash, parse_also_games, parse_also_policies, parse_players,
                         parse_seat_policies,
                         parse_set, policy_slug, registry, resolve_arm, slug)

#: ``--max-games`` default for precision-targeted runs (games per arm).
DEFAULT_MAX_GAMES = 1_000_000
#: First batch of a precision-targeted run when ``--games`` is not given.
DEFAULT_PRECISION_START = 5_000
#: Pilot size of ``playtest plan``.
DEFAULT_PILOT_GAMES = 5_000
#: ``--tolerance`` of ``playtest sweep``: seats within 1/N ± this count as balanced.
DEFAULT_TOLERANCE = 0.02


def _players(players, spec) -> list[int]:
    """Studies default to the largest table (one arm pair per count otherwise)."""
    return parse_players(spec.max_players if players is None else players, spec)


def _ps(counts: list[int]) -> str:
    return f"{counts[0]}p" if len(counts) == 1 else "_".join(map(str, counts)) + "p"


def _name(parts: list[str], seed: int, arms) -> str:
    base = "-".join(slug(p) for p in parts if p)
    if len(base) > 90:
        base = base[:90].rstrip("-_.")
    return f"{base}-s{seed}-{content_hash(seed, arms)}"


# ---- compare -----------------------------------------------------------------------------------

def compare_experiment(game: str, tweaks: Iterable[str] = (), players=None,
                       variant: str | None = None, policy: str | None = None,
                       seat_policies: Iterable[str] = (), tweak_seat_policies: Iterable[str] = (),
                       games: int = settings.DEFAULT_GAMES, seed: int = settings.DEFAULT_SEED,
                       experiment: str | None = None, chunk_size: int | None = None,
                       components: str | None = None,
                       also_policies: Iterable[str] = (),
                       also_games: Iterable[str] = ()) -> Experiment:
    """Baseline and tweak arms (``baseline-p<N>``, ``tweak-p<N>``) per player count, same seeds;
    per ``--also-policy`` P the same pair again with every seat playing P
    (``baseline-p<N>-<P>``, ``tweak-p<N>-<P>``), so the report says whether the tweak's effect
    holds under each policy. ``--also-games P=N`` (:func:`parse_also_games`) gives both arms of
    P's pairs N games: the first N game indices, so they stay paired (the other counts come
    from ``--budget``, :mod:`pipelines.budget`).

    ``tweaks`` (``NAME=VALUE``) and ``tweak_seat_policies`` (``SEAT=POLICY``) apply to the tweak
    arm only; everything else to both.

    As for ``playtest run`` (:func:`pipelines.experiment.from_cli`), the derived name (and its
    content hash) leaves the also-policies out: adding an ``--also-policy`` to a finished
    comparison adds its pairs to the same experiment (only they are simulated).
    ``legacy_name`` is the name the same command derived before (``-and-<policy>``, every arm
    hashed), so that a comparison stored under it is resumed, not played again.
    """
    spec = registry().make(game)
    counts = _players(players, spec)
    check_run_options(games, seed, chunk_size)
    tw = parse_set(tweaks)
    sp = parse_seat_policies(seat_policies)
    tsp = parse_seat_policies(tweak_seat_policies)
    if not tw and not tsp:
        raise SpecError("compare needs a tweak: --set NAME=VALUE (rule parameters: see "
                        f"`playtest rules {spec.id}`) or --tweak-seat-policy SEAT=POLICY")
    policy = policy or settings.DEFAULT_POLICY
    also = parse_also_policies(spec, policy, also_policies, sp)
    also_n = parse_also_games(also_games, also, games)
    arms, pairs = [], []
    for pol, seats, suffix in [(policy, sp, "")] + [(p, (), f"-{policy_slug(p)}") for p in also]:
        tweak_seats = tuple(sorted({**dict(seats), **dict(tsp)}.items()))
        n_games = also_n.get(pol) if suffix else None
        for n in counts:
            b = resolve_arm(ArmConfig(f"baseline-p{n}{suffix}", spec.id, n, variant, (), pol,
                                      seats, components, n_games), games)
            t = resolve_arm(ArmConfig(f"tweak-p{n}{suffix}", spec.id, n, variant, tw, pol,
                                      tweak_seats, components, n_games), games)
            if b.arm.rule_values == t.arm.rule_values and b.arm.policies == t.arm.policies:
                what = ", ".join([f"{k}={v}" for k, v in tw] + [f"seat {s}={p}" for s, p in tsp])
                raise SpecError(f"--set/--tweak-seat-policy: the tweak ({what}) changes nothing "
                                f"for {n} players (already the baseline's value)")
            arms += [b, t]
            pairs.append({"n_players": n, "baseline": b.name, "tweak": t.name})
    what = [f"{k}{v}" for k, v in tw] + [f"seat{s}{p.partition(':')[0]}" for s, p in tsp]
    name_derived = experiment is None
    legacy_name = None
    if experiment is None:
        parts = ["compare", spec.id, _ps(counts), *what]
        experiment = _name(parts, seed, arms[:2 * len(counts)])  # the --policy pairs only
        if also:
            legacy_name = _name(parts + [f"and-{policy_slug(p)}" for p in also], seed, arms)
    check_name(experiment, "experiment")
    source = {"kind": "compare", "game": spec.id, "players": counts, "variant": variant,
              "set": [f"{k}={v}" for k, v in tw], "policy": policy,
              "seat_policy": [f"{s}={p}" for s, p in sp],
              "tweak_seat_policy": [f"{s}={p}" for s, p in tsp], "games": games, "seed": seed,
              "components": components, "pairs": pairs}
    if also:
        source["also_policy"] = also
    if also_n:
        source["also_games"] = dict(also_n)
    return Experiment(experiment, seed, games, chunk_size, arms, source, name_derived,
                      legacy_name=legacy_name)


# ---- sweep -------------------------------------------------------------------------------------

_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(\d+)\s*)?$")


def _split_values(text: str) -> list[str]:
    """``1,2,[1,2]`` -> ``["1", "2", "[1,2]"]`` (commas inside brackets belong to a list)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [v.strip() for v in out if v.strip()]


def parse_param(item: str, spec) -> tuple[str, list[Any]]:
    """``NAME=v1,v2,...`` or ``NAME=lo..hi[:step]`` -> (name, validated values)."""
    name, eq, text = item.partition("=")
    name = name.strip()
    by_name = {p.name: p for p in spec.params}
    if not eq or not name or not text.strip():
        raise SpecError(f"--param '{item}' must look like NAME=v1,v2,... or NAME=lo..hi[:step]")
    if name not in by_name:
        raise SpecError(f"--param {name}: unknown parameter of {spec.id}; valid: "
                        f"{', '.join(sorted(by_name))}")
    p = by_name[name]
    m = _RANGE.match(text)
    if m and p.kind in ("int", "float"):
        lo, hi, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
        if hi < lo or step <= 0:
            raise SpecError(f"--param {name}: empty range '{text}'")
        raw = [str(v) for v in range(lo, hi + 1, step)]
    else:
        raw = _split_values(text)
    values = []
    for r in raw:
        try:
            v = p.parse(r)
        except SpecError as e:
            raise SpecError(f"--param {name}: {e}") from None
        if v not in values:
            values.append(v)
    if len(values) < 2:
        raise SpecError(f"--param {name}: a sweep needs at least 2 distinct values, got {text!r}")
    return name, values


def _show(v) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_show(x) for x in v) + "]"
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)


def sweep_experiment(game: str, params: Sequence[str], players=None, variant: str | None = None,
                     tweaks: Iterable[str] = (), policy: str | None = None,
                     seat_policies: Iterable[str] = (), games: int = settings.DEFAULT_GAMES,
                     seed: int = settings.DEFAULT_SEED, experiment: str | None = None,
                     chunk_size: int | None = None, components: str | None = None,
                     tolerance: float = DEFAULT_TOLERANCE) -> Experiment:
    """One arm per parameter value (or grid point of two parameters) and player count."""
    spec = registry().make(game)
    if not params:
        raise SpecError("--param: give at least one NAME=v1,v2,... to sweep")
    if len(params) > 2:
        raise SpecError(f"--param: at most 2 parameters (a grid), got {len(params)}")
    parsed = [parse_param(p, spec) for p in params]
    if len(parsed) == 2 and parsed[0][0] == parsed[1][0]:
        raise SpecError(f"--param {parsed[0][0]}: given twice")
    counts = _players(players, spec)
    check_run_options(games, seed, chunk_size)
    if not (isinstance(tolerance, (int, float)) and 0 < tolerance < 1):
        raise SpecError(f"--tolerance: must be between 0 and 1, got {tolerance!r}")
    fixed = parse_set(tweaks)
    swept = {n for n, _ in parsed}
    clash = [k for k, _ in fixed if k in swept]
    if clash:
        raise SpecError(f"--set {clash[0]}: also swept by --param; remove one of them")
    sp = parse_seat_policies(seat_policies)
    policy = policy or settings.DEFAULT_POLICY
    grid: list[dict] = [{}]
    for name, values in parsed:
        grid = [{**g, name: v} for g in grid for v in values]
    arms, points = [], []
    for n in counts:
        for g in grid:
            label = "-".join(slug(f"{k}{_show(v)}") for k, v in g.items())
            arm_name = f"{label}-p{n}"
            tw = tuple(fixed) + tuple(g.items())
            where = "--param " + ", ".join(f"{k}={_show(v)}" for k, v in g.items())
            try:
                ra = resolve_arm(ArmConfig(arm_name, spec.id, n, variant, tw, policy, sp,
                                           components), games)
            except SpecError as e:
                raise SpecError(f"{where} ({n} players): {e}") from None
            arms.append(ra)
            points.append({"arm": arm_name, "n_players": n,
                           "values": {k: list(v) if isinstance(v, tuple) else v
                                      for k, v in g.items()}})
    name_derived = experiment is None
    if experiment is None:
        experiment = _name(["sweep", spec.id, _ps(counts), *[n for n, _ in parsed]], seed, arms)
    check_name(experiment, "experiment")
    source = {"kind": "sweep", "game": spec.id, "players": counts, "variant": variant,
              "set": [f"{k}={v}" for k, v in fixed], "policy": policy,
              "seat_policy": [f"{s}={p}" for s, p in sp], "games": games, "seed": seed,
              "components": components, "tolerance": tolerance,
              "params": [{"name": n, "values": [list(v) if isinstance(v, tuple) else v
                                                for v in vals]} for n, vals in parsed],
              "points": points}
    return Experiment(experiment, seed, games, chunk_size, arms, source, name_derived)


# ---- ladder ------------------------------------------------------------------------------------

def split_policies(text: str) -> list[str]:
    """``"random,greedy:w=2,x=3,expert"`` -> ``["random", "greedy:w=2,x=3", "expert"]``: a
    comma-separated item holding ``=`` but no ``:`` is one more option of the policy before it
    (policy names never hold ``=``)."""
    out: list[str] = []
    for item in (x.strip() for x in str(text).split(",")):
        if out and "=" in item and ":" not in item:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


def ladder_rungs(spec, policies: str | None) -> list[str]:
    """The validated rungs of a ladder, weakest first: ``--policies`` or the game's declared
    order (``GameSpec.ladder``). Raises SpecError on an unknown policy (listing the valid
    ones), a rung given twice (or two spellings of one policy) and fewer than two rungs."""
    rungs = list(spec.ladder) if policies is None else split_policies(policies)
    if any(not r for r in rungs):
        raise SpecError(f"--policies: empty name in {policies!r}; give NAME[:k=v,...],... "
                        f"(valid: {', '.join(spec.policies)})")
    seen: dict[str, str] = {}
    for r in rungs:
        try:
            key = _policy_key(spec, r)
        except SpecError as e:
            raise SpecError(f"--policies {r}: {e}") from None
        if key in seen:
            raise SpecError(f"--policies: '{r}' plays the same policy as '{seen[key]}'; "
                            f"give each rung once")
        seen[key] = r
    if len(rungs) < 2:
        raise SpecError(f"--policies: a ladder needs at least 2 policies, got {len(rungs)} "
                        f"(valid: {', '.join(spec.policies)})")
    return rungs


def _policy_key(spec, policy: str) -> str:
    """What a policy string plays (its name and values): two spellings of one policy are equal."""
    name, values = spec.policy_values(policy)
    return repr((name, sorted(values.items())))


def search_rung(spec, rungs: list[str]) -> str:
    """The search rung ``--search`` adds on top of ``rungs``: the game's declared one
    (``GameSpec.search_rung``, set whenever the game has a search) over the declared ladder,
    ``search:base=<top rung>`` over ``--policies`` (SpecError if the game has no search, or the
    top rung cannot be a base)."""
    if not spec.search_rung:
        raise SpecError(f"--search: {spec.id} has no search policy")
    top = spec.search_rung if rungs == list(spec.ladder) else f"search:base={rungs[-1]}"
    try:
        key = _policy_key(spec, top)
    except SpecError as e:
        raise SpecError(f"--search: the search rung over '{rungs[-1]}' ({top}): {e}; give "
                        f"--policies ending with a named policy, or add the search rung to "
                        f"--policies yourself") from None
    if key in {_policy_key(spec, r) for r in rungs}:
        raise SpecError(f"--search: {top} is already a rung")
    return top


def ladder_experiment(game: str, players=None, variant: str | None = None,
                      policies: str | None = None, tweaks: Iterable[str] = (),
                      games: int = settings.DEFAULT_GAMES, seed: int = settings.DEFAULT_SEED,
                      experiment: str | None = None, chunk_size: int | None = None,
                      components: str | None = None, search: bool = False,
                      search_games: int | None = None) -> Experiment:
    """Policies head to head (``playtest ladder``), one player count.

    Multiplayer: for every pair of rungs (``b`` below ``a`` in the ladder order), ``a`` takes one
    seat and ``b`` every other one, in one arm per seat of ``a`` (``<a>-vs-<b>-seat<s>``, each
    ``games`` games on the shared seeds), so ``a`` sits in every seat equally often. Solo: one
    arm per rung (its win probability). The manifest's ``spec`` records ``kind = "ladder"``, the
    ``rungs`` and the ``matches`` (arm, a, b, seat of a) that :mod:`analysis.ladder` reads.

    ``search``: the game's search rung (``GameSpec.search_rung``) tops the ladder, played
    against the top rung only (solo: alone), on ``search_games`` games per arm (default
    ``settings.LADDER_SEARCH_GAMES``): a search plays 1-150 games/s.
    """
    spec = registry().make(game)
    counts = _players(players, spec)
    if len(counts) != 1:
        raise SpecError(f"--players: a ladder is played at one player count, got {players!r} "
                        f"(valid for {spec.id}: {spec.min_players}-{spec.max_players})")
    n = counts[0]
    check_run_options(games, seed, chunk_size)
    rungs = ladder_rungs(spec, policies)
    if search_games is not None and not search:
        raise SpecError("--search-games needs --search")
    top = search_rung(spec, rungs) if search else None
    if top:
        search_games = check_games(min(games, settings.LADDER_SEARCH_GAMES)
                                   if search_games is None else search_games, "--search-games")
    tw = parse_set(tweaks)
    labels = {r: policy_slug(r) for r in rungs + ([top] if top else [])}
    arms, matches = [], []

    def add(name, policy, seats, a, b, seat, n_games=games):
        if len(name) > 100:  # long policy options: keep the name a valid partition value
            name = name[:90].rstrip("-_.") + "-" + short_hash(name, 8)
        arms.append(resolve_arm(ArmConfig(name, spec.id, n, variant, tw, policy, seats,
                                          components), n_games))
        matches.append({"arm": name, "a": a, "b": b, "seat": seat})

    if n == 1:
        for r in rungs:
            add(labels[r], r, (), r, None, 0)
        if top:
            add(labels[top], top, (), top, None, 0, search_games)
    else:
        for i, b in enumerate(rungs):
            for a in rungs[i + 1:]:
                for seat in range(n):
                    add(f"{labels[a]}-vs-{labels[b]}-seat{seat}", b, ((seat, a),), a, b, seat)
        if top:
            b = rungs[-1]
            for seat in range(n):
                add(f"{labels[top]}-vs-{labels[b]}-seat{seat}", b, ((seat, top),), top, b, seat,
                    search_games)
    if top:
        rungs = rungs + [top]
    name_derived = experiment is None
    if experiment is None:
        experiment = _name(["ladder", spec.id, f"{n}p", *labels.values()], seed, arms)
    check_name(experiment, "experiment")
    source = {"kind": "ladder", "game": spec.id, "players": n, "variant": variant,
              "set": [f"{k}={v}" for k, v in tw], "rungs": rungs, "games": games, "seed": seed,
              "search_games": search_games,
              "components": components, "matches": matches}
    return Experiment(experiment, seed, games, chunk_size, arms, source, name_derived)


# ---- groups and measurements ---------------------------------------------------------------------

def groups_of(exp: Experiment) -> list[list[str]]:
    """Arms that must stay the same size: compare pairs; every other arm alone."""
    pairs = (exp.source or {}).get("pairs") or []
    grouped: list[list[str]] = []
    for p in pairs:  # merge pairs sharing an arm (several tweaks against one baseline)
        pair = [p["baseline"], p["tweak"]]
        hit = [g for g in grouped if set(g) & set(pair)]
        merged = list(dict.fromkeys([a for g in hit for a in g] + pair))
        grouped = [g for g in grouped if g not in hit] + [merged]
    inside = {a for g in grouped for a in g}
    return grouped + [[a.name] for a in exp.arms if a.name not in inside]


def measure(con, experiment: str, group: list[str], pairs: list[tuple[str, str]] | None = None
            ) -> tuple[float, str, int]:
    """Widest prop-scale half-width among the intervals reported for ``group`` (levels of each
    arm; paired differences of the ``(baseline, tweak)`` pairs), its label, and games per arm."""
    from analysis import studies

    got = dict(studies.arms_games(con, experiment, group))
    return _measure_frames({a: got.get(a) for a in group}, pairs)


def measure_groups(con, experiment: str, groups: list[list[str]],
                   pairs: list[tuple[str, str]] | None = None) -> dict[tuple, tuple]:
    """:func:`measure` of every group, the single arms fetched a batch per query (a sweep of a
    thousand points under ``--precision`` reads the store a few times per round, not a thousand
    times)."""
    from analysis import studies

    singles = [g[0] for g in groups if len(g) == 1]
    one = {(a,): _measure_frames({a: df}, pairs)
           for a, df in studies.arms_games(con, experiment, singles)}
    return {tuple(g): (measure(con, experiment, g, pairs) if len(g) > 1
                       else one.get(tuple(g), (math.inf, "no games", 0))) for g in groups}


def _measure_frames(frames: dict, pairs) -> tuple[float, str, int]:
    from analysis import studies

    if any(f is None for f in frames.values()):
        return math.inf, "no games", 0
    n = min(len(f) for f in frames.values())
    if n == 0:
        return math.inf, "no games", 0
    worst, label = -1.0, ""
    tables = [(a, studies.level_table(f)) for a, f in frames.items()]
    for base, tweak in pairs or []:
        if base in frames and tweak in frames:
            tables.append((f"{tweak} − {base}",
                           studies.compare_frames(frames[tweak], frames[base])))
    for who, t in tables:
        hw, lab = studies.max_half_width(t)
        if hw == hw and hw > worst:  # not nan
            worst, label = hw, f"{lab} ({who})"
    return worst, label, n


# ---- precision ---------------------------------------------------------------------------------

@dataclass
class PrecisionOutcome:
    """What a precision-targeted run achieved (stored in the manifest as ``precision``)."""

    target: float
    max_games: int
    met: bool = False
    capped: list[str] = field(default_factory=list)  # groups stopped by the cap
    steps: list[dict] = field(default_factory=list)  # per round: games per group, widest
    widest: float = math.nan
    widest_metric: str = ""
    games_per_arm: dict = field(default_factory=dict)
    simulated: int = 0
    elapsed: float = 0.0

    def as_dict(self) -> dict:
        return {"target": self.target, "max_games": self.max_games, "met": self.met,
                "capped": self.capped, "steps": self.steps, "widest": self.widest,
                "widest_metric": self.widest_metric, "games_per_arm": self.games_per_arm}

    def describe(self) -> str:
        if self.met:
            return (f"precision target {half_width(self.target)} met: widest 95% interval "
                    f"{half_width(self.widest)} ({self.widest_metric}) after "
                    f"{count(len(self.steps), 'round')}")
        return (f"precision target {half_width(self.target)} NOT met: stopped at the --max-games "
                f"cap of {self.max_games:,} games per arm; widest 95% interval "
                f"{half_width(self.widest)} ({self.widest_metric})")


def check_precision(target: float | None, max_games: int | None) -> None:
    if target is not None and not (isinstance(target, (int, float)) and 0 < target < 0.5):
        raise SpecError(f"--precision: half-width must be between 0 and 0.5 (e.g. 0.005), "
                        f"got {target!r}")
    if max_games is not None:
        check_games(max_games, "--max-games")


def _grow_to(n: int, hw: float, target: float, cap: int) -> int:
    want = n * (hw / target) ** 2 * 1.1
    q = 1000 if n >= 1000 else 100
    nxt = int(math.ceil(want / q) * q)
    return min(cap, max(nxt, n + q))


def run_to_precision(exp: Experiment, store, target: float, max_games: int | None = None,
                     run_fn: Callable | None = None, echo: Callable[[str], None] = lambda s: None,
                     max_rounds: int = 12, **run_kw):
    """Run ``exp`` and grow its arms until every prop-scale interval is within ±``target``.

    ``run_fn(exp, store, **run_kw)`` runs one round (default :func:`pipelines.runner.run`).
    Returns ``(last RunResult, PrecisionOutcome)``; the outcome is also written to the manifest.
    """
    from analysis import db

    from .runner import run
    from .store import Store

    run_fn = run_fn or run
    check_precision(target, max_games)
    cap = max_games or DEFAULT_MAX_GAMES
    for ra in exp.arms:
        if ra.n_games > cap:
            raise SpecError(f"--games {ra.n_games:,} is above --max-games {cap:,}")
    out = PrecisionOutcome(float(target), int(cap))
    groups = groups_of(exp)
    pairs = [(p["baseline"], p["tweak"]) for p in (exp.source or {}).get("pairs") or []]
    t0 = time.perf_counter()
    res = None
    for _ in range(max_rounds):
        res = run_fn(exp, store, **run_kw)
        out.simulated += res.simulated
        con = db.connect(res.store, experiments=[exp.name])
        try:
            status = measure_groups(con, exp.name, groups, pairs)
        finally:
            con.close()
        worst = max(status.values(), key=lambda s: s[0])
        out.widest, out.widest_metric = worst[0], worst[1]
        out.steps.append({"games": {"/".join(g): s[2] for g, s in status.items()},
                          "widest": worst[0], "metric": worst[1]})
        grow = {}
        capped = []
        for g, (hw, _, n) in status.items():
            if hw <= target:
                continue
            if n >= cap:
                capped.append("/".join(g))
                continue
            grow[g] = _grow_to(n, hw, target, cap)
        out.capped = capped
        echo(f"precision: widest interval {half_width(worst[0])} ({worst[1]}); target "
             f"{half_width(target)}"
             + (f"; growing {count(len(grow), 'arm group')} to "
                + ", ".join(sorted({f'{v:,}' for v in grow.values()})) + " games" if grow else ""))
        if not grow:
            break
        for g, n in grow.items():
            for ra in exp.arms:
                if ra.name in g:
                    ra.n_games = n
        exp.n_games = max(ra.n_games for ra in exp.arms)
    out.met = all(s[0] <= target for s in status.values())
    out.elapsed = time.perf_counter() - t0
    out.games_per_arm = {ra.name: ra.n_games for ra in exp.arms}
    st = Store(res.store)
    with st.lock(exp.name):
        m = st.read_manifest(exp.name) or {}
        if m:
            m["precision"] = out.as_dict()
            st.write_manifest(m)
    return res, out


# ---- plan --------------------------------------------------------------------------------------

#: Smallest ``plan --detect``: below it, the games needed (up to about 4e8 per arm at 0.0001
#: for a 50% win rate, growing as 1/delta²) exceed what a run may simulate
#: (:data:`pipelines.settings.MAX_GAMES` per arm), and the power solver stops converging.
MIN_DETECT = 0.0001


def check_delta(delta: Any) -> float:
    """``plan --detect``, checked before the pilot runs (nothing is written when it is out of
    range)."""
    if isinstance(delta, bool) or not isinstance(delta, (int, float)) \
            or not MIN_DETECT <= delta < 0.5:
        raise SpecError(f"--detect: difference in win rate must be from {MIN_DETECT:g} to below "
                        f"0.5 (e.g. 0.01 = 1 point), got {delta!r}")
    return float(delta)
