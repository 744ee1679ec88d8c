"""Setup (CE-S1 .. CE-S11) and the component data it reads."""
from collections import Counter

import pytest

from sim import batch, decide
from sim.spec import SpecError
from sim.trace import new_log
from sim.games.cupcake_empire import SPEC
from sim.games.cupcake_empire import layout as L
from sim.games.cupcake_empire import options as O
from sim.games.cupcake_empire.audit import audit
from sim.games.cupcake_empire.board import has_building
from sim.games.cupcake_empire.rules import load_components

from .helpers import CHOC, FL, PLAIN, Game, arm_for

SUPPLY = {2: (4, 6, 2, 1, 2, 12, 4, 2), 3: (6, 9, 3, 2, 3, 12, 3, 1), 4: (8, 12, 4, 2, 4, 12, 2, 0)}


def test_ce_s1_customers_fill_houses():
    """CE-S1: the 24 customers (3 of each of 8 types) fill the 24 houses in a random order."""
    layouts = set()
    for index in range(5):
        g = Game(2, index=index)
        houses = [g.g(L.S_HOUSE + h) for h in range(L.N_HOUSES)]
        assert Counter(houses) == {t: 3 for t in range(8)}
        layouts.add(tuple(houses))
    assert len(layouts) == 5


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ce_s2_supply_per_player_count(n):
    """CE-S2: the supply of supply.csv for N; grey dice are never hireable; the start discs
    placed at setup came out of it."""
    g = Game(n)
    sb, mb, sf, mf, discs, ideas, dice, pink = SUPPLY[n]
    assert g.g(L.S_SUP_BASE + 2) == mb                               # simple bases: CE-S11 took n
    assert g.g(L.S_SUP_BASE + PLAIN) + g.g(L.S_SUP_BASE + CHOC) == 2 * sb - n
    frost = [g.g(L.S_SUP_FROST + i) for i in range(L.N_FROST)]
    assert frost[L.FR_SIMPLE:] == [mf] * 6 and sum(frost[:L.FR_SIMPLE]) == 4 * sf - n
    assert g.g(L.S_SUP_IDEAS) == ideas
    assert [g.g(L.S_SUP_DICE + c) for c in range(6)] == [0, dice, dice, dice, dice, pink]
    placed = Counter(g.disc(s, k, 1) for s in range(n) for k in range(1, 6) if g.disc(s, k, 1) >= 0)
    for t in range(6):
        assert g.g(L.S_SUP_DISCS + t) == discs - placed[t]


def test_ce_s2_initial_menus_take_base_tiles():
    """CE-S11 takes one simple base per player from the supply (CE-S2 counts before that)."""
    g = Game(3)
    sb = SUPPLY[3][0]
    assert g.g(L.S_SUP_BASE + PLAIN) + g.g(L.S_SUP_BASE + CHOC) == 2 * sb - 3


def test_ce_s3_goals_revealed():
    """CE-S3: one goal of each stack A-D at random; goal_stacks = 3 leaves D out, 0 all."""
    seen = [set() for _ in range(4)]
    for index in range(40):
        g = Game(2, index=index)
        for s in range(4):
            gid = g.g(L.S_GOAL + s)
            assert s * 5 <= gid < s * 5 + 5
            seen[s].add(gid)
    assert all(len(x) == 5 for x in seen)
    g = Game(2, {"goal_stacks": 3})
    assert g.g(L.S_GOAL + 3) == -1 and g.g(L.S_GOAL) >= 0
    g = Game(2, {"goal_stacks": 0})
    assert [g.g(L.S_GOAL + s) for s in range(4)] == [-1] * 4


