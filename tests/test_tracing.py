"""Round traces (sim.tracing) over every game that declares one (``GameSpec.trace``).

- the declaration is well formed: every decision point has its kinds (2 to 12, names
  unique), and 2 to 5 named resources;
- a traced game plays the games of ``sim.batch.run_games`` (same rows), greedy and random, at
  the smallest and the largest player count (solo for the Flower Shop);
- its rounds are 1..R with every seat present, R is the ``rounds`` column of an untruncated
  game, and the last round holds the final scores;
- the action counts add up: per seat and point, the kinds chosen sum to the real choices
  (faced - forced - no legal option), no kind is legal more often than that;
- forced decisions are seen: the points the rules often make forced count them (seeded
  games), and a hand-made state with one legal option is posted by ``advance_all`` (and
  taken by ``advance``); the points with no legal option are counted where the rules reach
  them;
- stepping random games through ``sim.decide``: every listed option's kind belongs to the
  pending point, the trace functions never change the state, the round never goes back, and
  at the end the running score is the final score;
- per game, one hand-made state gives known scores and kinds.
"""
import numpy as np
import pytest

from sim.games.flower_shop import options as FO
from sim.games.rattlebones import options as RO
from sim.games.waggle_dance import options as WO
from sim import batch, decide, registry, tracing
from sim.spec import G_ROUNDS, G_TRUNCATED, S_SCORE

TRACED = [g for g in registry.available_games() if registry.make(g).trace is not None]
SEED = 41
N_GAMES = 30


def _arm(game, n, policy="greedy"):
    return batch.make_arm(registry.make(game), n, policy=policy)


def _cases():
    for g in TRACED:
        spec = registry.make(g)
        for n in (spec.min_players, spec.max_players):
            yield pytest.param(g, n, id=f"{g}-{n}p")


def _kind(spec, game_state, point, code, rules, comp):
    return int(spec.trace.kind_of(game_state, rules, comp, np.int64(point), np.int64(code)))


@pytest.mark.parametrize("game", TRACED)
def test_the_declaration_is_well_formed(game):
    spec = registry.make(game)
    t = spec.trace
    assert isinstance(t, tracing.TraceSpec)
    assert 2 <= len(t.resources) <= 5 and len(set(t.resources)) == len(t.resources)
    assert t.score and t.max_rounds >= 8
    points = [p for p, _ in t.kinds]
    assert set(points) == set(spec.steps.points), "every point has kinds, and only points do"
    for p in spec.steps.points:
        names = [name for q, name in t.kinds if q == p]
        assert 2 <= len(names) <= 12, (spec.steps.points[p], names)
        assert len(set(names)) == len(names), (spec.steps.points[p], names)


@pytest.mark.parametrize("game,n", list(_cases()))
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_traced_games_are_the_games_of_run_games(game, n, policy):
    arm = _arm(game, n, policy)
    games, seats = batch.run_games(arm, SEED, 5, N_GAMES)
    g, s, n_rounds, rounds, kinds, points = tracing.play(arm, SEED, 5, N_GAMES)
    assert np.array_equal(g, games) and np.array_equal(s, seats)

    spec = arm.spec
    for i in range(N_GAMES):
        r = n_rounds[i]
        if r < 0:                       # longer than max_rounds: only near the safety cap
            assert games[i, G_TRUNCATED] == 1, f"game {i} overflowed max_rounds"
            continue
        if not games[i, G_TRUNCATED]:
            assert r == games[i, G_ROUNDS], f"game {i}: {r} rounds traced"
        rec = rounds[i, :r]
        assert np.array_equal(rec[:, :, tracing.RC_ROUND],
                              np.repeat(np.arange(1, r + 1)[:, None], n, axis=1)), f"game {i}"
        assert np.array_equal(rec[:, :, tracing.RC_SEAT],
                              np.repeat(np.arange(n)[None, :], r, axis=0)), f"game {i}"
        assert np.array_equal(rec[-1, :, tracing.RC_SCORE], seats[i, :, S_SCORE]), f"game {i}"
        assert not rounds[i, r:].any(), f"game {i}: records past its last round"

    # the action counts add up, per seat and point: faced = real choices + forced + none
    point_of = np.array([p for p, _ in spec.trace.kinds])
    for p in spec.steps.points:
        of_p = point_of == p
        forced = points[:, :, p, tracing.PC_FORCED]
        none = points[:, :, p, tracing.PC_NO_LEGAL]
        choices = points[:, :, p, tracing.PC_FACED] - forced - none
        assert (choices >= 0).all(), p
        assert np.array_equal(kinds[:, :, of_p, tracing.AC_CHOSEN].sum(axis=2), choices), p
        assert (kinds[:, :, of_p, tracing.AC_LEGAL] <= choices[:, :, None]).all(), p
        assert (points[:, :, p, tracing.PC_OPTIONS] >= 2 * choices + forced).all(), p
        # a decision with two or more options has at least one legal kind
        assert (kinds[:, :, of_p, tracing.AC_LEGAL].sum(axis=2) >= choices).all(), p
    assert points[:, :, 0].sum() == 0 and points.sum() > 0


