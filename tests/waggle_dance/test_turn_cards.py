"""Queen cards on the own placement turn (WD-Q1, WD-I13, WD-I19, WD-I20; DP-02, DP-03,
DP-05..DP-09), on hand-built states with scripted decisions: Overtime, Command, Shift Change,
Feint, and Wrong Turn, Scout and Volunteer before the turn's placement; WD-Q5 on the turn."""
from sim.games.waggle_dance import kernel as K
from sim.games.waggle_dance import layout as L
from sim.games.waggle_dance import options as O
from sim.games.waggle_dance.replay import format_event
from tests.positions import position

from .helpers import A, C, Table, place, stream_faces
from .test_cards import _no_dice, give
from .test_cards import card as window_card


def card(q, target=0):
    """A D_PLACE code: play card type q on ``target`` on the own turn."""
    return int(O.encode_turn_card(window_card(q, target)))


def _card_of(o):
    """The card type of an own-turn option code (-1 for a placement)."""
    return int(O.decode_card(O.decode_turn_card(o))[0]) if o >= L.TURN_CARD else -1


def fresh(tweaks=None):
    """A 2-player table with no die rolled and no slot blocked (seat 0 is S)."""
    t = Table(2, tweaks)
    _no_dice(t)
    t.state[L.S_BLOCKED:L.S_BLOCKED + L.N_SLOTCARDS * L.N_VAL] = 0
    return t


def dice(t, seat, *values):
    """``seat``'s unplaced dice this day (nothing else rolled)."""
    for v in range(L.N_VAL):
        t.seat(seat, L.F_UNPLACED + v, 0)
    for v in values:
        t.seat(seat, L.F_UNPLACED + v - 1, t.seat(seat, L.F_UNPLACED + v - 1) + 1)


def overtime(v, w):
    return card(L.Q_OVERTIME, O.encode_overtime(v - 1, w - 1))


def command(v, f):
    return card(L.Q_COMMAND, O.encode_command(v - 1, f - 1))


def feint(v, src, dest):
    return card(L.Q_FEINT, O.encode_feint(v, src, dest))


def day(t, script):
    """Play the placement turns from seat 0 (S) to the end of the day (DW-end opens)."""
    return t.play(L.PH_PLACE, script, stop=L.PH_WINDOW)


def placers(t):
    return [int(e[1]) for e in t.events(L.EV_PLACE)]


def test_wd_q1_dp05_overtime_sets_the_value_and_forces_the_placement():
    """DP-05, WD-R6, WD-R8: seat 0 turns its 2 into a 3 with Overtime; its turn then offers only
    placements of that die, value 3 (the 6 waits); placed on tile 0 next to a 3 it makes a pair
    of 3s there, the value staying all round; the play shows in the replay."""
    t = fresh()
    dice(t, 0, 2, 6)
    t.tile_dice(0, 0, 3)
    give(t, 0, L.Q_OVERTIME)
    day(t, [overtime(2, 3), place(3, L.DEST_TILE, 0)])
    first = t.seen[0][2]
    assert overtime(2, 3) in first and overtime(2, 2) not in first, "no empty play (WD-Q5)"
    assert len([o for o in first if _card_of(o) == L.Q_OVERTIME]) == 2 * 5
    after = t.seen[1]
    assert after[1] == 0 and {O.decode_place(o)[0] for o in after[2]} == {3}
    assert t.state[t.b(0) + L.F_TDICE + 2] == 2, "a pair of 3s on tile 0"
    assert placers(t) == [0, 0] and t.state[L.S_QUEEN_PLAYED] == 1
    play = t.events(L.EV_PLAY)
    assert list(play[0, 1:7]) == [0, L.Q_OVERTIME, 2, 3, 0, L.W_TURN]
    assert format_event(play[0]) == "own turn: seat 0 plays overtime: a 2 becomes a 3, placed this turn"


def test_wd_q1_dp06_command_ignores_the_value():
    """DP-06: Command puts seat 0's 1 on flower 4, where it already has a die (offered there
    only: not on flowers without its dice, nor on flower 1, a plain placement); the die keeps
    its value and is the turn's placement; at D seat 0's 2 dice beat seat 1's 1."""
    t = fresh()
    dice(t, 0, 1)
    t.flower(4, 0, 1)
    t.flower(4, 1, 1)
    give(t, 0, L.Q_COMMAND)
    day(t, [command(1, 4)])
    commands = [o for o in t.seen[0][2] if _card_of(o) == L.Q_COMMAND]
    assert commands == [command(1, 4)]
    assert t.state[L.S_FLOWER + 3 * L.MAX_PLAYERS + 0] == 2
    assert t.seat(0, L.F_FVAL + 3 * L.N_VAL + 0) == 1, "the commanded die is still a 1"
    assert t.events(L.EV_PLACE).shape[0] == 0 and t.seat(0, L.F_UNPLACED + 0) == 0
    t.play(L.PH_D, stop=L.PH_E)
    got = {(int(e[2]), int(e[1])): int(e[5]) for e in t.events(L.EV_MAJORITY)}
    assert got == {(0, 4): 2, (1, 4): 1}


