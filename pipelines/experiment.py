"""Experiments: a name, a master seed, a game count and a list of arms.

An *arm* is one fully resolved configuration (game, player count, variant, rule tweaks, per-seat
policies, component data) that :func:`sim.batch.make_arm` accepts. All arms of an experiment share
the master seed and the game indices ``0..n-1`` (common random numbers), so arms are paired.

Experiments come from command-line arguments (:func:`from_cli`) or a TOML spec file
(:func:`from_toml`)::

    [experiment]
    name = "lock-cost"          # optional; derived from the content when missing
    seed = 1
    games = 200000              # per arm, unless an arm says otherwise
    chunk_size = 50000          # optional
    trace = 1000                # optional: round traces of the first N games of every arm
    game = "flower_shop"        # optional defaults for every arm: game, players, variant,
    policy = "greedy"           #   policy, components

    [[arms]]
    name = "baseline"
    players = 4                 # or "2-4" / [2, 3, 4]: one arm per player count
    [[arms]]
    name = "lock2"
    players = 4
    set = { extra_lock_cost = 2 }
    seat_policy = { 0 = "greedy:w_stars=2" }

With ``baseline = "<arm name>"`` in ``[experiment]``, every other arm is compared with the
baseline arm of the same player count (paired differences with 95% intervals) in the report and
by ``--precision`` (see ``pipelines/specs/*.toml``).

``trace`` (``run --trace N``) is what the run records besides the results, not part of the
experiment's identity: it is left out of the derived name and the content hash, so running the
same experiment with another ``--trace`` adds the traces it lacks (see
:func:`pipelines.runner.build_manifest`) and never changes its games.

Everything is validated here, before the store is touched: a problem raises
:class:`sim.spec.SpecError` naming the key (``arms[2].set.extra_lock_cost: ...``) and the valid
choices.
"""
from __future__ import annotations

import importlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from sim.spec import SpecError, short_hash, unknown_name

from . import settings

NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
# Names a hive-partition reader could take for something other than a string.
_RESERVED = {"true", "false", "null", "none", "nan", "inf", "infinity"}

EXPERIMENT_KEYS = ("name", "seed", "games", "chunk_size", "trace", "description",
                   "game", "players", "variant", "policy", "components", "baseline")
ARM_KEYS = ("name", "game", "players", "variant", "set", "policy", "seat_policy", "games",
            "components")


def registry():
    """``sim.registry`` (imported lazily: a game under construction must not break the CLI)."""
    return importlib.import_module("sim.registry")


def check_name(name: str, what: str) -> str:
    """Experiment and arm names become hive partition values: keep them plain strings."""
    if not isinstance(name, str) or not NAME_RE.match(name) or name.lower() in _RESERVED \
            or len(name) > 120:
        raise SpecError(
            f"{what} name {name!r} is not allowed (valid: a letter, then letters, digits, "
            f"'_', '.', '-'; at most 120 characters; not {', '.join(sorted(_RESERVED))})"
        )
    return name


def slug(text: str) -> str:
    """A readable name fragment made of allowed characters."""
    s = re.sub(r"[^A-Za-z0-9_.-]+", "_", str(text)).strip("_")
    return s or "x"


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, Mapping):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return v


# ---- arms -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ArmConfig:
    """What the user asked for (unresolved); ``where`` locates it for error messages."""

    name: str
    game: str
    n_players: int
    variant: str | None = None
    tweaks: tuple[tuple[str, Any], ...] = ()
    policy: str = settings.DEFAULT_POLICY
    seat_policies: tuple[tuple[int, str], ...] = ()
    components: str | None = None
    games: int | None = None
    where: str = ""


