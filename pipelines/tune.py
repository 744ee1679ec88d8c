"""``playtest tune``: tune a heuristic policy's parameters for its seat's win rate.

========================= ===========================================================================
step                      how
========================= ===========================================================================
candidate                 the start policy (``--policy``, e.g. ``greedy`` or ``@preset.toml``) with
                          the tuned parameters (``--params``; default every ``int`` and ``float``
                          policy parameter) replaced; floats rounded to 4 significant digits, so
                          the preset holds exactly what was measured
objective                 the candidate's seat's mean win share against the field (``--field``,
                          default the start policy) in every other seat: the candidate takes each
                          seat in turn on the same games (``--games`` per trial, split equally
                          over the seats); solo: its win probability. Several player counts
                          (``--players 2-4``): ``--games`` at each count, and the objective is
                          the mean over the counts of the seat win share divided by the fair
                          share 1/n (1.0 = fair), so that one policy is tuned for every count
training seeds            master seed ``--seed``, game indices ``0..k-1`` per seat, the same in
                          every trial: trials are compared on the same dice (paired)
optimizer                 Optuna's CMA-ES sampler (``CmaEsSampler(seed=--seed)``) started at the
                          start policy's values (``x0``) with a first step of ``--step`` (default
                          0.1) of each range; the start policy itself is trial 0, so
                          the best trial is never worse than it on the training games. ``bool`` and
                          ``choice`` parameters (only when named in ``--params``) are sampled
                          independently, as CMA-ES handles numbers only
validation                held-out games (indices ``k..k+v-1``, never used in training): the tuned
                          and the start policy play the same games against the same field; the
                          *gain* is the mean paired difference of their seat win shares, per game
                          index (the seat-rotated copies of one index share its dice, so they are
                          averaged first), with a 95% t interval (:func:`analysis.stats.paired_difference`);
                          at each player count
========================= ===========================================================================

The result is a preset file (:mod:`sim.presets`) that ``--policy @FILE`` accepts. Same command
and seed, same result (one Optuna worker, seeded sampler, deterministic games).
"""
from __future__ import annotations

import datetime as dt
import math
import time
import warnings
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Callable

import numpy as np

from analysis import stats
from sim.batch import Arm, make_arm, run_games
from sim.presets import expand, policy_string
from sim.spec import G_N_WINNERS, S_WON, GameSpec, ParamSpec, SpecError, unknown_name

from . import settings
from .store import win_share

#: Kinds of policy parameters tuned by default (``bool``/``choice`` only when named).
DEFAULT_KINDS = ("int", "float")
TUNABLE_KINDS = ("int", "float", "bool", "choice")
#: Significant digits a tuned float keeps (readable presets; the value measured is the one kept).
FLOAT_DIGITS = 4
MAX_TRIALS = 100_000
#: CMA-ES's initial step (``sigma0``) as a fraction of every tuned parameter's range.
DEFAULT_STEP = settings.DEFAULT_TUNE_STEP


@dataclass(frozen=True)
class TuneSetup:
    """What is tuned, against whom, on which games (everything validated)."""

    spec: GameSpec
    counts: tuple[int, ...]  # the player counts tuned for (one, or several: --players 2-4)
    variant: str
    start: str  # canonical policy string of the start policy
    field_policy: str  # policy of the other seats (canonical)
    params: tuple[ParamSpec, ...]
    trials: int
    games: int  # training games per trial at each player count (split over its seats)
    validation_games: int  # held-out games at each player count (split over its seats)
    seed: int
    step: float = DEFAULT_STEP  # CMA-ES initial step, as a fraction of each parameter's range
    tweaks: tuple[tuple[str, str], ...] = ()  # rule tweaks (--set NAME=VALUE) of every game
    components: Any = None  # the game's component data, loaded once

    @property
    def base(self) -> str:
        return self.spec.policy_values(self.start)[0]

    @property
    def start_values(self) -> dict[str, Any]:
        return self.spec.policy_values(self.start)[1]

    def games_per_seat(self, n: int) -> int:
        """Training games per seat and trial at ``n`` players."""
        return math.ceil(self.games / n)

    def validation_per_seat(self, n: int) -> int:
        """Held-out games per seat at ``n`` players."""
        return math.ceil(self.validation_games / n)

    @property
    def players_text(self) -> str:
        """The counts as ``--players`` takes them: ``4``, ``2-4`` or ``2,4``."""
        c = self.counts
        if len(c) > 2 and c == tuple(range(c[0], c[-1] + 1)):
            return f"{c[0]}-{c[-1]}"
        return ",".join(map(str, c))

    @property
    def games_per_trial(self) -> int:
        """Training games of one trial, over every count and seat."""
        return sum(n * self.games_per_seat(n) for n in self.counts)

    @property
    def validation_games_played(self) -> int:
        """Held-out games of the validation (tuned and start policy), over every count and seat."""
        return sum(2 * n * self.validation_per_seat(n) for n in self.counts)

    def total_games(self) -> int:
        """Games a tuning plays: every trial and both validations, at every count."""
        return self.trials * self.games_per_trial + self.validation_games_played