def test_wd_q1_dp07_shift_change_places_two_dice():
    """DP-07 (a): seat 0 plays Shift Change and places two dice in one turn, then seat 1 plays;
    the pass (b) is not offered once the turn is doubled or a die of it placed."""
    t = fresh()
    dice(t, 0, 1, 2, 3)
    dice(t, 1, 4, 5)
    give(t, 0, L.Q_SHIFT_CHANGE, 2)
    day(t, [card(L.Q_SHIFT_CHANGE, L.SHIFT_TWO), place(1, A), place(2, A)])
    assert placers(t) == [0, 0, 1, 0, 1]
    assert card(L.Q_SHIFT_CHANGE, L.SHIFT_TWO) in t.seen[1][2], "a third placement: 3 dice"
    assert card(L.Q_SHIFT_CHANGE, L.SHIFT_PASS) not in t.seen[1][2], "no pass once the turn is doubled"
    assert card(L.Q_SHIFT_CHANGE, L.SHIFT_PASS) not in t.seen[2][2], "no pass after a placement"


def test_wd_i19_shift_change_pass_only_while_others_have_dice():
    """WD-I19, DP-07 (b): seat 0 passes its turn with Shift Change (seat 1 places first and
    seat 0 places its die later); with seat 1 out of dice the pass is not offered (two
    placements need two dice: with one die the card is not offered at all, WD-Q5)."""
    t = fresh()
    dice(t, 0, 1)
    dice(t, 1, 4, 5)
    give(t, 0, L.Q_SHIFT_CHANGE)
    day(t, [card(L.Q_SHIFT_CHANGE, L.SHIFT_PASS)])
    assert card(L.Q_SHIFT_CHANGE, L.SHIFT_TWO) not in t.seen[0][2]
    assert placers(t) == [1, 0, 1]
    assert format_event(t.events(L.EV_PLAY)[0]).endswith("places no die this turn")
    t = fresh()
    dice(t, 0, 1, 2)
    give(t, 0, L.Q_SHIFT_CHANGE)
    day(t, [])
    offered = {o for _, _, opts in t.seen for o in opts if o >= L.TURN_CARD}
    assert offered == {card(L.Q_SHIFT_CHANGE, L.SHIFT_TWO)}


def test_wd_i20_feint_moves_a_placed_die():
    """DP-08, WD-I20, WD-R7: seat 0 moves its 3 from A3 to C3 with Feint instead of placing:
    A3 is free again (seat 1's 3 may go there), no die of seat 0 was placed that turn, and its
    unplaced die waits for its next turn. A die on a flower by Command feints with its own
    value (a 1 on flower 4 may go to flower 1)."""
    t = fresh()
    dice(t, 0, 5)
    dice(t, 1, 3, 6)
    t.slot(A, 3, 0)
    t.flower(4, 0, 1, value=1)
    give(t, 0, L.Q_FEINT)
    day(t, [feint(3, A, C), place(3, A)])
    feints = {o for o in t.seen[0][2] if _card_of(o) == L.Q_FEINT}
    assert feint(3, A, C) in feints and feint(3, A, A) not in feints
    assert feint(1, L.FROM_FLOWER + 3, L.DEST_FLOWER) in feints
    assert feint(4, L.FROM_FLOWER + 3, L.DEST_FLOWER) not in feints, "the die there is a 1"
    assert t.state[L.S_SLOT_OWNER + C * L.N_VAL + 2] == 1
    assert t.state[L.S_SLOT_OWNER + A * L.N_VAL + 2] == 2, "seat 1 took the freed A3"
    assert placers(t) == [1, 0, 1]
    assert format_event(t.events(L.EV_PLAY)[0]).endswith("moves its 3 from A3 to C3")


def test_wd_i20_no_feint_without_an_unplaced_die():
    """WD-I20: Feint needs a turn: a seat out of dice (its dice all placed) is never offered
    it, neither while the others place nor in DW-end."""
    t = fresh()
    dice(t, 1, 2, 4)
    t.slot(A, 3, 0)
    give(t, 0, L.Q_FEINT)
    t.play(L.PH_PLACE, stop=L.PH_NIGHT_A)
    assert t.seen and all(s == 1 for _, s, _ in t.seen), "seat 0 never decides"
    assert t.seat(0, L.F_HAND + L.Q_FEINT) == 1