@dataclass
class ResolvedArm:
    """An arm validated by :func:`sim.batch.make_arm`, plus its manifest definition."""

    config: ArmConfig
    arm: Any  # sim.batch.Arm
    n_games: int
    # how an --also-policy arm's count was chosen (``{"how": "--budget", ...}``), recorded in
    # the manifest so that a resume keeps the count (pipelines.budget); None: --games
    games_from: dict | None = None

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def game(self) -> str:
        return self.arm.spec.id

    def label(self, width: int = 32) -> str:
        """A short label for the progress bar while this arm plays: game, players and the
        seats' policy names (``rattlebones 2p search``), without policy options."""
        pols = list(dict.fromkeys(p.partition(":")[0] for p in self.arm.policy_names))
        text = f"{self.game} {self.arm.n_players}p {'+'.join(pols)}"
        return text if len(text) <= width else text[:width - 1] + "…"

    def definition(self) -> dict:
        """Everything that determines this arm's results (compared on resume)."""
        a = self.arm
        spec = a.spec
        seats = []
        for seat, text in enumerate(a.policies):
            pname, values = spec.policy_values(text)
            seats.append({"seat": seat, "policy": pname, "spec": text,
                          "params": _jsonable(values)})
        return {
            "game": spec.id,
            "game_version": spec.version,
            "n_players": a.n_players,
            "variant": a.variant,
            "rule_values": _jsonable(dict(a.rule_values)),
            "tweaks": {k: _jsonable(v) for k, v in self.config.tweaks},
            "policies": seats,
            "components": {
                "digest": a.components.digest,
                "assumed": bool(a.components.assumed),
                "dir": str(a.components.source_dir),
            },
        }