@pytest.mark.parametrize("game,n", list(_cases()))
def test_every_listed_option_has_a_kind_of_its_point(game, n):
    """Random games stepped through sim.decide: at every decision the kind of every listed
    code is a kind of the pending point; the trace functions leave the state unchanged; the
    round never goes back; at the end the running score is the final score."""
    arm = _arm(game, n, "random")
    spec = arm.spec
    t = spec.trace
    steps = spec.steps
    rules, comp = arm.rules, arm.comp
    res = np.zeros(len(t.resources), dtype=np.int64)
    seen = set()
    for index in range(3):
        k, p = arm.policy_arrays
        g = decide.start(steps, rules, comp, n, k, p, SEED, index)
        last = int(t.round_of(g.state))
        assert last in (0, 1)
        while g.advance():
            before = g.state.copy()
            point, seat, codes = steps.pending(g.state)
            r = int(t.round_of(g.state))
            assert last <= r, (last, r)
            last = r
            for code in codes:
                kind = _kind(spec, g.state, point, code, rules, comp)
                assert 0 <= kind < len(t.kinds) and t.kinds[kind][0] == point, \
                    (steps.points[point], code, kind)
                seen.add(kind)
            for s in range(n):
                t.score_of(g.state, rules, comp, np.int64(s))
                t.resources_of(g.state, rules, comp, np.int64(s), res)
            assert np.array_equal(g.state, before), "a trace function changed the state"
            g.apply(g.choose())
        row, seat_rows = g.results(n, len(spec.game_column_names), len(spec.seat_column_names))
        final = [int(t.score_of(g.state, rules, comp, np.int64(s))) for s in range(n)]
        assert final == list(seat_rows[:, S_SCORE])
        if not row[G_TRUNCATED]:
            assert last == row[G_ROUNDS]
    assert len(seen) >= len(steps.points) // 2, "random games should list many kinds"


# ---- one hand-made state per game -------------------------------------------------------------

def _start(game, n):
    arm = _arm(game, n)
    k, p = arm.policy_arrays
    g = decide.start(arm.spec.steps, arm.rules, arm.comp, n, k, p, SEED, 0)
    return arm, g.state.copy()


def _name(spec, point, code, state, arm):
    k = _kind(spec, state, point, code, arm.rules, arm.comp)
    assert spec.trace.kinds[k][0] == point
    return spec.trace.kinds[k][1]