@pytest.mark.parametrize("n", [2, 4])
def test_ce_s4_to_s7_player_setup(n):
    """CE-S4 .. CE-S7: income 5, production 2, sales 1, idea marker on the green box, no
    ideas; 6 shops and 2 bakeries in reserve, one bakery in the grey region; 8 dice, each
    coloured die on its column (before any roll)."""
    g = Game(n)
    for s in range(n):
        assert (g.seat(s, L.F_INCOME), g.seat(s, L.F_PRODUCTION), g.seat(s, L.F_SALES)) == (5, 2, 1)
        assert (g.seat(s, L.F_IDEA_POS), g.seat(s, L.F_IDEAS)) == (0, 0)
        assert g.seat(s, L.F_SHOPS_RESERVE) == 6 and g.seat(s, L.F_BAKERIES_RESERVE) == 2
        assert g.owners("bakery", "GREY").count(s) == 1
        for k, colour in enumerate(("purple", "yellow", "orange", "green", "pink"), start=1):
            assert g.dice(s, k).get(colour) == 1
        total = sum(sum(g.dice(s, loc).values()) for loc in (1, 2, 3, 4, 5, "rest"))
        assert total == 8 and sum(g.dice(s, "rest").values()) == 0


def test_ce_s8_grey_dice():
    """CE-S8: the 3 grey dice are rolled with 6s rerolled and placed by face (columns 1-5)."""
    faces = Counter()
    for index in range(30):
        g = Game(2, index=index)
        greys = [e for e in g.events() if e[0] == L.EV_GREY]
        assert len(greys) == 6
        for e in greys:
            assert 1 <= e[2] <= 5 and e[3] == e[2]
            faces[int(e[2])] += 1
        for s in range(2):
            assert sum(g.dice(s, k).get("grey", 0) for k in range(1, 6)) == 3
    assert set(faces) == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("n,open_slots", [(2, 2), (3, 3), (4, 4)])
def test_ce_s9_blocked_slots(n, open_slots):
    """CE-S9: shop slots with min_players > N are blocked: 2 / 3 / 4 open slots per yellow or
    beige region; the grey region has none."""
    g = Game(n)
    for region in ("YEL1", "YEL2", "BEI1", "BEI2", "BEI3"):
        owners = g.owners("shop", region)
        assert owners.count(L.SLOT_EMPTY) == open_slots
        assert owners.count(L.SLOT_BLOCKED) == 4 - open_slots
    assert g.owners("shop", "GREY") == [L.SLOT_NONE] * 4


@pytest.mark.parametrize("n", [2, 4])
def test_ce_s10_start_discs(n):
    """CE-S10: each player places one start disc, on space 1 of a column of their choice
    (D01 offers all five); the types dealt are distinct."""
    g = Game(n)
    types = []
    for s in range(n):
        discs = [(k, g.disc(s, k, p)) for k in range(1, 6) for p in range(1, 5)
                 if p <= (4 if k == 5 else 3) and g.disc(s, k, p) >= 0]
        assert len(discs) == 1
        k, t = discs[0]
        assert g.disc(s, k, 1) == t
        types.append(t)
    assert len(set(types)) == n
    starts = [c for c in g.setup_choices if c[0] == L.D_START_DISC]
    assert [c[1] for c in starts] == list(range(n)) and all(c[2] == [0, 1, 2, 3, 4] for c in starts)


def test_t17_initial_menu_order_ce_s11():
    """T17 (4p): initial menus are chosen by seats 3, 2, 1, 0; a pair taken is not offered
    again; production stays 2 (the menu counts for A goals)."""
    arm = arm_for(4)
    kinds, pp = arm.policy_arrays
    game = decide.start(SPEC.steps, arm.rules, arm.comp, 4, kinds, pp, 0, 0,
                        new_log(1000))
    order, offered = [], []
    while game.advance() and game.state[L.S_TURNS] == 0:
        point, seat, codes = SPEC.steps.pending(game.state)
        if point == L.D_INIT_MENU:
            order.append(seat)
            offered.append(codes)
            choice = O.encode_init_menu(CHOC, FL["mint"]) if seat == 3 else codes[0]
            game.take(choice)
        else:
            game.apply(game.choose())
    assert order == [3, 2, 1, 0]
    assert O.encode_init_menu(CHOC, FL["mint"]) in offered[0]
    assert all(O.encode_init_menu(CHOC, FL["mint"]) not in later for later in offered[1:])
    assert O.encode_init_menu(PLAIN, FL["mint"]) in offered[1]
    base = L.SEAT0
    for s in range(4):
        b = base + s * L.SEAT_LEN
        assert game.state[b + L.F_PRODUCTION] == 2 and game.state[b + L.F_MENUS] == 1
        assert game.state[b + L.F_SS_BASE] == 1 and game.state[b + L.F_SS_FROST] == 1


