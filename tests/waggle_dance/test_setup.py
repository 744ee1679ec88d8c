"""Setup (WD-S1 .. WD-S11) and the component data."""
import numpy as np
import pytest

from sim import batch
from sim.spec import SpecError
from sim.games.waggle_dance import SPEC
from sim.games.waggle_dance import kernel as K
from sim.games.waggle_dance import layout as L
from sim.games.waggle_dance import options as O
from sim.games.waggle_dance.hive import is_empty_tile
from sim.games.waggle_dance.rules import COMPONENTS_DIR, load_components
from sim.trace import no_log

from .helpers import Table, arm_for


def _blocked(state):
    return {k: {v + 1 for v in range(6) if state[L.S_BLOCKED + k * 6 + v]} for k in range(4)}


def test_wd_s1_action_cards_file(tmp_path):
    """WD-S1/WD-R11: the action card file describes A, B, C, D1-D6, E, F, G in resolve order;
    an edit the kernel cannot honour is refused with the file, row and column."""
    comp = load_components()
    assert comp.tables["colours"][0] == "yellow" and len(comp.tables["queen_names"]) == 14
    d = tmp_path / "c"
    d.mkdir()
    for f in COMPONENTS_DIR.iterdir():
        (d / f.name).write_text(f.read_text())
    text = (d / "action_cards.csv").read_text().replace("E,Trade,slot_card,6,die_value_equals_slot,1,true,5",
                                                         "E,Trade,slot_card,6,die_value_equals_slot,1,true,2")
    (d / "action_cards.csv").write_text(text)
    with pytest.raises(SpecError, match="resolve_order"):
        load_components(d)


def test_wd_s2_s3_s4_s6_supplies():
    """WD-S2..S4, S6, WD-I14/I15/I17: 48 - 3N tiles, 12 eggs, 15 cubes a colour, a 27-card
    shuffled deck (13 types x 2 + Overtime, no Kickstarter cards); 3 EMPTY tiles, 6 pool dice,
    12 in the personal supply, no cubes, eggs or cards."""
    for n in (2, 3, 4):
        t = Table(n)
        s = t.state
        assert s[L.S_TILE_SUPPLY] == 48 - 3 * n and s[L.S_EGG_SUPPLY] == 12
        assert list(s[L.S_CUBE_SUPPLY:L.S_CUBE_SUPPLY + 6]) == [15] * 6
        deck = s[L.S_DECK:L.S_DECK + s[L.S_DECK_N]]
        assert len(deck) == 27 and np.bincount(deck, minlength=14).tolist() == [3] + [2] * 12 + [0]
        assert s[L.S_DECK_POS] == 0
        for p in range(n):
            assert t.seat(p, L.F_POOL) == 6 and t.seat(p, L.F_PERSONAL) == 12
            assert t.seat(p, L.F_N_TILES) == 3 and t.seat(p, L.F_HONEY) == 0
            b = t.b(p)
            assert s[b + L.F_CUBES:b + L.F_CUBES + 3 * 6].sum() == 0
            assert s[b + L.F_EGG:b + L.F_EGG + 3].sum() == 0 and s[b + L.F_HAND:b + L.F_HAND + 14].sum() == 0
    decks = {tuple(Table(4, index=i).state[L.S_DECK:L.S_DECK + 27]) for i in range(5)}
    assert len(decks) == 5, "the deck is shuffled per game"


def test_wd_i16_mini_expansion_deck():
    """WD-I16: the mini expansion adds 3 Volunteer cards (deck of 30)."""
    s = Table(4, {"use_mini_expansion": True}).state
    deck = s[L.S_DECK:L.S_DECK + s[L.S_DECK_N]]
    assert len(deck) == 30 and (deck == 13).sum() == 3


def test_wd_s5_start_chair():
    """WD-S5/WD-I3: the start chair is uniform (random) or the fixed chair; seat 0 starts."""
    arm = batch.make_arm(SPEC, 3)
    g, _ = batch.run_games(arm, 4, 0, 600)
    chairs = g[:, SPEC.game_column_names.index("start_chair")]
    assert len(np.bincount(chairs)) == 3 and np.bincount(chairs).min() > 150
    t = Table(3, {"start_player_mode": "fixed", "start_player_fixed_seat": 2})
    assert t.state[L.S_START_CHAIR] == 2 and t.state[L.S_START] == 0