def test_rattlebones_hand_made():
    from sim.games.rattlebones import layout as L
    arm, st = _start("rattlebones", 2)
    spec = arm.spec
    b1 = L.SEAT0 + L.SEAT_LEN
    st[b1 + L.F_SCORE] = 17
    st[b1 + L.F_GOLD], st[b1 + L.F_STARS], st[b1 + L.F_STOCKS] = 3, 2, 1
    assert spec.trace.score_of(st, arm.rules, arm.comp, 1) == 17
    res = np.zeros(4, dtype=np.int64)
    spec.trace.resources_of(st, arm.rules, arm.comp, 1, res)
    assert list(res[:3]) == [3, 2, 1]
    st[L.S_DECIDER] = 1
    st[L.S_CTX_FACE] = L.FC_STAR
    assert _name(spec, L.D_INSTALL, 0, st, arm) == "decline"
    assert _name(spec, L.D_INSTALL, 4, st, arm) == "install a gold / star / stock"
    st[L.S_CTX_FACE] = L.FC_POINTS_1 + 2
    assert _name(spec, L.D_INSTALL, 2, st, arm) == "install a points face"
    # seat 1's monkey 2 stands on space 3; 2 spaces on is a +1 space, 1 on is START
    st[b1 + L.F_MONKEY + 2] = 3
    st[L.S_SPACE_KIND + 5] = L.SP_PLUS1
    st[L.S_SPACE_KIND + 4] = L.SP_START
    assert _name(spec, L.D_MOVE, RO.encode_move(2, 2), st, arm) == "land on a +1 space"
    assert _name(spec, L.D_NINE, RO.encode_move(1, 2), st, arm) == "land on START (shop)"
    assert _name(spec, L.D_RM_MOVE, -1, st, arm) == "decline"
    assert _name(spec, L.D_PLUS1, RO.encode_plus1(1, 1, 2), st, arm) \
        == "upgrade a points face"
    assert _name(spec, L.D_SHOP, 3, st, arm) == "cash 3 stars"
    assert _name(spec, L.D_THIEF, L.TK_STOCK, st, arm) == "steal a stock"
    # die 1 of seat 1 carries a GOLD face: it is the most-built die
    st[b1 + L.F_FACE + 1 * L.N_SLOTS + 3] = L.FC_GOLD
    assert _name(spec, L.D_DICE, 0b010, st, arm) == "rolls a most-built die"
    assert _name(spec, L.D_DICE, 0b001, st, arm) == "rolls only less-built dice"


def test_flower_shop_hand_made():
    from sim.games.flower_shop import layout as L
    from sim.games.flower_shop import rules as R
    arm, st = _start("flower_shop", 2)
    spec = arm.spec
    tiles = arm.comp[0]
    stars = tiles[:, L.TL_STARS]
    t7, t3 = int(np.argmax(stars)), int(np.argmin(stars))
    b = L.SEAT0
    ns = int(arm.rule_values["shop_rows"]) * int(arm.rule_values["shop_cols"])
    st[b + L.F_SHOP:b + L.F_SHOP + ns] = -1
    st[b + L.F_FIN:b + L.F_FIN + ns] = 0
    st[b + L.F_SHOP + 0], st[b + L.F_FIN + 0] = t7, 1     # finished
    st[b + L.F_SHOP + 1], st[b + L.F_FIN + 1] = t3, 0     # unfinished: left out
    st[b + L.F_RIBBONS] = 2
    before = st.copy()
    want = int(stars[t7]) + 2 * int(arm.rules[R.R_RIBBON_POINTS])
    assert spec.trace.score_of(st, arm.rules, arm.comp, 0) == want
    assert np.array_equal(st, before)
    st[L.S_DECIDER] = 0
    assert _name(spec, L.D_LOCK, 0, st, arm) == "skip (lock no dice, pay)"
    assert _name(spec, L.D_LOCK, 0b11, st, arm) == "free lock"
    assert _name(spec, L.D_LOCK, 0b10110, st, arm) == "paid lock (extra dice)"
    st[L.S_ROW + 1] = t7
    assert _name(spec, L.D_TILE, FO.encode_tile(1, 4), st, arm) == "tile of 7 stars or more"
    st[L.S_ROW + 0] = t3
    assert _name(spec, L.D_TILE, FO.encode_tile(0, 4), st, arm) == "tile of 3 stars or fewer"
    assert _name(spec, L.D_STEP4, L.A_DONE, st, arm) == "done (end Step 4)"
    assert _name(spec, L.D_STEP4, FO.encode_step4(L.A_FINISH, 2), st, arm) == "finish a tile"
    assert _name(spec, L.D_STEP4, FO.encode_step4(L.A_TAKE_TOKEN, 0b101), st, arm) \
        == "take a token with dice"
    assert _name(spec, L.D_RIBBON, 1, st, arm) == "buy a ribbon"
    assert _name(spec, L.D_REFRESH, 0, st, arm) == "keep the row"


