"""The round and the day phase (WD-R1 .. WD-R16 of the day, WD-X3)."""

from sim.games.waggle_dance import kernel as K
from sim.games.waggle_dance import layout as L
from sim.games.waggle_dance import options as O
from tests.positions import position

from .helpers import A, C, E, G, Table, place, stream_faces


def _placers(t, stop_after=None):
    """Deciders of the placement decisions of the day, in order (random choices)."""
    g = t.game
    order = []
    while g.advance() and g.state[L.S_PHASE] == L.PH_PLACE:
        order.append(int(g.state[L.S_DECIDER]))
        g.apply(g.choose())
    return order


def test_wd_r2_roll_pool():
    """WD-R2: every player rolls the whole pool (forced values land as unplaced dice)."""
    t = Table(2)
    t.seat(1, L.F_POOL, 7)
    t.force(1, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6)
    t.game.advance()
    assert [t.seat(0, L.F_UNPLACED + v) for v in range(6)] == [2, 1, 1, 1, 1, 0]
    assert [t.seat(1, L.F_UNPLACED + v) for v in range(6)] == [0, 0, 0, 0, 0, 7]


def test_t13_turn_order_wd_r4():
    """T-13, WD-R4, WD-R5, WD-QA6: 3 players with 7, 6 and 5 dice place (P0, P1, P2) five
    times, then P0, P1, then P0: 18 placements, every die placed."""
    t = Table(3)
    for p, k in ((0, 7), (1, 6), (2, 5)):
        t.seat(p, L.F_POOL, k)
    assert _placers(t) == [0, 1, 2] * 5 + [0, 1, 0]
    for p in range(3):
        assert sum(t.seat(p, L.F_UNPLACED + v) for v in range(6)) == 0


def test_wd_r4_r15_turn_order_from_any_start_player():
    """WD-R4, WD-R15: the k-th seat in turn order from start player S is (S + k) mod n for
    every S and k (``turn_seat`` wraps by subtraction, ``wrap``), at 2 to 4 players."""
    for n in (2, 3, 4):
        t = Table(n)
        for s in range(n):
            t.state[L.S_START] = s
            assert [K.turn_seat(t.state, k) for k in range(2 * n)] == [(s + k) % n
                                                                        for k in range(2 * n)]
    assert [K.wrap(x, 3) for x in range(10)] == [x % 3 for x in range(10)]


def test_wd_r6_legal_destinations():
    """WD-R6, WD-R7, WD-R8, WD-X3, WD-QA7/QA8, WD-I4, WD-I22: a die of value v may go on a free,
    unblocked slot v of A/C/E/G, always on flower v, and on any own tile that is not honey
    (EMPTY, pollen or egg; any value; stacked dice allowed); a placed die stays where it is."""
    t = Table(2, seed=1)
    t.state[L.S_BLOCKED:L.S_BLOCKED + 24] = 0
    t.state[L.S_BLOCKED + C * 6 + 3 - 1] = 1           # C3 blocked
    t.slot(E, 3, 1)                                     # E3 taken by the opponent
    t.cubes(0, 1, c2=2)
    t.egg(0, 2)
    t.seat(0, L.F_N_TILES, 4)
    t.honey(0, 3)
    t.seat(0, L.F_POOL, 1)
    t.seat(1, L.F_POOL, 1)
    t.force(3, 5)
    assert t.game.advance() and t.state[L.S_POINT] == L.D_PLACE
    opts = set(t.game.steps.pending(t.state)[2])
    assert opts == {place(3, A), place(3, G), place(3, L.DEST_FLOWER),
                    place(3, L.DEST_TILE, 0), place(3, L.DEST_TILE, 1), place(3, L.DEST_TILE, 2)}
    t.game.take(place(3, L.DEST_TILE, 1))
    assert t.state[t.b(0) + L.F_TDICE + 1 * 6 + 2] == 1
    t.game.advance()
    t.game.take(place(5, L.DEST_FLOWER))
    assert t.state[t.b(0) + L.F_TDICE + 1 * 6 + 2] == 1, "the die stays where it was placed"


def test_wd_r6_max_dice_per_hive_tile():
    """WD-R6c with max_dice_per_hive_tile = 1: a tile holding a die is not offered."""
    t = Table(2, {"max_dice_per_hive_tile": 1})
    t.cubes(0, 1, c0=1)
    t.tile_dice(0, 0, 4)
    t.seat(0, L.F_POOL, 1)
    t.force(2, 2, 2, 2, 2, 2, 2)
    t.game.advance()
    tiles = [O.decode_place(c)[1] - L.DEST_TILE for c in t.game.steps.pending(t.state)[2]
             if O.decode_place(c)[1] >= L.DEST_TILE]
    assert tiles == [1, 2], tiles   # tile 0 holds a die


