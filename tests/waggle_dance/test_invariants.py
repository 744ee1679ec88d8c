"""T-32: the invariants of spec §1.3 after every step of random play, at every seat count."""
import numpy as np
import pytest

from sim import batch
from sim.games.waggle_dance import SPEC
from sim.games.waggle_dance import layout as L
from sim.games.waggle_dance.hive import seat_base

from .helpers import Table


def check(state, n):
    """Every §1.3 invariant of one state (assertions)."""
    cap = 4
    cubes = state[L.S_CUBE_SUPPLY:L.S_CUBE_SUPPLY + 6].copy()
    eggs = state[L.S_EGG_SUPPLY]
    tiles = state[L.S_TILE_SUPPLY]
    hands = 0
    for p in range(n):
        b = seat_base(p)
        nt = state[b + L.F_N_TILES]
        cb = state[b + L.F_CUBES:b + L.F_CUBES + L.MAX_HIVE * 6].reshape(L.MAX_HIVE, 6)
        eg = state[b + L.F_EGG:b + L.F_EGG + L.MAX_HIVE]
        hn = state[b + L.F_TILE_HONEY:b + L.F_TILE_HONEY + L.MAX_HIVE]
        assert cb[nt:].sum() == 0 and eg[nt:].sum() == 0 and hn[nt:].sum() == 0
        assert (cb.sum(axis=1) <= cap).all() and (cb >= 0).all()
        assert not ((eg > 0) & (cb.sum(axis=1) > 0)).any(), "egg and pollen on one tile"
        assert not ((hn > 0) & ((cb.sum(axis=1) > 0) | (eg > 0))).any(), "honey tile holds something"
        assert hn.sum() == state[b + L.F_HONEY]
        td = state[b + L.F_TDICE:b + L.F_TDICE + L.MAX_HIVE * 6].reshape(L.MAX_HIVE, 6)
        key = (eg << 24) | (hn << 25) | (cb << 4 * np.arange(6)).sum(axis=1) \
            | (td << 26 + 5 * np.arange(6)).sum(axis=1)
        assert (state[b + L.F_TKEY:b + L.F_TKEY + L.MAX_HIVE] == key).all(), \
            "the tile keys the rules keep (hive.rekey) are the tiles' contents"
        first = sum(1 << t for t in range(nt) if key[t] not in key[:t])
        assert state[b + L.F_FIRST] in (0, first), "the distinct tiles kept (kernel.distinct_tiles)"
        cubes += cb.sum(axis=0) + state[b + L.F_GAINED:b + L.F_GAINED + 6]
        eggs += eg.sum()
        tiles += nt
        assert state[b + L.F_POOL] + state[b + L.F_PERSONAL] == 18
        hands += state[b + L.F_HAND:b + L.F_HAND + L.N_QUEEN].sum()
    if state[L.S_PHASE] == L.PH_E_GAIN:     # cubes received in a trade, not placed yet
        cubes[state[L.S_CTX_GAIN]] += state[L.S_CTX_LEFT]
    assert (cubes == 15).all(), cubes
    assert eggs == 12 and tiles == 48
    scouted = state[L.S_CTX_Y] - state[L.S_CTX_X] if state[L.S_PHASE] == L.PH_KEEP else 0
    assert hands + state[L.S_DISCARD] + scouted == state[L.S_DECK_POS] <= state[L.S_DECK_N] == 27
    for p in range(n):
        assert (state[seat_base(p) + L.F_HAND:seat_base(p) + L.F_HAND + L.N_QUEEN] >= 0).all()
    owner = state[L.S_SLOT_OWNER:L.S_SLOT_OWNER + 24]
    blocked = state[L.S_BLOCKED:L.S_BLOCKED + 24]
    assert not ((owner > 0) & (blocked > 0)).any(), "a die on a blocked slot"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_t32_invariants_after_every_step(n):
    """T-32: after every decision of 4 random games (and at their end) the invariants hold,
    and every game ends by honey (max_rounds is never reached)."""
    for index in range(4):
        t = Table(n, seed=32, index=index)
        g = t.game
        while g.advance():
            check(t.state, n)
            g.apply(g.choose())
        check(t.state, n)
        assert t.state[L.S_ENDED] == 1 and t.state[L.S_TRUNCATED] == 0


def test_t32_every_game_ends():
    """T-32: 2,000 random games per seat count end by honey or max_rounds (all by honey at
    the default cap), and the rows agree with the invariants at the end."""
    for n in (2, 3, 4):
        arm = batch.make_arm(SPEC, n, policy="random")
        g, s = batch.run_games(arm, 32, 0, 2000)
        col = SPEC.game_column_names.index
        ended = (s[:, :, 0].max(axis=1) >= 7) | (g[:, col("truncated")] == 1)
        assert ended.all()
        assert (s[:, :, SPEC.seat_column_names.index("cubes")].sum(axis=1) <= 90).all()
        assert (g[:, col("eggs_left")] <= 12).all()
