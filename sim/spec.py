"""Declarative game contract: parameters, variants, policies, components and kernels.

Every rule constant of a game is one :class:`ParamSpec` row (name, default, range, doc,
provenance). The rows are packed, in declaration order, into one ``float64`` array that the
kernel reads through ``R_*`` offsets; :func:`layout` gives those offsets. Policies have their own
``ParamSpec`` table, packed into a ``float64[n_players, P_LEN]`` array.

Packing of each kind (``width`` slots in the array):

====== ======================================= =====================================
kind   value                                   packed as
====== ======================================= =====================================
int    integer in [lo, hi]                     the number (1 slot)
float  number in [lo, hi]                      the number (1 slot)
bool   true/false                              1.0 or 0.0 (1 slot)
choice one of ``choices``                      its index in ``choices`` (1 slot)
list   1..``length`` numbers, each in [lo, hi] ``[n, v0, ..., v_{length-1}]``, padded
                                               by repeating the last value
====== ======================================= =====================================
"""
from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from .errors import SpecError
from .presets import expand

KINDS = ("int", "float", "bool", "choice", "list")


def unknown_name(what: str, name: str, valid, where: str = "") -> str:
    """``unknown <what> '<name>'<where>``, with the closest valid name when one is near (a
    typo), else every valid name."""
    valid = list(valid)
    head = f"unknown {what} '{name}'{where}"
    near = difflib.get_close_matches(str(name), valid, n=1, cutoff=0.75)
    if near and len(valid) > 12:
        return f"{head}; did you mean '{near[0]}'? ({len(valid)} valid names: see `playtest rules`)"
    if near:
        return f"{head}; did you mean '{near[0]}'? valid: {', '.join(valid)}"
    return f"{head}; valid: {', '.join(valid)}"


@dataclass(frozen=True)
class ParamSpec:
    """One tunable rule (or policy) constant."""

    name: str
    kind: str
    default: Any
    doc: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()
    length: int = 1
    source: str = "[R]"

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: kind must be one of {KINDS}")
        self.check(self.default)

    @property
    def width(self) -> int:
        return self.length + 1 if self.kind == "list" else 1

    def range_text(self) -> str:
        if self.kind == "bool":
            return "true, false"
        if self.kind == "choice":
            return ", ".join(self.choices)
        rng = f"{_fmt(self.lo)}..{_fmt(self.hi)}"
        if self.kind == "list":
            return f"1-{self.length} values, each {rng}"
        return rng

    def parse(self, text: str) -> Any:
        """Parse a command-line value (``--set name=text``) and validate it."""
        t = text.strip()
        try:
            if self.kind == "bool":
                low = t.lower()
                if low not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError
                value: Any = low in ("true", "1", "yes")
            elif self.kind == "choice":
                value = t
            elif self.kind == "list":
                parts = [p for p in t.strip("[]").replace(";", ",").split(",") if p.strip()]
                value = tuple(_num(p) for p in parts)
            elif self.kind == "int":
                value = _num(t)
            else:
                value = float(t)
        except ValueError:
            raise SpecError(
                f"parameter '{self.name}': cannot read '{text}' as {self.kind} "
                f"(valid: {self.range_text()})"
            ) from None
        return self.check(value)

    def check(self, value: Any) -> Any:
        """Return the normalised value, or raise SpecError naming the valid range."""
        bad = SpecError(
            f"parameter '{self.name}' = {value!r} is out of range (valid: {self.range_text()})"
        )
        if self.kind == "bool":
            if not isinstance(value, (bool, np.bool_)) and value not in (0, 1):
                raise bad
            return bool(value)
        if self.kind == "choice":
            if value not in self.choices:
                raise bad
            return value
        if self.kind == "list":
            if isinstance(value, (int, float)):
                value = (value,)
            value = tuple(value)
            if not 1 <= len(value) <= self.length:
                raise bad
            for v in value:
                if not self._in_range(v):
                    raise bad
            return tuple(_as_int_if_whole(v) for v in value)
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise bad
        if self.kind == "int" and float(value) != int(value):
            raise bad
        if not self._in_range(value):
            raise bad
        return int(value) if self.kind == "int" else float(value)

    def _in_range(self, v) -> bool:
        return (self.lo is None or v >= self.lo) and (self.hi is None or v <= self.hi)

    def pack_into(self, out: np.ndarray, offset: int, value: Any) -> None:
        value = self.check(value)
        if self.kind == "choice":
            out[offset] = self.choices.index(value)
        elif self.kind == "list":
            out[offset] = len(value)
            for j in range(self.length):
                out[offset + 1 + j] = value[min(j, len(value) - 1)]
        else:
            out[offset] = float(value)