def test_wd_s7_no_blocking_4p():
    """WD-S7: no blocking markers with 4 players."""
    for i in range(20):
        assert Table(4, index=i).state[L.S_BLOCKED:L.S_BLOCKED + 24].sum() == 0


def test_t14_three_player_blocking_wd_s8():
    """T-14, WD-S8, WD-S10, WD-I1: the marker permutation [4, 1, 6, 2, 5, 3] blocks A4, C1,
    E6, G2 (B, D, F untouched); at 3 players the four numbers always differ."""
    s = np.zeros(K.state_size(3), dtype=np.int64)
    for card, number in zip(range(4), (4, 1, 6, 2)):
        K.block_marker(s, card, number, 0, no_log())
    assert _blocked(s) == {0: {4}, 1: {1}, 2: {6}, 3: {2}}
    for i in range(300):
        b = _blocked(Table(3, index=i).state)
        nums = [next(iter(b[k])) for k in range(4)]
        assert all(len(b[k]) == 1 for k in range(4)) and len(set(nums)) == 4


def test_t15_two_player_blocking_wd_s9():
    """T-15, WD-S9, WD-I2: with 2 players each of A, C, E, G ends with exactly 3 distinct
    blocked numbers, and within each set the four numbers differ."""
    for i in range(300):
        t = Table(2, index=i)
        b = _blocked(t.state)
        assert all(len(b[k]) == 3 for k in range(4)), b
        ev = t.events(L.EV_BLOCK)
        for s in (1, 2, 3):
            nums = ev[ev[:, 3] == s][:, 2]
            assert len(nums) == 4 and len(set(nums.tolist())) == 4


def test_wd_s11_blocked_slot_never_offered():
    """WD-S11: a blocked slot never takes a die, all game long."""
    t = Table(2, seed=3)
    blocked = {(k, v) for k in range(4) for v in range(6) if t.state[L.S_BLOCKED + k * 6 + v]}
    g = t.game
    while g.advance():
        if g.state[L.S_POINT] == L.D_PLACE:
            for code in g.steps.pending(g.state)[2]:
                v, dest = O.decode_place(code)
                assert dest >= 4 or (dest, v - 1) not in blocked
        g.apply(g.choose())


def test_wd_s11_reroll_mode_refused():
    """WD-I25: the later edition's rerolled blocking is refused with a clear message."""
    with pytest.raises(SpecError, match="reroll_each_round"):
        SPEC.rule_values(3, tweaks={"blocking_mode": "reroll_each_round"})


def test_bad_parameters_are_refused():
    """Cross-parameter checks name the parameter and the valid range."""
    with pytest.raises(SpecError, match="start_player_fixed_seat"):
        SPEC.rule_values(2, tweaks={"start_player_mode": "fixed", "start_player_fixed_seat": 3})
    with pytest.raises(SpecError, match="pollen_per_honey"):
        SPEC.rule_values(4, tweaks={"pollen_per_honey": 5})
    with pytest.raises(SpecError, match="blocking_marker_sets"):
        SPEC.rule_values(2, tweaks={"blocking_marker_sets": 2})
    with pytest.raises(SpecError, match="hive_tile_supply"):
        SPEC.rule_values(4, tweaks={"hive_tile_supply": 10})


def test_wd_s3_three_empty_tiles():
    """WD-S3: each player starts with 3 EMPTY tiles (start_hive_tiles, here also 5), taken
    from the tile supply."""
    for tiles in (3, 5):
        for n in (2, 4):
            t = Table(n, {"start_hive_tiles": tiles})
            assert t.state[L.S_TILE_SUPPLY] == 48 - n * tiles
            for p in range(n):
                assert t.seat(p, L.F_N_TILES) == tiles
                assert all(is_empty_tile(t.state, t.b(p), k) for k in range(tiles))