def test_cupcake_empire_hand_made():
    from sim.games.cupcake_empire import layout as L
    arm, st = _start("cupcake_empire", 3)
    spec = arm.spec
    b2 = L.SEAT0 + 2 * L.SEAT_LEN
    st[b2 + L.F_INCOME] = 23
    assert spec.trace.score_of(st, arm.rules, arm.comp, 2) == 23
    assert spec.trace.round_of(st) == 0          # the setup decisions come first
    st[L.S_DECIDER] = 2
    # DP6: column 1 offers levels 1..3, column 5 level 1
    opts = [0 * 8 + 1, 0 * 8 + 2, 0 * 8 + 3, 4 * 8 + 1]
    st[L.S_N_OPTIONS] = len(opts)
    st[L.S_OPTIONS:L.S_OPTIONS + len(opts)] = opts
    assert _name(spec, L.D_ACTIVATE, 0 * 8 + 3, st, arm) == "column 1 top level"
    assert _name(spec, L.D_ACTIVATE, 0 * 8 + 2, st, arm) == "column 1 lower level"
    assert _name(spec, L.D_ACTIVATE, 4 * 8 + 1, st, arm) == "column 5 top level"
    assert _name(spec, L.D_ACTIVATE, 2 * 8 + 0, st, arm) == "level 0 (reroll only)"
    assert _name(spec, L.D_SHOP, L.SRC_RESERVE * 64 + 2 * 8 + 2, st, arm) \
        == "from the reserve, displacing"
    assert _name(spec, L.D_SHOP, 1 * 64 + 2 * 8 + 0, st, arm) == "relocated to an empty slot"
    assert _name(spec, L.D_SELL, 3 * 4 + 2, st, arm) == "customer of value 3+"   # BEI1, d3
    assert _name(spec, L.D_SELL, 0 * 4 + 0, st, arm) == "customer of value 1"    # GREY, d1
    # S1: a SELL2 disc on space 2 of the activated column 4
    st[L.S_COL] = 3
    st[b2 + L.F_DISC + 3 * L.MAX_SPACES + 1] = L.X_SELL2
    assert _name(spec, L.D_S1, L.S1_DISC + 1, st, arm) == "disc SELL2"
    assert _name(spec, L.D_S1, L.S1_END, st, arm) == "end S1"
    assert _name(spec, L.D_FREE, L.FA_DONE, st, arm) == "done (close the window)"
    assert _name(spec, L.D_MENU, 2 * 10 + 5, st, arm) == "mixed base + mixed frosting"
    assert _name(spec, L.D_OVERFLOW, 5, st, arm) == "pink"


def test_waggle_dance_hand_made():
    from sim.games.waggle_dance import layout as L
    arm, st = _start("waggle_dance", 2)
    spec = arm.spec
    b = L.SEAT0 + L.SEAT_LEN
    st[b + L.F_HONEY] = 4
    assert spec.trace.score_of(st, arm.rules, arm.comp, 1) == 4
    assert spec.trace.round_of(st) == 0
    st[L.S_DECIDER] = 1
    st[b + L.F_N_TILES] = 3
    st[b + L.F_EGG + 0] = 1
    st[b + L.F_CUBES + 1 * L.N_COL + 2] = 1               # tile 1 holds one cube of colour 2
    assert _name(spec, L.D_PLACE, WO.encode_place(3, L.DEST_E), st, arm) == "E trade"
    assert _name(spec, L.D_PLACE, WO.encode_place(2, L.DEST_TILE + 0), st, arm) \
        == "own tile with an egg (B hatch)"
    assert _name(spec, L.D_PLACE, WO.encode_place(2, L.DEST_TILE + 1), st, arm) \
        == "own tile without egg (F honey)"
    assert _name(spec, L.D_PLACE, L.TURN_CARD + L.Q_FEINT * L.CARD_PLAY + 77, st, arm) \
        == "card: Shift Change / Feint"
    assert _name(spec, L.D_CUBE, 2 * L.MAX_HIVE + 1, st, arm) == "onto a tile holding that colour"
    assert _name(spec, L.D_CUBE, 3 * L.MAX_HIVE + 1, st, arm) \
        == "onto a tile holding other colours"
    assert _name(spec, L.D_CUBE, 3 * L.MAX_HIVE + 2, st, arm) == "onto an empty tile"
    assert _name(spec, L.D_TRADE, L.TR_EGG + 4, st, arm) == "pay eggs"
    assert _name(spec, L.D_PAIR, L.PAIR_DONE, st, arm) == "leave unpaired"
    assert _name(spec, L.D_PAIR, WO.encode_pair(1, 1, 2, -1), st, arm) \
        == "pair on one tile"
    assert _name(spec, L.D_FLIP, L.FLIP_ALCHEMY * L.MAX_HIVE + 1, st, arm) == "flip with Alchemy"
    assert _name(spec, L.D_CARD, L.Q_QUEENS_GIFT * L.CARD_PLAY + 1 + 2, st, arm) \
        == "Queen's Gift: an egg"
    assert _name(spec, L.D_KEEP, L.Q_ALCHEMY, st, arm) == "keep Expertise / Efficiency / Alchemy"
    res = np.zeros(5, dtype=np.int64)
    spec.trace.resources_of(st, arm.rules, arm.comp, 1, res)
    assert list(res[1:4]) == [3, 1, 1]                    # tiles, cubes, eggs