def _num(text: str):
    f = float(text)
    return int(f) if f == int(f) else f


def _as_int_if_whole(v):
    return int(v) if float(v) == int(v) else float(v)


def _fmt(v) -> str:
    if v is None:
        return "any"
    return str(int(v)) if float(v) == int(v) else str(v)


def layout(params: tuple[ParamSpec, ...]) -> dict[str, int]:
    """Offsets of each parameter in the packed array (declaration order)."""
    out, off = {}, 0
    for p in params:
        out[p.name] = off
        off += p.width
    return out


def packed_length(params: tuple[ParamSpec, ...]) -> int:
    return sum(p.width for p in params)


def resolve(params: tuple[ParamSpec, ...], overrides: Mapping[str, Any] | None = None,
            what: str = "parameter") -> dict[str, Any]:
    """Defaults updated by ``overrides`` (validated); unknown names list the valid ones."""
    by_name = {p.name: p for p in params}
    values = {p.name: p.default for p in params}
    for name, value in (overrides or {}).items():
        if name not in by_name:
            raise SpecError(unknown_name(what, name, sorted(by_name)))
        p = by_name[name]
        values[name] = p.parse(value) if isinstance(value, str) and p.kind != "choice" else p.check(value)
    return values


def pack(params: tuple[ParamSpec, ...], values: Mapping[str, Any]) -> np.ndarray:
    """Pack resolved values into a float64 array (see module docstring)."""
    out = np.zeros(packed_length(params), dtype=np.float64)
    offs = layout(params)
    for p in params:
        p.pack_into(out, offs[p.name], values[p.name])
    return out


@dataclass(frozen=True)
class Variant:
    """A named preset of rule parameter overrides."""

    name: str
    overrides: Mapping[str, Any]
    doc: str
    players: tuple[int, int] | None = None  # allowed player counts (inclusive), None = any
    rule_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class PolicySpec:
    """A named policy: a kernel policy kind plus preset policy-parameter overrides."""

    name: str
    kind: int
    doc: str
    overrides: Mapping[str, Any] = field(default_factory=dict)
    # A policy with a parameter table of its own instead of the game's ``policy_params``: the
    # search policies (``sim.search``), whose ``base`` option names the kernel policy it
    # plays in the rollouts (and where it does not search).
    params: tuple[ParamSpec, ...] | None = None


@dataclass(frozen=True)
class Column:
    """A game-specific integer output column."""

    name: str
    doc: str


@dataclass(frozen=True)
class RuleStatus:
    """Implementation status of one rule ID of ``shared/rules/<game>.md``."""

    rule_id: str
    summary: str
    implemented: bool = True
    note: str = ""


@dataclass
class Components:
    """Component data loaded from editable files, packed for the kernel."""

    arrays: tuple  # tuple of numpy arrays, passed to the kernel as one argument
    source_dir: Path
    digest: str  # hash of the files' contents
    assumed: bool  # True if any datum is an [A] assumption (documented default)
    tables: dict = field(default_factory=dict)  # parsed tables for replay / reports


# Common output columns written by every kernel, before the game's own columns.
GAME_COMMON = ("rounds", "truncated", "n_winners", "winner_seat", "end_reason")
SEAT_COMMON = ("score", "rank", "won")
G_ROUNDS, G_TRUNCATED, G_N_WINNERS, G_WINNER_SEAT, G_END_REASON = range(5)
S_SCORE, S_RANK, S_WON = range(3)