def test_wd_i13_wrong_turn_scout_volunteer_then_the_turn_goes_on():
    """WD-I13, DP-02, DP-03, DP-09: on its own turn seat 0 plays Wrong Turn (seat 1's die from
    flower 2 to flower 5), Scout (and keeps a card), then Volunteer; none uses the turn: seat 0
    still places a die, and only then seat 1 plays."""
    t = fresh({"use_mini_expansion": True})
    dice(t, 0, 1)
    dice(t, 1, 6)
    t.flower(2, 1, 1)
    give(t, 0, L.Q_WRONG_TURN)
    give(t, 0, L.Q_SCOUT)
    give(t, 0, L.Q_VOLUNTEER)
    t.force(4)
    t.state[L.S_DECK:L.S_DECK + 3] = (L.Q_HARVEST, L.Q_ALCHEMY, L.Q_RELOCATION)
    keep = L.Q_HARVEST
    script = [card(L.Q_WRONG_TURN, O.encode_wrong_turn(1, 1, 4)), card(L.Q_SCOUT), keep,
              card(L.Q_VOLUNTEER), place(1, A)]
    used = day(t, script)
    assert used == len(script)
    assert [s for _, s, _ in t.seen[:5]] == [0] * 5
    assert [ph for ph, _, _ in t.seen[:5]] == [L.PH_PLACE, L.PH_PLACE, L.PH_KEEP, L.PH_PLACE, L.PH_PLACE]
    assert t.state[L.S_FLOWER + 4 * L.MAX_PLAYERS + 1] == 1 and t.state[L.S_FLOWER + 1 * L.MAX_PLAYERS + 1] == 0
    assert placers(t) == [0, 1, 0], "seat 0 places its 1, then seat 1, then the volunteer 4"
    plays = t.events(L.EV_PLAY)
    assert list(plays[:, 2]) == [L.Q_WRONG_TURN, L.Q_SCOUT, L.Q_VOLUNTEER]
    assert (plays[:, 6] == L.W_TURN).all() and t.state[L.S_QUEEN_PLAYED] == 3


def test_wd_q5_no_turn_card_without_an_effect():
    """WD-Q5 on the own turn: with one die left and nobody else holding dice, no die on any
    flower, nothing placed, an empty deck and no opponent die on a flower, Command, Shift
    Change, Feint, Scout and Wrong Turn are not offered: the turn lists placements only."""
    t = fresh()
    dice(t, 0, 2)
    for q in (L.Q_COMMAND, L.Q_SHIFT_CHANGE, L.Q_FEINT, L.Q_SCOUT, L.Q_WRONG_TURN):
        give(t, 0, q)
    t.state[L.S_DECK_POS] = t.state[L.S_DECK_N]
    day(t, [])
    assert all(o < L.TURN_CARD for o in t.seen[0][2])
    assert t.state[L.S_QUEEN_PLAYED] == 0 and placers(t) == [0]


def test_option_codes_round_trip():
    """The one declaration of the packed options (``options.py``): decode(encode(x)) == x,
    the forms of one decision point never collide, and codes read as text."""
    for v in range(1, L.N_VAL + 1):
        for dest in list(range(L.DEST_TILE)) + [L.DEST_TILE + t for t in (0, 7, L.MAX_HIVE - 1)]:
            assert tuple(O.decode_place(O.encode_place(v, dest))) == (v, dest)
            assert O.encode_place(v, dest) == O.encode_place(v, 0) + dest
            for src in (0, L.FROM_FLOWER + 2, L.FROM_TILE + L.MAX_HIVE - 1):
                assert tuple(O.decode_feint(O.encode_feint(v, src, dest))) == (v, src, dest)
    for c in range(L.N_COL):
        for c2 in range(L.N_COL):
            assert tuple(O.decode_trade(O.encode_trade(c, c2))) == (c, c2)
            assert O.encode_trade(c, c2) < L.TR_EGG
        assert tuple(O.decode_trade(O.encode_trade(-1, c))) == (-1, c)
        for side in (0, 1):
            assert tuple(O.decode_move(O.encode_move(c, side))) == (c, side)
    for x, y in ((0, 0), (2, 5), (L.MAX_HIVE - 1, L.MAX_HIVE - 1)):
        for v in range(L.N_VAL):
            assert tuple(O.decode_pair(O.encode_pair(x, y, v, -1))) == (x, y, v, -1)
            assert O.encode_pair(x, y, v, -1) < L.PAIR_EXPERT
            for w in range(L.N_VAL):
                assert tuple(O.decode_pair(O.encode_pair(x, y, v, w))) == (x, y, v, w)
        assert tuple(O.decode_relocation(O.encode_relocation(x, y, O.encode_move(5, 1)))) == (
            x, y, O.encode_move(5, 1))
    for kind in (L.FLIP_PLAIN, L.FLIP_EFFICIENCY, L.FLIP_ALCHEMY, L.FLIP_BOTH):
        assert tuple(O.decode_flip(O.encode_flip(kind, 9))) == (kind, 9)
    far = O.encode_relocation(L.MAX_HIVE - 2, L.MAX_HIVE - 1, O.encode_move(5, 1))
    assert tuple(O.decode_card(O.encode_card(L.Q_RELOCATION, far))) == (L.Q_RELOCATION, far)
    feint = O.encode_card(L.Q_FEINT, O.encode_feint(6, L.FROM_TILE + L.MAX_HIVE - 1, L.DEST_TILE))
    assert O.decode_turn_card(O.encode_turn_card(feint)) == feint < L.CARD_PLAY * (L.Q_FEINT + 1)
    assert tuple(O.decode_sick_day(O.encode_sick_day(3, 5))) == (3, 5)
    assert tuple(O.decode_wrong_turn(O.encode_wrong_turn(3, 5, 0))) == (3, 5, 0)
    assert tuple(O.decode_overtime(O.encode_overtime(5, 0))) == (5, 0)
    assert tuple(O.decode_command(O.encode_command(0, 5))) == (0, 5)
    assert O.decode_gift(O.encode_gift(-1)) == -1 and O.decode_gift(O.encode_gift(4)) == 4
    assert O.option_text(L.D_PLACE, O.encode_place(3, L.DEST_FLOWER)) == "place a 3 on flower 3"
    assert O.option_text(L.D_TRADE, O.encode_trade(-1, 2)) == "pay eggs for colour 3"