# ---- forced decisions and decision points with no legal option ---------------------------------
# (game, players, policy, points the rules often make forced, points often reached with no
# legal option), seen in the first 40 traced games of SEED
COUNTED = [
    ("rattlebones", 2, "random", ("D01 extra dice e", "D05 resolution order"),
     ("D12 thief item",)),
    ("cupcake_empire", 2, "random", ("DP4 rest die", "DP7 main action or disc"),
     ("DP11 customer", "DP12 disc gain")),
    # version 0.5's greedy: it puts dice on C with no EMPTY tile for the egg (careful does not)
    ("waggle_dance", 2, "greedy:careful=false", ("DP-18 pairing", "DP-19 flip"),
     ("DP-14 take egg",)),
    ("flower_shop", 2, "greedy", ("DP-1 lock", "DP-3/5/6/8 Step-4 action"), ()),
]


@pytest.mark.parametrize("game,n,policy,forced,none", COUNTED, ids=[c[0] for c in COUNTED])
def test_forced_decisions_and_points_with_no_legal_option_are_counted(game, n, policy, forced,
                                                                      none):
    arm = _arm(game, n, policy)
    code = {name: p for p, name in arm.spec.steps.points.items()}
    *_, points = tracing.play(arm, SEED, 0, 40)
    tot = points.sum(axis=(0, 1))
    for name in forced:
        assert tot[code[name], tracing.PC_FORCED] > 0, name
    for name in none:
        assert tot[code[name], tracing.PC_NO_LEGAL] > 0, name
    # the points it never reaches with no legal option (the rules always offer something there)
    never = set(code) - set(none)
    if game == "rattlebones":
        never -= {"D06 monkey and move", "D07 NINE distance", "D08 face install",
                  "D13 optional Ringmaster move"}     # possible, rarer than 40 games show
    if game == "cupcake_empire":
        never -= {"DP6 column and level", "DP8 simple base", "DP9 simple frosting",
                  "DP9 mixed pair", "DP10 shop placement", "DP12 hire colour",
                  "DP12 yellow bakery", "DP12 level-4 choice"}
    if game == "waggle_dance":
        never -= {"DP-17 trade", "DP-17 received cube"}
    if game == "flower_shop":
        never -= {"DP-1 lock", "DP-2 tile and slot"}
    for name in never:
        assert tot[code[name], tracing.PC_NO_LEGAL] == 0, name


def _step_all(arm, g, point, max_decisions=5000):
    """Step ``g`` with the game's ``advance_all`` (forced decisions with option 0, the others
    with the seats' policies) until a decision of ``point`` with two or more options is
    pending."""
    steps = arm.spec.steps
    for _ in range(max_decisions):
        assert steps.advance_all(g.state, g.rules, g.comp, g.log), "the game ended first"
        p, _, codes = steps.pending(g.state)
        if p == point and len(codes) >= 2:
            return g
        if codes:
            g.apply(0 if len(codes) == 1 else g.choose())
    raise AssertionError(f"no decision {steps.points[point]} in {max_decisions} decisions")