@dataclass(frozen=True)
class BalanceFactor:
    """The game's balance factor: the seat column whose values a player's advantage depends on.

    Each value is held by at most one player of a game; a fair game gives each value's holder
    the fair share 1/N of the wins. ``seat`` (0 = start player) unless the game declares
    another column, such as the Flower Shop's randomly dealt initiative dice, where the seats
    are symmetric by construction and the dice fix the turn order.
    """

    column: str = "seat"  # a seats column (``seat`` or one of the game's seat_columns)
    name: str = "seat"  # what a value is called in words ("initiative die")
    labels: tuple[str, ...] = ()  # value v -> labels[v] ("I-A"); default "<name> <v>"

    def label(self, value) -> str:
        """Display name of one value: ``labels[value]``, else ``"<name> <value>"``."""
        v = int(value)
        return self.labels[v] if 0 <= v < len(self.labels) else f"{self.name} {v}"

    @property
    def is_seat(self) -> bool:
        return self.column == "seat"


@dataclass(frozen=True)
class Readings:
    """A solo rung whose source sentence is garbled: the game has one variant per reading of
    it. The readings are alternatives for that one rung, never two rungs, so reports check the
    ladder once with each reading in the rung's place."""

    name: str  # the rung in words ("very hard")
    source: str  # rule ID of the garbled sentence ("FS-V-VHARD-1")
    variants: tuple[tuple[str, str], ...]  # (variant, what this reading means); the spec's first


@dataclass(frozen=True)
class SoloDifficulty:
    """A game's solo difficulty ladder, as the solo report checks it (design §5: win
    probability per variant, monotonicity of the ladder, day of loss). Empty for a game without
    solo variants: reports then order solo variants as listed."""

    # Solo variants, easiest first; a garbled rung is named by its key in ``readings``.
    rungs: tuple[str, ...] = ()
    # rung -> its readings (the variants that stand in its place, one per reading).
    readings: Mapping[str, Readings] = field(default_factory=dict)
    # The ``loss_day`` value of a game played to its last day, labelled "end" (None: none).
    end_day: int | None = None


@dataclass(frozen=True)
class CardNote:
    """One card of a game's ``task_card`` column, as reports describe it."""

    name: str  # "T1"
    rule: str  # what the card asks, in the data file's words
    provenance: str = ""  # the datum's provenance tag (D, A, ...)
    assumption_id: str = ""  # "A-07" when the card is an assumption