def _volunteer(phase):
    """Seat 0 (S) holds a Volunteer and a Scout with a 1 to place, seat 1 a 6; play goes on at
    ``phase`` (its own turn, or the window DW0) up to the card decision, where seat 0 plays the
    Volunteer. Returns the table, just before the volunteer die is rolled."""
    t = fresh({"use_mini_expansion": True})
    dice(t, 0, 1)
    dice(t, 1, 6)
    give(t, 0, L.Q_VOLUNTEER)
    give(t, 0, L.Q_SCOUT)
    t.state[L.S_WINDOW] = L.W_DW0
    t.state[L.S_PHASE] = phase
    t.chance()
    t.game.take(card(L.Q_VOLUNTEER) if phase == L.PH_PLACE else window_card(L.Q_VOLUNTEER))
    return t


def test_wd_q2_volunteer_die_chance_point():
    """WD-Q2 (DP-02) through chance points: a Volunteer played on the own turn or in DW0 takes
    the volunteer die and stops before it is rolled (D_ROLL of the card's player, the faces
    1..6); the face answered joins the player's unplaced dice, EV_PLAY logs it with the
    window, and the turn or the window goes on: seat 0 decides again there (the dice stream is
    not drawn)."""
    for phase, window, point in ((L.PH_PLACE, L.W_TURN, L.D_PLACE), (L.PH_WINDOW, L.W_DW0, L.D_CARD)):
        t = _volunteer(phase)
        rng = int(t.state[L.S_RNG_D])
        assert t.chance() == (L.D_ROLL, 0, [int(O.encode_face(v)) for v in range(1, L.N_VAL + 1)])
        assert t.state[L.S_VOLUNTEER] == 1 and t.events(L.EV_PLAY).shape[0] == 0
        t.game.take(int(O.encode_face(5)))
        assert t.state[L.S_PHASE] == phase and t.chance()[:2] == (point, 0)
        assert [t.seat(0, L.F_UNPLACED + v) for v in range(6)] == [1, 0, 0, 0, 1, 0]
        assert [list(e[1:7]) for e in t.events(L.EV_PLAY)] == [[0, L.Q_VOLUNTEER, 5, 0, 0, window]]
        assert int(t.state[L.S_RNG_D]) == rng, "no die drawn from the stream"


def test_wd_q2_volunteer_die_without_chance_is_advance():
    """WD-Q2: without ``chance`` the volunteer die is rolled from the dice stream exactly as
    ``advance`` rolls it (same state, same events); answering its chance point with the face
    the stream would roll gives that same state and those events too."""
    for phase in (L.PH_PLACE, L.PH_WINDOW):
        a, b, c = (_volunteer(phase) for _ in range(3))
        K.advance(a.state, a.rules, a.comp, a.log)
        assert K.advance_chance(b.state, b.rules, b.comp, b.log, False)
        (face,), rng = stream_faces(c.state, 1)
        assert c.chance()[0] == L.D_ROLL
        c.game.take(int(O.encode_face(face)))
        c.chance()
        c.state[L.S_RNG_D] = rng
        assert (b.state == a.state).all() and (b.events() == a.events()).all()
        assert (position(c.state, L) == position(a.state, L)).all() and (c.events() == a.events()).all()