@dataclass
class TuneResult:
    """The tuned policy and what it was measured to gain."""

    setup: TuneSetup
    best: dict[str, Any]  # tuned parameter -> value
    policy: str  # canonical policy string of the tuned policy
    train_best: float  # its training objective
    train_start: float  # the start policy's training objective (trial 0)
    trials_run: int
    validation: dict  # by player count: tuned, start (stats.Estimate), gain (stats.Difference)
    elapsed: float
    history: list[float] = field(default_factory=list)  # training objective per trial


# ---- validation of the input -----------------------------------------------------------------

def tunable_params(spec: GameSpec, names: str | None) -> tuple[ParamSpec, ...]:
    """``--params A,B``: the named policy parameters, or by default every int/float one with a
    finite range. Lists cannot be tuned (SpecError naming the valid names)."""
    table = spec.policy_params
    usable = [p for p in table if p.kind in TUNABLE_KINDS and
              (p.kind not in DEFAULT_KINDS or (p.lo is not None and p.hi is not None))]
    if names is None:
        return tuple(p for p in usable if p.kind in DEFAULT_KINDS)
    by_name = {p.name: p for p in usable}
    chosen = []
    for name in filter(None, (s.strip() for s in names.split(","))):
        if name in {p.name for p in table} and name not in by_name:
            raise SpecError(f"--params: '{name}' cannot be tuned (a list, or a number without "
                            f"a finite range); valid: {', '.join(sorted(by_name))}")
        if name not in by_name:
            raise SpecError("--params: " + unknown_name(
                "tunable policy parameter", name, sorted(by_name), f" of {spec.id}"))
        if by_name[name] not in chosen:
            chosen.append(by_name[name])
    if not chosen:
        raise SpecError(f"--params: no parameter named; valid: {', '.join(sorted(by_name))}")
    return tuple(chosen)