def _prefix(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _err(where: str, msg: str) -> SpecError:
    return SpecError(f"{where}: {msg}" if where else msg)


# What number conversions raise on values such as ``inf``, ``nan`` or ``1e400``.
_NUMBER_ERRORS = (ValueError, OverflowError, TypeError, ZeroDivisionError)


def _why(e: Exception) -> str:
    return str(e) if isinstance(e, SpecError) else f"not a usable finite number ({e})"


def resolve_arm(cfg: ArmConfig, default_games: int) -> ResolvedArm:
    """Validate one arm completely (raises SpecError naming the key and the valid choices)."""
    from sim.batch import make_arm

    w = cfg.where
    try:
        spec = registry().make(cfg.game)
    except SpecError as e:
        raise _err(_prefix(w, "game") if w else "", str(e)) from None
    by_name = {p.name: p for p in spec.params}
    for k, v in cfg.tweaks:  # pin errors on the key before the combined check
        loc = _prefix(w, f"set.{k}") if w else f"--set {k}"
        if k not in by_name:
            raise _err(loc, unknown_name("parameter", k, sorted(by_name), f" of {spec.id}"))
        p = by_name[k]
        try:
            p.parse(v) if isinstance(v, str) and p.kind != "choice" else p.check(v)
        except (SpecError, *_NUMBER_ERRORS) as e:
            raise _err(loc, f"{v!r}: {_why(e)}" if not isinstance(e, SpecError) else str(e)) \
                from None
    pols = [(_prefix(w, "policy") if w else "--policy", cfg.policy)]
    pols += [(_prefix(w, f"seat_policy.{seat}") if w else f"--seat-policy {seat}", text)
             for seat, text in cfg.seat_policies]
    for loc, text in pols:
        try:
            spec.policy_values(text)
        except (SpecError, *_NUMBER_ERRORS) as e:
            raise _err(f"{loc} {text}" if not w else loc, _why(e)) from None
    try:
        comps = load_components(spec, cfg.components)
    except (SpecError, *_NUMBER_ERRORS) as e:
        raise _err(_prefix(w, "components") if w else "--components", _why(e)) from None
    try:
        arm = make_arm(spec, cfg.n_players, cfg.variant, dict(cfg.tweaks), cfg.policy,
                       dict(cfg.seat_policies), comps)
    except (SpecError, *_NUMBER_ERRORS) as e:
        raise _err(w, _why(e)) from None
    n = cfg.games if cfg.games is not None else default_games
    check_games(n, _prefix(w, "games") if w else "--games")
    return ResolvedArm(cfg, arm, int(n))


def load_components(spec, directory: str | None):
    """The game's component data from ``directory`` (or its bundled defaults)."""
    if directory is None:
        return spec.load_components(None)
    d = Path(directory).expanduser()
    if not d.is_dir():
        raise SpecError(f"component directory '{directory}' does not exist")
    check_component_files(d)
    return spec.load_components(d)


def check_component_files(d: Path) -> None:
    """Every CSV/TOML file of a component directory is UTF-8 and holds only finite numbers
    (a game's loader then checks the meaning); raises SpecError naming file, row and column."""
    import csv
    import math

    for path in sorted(d.iterdir()):
        if path.suffix not in (".csv", ".toml") or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            raise SpecError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
        if path.suffix == ".toml":
            try:
                _check_finite(tomllib.loads(text), str(path))
            except tomllib.TOMLDecodeError as e:
                raise SpecError(f"{path}: malformed TOML: {e}") from None
            continue
        rows = csv.reader(text.splitlines())
        header = next(rows, [])
        for i, row in enumerate(rows, start=2):
            for j, cell in enumerate(row):
                try:
                    bad = not math.isfinite(float(cell))
                except ValueError:
                    continue
                if bad:
                    col = header[j] if j < len(header) else f"#{j + 1}"
                    raise SpecError(f"{path}: row {i}, column '{col}': {cell!r} is not a "
                                    f"finite number")


def _check_finite(value: Any, where: str) -> None:
    """SpecError if a parsed TOML document holds ``inf``/``nan`` (TOML allows them)."""
    import math

    if isinstance(value, float) and not math.isfinite(value):
        raise SpecError(f"{where}: {value!r} is not a finite number")
    if isinstance(value, dict):
        for k, v in value.items():
            _check_finite(v, f"{where}.{k}" if not where.endswith((".toml", ".json")) else f"{where}: {k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_finite(v, f"{where}[{i}]")


def check_games(n: Any, where: str = "--games") -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        raise SpecError(f"{where}: number of games must be a positive integer, got {n!r}")
    if n > settings.MAX_GAMES:
        raise SpecError(f"{where}: {n:,} games is above the limit of {settings.MAX_GAMES:,} "
                        f"games per arm")
    return n


def check_trace(n: Any, where: str = "--trace") -> int:
    """Number of leading games to trace per arm (0 = none)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise SpecError(f"{where}: number of traced games must be an integer >= 0 (0 = no "
                        f"traces), got {n!r}")
    if n > settings.MAX_GAMES:
        raise SpecError(f"{where}: {n:,} traced games is above the limit of "
                        f"{settings.MAX_GAMES:,} games per arm")
    return n


def check_seed(seed: Any, where: str = "--seed") -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= settings.MAX_SEED:
        raise SpecError(f"{where}: seed {seed!r} is out of range (valid: 0..{settings.MAX_SEED})")
    return seed


def check_chunk_size(n: Any, where: str = "--chunk-size") -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        raise SpecError(f"{where}: chunk size must be a positive integer, got {n!r}")
    if n > settings.MAX_CHUNK_SIZE:
        raise SpecError(f"{where}: {n:,} games per chunk is above the limit of "
                        f"{settings.MAX_CHUNK_SIZE:,} (a chunk is simulated in memory)")
    return n


def check_run_options(games: Any, seed: Any, chunk_size: Any = None) -> None:
    """--games, --seed and (if given) --chunk-size of a command that builds an experiment."""
    check_games(games)
    check_seed(seed)
    if chunk_size is not None:
        check_chunk_size(chunk_size)


# ---- experiments ----------------------------------------------------------------------------

@dataclass
class Experiment:
    """A validated experiment, ready to run."""

    name: str
    seed: int
    n_games: int
    chunk_size: int | None  # None = the stored one, or the default
    arms: list[ResolvedArm]
    source: dict = field(default_factory=dict)  # how it was defined (CLI args or spec text)
    name_derived: bool = True
    # Round traces of the first ``trace`` games of every arm (not part of the identity: see the
    # module docstring); ``trace_given``: asked for explicitly (--trace, TOML ``trace``), so a
    # game that cannot be traced gets a note.
    trace: int = 0
    trace_given: bool = False
    # the name the same command derived before the also-policies left the derived name
    # (``...-greedy-and-search-s1-<hash>``; None when there is no such older name)
    legacy_name: str | None = None

    def content_hash(self) -> str:
        return content_hash(self.seed, self.arms)

    def arm(self, name: str) -> ResolvedArm:
        return next(a for a in self.arms if a.name == name)

    def also_arms(self) -> list[ResolvedArm]:
        """The ``--also-policy`` arms of a ``playtest run`` experiment (:func:`from_cli`:
        ``p<N>-<policy>``, the others are ``p<N>``) or of a ``playtest compare`` one
        (:func:`pipelines.studies.compare_experiment`: ``baseline-p<N>-<policy>`` and
        ``tweak-p<N>-<policy>``): the arms whose policy is one of the ``also_policy`` of the
        source; none for other experiments."""
        if not isinstance(self.source, dict) or self.source.get("kind") not in ALSO_KINDS:
            return []
        also = set(self.source.get("also_policy") or ())
        return [a for a in self.arms if a.config.policy in also]

    def also_groups(self) -> list[list[ResolvedArm]]:
        """The ``--also-policy`` arms that play one game count together: one group per
        also-policy and player count (``run``: its one arm; ``compare``: its baseline and
        tweak arms, which stay paired on the same game indices)."""
        groups: dict[tuple, list[ResolvedArm]] = {}
        for a in self.also_arms():
            groups.setdefault((a.config.policy, a.arm.n_players), []).append(a)
        return list(groups.values())

    def label(self, width: int = 32) -> str:
        """A short label for the progress bar: the study kind, game, player counts and
        policies (``flower_shop 2-4p greedy``, ``sweep flower_shop 4p greedy``), never the
        experiment name, which can be 120 characters long."""
        from analysis.words import span

        kind = self.source.get("kind") if isinstance(self.source, dict) else None
        games = list(dict.fromkeys(a.game for a in self.arms))
        pols = list(dict.fromkeys(p for a in self.arms for p in a.arm.policy_names))
        parts = ([kind] if kind in ("compare", "sweep", "ladder") else []) + [
            "+".join(games), span(a.arm.n_players for a in self.arms) + "p",
            ",".join(pols[:2]) + (",…" if len(pols) > 2 else "")]
        text = " ".join(p for p in parts if p)
        return text if len(text) <= width else text[:width - 1] + "…"


#: The experiment kinds (the source's ``kind``) that take ``--also-policy`` with its own game
#: counts (``--also-games``, ``--budget``: :mod:`pipelines.budget`).
ALSO_KINDS = ("cli", "compare")

_COMPARED = ("game", "game_version", "n_players", "variant", "rule_values")


def comparable(defn: dict) -> dict:
    """The part of an arm definition that determines results (how it was spelled does not)."""
    out = {k: defn.get(k) for k in _COMPARED}
    out["policies"] = [[p["seat"], p["policy"], p["params"]] for p in defn.get("policies", [])]
    out["components"] = (defn.get("components") or {}).get("digest")
    return out


def added_at_default(old: dict, new: dict) -> dict:
    """``new`` without the rule values ``old`` predates: parameters the game gained since
    ``old`` was run, at their default (for the arm's player count and variant). A game's
    ``version`` pins its results, so with the same version they play as before."""
    ov, nv = old.get("rule_values") or {}, new.get("rule_values") or {}
    added = [k for k in nv if k not in ov]
    if not added or old.get("game_version") != new.get("game_version"):
        return new
    try:
        defaults = _jsonable(registry().make(new["game"]).rule_values(
            new["n_players"], new.get("variant")))
    except Exception:  # a game or variant no longer known: compare as it is
        return new
    kept = {k: v for k, v in nv.items() if k in ov or v != defaults.get(k)}
    return {**new, "rule_values": kept}


def content_hash(seed: int, arms: Iterable[ResolvedArm]) -> str:
    """Hash of everything that defines the results (not the game count or chunking)."""
    body = {"seed": seed, "arms": {a.name: comparable(a.definition()) for a in arms}}
    return short_hash(body, 8)


def parse_players(text: str | int | list | None, spec, where: str = "--players") -> list[int]:
    """``4``, ``"2-4"``, ``"2,3"`` or ``[2, 3]`` -> player counts (validated, sorted)."""
    if text is None:
        return list(range(spec.min_players, spec.max_players + 1))
    valid = f"{spec.min_players}-{spec.max_players}"
    out: list[int] = []
    try:
        if isinstance(text, bool):
            raise ValueError
        if isinstance(text, int):
            out = [text]
        elif isinstance(text, list):
            out = [int(x) if not isinstance(x, bool) and float(x) == int(x) else _raise()
                   for x in text]
        else:
            for part in str(text).split(","):
                part = part.strip()
                lo, dash, hi = part.partition("-")
                if dash:
                    a, b = int(lo), int(hi)
                    if a > b:
                        raise ValueError
                    out.extend(range(a, b + 1))
                else:
                    out.append(int(part))
    except (ValueError, TypeError):
        raise SpecError(f"{where}: cannot read {text!r} as player counts "
                        f"(e.g. 4, 2-4 or 2,3; valid for {spec.id}: {valid})") from None
    if not out:
        raise SpecError(f"{where}: no player count given (valid for {spec.id}: {valid})")
    for n in out:
        if not spec.min_players <= n <= spec.max_players:
            raise SpecError(f"{where}: {spec.id} is for {valid} players, not {n}")
    return sorted(set(out))


def _raise():
    raise ValueError


def parse_set(items: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """``["a=1", "b=x"]`` -> ``(("a", "1"), ("b", "x"))`` (last one wins)."""
    out: dict[str, str] = {}
    for item in items or ():
        k, eq, v = item.partition("=")
        if not eq or not k.strip():
            raise SpecError(f"--set '{item}' must look like NAME=VALUE")
        out[k.strip()] = v.strip()
    return tuple(out.items())


def parse_seat_policies(items: Iterable[str]) -> tuple[tuple[int, str], ...]:
    """``["0=greedy:w=2"]`` -> ``((0, "greedy:w=2"),)``."""
    out: dict[int, str] = {}
    for item in items or ():
        k, eq, v = item.partition("=")
        try:
            seat = int(k)
        except ValueError:
            seat = None
        if not eq or seat is None or not v.strip():
            raise SpecError(f"--seat-policy '{item}' must look like SEAT=NAME[:k=v,...] "
                            f"(seat 0 = start player)")
        out[seat] = v.strip()
    return tuple(sorted(out.items()))


def policy_slug(text: str) -> str:
    """A policy string as a name part: ``search:rollouts=8`` -> ``search_rollouts_8``."""
    return slug(text.replace(":", "_").replace("=", "_"))


def parse_also_policies(spec, policy: str, also: Iterable[str],
                        seat_policies: Iterable = ()) -> list[str]:
    """``--also-policy``: more policies to play the same arms under, every seat alike (the
    report then says whether each verdict holds under all of them). Each must be valid and
    play differently from ``policy`` and from the others."""
    also = [str(p).strip() for p in also or ()]
    if also and tuple(seat_policies):
        raise SpecError("--also-policy plays every seat with one policy; it cannot be combined "
                        "with --seat-policy")
    seen: dict[str, str] = {}
    for opt, p in [("--policy", policy)] + [("--also-policy", p) for p in also]:
        try:
            key = repr(spec.policy_values(p))
        except (SpecError, *_NUMBER_ERRORS) as e:
            raise _err(f"{opt} {p}", _why(e)) from None
        if key in seen:
            raise SpecError(f"--also-policy {p}: plays the same policy as '{seen[key]}'; give "
                            f"each policy once")
        seen[key] = p
    return also


def parse_also_games(items: Iterable[str], also: list[str], games: int) -> dict[str, int]:
    """``--also-games NAME=N`` (repeatable) -> ``{--also-policy text: N}``.

    NAME is an ``--also-policy`` as given (``search:rollouts=8``), its slug
    (``search_rollouts_8``) or its bare policy name (``search``) when only one also-policy has
    it; N is 1..``games`` (an also-arm plays the first N game indices of the arms, so its
    games stay paired with theirs). SpecError naming the valid NAMEs or the range."""
    items = [str(i) for i in items or ()]
    if items and not also:
        raise SpecError("--also-games gives an --also-policy arm its own game count; add the "
                        "--also-policy it is for")
    names: dict[str, set[str]] = {}
    for p in also:
        for key in (p, policy_slug(p), p.partition(":")[0].strip()):
            names.setdefault(key, set()).add(p)
    valid = ", ".join(dict.fromkeys(k for p in also for k in (p, policy_slug(p))))
    out: dict[str, int] = {}
    for item in items:
        name, eq, n_text = item.rpartition("=")
        name = name.strip()
        if not eq or not name:
            raise SpecError(f"--also-games '{item}' must look like NAME=N (NAME: an "
                            f"--also-policy; valid: {valid})")
        hits = names.get(name, set())
        if len(hits) != 1:
            why = ("names several --also-policy values" if hits else
                   "is not one of the --also-policy values")
            raise SpecError(f"--also-games {item}: '{name}' {why}; valid: {valid}")
        pol = next(iter(hits))
        try:
            n = int(n_text.strip().replace("_", "").replace(",", ""))
        except ValueError:
            n = None
        if n is None or not 1 <= n <= games:
            raise SpecError(f"--also-games {item}: the number of games must be a whole number "
                            f"from 1 to {games:,} (--games), got {n_text.strip()!r}")
        if pol in out:
            raise SpecError(f"--also-games: '{pol}' is given twice; give each policy one count")
        out[pol] = n
    return out


def from_cli(game: str, players: str | None = None, variant: str | None = None,
             tweaks: Iterable[str] = (), policy: str | None = None,
             seat_policies: Iterable[str] = (), games: int = settings.DEFAULT_GAMES,
             seed: int = settings.DEFAULT_SEED, experiment: str | None = None,
             chunk_size: int | None = None, components: str | None = None,
             also_policies: Iterable[str] = (), trace: int | None = None,
             default_trace: int = 0, also_games: Iterable[str] = ()) -> Experiment:
    """One arm per player count (``p<N>``), and per ``--also-policy`` P one more
    (``p<N>-<P>``, with ``--also-games P=N`` games, else ``games``); the name is derived from
    the content unless given. ``trace``: round traces of the first N games per arm
    (``default_trace`` when None).

    The derived name (and its content hash) leaves the also-policies out: adding an
    ``--also-policy`` to a finished experiment adds its arms to the same experiment (only
    they are simulated), and dropping it leaves them in the store. ``legacy_name`` is the
    name the same command derived before (with ``-and-<policy>``), so that an experiment
    stored under it is resumed, not played again (see ``playtest run``)."""
    spec = registry().make(game)
    counts = parse_players(players, spec)
    check_run_options(games, seed, chunk_size)
    n_trace = check_trace(default_trace if trace is None else trace)
    tw = parse_set(tweaks)
    sp = parse_seat_policies(seat_policies)
    policy = policy or settings.DEFAULT_POLICY
    also = parse_also_policies(spec, policy, also_policies, sp)
    also_n = parse_also_games(also_games, also, games)
    arms = [resolve_arm(ArmConfig(f"p{n}", spec.id, n, variant, tw, policy, sp, components),
                        games) for n in counts]
    base_arms = list(arms)
    arms += [resolve_arm(ArmConfig(f"p{n}-{policy_slug(p)}", spec.id, n, variant, tw, p, (),
                                   components, also_n.get(p)), games)
             for p in also for n in counts]
    name_derived = experiment is None
    legacy_name = None
    if experiment is None:
        ps = f"{counts[0]}p" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}p"
        if len(counts) > 1 and counts != list(range(counts[0], counts[-1] + 1)):
            ps = "_".join(map(str, counts)) + "p"
        vs = {a.arm.variant for a in arms}
        vname = variant or (vs.pop() if len(vs) == 1 else "default")
        name_only, _, _ = policy.partition(":")
        pol = name_only if spec.policy_values(policy) == spec.policy_values(name_only) \
            else slug(policy)  # policy options that change the policy, readable in the name
        if sp:
            pol += "-mixed"
        untweaked = [(a.arm.rule_values, spec.rule_values(a.arm.n_players, a.arm.variant))
                     for a in arms]
        changes = "-".join(slug(f"{k}={v}") for k, v in tw  # tweaks that change a rule
                           if any(vals[k] != base[k] for vals, base in untweaked))

        def derived(pol: str, named_arms: list[ResolvedArm]) -> str:
            head = "-".join(x for x in (spec.id, ps, slug(vname), changes, slug(pol)) if x)
            tail = f"-s{seed}-{content_hash(seed, named_arms)}"
            return head[:120 - len(tail)].rstrip("-_.") + tail

        experiment = derived(pol, base_arms)
        if also:
            legacy_name = derived(pol + "".join(f"-and-{policy_slug(p)}" for p in also), arms)
    check_name(experiment, "experiment")
    source = {"kind": "cli", "game": spec.id, "players": players, "variant": variant,
              "set": [f"{k}={v}" for k, v in tw], "policy": policy,
              "seat_policy": [f"{s}={p}" for s, p in sp], "games": games, "seed": seed,
              "components": components}
    if also:
        source["also_policy"] = also
    if also_n:
        source["also_games"] = dict(also_n)
    return Experiment(experiment, seed, games, chunk_size, arms, source, name_derived,
                      n_trace, trace is not None, legacy_name)


def from_toml(path: str | Path, games: int | None = None, seed: int | None = None,
              experiment: str | None = None, chunk_size: int | None = None,
              trace: int | None = None, default_trace: int = 0) -> Experiment:
    """Read and validate a TOML experiment spec; command-line values override the file's
    (``trace``: round traces of the first N games per arm; else the file's ``trace``, else
    ``default_trace``)."""
    path = Path(path)
    if not path.is_file():
        raise SpecError(f"spec file '{path}' does not exist")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise SpecError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path}: malformed TOML: {e}") from None
    for key in ("experiment", "arms"):
        if key in doc:
            _check_finite(doc[key], key)
    unknown = set(doc) - {"experiment", "arms", "targets"}
    if unknown:
        raise SpecError(f"{path}: unknown table '{sorted(unknown)[0]}'; valid: experiment, "
                        "arms, targets")
    exp = doc.get("experiment", {})
    if not isinstance(exp, dict):
        raise SpecError(f"{path}: 'experiment' must be a table")
    for k in exp:
        if k not in EXPERIMENT_KEYS:
            raise SpecError(f"experiment.{k}: unknown key; valid: {', '.join(EXPERIMENT_KEYS)}")
    arms_doc = doc.get("arms")
    if not isinstance(arms_doc, list) or not arms_doc or not all(isinstance(a, dict) for a in arms_doc):
        raise SpecError(f"{path}: needs at least one [[arms]] table")

    seed = check_seed(seed if seed is not None else exp.get("seed", settings.DEFAULT_SEED),
                      "--seed" if seed is not None else "experiment.seed")
    n_games = games if games is not None else exp.get("games", settings.DEFAULT_GAMES)
    check_games(n_games, "--games" if games is not None else "experiment.games")
    if chunk_size is None and "chunk_size" in exp:
        chunk_size = check_chunk_size(exp["chunk_size"], "experiment.chunk_size")
    elif chunk_size is not None:
        check_chunk_size(chunk_size)
    trace_given = trace is not None or "trace" in exp
    if trace is not None:
        n_trace = check_trace(trace)
    elif "trace" in exp:
        n_trace = check_trace(exp["trace"], "experiment.trace")
    else:
        n_trace = check_trace(default_trace)

    configs: list[ArmConfig] = []
    games_in_spec = {a.get("game", exp.get("game")) for a in arms_doc}
    for i, a in enumerate(arms_doc):
        w = f"arms[{i}]"
        for k in a:
            if k not in ARM_KEYS:
                raise SpecError(f"{w}.{k}: unknown key; valid: {', '.join(ARM_KEYS)}")
        game = a.get("game", exp.get("game"))
        if not isinstance(game, str):
            raise SpecError(f"{w}.game: missing (or set experiment.game); valid: "
                            f"{', '.join(registry().available_games())}")
        try:
            spec = registry().make(game)
        except SpecError as e:
            raise SpecError(f"{w}.game: {e}") from None
        counts = parse_players(a.get("players", exp.get("players")), spec, f"{w}.players")
        variant = a.get("variant", exp.get("variant"))
        if variant is not None and not isinstance(variant, str):
            raise SpecError(f"{w}.variant: must be a string; valid: {', '.join(spec.variants)}")
        tweaks = a.get("set", {})
        if not isinstance(tweaks, dict):
            raise SpecError(f"{w}.set: must be a table like {{ name = value }}")
        policy = a.get("policy", exp.get("policy", settings.DEFAULT_POLICY))
        if not isinstance(policy, str):
            raise SpecError(f"{w}.policy: must be a string like \"greedy:w_stars=2\"; "
                            f"valid: {', '.join(spec.policies)}")
        seat_doc = a.get("seat_policy", {})
        if not isinstance(seat_doc, dict):
            raise SpecError(f"{w}.seat_policy: must be a table like {{ 0 = \"greedy\" }}")
        seats = []
        for s, p in seat_doc.items():
            try:
                seats.append((int(s), p))
            except ValueError:
                raise SpecError(f"{w}.seat_policy.{s}: seat must be an integer "
                                f"(0 = start player)") from None
            if not isinstance(p, str):
                raise SpecError(f"{w}.seat_policy.{s}: must be a policy string; "
                                f"valid: {', '.join(spec.policies)}")
        comp = a.get("components", exp.get("components"))
        if comp is not None:
            if not isinstance(comp, str):
                raise SpecError(f"{w}.components: must be a directory path")
            comp = str((path.parent / comp).resolve()) if not Path(comp).is_absolute() else comp
        arm_games = a.get("games")
        if arm_games is not None:
            check_games(arm_games, f"{w}.games")
        base = a.get("name")
        if base is not None:
            check_name(base, f"{w}.name: arm")
        for n in counts:
            if base is None:
                parts = [f"p{n}"]
                if len(games_in_spec) > 1:
                    parts.insert(0, spec.id)
                if variant:
                    parts.append(slug(variant))
                parts += [slug(f"{k}{_jsonable(v)}") for k, v in tweaks.items()]
                if policy != settings.DEFAULT_POLICY or seats:
                    parts.append(slug(policy.partition(":")[0]) + ("-mixed" if seats else ""))
                name = "-".join(parts)
                if len(name) > 80:
                    name = name[:70] + "-" + short_hash(name, 8)
            else:
                name = base if len(counts) == 1 else f"{base}-p{n}"
            configs.append(ArmConfig(name, spec.id, n, variant, tuple(tweaks.items()), policy,
                                     tuple(sorted(seats)), comp, arm_games, w))
    seen: dict[str, str] = {}
    for c in configs:
        if c.name in seen:
            raise SpecError(f"{c.where}.name: duplicate arm name '{c.name}' (also {seen[c.name]}); "
                            f"give each arm a distinct name")
        seen[c.name] = c.where
    pairs = _baseline_pairs(exp.get("baseline"), arms_doc, configs)
    arms = [resolve_arm(c, n_games) for c in configs]

    name = experiment or exp.get("name")
    name_derived = name is None
    if name is None:
        name = f"{slug(path.stem)}-s{seed}-{content_hash(seed, arms)}"
        if not NAME_RE.match(name):
            name = "spec-" + name
    check_name(name, "experiment" if experiment else "experiment.name: experiment")
    source = {"kind": "spec", "file": str(path), "text": text}
    if pairs:
        source["pairs"] = pairs
    if "targets" in doc:   # target solo win probabilities, for the report (analysis.targets)
        source["targets"] = _targets(doc["targets"], configs)
    return Experiment(name, seed, n_games, chunk_size, arms, source, name_derived, n_trace,
                      trace_given)


def _targets(targets: Any, configs: list[ArmConfig]) -> dict:
    """The spec's ``[targets]`` table, checked: every variant one of its games has, every
    value a win probability."""
    from analysis.targets import check_targets

    variants = {v for c in configs for v in registry().make(c.game).variants}
    try:
        return check_targets(targets, sorted(variants))
    except ValueError as e:
        raise SpecError(str(e)) from None


def _baseline_pairs(baseline: Any, arms_doc: list[dict], configs: list[ArmConfig]) -> list[dict]:
    """``experiment.baseline``: pair every other arm with the baseline arm of its player count."""
    if baseline is None:
        return []
    names = [a.get("name") for a in arms_doc]
    if not isinstance(baseline, str) or baseline not in names:
        valid = ", ".join(str(n) for n in names if n) or "(no arm has a name)"
        raise SpecError(f"experiment.baseline: {baseline!r} is not the name of an [[arms]] "
                        f"table; valid: {valid}")
    where = f"arms[{names.index(baseline)}]"
    base = {c.n_players: c.name for c in configs if c.where == where}
    pairs = []
    for c in configs:
        if c.where == where:
            continue
        if c.n_players not in base:
            raise SpecError(f"{c.where}.players: no baseline arm '{baseline}' with "
                            f"{c.n_players} players to compare with (baseline has "
                            f"{', '.join(map(str, sorted(base)))})")
        pairs.append({"n_players": c.n_players, "baseline": base[c.n_players], "tweak": c.name})
    if not pairs:
        raise SpecError("experiment.baseline: no other arm to compare with the baseline")
    return pairs