def test_wd_r1_r15_round_cycle():
    """WD-R1, WD-R10, WD-R15: a round is a day then a night; after G (nobody at 7 honey) the
    start player passes clockwise and the next day begins with round 2."""
    t = Table(3)
    t.game.advance()
    while t.state[L.S_PHASE] == L.PH_PLACE:
        t.game.apply(t.game.choose())
        t.game.advance()
    assert t.state[L.S_ROUND] == 1
    while t.state[L.S_ROUND] == 1:
        t.game.apply(t.game.choose())
        t.game.advance()
    assert t.state[L.S_ROUND] == 2 and t.state[L.S_START] == 1
    assert t.state[L.S_PHASE] == L.PH_PLACE
    assert t.state[L.S_FLOWER:L.S_FLOWER + 24].sum() == 0


def test_wd_qa8_die_on_an_empty_tile():
    """WD-QA8: a die may go on an EMPTY tile; with no pollen arriving it does nothing that
    night: the tile stays EMPTY and the die goes back to the pool."""
    t = Table(2)
    t.seat(0, L.F_POOL, 1)
    t.seat(1, L.F_POOL, 1)
    t.force(4, 2)
    t.game.advance()
    assert place(4, L.DEST_TILE, 0) in t.game.steps.pending(t.state)[2]
    t.game.take(place(4, L.DEST_TILE, 0))
    assert t.state[t.b(0) + L.F_TDICE + 0 * 6 + 3] == 1
    t.game.advance()
    t.game.take(place(2, L.DEST_FLOWER))
    t.play(L.PH_PLACE)
    assert t.tile(0, 0) == [0] * 6 and t.state[t.b(0) + L.F_EGG] == 0
    assert t.state[t.b(0) + L.F_TDICE:t.b(0) + L.F_TDICE + 6].sum() == 0
    assert t.seat(0, L.F_POOL) == 1 and t.seat(0, L.F_HONEY) == 0


FACES = [int(O.encode_face(v)) for v in range(1, L.N_VAL + 1)]


def test_wd_r2_chance_point_before_each_die():
    """WD-R2 through chance points: with ``chance`` the step machine stops before each die of
    the roll, in turn order from S (D_ROLL of the rolling seat, the faces 1..6 as options);
    the faces answered are the dice rolled (EV_ROLL after each pool), the dice stream is not
    drawn, and the day goes on to its placements."""
    t = Table(3)
    t.state[L.S_START] = 1
    for p, k in ((0, 2), (1, 1), (2, 3)):
        t.seat(p, L.F_POOL, k)
    rng = int(t.state[L.S_RNG_D])
    faces = [6, 2, 5, 2, 1, 3]          # seat 1: 6; seat 2: 2, 5, 2; seat 0: 1, 3
    seats = []
    for v in faces:
        point, seat, codes = t.chance()
        assert point == L.D_ROLL and codes == FACES
        seats.append(seat)
        t.game.take(int(O.encode_face(v)))
    assert seats == [1, 2, 2, 2, 0, 0]
    assert t.chance()[0] == L.D_PLACE
    assert [t.seat(0, L.F_UNPLACED + v) for v in range(6)] == [1, 0, 1, 0, 0, 0]
    assert [t.seat(1, L.F_UNPLACED + v) for v in range(6)] == [0, 0, 0, 0, 0, 1]
    assert [t.seat(2, L.F_UNPLACED + v) for v in range(6)] == [0, 2, 0, 0, 1, 0]
    assert [list(e[1:3]) for e in t.events(L.EV_ROLL)] == [[1, 1], [2, 3], [0, 2]]
    assert int(t.state[L.S_RNG_D]) == rng, "no die drawn from the stream"
    assert O.option_text(L.D_ROLL, FACES[3]) == "face 4"


def test_wd_r2_without_chance_the_roll_is_advance():
    """WD-R2: without ``chance`` the step machine rolls from the dice stream exactly as
    ``advance`` does (same state, same events); with it, answering each chance point with the
    face the stream would roll gives that same state and those events too."""
    a, b, c = (Table(4, seed=3, index=7) for _ in range(3))
    K.advance(a.state, a.rules, a.comp, a.log)
    assert K.advance_chance(b.state, b.rules, b.comp, b.log, False)
    faces, rng = stream_faces(c.state, 4 * 6)
    for v in faces:
        assert c.chance()[0] == L.D_ROLL
        c.game.take(int(O.encode_face(v)))
    assert c.chance()[0] == L.D_PLACE
    c.state[L.S_RNG_D] = rng
    assert (b.state == a.state).all() and (b.events() == a.events()).all()
    assert (position(c.state, L) == position(a.state, L)).all() and (c.events() == a.events()).all()