def test_components_are_validated(tmp_path):
    """Malformed component data is one clear SpecError naming the file and the datum."""
    import shutil
    from sim.games.cupcake_empire.rules import COMPONENTS_DIR
    d = tmp_path / "c"
    shutil.copytree(COMPONENTS_DIR, d)
    text = (d / "columns.csv").read_text().replace("3 4 5 6", "3 4 5 9")
    (d / "columns.csv").write_text(text)
    with pytest.raises(SpecError, match="columns.csv: row 5, column 'thresholds'"):
        load_components(d)
    comps = load_components(None)
    assert comps.assumed and comps.arrays[1].shape[0] == 6


def test_ce_s5_start_income_and_grey_bakery():
    """CE-S5 (3p, start_income 9): income on the parameter; each seat's start bakery in its own
    grey bakery slot, 2 left in reserve, no track change (production 2, sales 1); the grey
    region is the only one a seat can sell in."""
    g = Game(3, {"start_income": 9})
    assert g.owners("bakery", "GREY")[:3] == [0, 1, 2]
    for s in range(3):
        assert g.seat(s, L.F_INCOME) == 9 and g.seat(s, L.F_BAKERIES_RESERVE) == 2
        assert (g.seat(s, L.F_PRODUCTION), g.seat(s, L.F_SALES)) == (2, 1)
        assert [has_building(g.state, s, r) for r in range(L.N_REGIONS)] == [True] + [False] * 5


def test_ce_s5_seat_bonus_income():
    """CE-S5 with the tweak hook seat_bonus_income (0, 2, 5), 4 players: seat k (seat 0 = the
    start player) starts with start_income plus its bonus, the last value repeating for seat 3;
    the other tracks as without it. The audit starts each seat's income there too."""
    g = Game(4, {"seat_bonus_income": (0, 2, 5)})
    assert [g.seat(s, L.F_INCOME) for s in range(4)] == [5, 7, 10, 10]
    for s in range(4):
        assert (g.seat(s, L.F_PRODUCTION), g.seat(s, L.F_SALES), g.seat(s, L.F_IDEAS)) == (2, 1, 0)
    g = Game(2, {"start_income": 9, "seat_bonus_income": (3, 0, 0, 0)})
    assert [g.seat(s, L.F_INCOME) for s in range(2)] == [12, 9]
    assert [Game(3).seat(s, L.F_INCOME) for s in range(3)] == [5, 5, 5]
    arm = arm_for(3, {"seat_bonus_income": (0, 4, 1)})
    games, seats = batch.run_games(arm, 5, 0, 12)
    assert audit(arm, 5, 0, games, seats) == []
    with pytest.raises(SpecError, match="seat_bonus_income"):
        arm_for(2, {"seat_bonus_income": (0, 21)})


def test_ce_s6_start_tracks_from_parameters():
    """CE-S6: the idea marker, production, sales and idea discs start on their parameters;
    idea discs held at the start come out of the idea supply."""
    g = Game(4, {"start_production": 4, "start_sales": 3, "start_idea_pos": 2, "start_ideas": 1})
    for s in range(4):
        assert (g.seat(s, L.F_PRODUCTION), g.seat(s, L.F_SALES)) == (4, 3)
        assert (g.seat(s, L.F_IDEA_POS), g.seat(s, L.F_IDEAS)) == (2, 1)
    assert g.g(L.S_SUP_IDEAS) == SUPPLY[4][5] - 4