def _posted(arm, g):
    steps = arm.spec.steps
    assert steps.advance_all(g.state, g.rules, g.comp, g.log)
    return steps.pending(g.state)


def test_rattlebones_a_turn_with_no_gold_has_a_forced_extra_dice_decision():
    from sim.games.rattlebones import layout as L
    arm = _arm("rattlebones", 3)
    k, p = arm.policy_arrays
    g = decide.start(arm.spec.steps, arm.rules, arm.comp, 3, k, p, SEED, 0)
    seat = int(g.state[L.S_ACTIVE])
    g.state[L.SEAT0 + seat * L.SEAT_LEN + L.F_GOLD] = 0      # no extra die affordable (RB-T1)
    other = g.copy()
    assert _posted(arm, g) == (L.D_EXTRA, seat, [0])         # forced: no extra die
    # advance takes it itself (option 0) and stops at the first real choice
    assert other.advance() and int(other.state[L.S_POINT]) != L.D_EXTRA
    g.apply(0)
    assert arm.spec.steps.advance(g.state, g.rules, g.comp, g.log)
    assert np.array_equal(g.state, other.state)


def test_cupcake_empire_a_simple_base_with_one_or_no_flavour_left():
    from sim.games.cupcake_empire import layout as L
    arm = _arm("cupcake_empire", 2, "random")
    k, p = arm.policy_arrays
    g = _step_all(arm, decide.start(arm.spec.steps, arm.rules, arm.comp, 2, k, p, SEED, 0),
                  L.D_BASE)
    seat = int(g.state[L.S_DECIDER])
    g.state[L.S_POINT] = g.state[L.S_N_OPTIONS] = 0      # withdrawn: listed again on resume
    one, none = g.copy(), g.copy()
    one.state[L.S_SUP_BASE + 0] = 0                      # one simple base left: forced
    assert _posted(arm, one) == (L.D_BASE, seat, [1])
    none.state[L.S_SUP_BASE:L.S_SUP_BASE + 2] = 0        # none left: skipped (rules §5)
    other = none.copy()
    assert _posted(arm, none) == (L.D_BASE, seat, [])
    assert len(_posted(arm, none)[2]) > 0                # passed: play goes on
    assert other.advance() and int(other.state[L.S_N_OPTIONS]) >= 2   # advance passes it


def test_waggle_dance_an_egg_die_with_the_egg_supply_empty():
    from sim.games.waggle_dance import layout as L
    arm = _arm("waggle_dance", 2)
    k, p = arm.policy_arrays
    g = _step_all(arm, decide.start(arm.spec.steps, arm.rules, arm.comp, 2, k, p, SEED, 0),
                  L.D_EGG)
    seat = int(g.state[L.S_DECIDER])
    g.state[L.S_POINT] = g.state[L.S_N_OPTIONS] = 0
    g.state[L.S_EGG_SUPPLY] = 0                          # WD-C3: the die does nothing
    other = g.copy()
    assert _posted(arm, g) == (L.D_EGG, seat, [])
    assert other.advance() and int(other.state[L.S_N_OPTIONS]) >= 2   # advance passes it


def test_flower_shop_step_3_with_an_empty_row():
    from sim.games.flower_shop import layout as L
    arm = _arm("flower_shop", 2)
    k, p = arm.policy_arrays
    g = _step_all(arm, decide.start(arm.spec.steps, arm.rules, arm.comp, 2, k, p, SEED, 0),
                  L.D_TILE)
    seat = int(g.state[L.S_DECIDER])
    g.state[L.S_POINT] = g.state[L.S_N_OPTIONS] = 0
    g.state[L.S_ROW_N] = 0                               # no tile to take: Step 4 follows
    other = g.copy()
    assert _posted(arm, g) == (L.D_TILE, seat, [])
    point, s2, _ = _posted(arm, g)
    assert (point, s2) == (L.D_STEP4, seat)
    assert other.advance() and int(other.state[L.S_N_OPTIONS]) >= 2
