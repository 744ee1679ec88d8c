"""Search policies: Monte-Carlo rollouts over the one decision interface (``sim.decide``).

At each decision of a ``search`` seat, every legal option is tried on a copy of the state:
the copy re-samples what the deciding seat cannot know (the game's ``Steps.resample`` hook:
every random stream restarts from the search's own stream and hidden orders are re-shuffled,
so a rollout never sees the game's future), applies the option, and plays on to the end
with the **base policy** at every seat (the game's ``Steps.playout``, its self-play loop). The
option with the best mean result for the deciding seat wins: win share first (1 win, 1/k for a
k-way shared win, 0 loss), the mean score margin (own score minus the best other score; the
own score in solo) breaking ties, then the lowest option index; ``objective=margin`` ranks by
the margin first and breaks its ties by the win share.

The ``oracle`` variant skips the re-sampling: its rollouts play the game's real future (same
dice, same stack). It is an upper bound for solo modes, not a fair player; as its rollouts
are all alike with a deterministic base policy, it plays one rollout per option.

Policy options (``--policy search:rollouts=16,prune=halving,base=greedy``), the table
:data:`SEARCH_PARAMS` plus ``base``, one of the game's own policies:

- ``rollouts``: rollouts per option (without pruning; the total budget with it);
- ``prune``: ``none`` gives every option ``rollouts`` rollouts; ``halving`` (successive
  halving) spends the same budget in rounds, dropping the worse half of the options after
  each round, so clearly bad options stop costing rollouts and the good ones get more.

Randomness: the rollouts of decision ``d`` of game ``i`` draw from the sub-stream
``(master_seed, i, SUB_SEARCH)`` keyed by ``d`` and the rollout number, so a game's result
is a pure function of (seed, index) whatever the worker count, and the options of a decision
are compared on the same re-sampled futures (common random numbers).

The loop is generic, written once in this module over placeholders for the game's jitted
functions; :func:`kernel_for` compiles a copy per game with the placeholders bound
(``sim.loops``), which Numba caches like the games' own kernels.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .loops import Kernel, compile_for_game
from .rng import mix64, stream_start
from .threads import play_in_threads
from .spec import G_N_WINNERS, S_SCORE, S_WON, ParamSpec, PolicySpec, SpecError

SUB_SEARCH = 7          # the search's sub-stream (sim.rng SUB_* ids 0-2 are the games')
SEARCH = "search"
ORACLE = "oracle"
K_SEARCH = -1           # PolicySpec kinds of the search policies; kernels never see them
K_ORACLE = -2
PRUNE = ("none", "halving")
OBJECTIVES = ("win", "margin")

SEARCH_PARAMS = (
    ParamSpec("rollouts", "int", 16, "rollouts per option (with prune=halving: the budget, "
              "rollouts x options, spread over the halving rounds)", lo=1, hi=4096,
              source="[D]"),
    ParamSpec("prune", "choice", "none", "pruning of bad options: none, or halving "
              "(successive halving, the worse half dropped after each round)",
              choices=PRUNE, source="[D]"),
    ParamSpec("top", "int", 0, "options searched: the base policy's `top` best (its choice, "
              "then its choice with that one taken off the list, and so on); 0 searches every "
              "listed option, 1 plays the base policy", lo=0, hi=64, source="[D]"),
    ParamSpec("guard", "float", 0.0, "leave the base policy's choice only for an option whose "
              "paired advantage over it (the same rollouts) exceeds `guard` standard errors; "
              "the choice is never pruned; 0 = off", lo=0.0, hi=10.0, source="[D]"),
    ParamSpec("objective", "choice", "win", "what ranks the options: win (win share summed "
              "over the rollouts, the score margin breaking ties) or margin (the score margin "
              "first, the win share breaking ties; steadier where luck decides single games, "
              "e.g. Rattlebones)", choices=OBJECTIVES, source="[D]"),
)

# The per-seat search row the kernel reads (float64[n_players, SP_LEN]).
SP_MODE, SP_ROLLOUTS, SP_PRUNE, SP_OBJECTIVE, SP_TOP, SP_GUARD = range(6)
SP_LEN = 6
# the weight of the second measure in a rollout's paired difference for ``guard`` (win share
# and score margin, the objective's first measure at weight 1): it only breaks ties
TIE_WEIGHT = 1e-4
MODE_OFF, MODE_SEARCH, MODE_ORACLE = 0, 1, 2


def searchable(spec) -> bool:
    """The game has the hooks a search policy needs (``Steps.resample`` and ``playout``)."""
    return spec.steps is not None and spec.steps.resample is not None \
        and spec.steps.playout is not None


def search_policies(spec) -> dict[str, PolicySpec]:
    """The ``search`` and ``oracle`` entries of a searchable game's policy table: their own
    parameter table, :data:`SEARCH_PARAMS` plus ``base`` (one of the game's policies)."""
    base = tuple(spec.policies)
    default = "greedy" if "greedy" in base else base[0]
    params = SEARCH_PARAMS + (ParamSpec(
        "base", "choice", default, "the policy every seat plays in the rollouts",
        choices=base, source="[D]"),)
    return {
        SEARCH: PolicySpec(SEARCH, K_SEARCH, "Monte-Carlo rollouts of every option with the "
                           "base policy; hidden information re-sampled (sim.search)",
                           params=params),
        ORACLE: PolicySpec(ORACLE, K_ORACLE, "search that sees the game's real future (dice, "
                           "stack): an upper bound, not a fair player (sim.search)",
                           params=params),
    }


def is_search(spec, text: str) -> bool:
    """``text`` (a policy string) names a search policy."""
    name = text.partition(":")[0].strip()
    pol = spec.policies.get(name)
    return pol is not None and pol.kind in (K_SEARCH, K_ORACLE)


def uses_search(arm) -> bool:
    return any(is_search(arm.spec, p) for p in arm.policies)


def arrays(arm) -> tuple[np.ndarray, ...]:
    """The kernel inputs of an arm with search seats.

    Returns
    -------
    kinds, pparams : the policy arrays the game is played with (a search seat plays its base
        policy's kind and parameters wherever it does not search: setup, forced steps);
    bkinds, bpparams : the rollouts' policy arrays, the base policy at every seat;
    sp : float64[n_players, SP_LEN], the search row of each seat (mode 0 = not searching).
    """
    spec = arm.spec
    seats = list(arm.policies)
    sp = np.zeros((arm.n_players, SP_LEN), dtype=np.float64)
    bases = set()
    for seat, text in enumerate(seats):
        name, values = spec.policy_values(text)
        if spec.policies[name].kind not in (K_SEARCH, K_ORACLE):
            continue
        sp[seat, SP_MODE] = MODE_ORACLE if name == ORACLE else MODE_SEARCH
        sp[seat, SP_ROLLOUTS] = 1 if name == ORACLE else values["rollouts"]
        sp[seat, SP_PRUNE] = PRUNE.index(values["prune"])
        sp[seat, SP_OBJECTIVE] = OBJECTIVES.index(values["objective"])
        sp[seat, SP_TOP] = values["top"]
        sp[seat, SP_GUARD] = values["guard"]
        if values["top"] > 1 and not spec.steps.ranks:
            raise SpecError(f"{spec.id}: search top={values['top']} needs policies that rank "
                            f"the listed options, and this game's heuristics compute the option "
                            f"they want from the state (sim.decide.Steps.ranks); use top=0 "
                            f"(or a guard)")
        bases.add(values["base"])
        seats[seat] = values["base"]
    if len(bases) > 1:
        raise SpecError(f"search seats must share one base policy, got {', '.join(sorted(bases))}")
    kinds, pparams = spec.pack_policies(seats)
    bkinds, bpparams = spec.pack_policies([bases.pop()] * arm.n_players)
    return kinds, pparams, bkinds, bpparams, sp


_KERNELS: dict[str, Any] = {}


def kernel_for(spec):
    """The compiled search loop of ``spec``'s game (built once per process)."""
    if spec.id not in _KERNELS:
        if not searchable(spec):
            raise SpecError(f"{spec.id}: the search policies need the game's resample and "
                            f"playout hooks (sim.decide.Steps), which it does not have yet")
        _KERNELS[spec.id] = _build(spec.id, spec.steps)
    return _KERNELS[spec.id]


def run_games(arm, master_seed: int, first_index: int, games: np.ndarray,
              seats: np.ndarray) -> None:
    """Play games ``first_index + i`` of ``arm`` (which has search seats) into the result
    arrays (``sim.batch.run_games`` shapes), in parallel over games."""
    kinds, pparams, bkinds, bpparams, sp = arrays(arm)
    k = kernel_for(arm.spec)
    play_in_threads(k.play_many, (arm.rules, arm.comp, arm.n_players, kinds,
                                  pparams, bkinds, bpparams, sp, np.uint64(master_seed)),
                    first_index, games, seats)


def decide(arm, state: np.ndarray, master_seed: int, game_index: int, decision: int) -> int:
    """The option index a search seat of ``arm`` picks at the decision pending in ``state``
    (tests and tools; the seat is the pending decision's)."""
    kinds, pparams, bkinds, bpparams, sp = arrays(arm)
    k = kernel_for(arm.spec)
    steps = arm.spec.steps
    seat = int(state[steps.decider])
    if sp[seat, SP_MODE] == MODE_OFF:
        raise SpecError(f"seat {seat} does not play a search policy")
    rules, comp = arm.rules, arm.comp
    log = np.zeros((1, 8), dtype=np.int64)
    _, bwork = steps.new(rules, comp, np.int64(arm.n_players), bkinds, bpparams,
                         np.uint64(master_seed), np.int64(game_index), log)
    key = k.decision_key(np.uint64(master_seed), np.int64(game_index), np.int64(decision))
    grow = np.zeros(len(arm.spec.game_column_names), dtype=np.int64)
    srows = np.zeros((arm.n_players, len(arm.spec.seat_column_names)), dtype=np.int64)
    return int(k.search_index(state, rules, comp, np.int64(seat), bkinds, bpparams, bwork,
                              sp[seat], key, grow, srows))


# ---- the generic search loop -------------------------------------------------------------
# Plain functions over the placeholders below; ``_build`` compiles a copy of them per game
# with the placeholders bound to that game's jitted functions (``sim.loops``).
_new = _advance = _apply = _choose = _finish = _resample = _playout = None
DECIDER = N_OPTIONS = OPTIONS = 0


def decision_key(master_seed, game_index, decision):
    """The int64 key of decision ``decision`` of a game: its rollouts' streams start there."""
    base = stream_start(master_seed, game_index, np.uint64(SUB_SEARCH))
    return np.int64(mix64(base ^ mix64(np.uint64(decision) + np.uint64(1))))


def rollout_key(key, r):
    """The int64 key of rollout ``r`` of a decision, the same for every option (common random
    numbers)."""
    return np.int64(mix64(np.uint64(key) ^ mix64(np.uint64(r) + np.uint64(SUB_SEARCH))))


def rollout(state, rules, comp, seat, index, bkinds, bpparams, bwork, oracle, key, r, copy,
            grow, srows, log):
    """One rollout of option ``index``: copy, re-sample (not the oracle), apply, play on with
    the base policy, score. Returns (win share, score margin) of ``seat``. The re-sampling
    comes first because applying an option may already draw (a Rattlebones dice choice rolls
    the chosen dice)."""
    copy[:] = state
    if not oracle:
        _resample(copy, rules, comp, seat, rollout_key(key, r))
    _apply(copy, rules, comp, index, log)
    _playout(copy, rules, comp, bkinds, bpparams, bwork, log)
    _finish(copy, rules, comp, grow, srows)
    share = srows[seat, S_WON] / max(grow[G_N_WINNERS], 1) if srows[seat, S_WON] != 0 else 0.0
    best_other = 0
    first = True
    for p in range(srows.shape[0]):
        if p != seat and (first or srows[p, S_SCORE] > best_other):
            best_other = srows[p, S_SCORE]
            first = False
    return share, np.float64(srows[seat, S_SCORE] - best_other)


def better(w, m, i, j, by_margin):
    """Option ``i`` beats option ``j`` (same rollout counts): win sum, then margin sum (the
    other way round ``by_margin``), then the lower index."""
    if by_margin:
        w, m = m, w
    if w[i] != w[j]:
        return w[i] > w[j]
    if m[i] != m[j]:
        return m[i] > m[j]
    return i < j


def ranked(state, rules, comp, bkinds, bpparams, bwork, top, copy):
    """The indices of the base policy's ``top`` best options at the pending decision, best
    first: its choice, then its choice on a copy with the chosen options taken off the list
    (the others keep their order). Policies pick among the listed codes, so the ranking is
    theirs; one that wants an option already taken off (``index_of`` gives -1) ends it."""
    n = state[N_OPTIONS]
    copy[:] = state
    index = np.arange(n)               # the pending list's index of each option on the copy
    k = min(top, n)
    out = np.empty(k, dtype=np.int64)
    for t in range(k):
        i = _choose(copy, rules, comp, bkinds, bpparams, bwork)
        if not 0 <= i < copy[N_OPTIONS]:   # the policy wants an option taken off: rank no more
            return out[:t]
        out[t] = index[i]
        left = copy[N_OPTIONS] - 1
        for q in range(i, left):
            copy[OPTIONS + q] = copy[OPTIONS + q + 1]
            index[q] = index[q + 1]
        copy[N_OPTIONS] = left
    return out


def search_index(state, rules, comp, seat, bkinds, bpparams, bwork, sp, key, grow, srows):
    """The option index the search picks at the pending decision of ``seat`` (``sp``: its
    search row; ``grow``/``srows``: scratch result rows of the game's shape).

    The options searched are every listed option, or with ``top`` the base policy's ``top``
    best (``ranked``; one left: it is played without rollouts). Without pruning every option
    searched gets ``rollouts`` rollouts. With successive halving the budget ``rollouts * n``
    (n options searched) is spread over ceil(log2 n) rounds; after each round the worse half
    of the options (by ``better``) is dropped. With a ``guard`` the base policy's own choice
    is never dropped, and the best option replaces it only when its mean paired difference
    over their common rollouts (``paired``) exceeds ``guard`` standard errors."""
    copy = np.empty_like(state)
    top = np.int64(sp[SP_TOP])
    if top > 0:
        alive = ranked(state, rules, comp, bkinds, bpparams, bwork, top, copy)
        if alive.shape[0] == 1:
            return alive[0]
    else:
        alive = np.arange(state[N_OPTIONS])
    n = alive.shape[0]
    guard = sp[SP_GUARD]
    base = -1                      # the base policy's choice, kept with a guard
    if guard > 0:
        if top > 0:
            base = alive[0]
        else:
            copy[:] = state
            base = _choose(copy, rules, comp, bkinds, bpparams, bwork)
    oracle = sp[SP_MODE] == MODE_ORACLE
    rollouts = np.int64(sp[SP_ROLLOUTS])
    by_margin = sp[SP_OBJECTIVE] != 0
    log = np.zeros((1, 8), dtype=np.int64)
    w = np.zeros(state[N_OPTIONS], dtype=np.float64)
    m = np.zeros(state[N_OPTIONS], dtype=np.float64)
    kept = state[N_OPTIONS] if base >= 0 else 0          # a guard's scratch, else none
    dsum = np.zeros(kept, dtype=np.float64)              # paired differences to the base
    dsq = np.zeros(kept, dtype=np.float64)
    m_alive = n
    rounds = 1
    if sp[SP_PRUNE] != 0:
        while (1 << rounds) < n:
            rounds += 1
    done = 0                       # rollouts each alive option has had
    for rnd in range(rounds):
        k = rollouts if rounds == 1 else max(1, rollouts * n // (rounds * m_alive))
        bw = np.zeros(k if base >= 0 else 0)             # the base choice's rollouts
        bm = np.zeros(k if base >= 0 else 0)
        if base >= 0:
            for r in range(done, done + k):
                s, g = rollout(state, rules, comp, seat, base, bkinds, bpparams, bwork, oracle,
                               key, r, copy, grow, srows, log)
                bw[r - done] = s
                bm[r - done] = g
                w[base] += s
                m[base] += g
        for a in range(m_alive):
            j = alive[a]
            if j == base:
                continue
            for r in range(done, done + k):
                s, g = rollout(state, rules, comp, seat, j, bkinds, bpparams, bwork, oracle,
                               key, r, copy, grow, srows, log)
                w[j] += s
                m[j] += g
                if base >= 0:
                    d = paired(s - bw[r - done], g - bm[r - done], by_margin)
                    dsum[j] += d
                    dsq[j] += d * d
        done += k
        if rnd < rounds - 1:       # keep the better half (insertion sort, best first)
            for a in range(1, m_alive):
                j = alive[a]
                b = a
                while b > 0 and better(w, m, j, alive[b - 1], by_margin):
                    alive[b] = alive[b - 1]
                    b -= 1
                alive[b] = j
            m_alive = (m_alive + 1) // 2
            for a in range(m_alive, n):    # a guard keeps the base choice in the last place
                if alive[a] == base:
                    alive[a], alive[m_alive - 1] = alive[m_alive - 1], alive[a]
    best = alive[0]
    for a in range(1, m_alive):
        if better(w, m, alive[a], best, by_margin):
            best = alive[a]
    if base >= 0 and best != base:
        mean = dsum[best] / done
        var = (dsq[best] - done * mean * mean) / (done - 1) if done > 1 else np.inf
        if not mean > guard * np.sqrt(max(var, 0.0) / done):
            best = base
    return best


def paired(dw, dm, by_margin):
    """One rollout's paired difference of an option to the base choice: the objective's first
    measure, the other at ``TIE_WEIGHT`` (win share and margin: ``better``'s order)."""
    if by_margin:
        return dm + TIE_WEIGHT * dw
    return dw + TIE_WEIGHT * dm


def play_game(rules, comp, n_players, kinds, pparams, bkinds, bpparams, sp, master_seed,
              game_index, grow, srows, log):
    """Play one game into ``grow``/``srows``: search seats decide by ``search_index``, the
    others by their policy (``sim.decide``'s loop)."""
    state, work = _new(rules, comp, n_players, kinds, pparams, master_seed, game_index, log)
    quiet = np.zeros((1, log.shape[1]), dtype=np.int64)
    _, bwork = _new(rules, comp, n_players, bkinds, bpparams, master_seed, game_index, quiet)
    rgrow = np.zeros_like(grow)
    rsrows = np.zeros_like(srows)
    d = 0
    while _advance(state, rules, comp, log):
        seat = state[DECIDER]
        if sp[seat, SP_MODE] != MODE_OFF:
            i = search_index(state, rules, comp, seat, bkinds, bpparams, bwork, sp[seat],
                             decision_key(master_seed, game_index, d), rgrow, rsrows)
        else:
            i = _choose(state, rules, comp, kinds, pparams, work)
        _apply(state, rules, comp, i, log)
        d += 1
    _finish(state, rules, comp, grow, srows)


def play_many(rules, comp, n_players, kinds, pparams, bkinds, bpparams, sp, master_seed,
              first_index, games_out, seats_out):
    """Games ``first_index + i``; game i writes only its own rows (serial and ``nogil``:
    ``sim.threads`` plays slices on threads)."""
    for i in range(games_out.shape[0]):
        log = np.zeros((1, 8), dtype=np.int64)
        play_game(rules, comp, n_players, kinds, pparams, bkinds, bpparams, sp, master_seed,
                  first_index + i, games_out[i], seats_out[i], log)


_LOOP = (decision_key, rollout_key, rollout, better, ranked, paired, search_index, play_game, play_many)


def _build(game_id: str, steps) -> Kernel:
    """Compile the search loop for one game (``sim.loops``): a copy of each ``_LOOP`` function
    with the placeholders bound to the game's jitted functions, named ``<name>__<game>``."""
    return compile_for_game(
        globals(), _LOOP, game_id,
        dict(_new=steps.new, _advance=steps.advance, _apply=steps.apply, _choose=steps.choose,
             _finish=steps.finish, _resample=steps.resample, _playout=steps.playout,
             DECIDER=steps.decider, N_OPTIONS=steps.n_options, OPTIONS=steps.options),
        entry="play_game", nogil=(play_many,))