@dataclass(frozen=True)
class ComponentNotes:
    """What the solo report says about one component data set (``GameSpec.component_notes``):
    its cards, and the assumptions (``assumption_id``) the data rest on."""

    # Where the data come from, in a sentence (e.g. which of them no source lists).
    summary: str = ""
    cards: tuple[CardNote, ...] = ()  # by card id (the ``task_card`` value)
    # (assumption ID, the data resting on it), sorted by ID.
    assumptions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # assumption ID -> an alternative the rules spec documents (named while no arm plays it).
    alternatives: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class GameSpec:
    """Everything the pipeline needs to know about one game.

    Kernel entry points (both ``@njit``):

    ``play_many(rules, comp, n_players, policy_kind, policy_params, master_seed, first_index,
    games_out, seats_out)`` fills ``games_out[i, :]`` (int64, ``GAME_COMMON`` then
    ``game_columns``) and ``seats_out[i, seat, :]`` (int64, ``SEAT_COMMON`` then
    ``seat_columns``) for game index ``first_index + i``; a serial loop compiled with
    ``nogil=True``, which ``sim.threads`` runs on slices of the rows in parallel.

    ``play_one(rules, comp, n_players, policy_kind, policy_params, master_seed, game_index,
    games_out_row, seats_out_row, log)`` plays one game, writing an event log (see
    :mod:`sim.trace`); ``format_event(event, ctx) -> str`` renders one event for replay.

    What reports say that only the game knows (``analysis`` reads it from here, so the analysis
    layer holds no game's knowledge; all default to nothing, so a game without solo variants
    declares none of the solo ones):

    ``solo_difficulty`` (:class:`SoloDifficulty`): the solo variants easiest first, the rungs
    whose source sentence has several readings (:class:`Readings`), and the ``loss_day`` value
    of a game played to its end; the solo report orders, checks and labels its ladder by it.

    ``end_reason_notes``: what each end reason means, one sentence each, printed beside the
    end reasons of every report.

    ``component_notes(components) -> ComponentNotes``: the loaded component data
    (:class:`Components`) as the solo report describes it: where the data come from, each
    task card's name, rule and provenance, the assumptions the data rest on and their
    documented alternatives.
    """

    id: str
    title: str
    version: str
    min_players: int
    max_players: int
    params: tuple[ParamSpec, ...]
    variants: Mapping[str, Variant]
    policy_params: tuple[ParamSpec, ...]
    policies: Mapping[str, PolicySpec]
    rules: tuple[RuleStatus, ...]
    game_columns: tuple[Column, ...]
    seat_columns: tuple[Column, ...]
    end_reasons: tuple[str, ...]
    load_components: Callable[[Path | None], Components]
    play_many: Callable
    play_one: Callable
    format_event: Callable
    default_variant: Callable[[int], str] = lambda n_players: "base"
    validate: Callable[[dict, int], None] | None = None
    # What a balance question is about in this game (the turn-order seat unless the game says
    # otherwise, e.g. the Flower Shop's randomly dealt initiative dice): every balance report,
    # comparison, sweep and plan grades win rates by it against the fair share 1/N.
    balance_factor: BalanceFactor = field(default_factory=lambda: BalanceFactor())
    # audit(arm, master_seed, first_index, games, seats) -> list of violated invariants (bounds,
    # die usage, score recomputation...), run by the registry-wide conformance tests.
    audit: Callable | None = None
    max_events: int = 20000
    # The game's declared array layouts (sim.layout.Block: rule and policy parameters, state,
    # seat block, output rows), printed by ``playtest layout GAME``.
    layouts: tuple = ()
    # Provenance tag -> meaning (the spec's legend), printed under `playtest rules GAME`.
    provenance: Mapping[str, str] = field(default_factory=dict)
    # The game's step machine (sim.decide.Steps): the one decision interface, used by the
    # scripted and search policies and the registry-wide decision tests.
    steps: Any = None
    # The policies from weakest to strongest, as `playtest ladder` plays them by default (its
    # rungs); empty = every policy in registration order, ``random`` first (see __post_init__).
    ladder: tuple[str, ...] = ()
    # The search policy on top of the ladder (`playtest ladder --search`), played against the
    # ladder's top rung only and on fewer games: it plays 1-150 games/s (docs/search.md).
    # Empty = ``search:base=<the top rung>``.
    search_rung: str = ""
    # kernel_components(arrays, player_counts) -> the ``comp`` tuple passed to kernels that
    # play games of these player counts (default: the loaded arrays). A game whose solo mode
    # runs code no multiplayer game does may add a marker array when 1 is among the counts:
    # Numba compiles per argument type, so that code is compiled only for runs with solo games
    # (the Flower Shop's feasibility solver), and a run of every count still compiles once.
    kernel_components: Callable[[tuple, tuple], tuple] | None = None
    # The solo difficulty ladder the reports check (see the class docstring); empty = none.
    solo_difficulty: SoloDifficulty = field(default_factory=SoloDifficulty)
    # component_notes(components) -> ComponentNotes for the solo report; None = nothing to say.
    component_notes: Callable[[Components], ComponentNotes] | None = None
    # What a traced game records (sim.tracing.TraceSpec: rounds, key resources, option kinds);
    # None = the game cannot be traced yet.
    trace: Any = None
    # end reason -> one sentence saying what it means (the reports print it next to the end
    # reasons table, e.g. {"solo_infeasible": "the end-of-day check found the remaining orders
    # can no longer be completed: a loss, recorded with that day (FS-SOLO-C1)"}); reasons
    # without a sentence are listed as undescribed. "truncated" is described for every game.
    end_reason_notes: Mapping[str, str] = field(default_factory=dict)

    def comp(self, components: Components, player_counts: tuple[int, ...]) -> tuple:
        """The component arrays of kernels that play games of ``player_counts``."""
        if self.kernel_components is None:
            return components.arrays
        return self.kernel_components(components.arrays, tuple(player_counts))

    def __post_init__(self):
        """Fill the default ladder and check that a declared one names only policies."""
        if not self.ladder:
            names = list(self.policies)
            order = (["random"] if "random" in names else []) + [n for n in names
                                                                if n != "random"]
            object.__setattr__(self, "ladder", tuple(order))
        if not self.search_rung and "search" in self.policies:
            object.__setattr__(self, "search_rung", f"search:base={self.ladder[-1]}")
        bad = [n for n in self.ladder if n not in self.policies]
        if bad:
            raise SpecError(f"{self.id}: ladder names unknown policies {bad}; valid: "
                            f"{', '.join(self.policies)}")

    # ---- names and validation -------------------------------------------------------
    def check_players(self, n: int) -> int:
        if not self.min_players <= n <= self.max_players:
            raise SpecError(
                f"{self.id}: --players {n} is out of range "
                f"(valid: {self.min_players}-{self.max_players})"
            )
        return n

    def variant(self, name: str | None, n_players: int) -> Variant:
        name = name or self.default_variant(n_players)
        if name not in self.variants:
            raise SpecError(
                f"{self.id}: " + unknown_name("variant", name, self.variants)
            )
        v = self.variants[name]
        if v.players and not v.players[0] <= n_players <= v.players[1]:
            lo, hi = v.players
            raise SpecError(
                f"{self.id}: variant '{name}' is for {lo}-{hi} players, not {n_players}; "
                f"variants for {n_players} players: "
                f"{', '.join(self.variants_for(n_players))}"
            )
        return v

    def variants_for(self, n_players: int) -> list[str]:
        return [
            k for k, v in self.variants.items()
            if not v.players or v.players[0] <= n_players <= v.players[1]
        ]

    def rule_values(self, n_players: int, variant: str | None = None,
                    tweaks: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Resolved rule values: defaults < variant preset < tweaks; validated."""
        self.check_players(n_players)
        v = self.variant(variant, n_players)
        values = resolve(self.params, v.overrides)
        values = resolve(self.params, {**values, **dict(tweaks or {})})
        if self.validate:
            self.validate(values, n_players)
        return values

    def pack_rules(self, values: Mapping[str, Any]) -> np.ndarray:
        return pack(self.params, values)

    def policy_values(self, text: str) -> tuple[str, dict[str, Any]]:
        """Parse ``NAME[:k=v,...]`` (or ``@PATH`` of a preset file, :mod:`sim.presets`) into
        (policy name, resolved policy-parameter values)."""
        name, _, rest = expand(text, self.id).partition(":")
        name = name.strip()
        if name not in self.policies:
            raise SpecError(
                f"{self.id}: " + unknown_name("policy", name, self.policies)
            )
        tweaks: dict[str, Any] = {}
        for item in filter(None, (s.strip() for s in rest.split(","))):
            k, eq, v = item.partition("=")
            if not eq:
                raise SpecError(f"policy option '{item}' must look like NAME=VALUE")
            tweaks[k.strip()] = v.strip()
        pol = self.policies[name]
        table = self.policy_params if pol.params is None else pol.params
        values = resolve(table, pol.overrides, what="policy parameter")
        values = resolve(table, {**values, **tweaks}, what="policy parameter")
        return name, values

    def pack_policies(self, policies: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Per-seat policy strings -> (policy_kind int64[n], policy_params float64[n, P_LEN])."""
        kinds = np.zeros(len(policies), dtype=np.int64)
        params = np.zeros((len(policies), packed_length(self.policy_params)), dtype=np.float64)
        for seat, text in enumerate(policies):
            name, values = self.policy_values(text)
            if self.policies[name].params is not None:  # a search policy: its base's arrays
                name, values = self.policy_values(values["base"])
            kinds[seat] = self.policies[name].kind
            params[seat] = pack(self.policy_params, values)
        return kinds, params

    @property
    def game_column_names(self) -> tuple[str, ...]:
        return GAME_COMMON + tuple(c.name for c in self.game_columns)

    @property
    def seat_column_names(self) -> tuple[str, ...]:
        return SEAT_COMMON + tuple(c.name for c in self.seat_columns)


def canonical_key(game: str, values: Mapping[str, Any]) -> str:
    """open_spiel-style key of non-default-aware values, e.g. ``flower_shop(days=6,...)``."""
    body = ",".join(f"{k}={_canon(v)}" for k, v in sorted(values.items()))
    return f"{game}({body})"


def _canon(v):
    if isinstance(v, tuple):
        return "[" + ";".join(str(x) for x in v) + "]"
    return str(v).lower() if isinstance(v, bool) else str(v)


def short_hash(obj: Any, n: int = 10) -> str:
    data = json.dumps(obj, sort_keys=True, default=str).encode()
    return hashlib.sha256(data).hexdigest()[:n]