def test_wd_s4_pool_and_personal_supply():
    """WD-S4: 6 dice in the worker pool and 12 in the personal supply (start_pool_dice = 8:
    8 and 10); round 1 rolls the pool."""
    for pool in (6, 8):
        t = Table(3, {"start_pool_dice": pool})
        for p in range(3):
            assert t.seat(p, L.F_POOL) == pool and t.seat(p, L.F_PERSONAL) == 18 - pool
        t.game.advance()
        assert t.events(L.EV_ROLL)[:, 2].tolist() == [pool] * 3


def test_wd_s4_seat_bonus_pool_dice():
    """WD-S4 with the tweak hook seat_bonus_pool_dice (0, 1, 3), 4 players: seat k (seat 0 =
    the first start player) has start_pool_dice plus its bonus in the pool, taken from its
    personal supply, the last value repeating for seat 3; round 1 rolls those pools. The pool
    never exceeds the dice owned (WD-X2): refused with an explicit dice_per_player."""
    t = Table(4, {"seat_bonus_pool_dice": (0, 1, 3)})
    assert [t.seat(p, L.F_POOL) for p in range(4)] == [6, 7, 9, 9]
    assert [t.seat(p, L.F_PERSONAL) for p in range(4)] == [12, 11, 9, 9]
    t.game.advance()
    rolled = {int(e[1]): int(e[2]) for e in t.events(L.EV_ROLL)}
    assert rolled == {0: 6, 1: 7, 2: 9, 3: 9}
    t = Table(2, {"start_pool_dice": 12, "seat_bonus_pool_dice": (6, 0, 0, 0)})
    assert [(t.seat(p, L.F_POOL), t.seat(p, L.F_PERSONAL)) for p in range(2)] == [(18, 0), (12, 6)]
    assert [Table(3).seat(p, L.F_POOL) for p in range(3)] == [6, 6, 6]
    with pytest.raises(SpecError, match="seat_bonus_pool_dice.*dice_per_player = 8"):
        arm_for(2, {"dice_per_player": 8, "seat_bonus_pool_dice": (0, 3)})
    arm_for(2, {"dice_per_player": 8, "seat_bonus_pool_dice": (0, 2)})
    with pytest.raises(SpecError, match="seat_bonus_pool_dice"):
        arm_for(2, {"seat_bonus_pool_dice": (0, 7)})


def test_wd_s6_nothing_else_at_start():
    """WD-S6: no cubes, eggs, honey or queen cards anywhere but the supplies at the start."""
    t = Table(4, index=3)
    s = t.state
    for p in range(4):
        b = t.b(p)
        assert s[b + L.F_CUBES:b + L.F_CUBES + L.MAX_HIVE * 6].sum() == 0
        assert s[b + L.F_EGG:b + L.F_EGG + L.MAX_HIVE].sum() == 0
        assert s[b + L.F_HAND:b + L.F_HAND + L.N_QUEEN].sum() == 0
        assert s[b + L.F_GAINED:b + L.F_GAINED + 6].sum() == 0 and t.seat(p, L.F_HONEY) == 0
    assert s[L.S_DISCARD] == 0 and s[L.S_DECK_POS] == 0


def test_wd_i15_i17_deck_split():
    """WD-I15, WD-I17: the base deck is 13 types x 2 plus a third Overtime (27), read from
    queen_cards.csv; no other (Kickstarter) card is in it; an edited count changes the deck."""
    comp = load_components()
    queen = comp.arrays[0]
    assert queen[0].tolist() == [3] + [2] * 12 + [0] and queen[0].sum() == 27
    assert queen[1].tolist() == [0] * 13 + [3]
    deck = Table(2).state[L.S_DECK:L.S_DECK + 27]
    assert set(deck.tolist()) == set(range(13))


def test_wd_i23_card_names_without_stray_letters():
    """WD-I23: the stray "T" and "M" after Queen's Gift and Relocation are not part of the
    card data: the names are plain and those cards have the effects of §6 only."""
    names = load_components().tables["queen_names"]
    assert names[L.Q_QUEENS_GIFT] == "Queen's Gift" and names[L.Q_RELOCATION] == "Relocation"
    text = (COMPONENTS_DIR / "queen_cards.csv").read_text()
    assert "Gift T" not in text and "Relocation M" not in text