def _check_count(n: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
        raise SpecError(f"{what}: must be a whole number in {lo:,}..{hi:,}, got {n!r}")
    return n


def _policy(spec: GameSpec, text: str, option: str) -> str:
    """A policy option's canonical string (a preset file expanded), validated."""
    try:
        canonical = expand(text, spec.id)
        spec.policy_values(canonical)
    except SpecError as e:
        raise SpecError(f"{option} {text}: {e}") from None
    return canonical


def make_setup(spec: GameSpec, n_players: int | tuple[int, ...], variant: str | None,
               policy: str, field_policy: str | None, params: str | None, trials: int,
               games: int, validation_games: int, seed: int, step: float = DEFAULT_STEP,
               tweaks: tuple[tuple[str, str], ...] = ()) -> TuneSetup:
    """Validate a tuning request (SpecError naming the valid choices or range).
    ``n_players``: one count, or several (sorted, each played; not solo with others)."""
    counts = tuple(sorted(set((n_players,) if isinstance(n_players, int) else n_players)))
    for n in counts:
        spec.check_players(n)
    if 1 in counts and len(counts) > 1:
        raise SpecError("--players: solo (1) has no fair share to compare with the other "
                        "counts; tune it on its own")
    start = _policy(spec, policy, "--policy")
    name, _ = spec.policy_values(start)
    if spec.policies[name].params is not None:
        raise SpecError(f"--policy {name}: a search policy has no heuristic parameters to tune; "
                        f"valid: " + ", ".join(n for n, p in spec.policies.items()
                                               if p.params is None))
    if counts == (1,) and field_policy is not None:
        raise SpecError("--field: a solo game has no other seats; leave --field out")
    fld = _policy(spec, field_policy, "--field") if field_policy is not None else start
    _check_count(trials, "--trials", 1, MAX_TRIALS)
    _check_count(games, "--games", 1, settings.MAX_GAMES)
    _check_count(validation_games, "--validation-games", 1, settings.MAX_GAMES)
    if not 0 <= seed <= settings.MAX_SEED:
        raise SpecError(f"--seed {seed} is out of range (valid: 0..{settings.MAX_SEED})")
    if not 0 < step <= 1:
        raise SpecError(f"--step: must be a fraction of each range in (0, 1], got {step!r}")
    names = {spec.variant(variant, n).name for n in counts}
    if len(names) > 1:
        raise SpecError(f"--variant: the default variant differs between {counts[0]} and "
                        f"{counts[-1]} players ({', '.join(sorted(names))}); name one")
    setup = TuneSetup(spec, counts, names.pop(), start, fld, tunable_params(spec, params),
                      trials, games, validation_games, seed, step, tuple(tweaks),
                      spec.load_components(None))
    for n in counts:
        seat_arms(setup, start, n)  # validates the field and the variant's players together
    return setup


# ---- playing --------------------------------------------------------------------------------

def seat_arms(setup: TuneSetup, policy: str, n: int) -> list[Arm]:
    """One arm per seat of an ``n``-player game: ``policy`` in that seat, the field in the
    others (solo: one arm)."""
    return [make_arm(setup.spec, n, setup.variant, dict(setup.tweaks),
                     setup.field_policy, {seat: policy}, setup.components)
            for seat in range(n)]


def seat_shares(arms: list[Arm], seed: int, first_index: int, n: int) -> np.ndarray:
    """Win share of each arm's own seat: ``float[n games, seats]`` (game ``first_index + i``)."""
    out = np.empty((n, len(arms)))
    for seat, arm in enumerate(arms):
        games, seats = run_games(arm, seed, first_index, n)
        out[:, seat] = win_share(seats[:, seat, S_WON] != 0, games[:, G_N_WINNERS])
    return out


def preset_params(setup: TuneSetup, values: dict[str, Any]) -> dict[str, Any]:
    """The start policy with ``values`` replaced, as values over its base policy: the tuned
    ones and every other one that differs from the base's own."""
    own = setup.spec.policy_values(setup.base)[1]
    merged = {**setup.start_values, **values}
    return {k: v for k, v in merged.items() if k in values or v != own[k]}


def candidate(setup: TuneSetup, values: dict[str, Any]) -> str:
    """The policy string of :func:`preset_params` (:func:`sim.presets.policy_string`)."""
    return policy_string(setup.base, preset_params(setup, values))


def rounded(p: ParamSpec, x: float) -> float:
    """A float parameter at :data:`FLOAT_DIGITS` significant digits, kept in its range."""
    return float(min(max(float(f"{x:.{FLOAT_DIGITS}g}"), p.lo), p.hi))


# ---- the search -----------------------------------------------------------------------------

def _suggest(trial, p: ParamSpec):
    if p.kind == "float":
        return rounded(p, trial.suggest_float(p.name, p.lo, p.hi))
    if p.kind == "int":
        return trial.suggest_int(p.name, int(p.lo), int(p.hi))
    return trial.suggest_categorical(p.name, (False, True) if p.kind == "bool" else p.choices)


def _sampler(setup: TuneSetup):
    """CMA-ES centred on the start policy's values, with a first step of ``setup.step`` of each
    range (Optuna searches in every range scaled to 0..1). ``x0`` and ``sigma0`` are deprecated
    by Optuna 4.9 but kept until 6.0; the version is pinned."""
    import optuna

    start = setup.start_values
    x0 = {p.name: start[p.name] for p in setup.params if p.kind in DEFAULT_KINDS}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return optuna.samplers.CmaEsSampler(x0=x0 or None, sigma0=setup.step, seed=setup.seed,
                                            warn_independent_sampling=False)


def objective_value(setup: TuneSetup, policy: str) -> float:
    """The training objective of ``policy``: its seat's mean win share on the training games
    (one count), or the mean over the counts of that share times n, its ratio to the fair share."""
    shares = [float(seat_shares(seat_arms(setup, policy, n), setup.seed, 0,
                                setup.games_per_seat(n)).mean()) for n in setup.counts]
    if len(shares) == 1:
        return shares[0]
    return float(np.mean([x * n for x, n in zip(shares, setup.counts)]))


def tune(setup: TuneSetup, progress: Callable[[int], None] | None = None) -> TuneResult:
    """Run the search and the validation (see the module docstring). ``progress(games)`` is
    called after each trial and after the validation."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    t0 = time.perf_counter()
    seen: dict[str, float] = {}  # same policy, same games: same objective

    def objective(trial) -> float:
        values = {p.name: _suggest(trial, p) for p in setup.params}
        if trial.number == 0:  # the enqueued start, exactly (not rounded)
            values = {p.name: setup.start_values[p.name] for p in setup.params}
        text = candidate(setup, values)
        if text not in seen:
            seen[text] = objective_value(setup, text)
        trial.set_user_attr("values", values)
        if progress:  # a repeated candidate is not played again, but its trial is done
            progress(setup.games_per_trial)
        return seen[text]

    study = optuna.create_study(direction="maximize", sampler=_sampler(setup))
    study.enqueue_trial({p.name: setup.start_values[p.name] for p in setup.params})
    study.optimize(objective, n_trials=setup.trials, n_jobs=1)
    best = study.best_trial.user_attrs["values"]
    policy = candidate(setup, best)
    validation = {n: validate(setup, policy, n) for n in setup.counts}
    if progress:
        progress(setup.validation_games_played)
    return TuneResult(setup, best, policy, study.best_value, study.trials[0].value,
                      len(study.trials), validation, time.perf_counter() - t0,
                      [t.value for t in study.trials])


def validate(setup: TuneSetup, policy: str, n: int) -> dict:
    """The tuned and the start policy on the held-out ``n``-player games (indices after the
    training ones): each one's seat win rate (clustered by game index) and the paired gain
    with its interval."""
    first, v = setup.games_per_seat(n), setup.validation_per_seat(n)
    tuned = seat_shares(seat_arms(setup, policy, n), setup.seed, first, v)
    start = seat_shares(seat_arms(setup, setup.start, n), setup.seed, first, v)
    index = np.repeat(np.arange(v), n)
    return {"tuned": stats.clustered_proportion(tuned.ravel(), index),
            "start": stats.clustered_proportion(start.ravel(), index),
            "gain": stats.paired_difference(tuned.mean(axis=1), start.mean(axis=1))}


# ---- the preset -----------------------------------------------------------------------------

def preset_document(res: TuneResult, command: str = "") -> dict:
    """The preset file's content (:mod:`sim.presets`): what to play, and how it was made."""
    s = res.setup

    def by_count(f):  # one count: the value; several: {"2p": value, ...}
        out = {f"{n}p": f(n) for n in s.counts}
        return out.popitem()[1] if len(out) == 1 else out

    return {
        "game": s.spec.id, "policy": s.base,
        "players": s.counts[0] if len(s.counts) == 1 else list(s.counts), "variant": s.variant,
        "params": preset_params(s, res.best),
        "provenance": {
            "command": command,
            "start": s.start, "field": s.field_policy if s.counts != (1,) else "",
            "rule_tweaks": {k: v for k, v in s.tweaks},
            "tuned": [p.name for p in s.params],
            "sampler": "optuna CmaEsSampler", "step": s.step, "seed": s.seed,
            "trials": res.trials_run,
            "training_games_per_seat": by_count(s.games_per_seat),
            "validation_games_per_seat": by_count(s.validation_per_seat),
            "validation_first_index": by_count(s.games_per_seat),
            "training_objective": res.train_best, "training_objective_start": res.train_start,
            "validation_win_rate": by_count(lambda n: _interval(res.validation[n]["tuned"])),
            "validation_win_rate_start": by_count(lambda n: _interval(res.validation[n]["start"])),
            "validation_gain": by_count(lambda n: _interval(res.validation[n]["gain"])),
            "game_version": s.spec.version, "playtest_version": _version(),
            "optuna_version": metadata.version("optuna"),
            "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        },
    }


def _interval(e) -> dict:
    return {"estimate": round(float(e.estimate), 6), "low": round(float(e.low), 6),
            "high": round(float(e.high), 6)}


def _version() -> str:
    try:
        return metadata.version("playtest")
    except metadata.PackageNotFoundError:
        return "unknown"
