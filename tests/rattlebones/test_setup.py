"""Setup (RB-S*) and TS-15."""
import numpy as np
import pytest
from scipy import stats

from sim import batch, rng
from sim.spec import SpecError
from sim.games.rattlebones import SPEC
from sim.games.rattlebones import kernel as K
from sim.games.rattlebones import layout as L

from .helpers import Game


def test_rb_s1_player_count():
    """RB-S1: 2-4 players."""
    for n in (2, 3, 4):
        SPEC.check_players(n)
    for n in (1, 5):
        with pytest.raises(SpecError):
            batch.make_arm(SPEC, n)


def test_rb_s2_tiles_on_slots():
    """RB-S2 / TS-15: 7 distinct tiles sit on the odd indices of the base board."""
    for seed in range(20):
        g = Game(seed=seed, tiles=True)
        mask = g.g(L.S_TILES_MASK)
        assert bin(mask).count("1") == 7
        kinds = [g.g(L.S_SPACE_KIND + i) for i in range(14)]
        assert all(kinds[i] in (L.SP_FACE, L.SP_PLUS1) for i in range(1, 14, 2))
        assert kinds[0] == L.SP_START and L.SP_SLOT not in kinds
    g = Game(tweaks={"tiles_used": 3}, tiles=True)
    assert bin(g.g(L.S_TILES_MASK)).count("1") == 3
    assert sum(g.g(L.S_SPACE_KIND + i) == L.SP_EMPTY for i in range(1, 14, 2)) == 4
    g = Game(tweaks={"tile_pool": (1, 4), "tiles_used": 7}, tiles=True)
    assert g.g(L.S_TILES_MASK) == (1 << 1) | (1 << 4)


def test_rb_s3_face_piles():
    """RB-S3: piles from face_supply.csv; parameters override."""
    g = Game()
    assert [g.supply(f"POINTS_{k}") for k in range(1, 6)] == [5, 4, 3, 2, 1]
    assert all(g.supply(f) == 15 for f in ("NINE", "THIEF", "ARROW", "GOLD", "STAR"))
    g = Game(tweaks={"point_face_supply": (15,), "action_face_supply": 3})
    assert [g.supply(f"POINTS_{k}") for k in range(1, 6)] == [15] * 5
    assert g.supply("TRAIN") == 3


def test_rb_s4_s5_players_and_dice():
    """RB-S4 / RB-S5 / TS-15: monkeys on START, zero tokens and scores, start faces, no arrows."""
    for n in (2, 3, 4):
        g = Game(n=n)
        for s in range(n):
            assert [g.monkey(s, m) for m in range(3)] == [0, 0, 0]
            assert (g.score(s), g.gold(s), g.stars(s), g.stocks(s)) == (0, 0, 0, 0)
            for d in range(3):
                assert g.die(s, d) == ["R", 2, 3, 4, 5, 6]
    g = Game(tweaks={"starting_gold": 2, "starting_stars": 1})
    assert g.gold(3) == 2 and g.stars(3) == 1 and g.g(L.S_GOLD_SUPPLY) == 12


def test_rb_s6_s7_s8_train_supplies_ringmaster():
    """RB-S6 / RB-S7 / RB-S8 / TS-15: train on 0, stock supply 5, R = 55/60/65."""
    for n, r in ((2, 55), (3, 60), (4, 65)):
        g = Game(n=n)
        assert g.R == r and g.g(L.S_TRAIN_POS) == 0 and g.g(L.S_STOCK_SUPPLY) == 5
        assert g.g(L.S_GOLD_SUPPLY) == 20 and g.g(L.S_STAR_SUPPLY) == 20


def test_rb_s9_start_chair_uniform():
    """RB-S9 / TS-15: the start-player draw is uniform over chairs (chi-square, 10^5 seeds);
    seat 0 is the start player by definition."""
    arm = batch.make_arm(SPEC, 4, tweaks={"max_turns": 100, "ringmaster_start_4p": 10},
                         policy="random")
    games, _ = batch.run_games(arm, 11, 0, 100_000)
    chair = games[:, SPEC.game_column_names.index("start_chair")]
    counts = np.bincount(chair, minlength=4)
    assert stats.chisquare(counts).pvalue > 1e-3
    g = Game()
    assert g.g(L.S_FIRST_SEAT) == 0


def test_rb_s10_seat_bonus():
    """RB-S10: seat bonuses go to the k-th player in turn order (seat k)."""
    g = Game(tweaks={"seat_bonus_gold": (0, 1, 2, 3), "seat_bonus_points": (0, 0, 1, 2)})
    assert [g.gold(s) for s in range(4)] == [0, 1, 2, 3]
    assert [g.score(s) for s in range(4)] == [0, 0, 1, 2]
    assert g.g(L.S_GOLD_SUPPLY) == 14


def test_rb_s11_rng_order():
    """RB-S11: setup draws the tile shuffle, then the start seat, from the setup stream;
    rolls come from the dice stream in die-id order."""
    seed, idx = 77, 3
    g = Game(seed=0, tiles=True)
    state = np.zeros(K.state_size(4), dtype=np.int64)
    K.setup_game(state, g.rules, g.comp, 4, rng.make_stream(seed, idx, rng.SUB_SETUP), g.opts, g.log)
    s = rng.make_stream(seed, idx, rng.SUB_SETUP)
    pool = np.arange(12, dtype=np.int64)
    rng.shuffle(s, pool)
    chair = rng.randint(s, 4)
    placed = [int(state[L.S_SPACE_FACE + i]) if state[L.S_SPACE_KIND + i] == L.SP_FACE else -1
              for i in range(1, 14, 2)]
    tiles = g.comp[2]
    want = [int(tiles[t, L.SPC_FACE]) if tiles[t, L.SPC_KIND] == L.SP_FACE else -1 for t in pool[:7]]
    assert placed == want and state[L.S_START_CHAIR] == chair
    # first roll of a game = first draw of its dice stream
    arm = batch.make_arm(SPEC, 2, policy="random")
    ev, _, _ = batch.replay(arm, seed, idx)
    first_roll = next(e for e in ev if e[0] == L.EV_ROLL)
    d = rng.make_stream(seed, idx, rng.SUB_DICE)
    assert first_roll[3] == rng.randint(d, 6) + 1
