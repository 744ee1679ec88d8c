"""Queen cards: the windows DW0, DW-end, NW_A..NW_G, Harvest at D, Expertise at B and F,
Efficiency and Alchemy at F (WD-R3, R9, R12, D6, WD-Q2, Q3, Q5..Q7, WD-I18), on hand-built
states with forced dice; T-26, T-27, T-29 and T-30 of spec §11."""
import pytest

from sim import batch
from sim.games.waggle_dance import SPEC
from sim.games.waggle_dance import layout as L
from sim.games.waggle_dance import options as O
from sim.games.waggle_dance.rules import COMPONENTS_DIR, load_components
from sim.spec import SpecError

from .helpers import G, Table

PASS = L.CARD_PASS


def card(q, target=0):
    """D_CARD / D_HARVEST code: play card type q on ``target``."""
    return int(O.encode_card(q, target))


def give(t, seat, q, k=1):
    """Put k cards of type q in ``seat``'s hand."""
    t.seat(seat, L.F_HAND + q, t.seat(seat, L.F_HAND + q) + k)


def _no_dice(t):
    for p in range(t.n):
        for v in range(L.N_VAL):
            t.seat(p, L.F_UNPLACED + v, 0)


def test_t30_sick_day_wd_r3():
    """T-30, WD-R3: in DW0 (before any placement) P1 plays Sick Day on one of P0's 5s: P0
    places 5 of its 6 dice this round; at the end of the round the die is back (P0 rolls 6
    again) and the card is on the discard pile."""
    t = Table(2)
    give(t, 1, L.Q_SICK_DAY)
    t.force(5, 5, 1, 2, 3, 4, 6, 6, 6, 6, 6, 6)
    t.play(L.PH_DAY, [card(L.Q_SICK_DAY, O.encode_sick_day(0, 5 - 1))], stop=L.PH_PLACE)
    assert t.seen[0][1] == 1 and t.seen[0][2][0] == PASS, "seat 1 decides; passing is offered"
    assert t.seat(0, L.F_UNPLACED + 4) == 1 and t.seat(0, L.F_SICK) == 1
    assert t.events(L.EV_PLACE).shape[0] == 0, "DW0 comes before the first placement"
    assert t.seat(1, L.F_HAND + L.Q_SICK_DAY) == 0 and t.state[L.S_DISCARD] == 1
    t.play(L.PH_PLACE, stop=L.PH_DAY)
    placed = t.events(L.EV_PLACE)
    assert (placed[:, 1] == 0).sum() == 5 and (placed[:, 1] == 1).sum() == 6
    assert t.seat(0, L.F_POOL) == 6 and t.seat(0, L.F_SICK) == 0
    assert t.state[L.S_QUEEN_PLAYED] == 1
    play = t.events(L.EV_PLAY)
    assert play.shape[0] == 1 and list(play[0, 1:5]) == [1, L.Q_SICK_DAY, 0, 5]


def test_wd_r3_volunteer_and_scout_in_dw0():
    """WD-R3: Volunteer (mini expansion) rolls the volunteer die into the player's unplaced
    dice for this round only (a second Volunteer is not offered while the die is out, WD-Q5);
    Scout draws 3, keeps 1 (DP-03) and discards the other 2 (WD-Q3). The volunteer die goes
    back at the round's end and never joins the pool (WD-R15, WD-R16)."""
    t = Table(2, {"use_mini_expansion": True})
    give(t, 0, L.Q_VOLUNTEER, 2)
    give(t, 0, L.Q_SCOUT)
    deck = t.state[L.S_DECK:L.S_DECK + 3].copy()
    t.force(1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 4)
    keep = int(deck[2])
    t.play(L.PH_DAY, [card(L.Q_VOLUNTEER), card(L.Q_SCOUT), keep, PASS], stop=L.PH_PLACE)
    assert t.seat(0, L.F_UNPLACED + 3) == 1 and t.state[L.S_VOLUNTEER] == 1
    assert card(L.Q_VOLUNTEER) not in t.seen[1][2], "the volunteer die is in use"
    assert t.state[L.S_DECK_POS] == 3 and t.state[L.S_DISCARD] == 2 + 2
    hand = t.state[t.b(0) + L.F_HAND:t.b(0) + L.F_HAND + L.N_QUEEN]
    assert hand[keep] == (2 if keep == L.Q_VOLUNTEER else 1) and hand.sum() == 2
    t.play(L.PH_PLACE, stop=L.PH_DAY)
    assert (t.events(L.EV_PLACE)[:, 1] == 0).sum() == 7
    assert t.state[L.S_VOLUNTEER] == 0 and t.seat(0, L.F_POOL) == 6


def test_t29_wrong_turn_wd_r9():
    """T-29, WD-R9: flower 4 holds 2 dice of P0 and 2 of P1; in DW-end (after the last
    placement) P0 moves one of P1's dice from D4 to D6: P0 +2 on D4 (sole first), P1 +1
    (sole second) and +2 on D6 (alone)."""
    t = Table(2)
    _no_dice(t)
    t.flower(4, 0, 2)
    t.flower(4, 1, 2)
    give(t, 0, L.Q_WRONG_TURN)
    t.play(L.PH_PLACE, [card(L.Q_WRONG_TURN, O.encode_wrong_turn(1, 3, 5))], stop=L.PH_DAY)
    assert t.seen[0][1] == 0 and len(t.seen[0][2]) == 1 + 5, "P1's die may go to any other flower"
    got = {(int(e[2]), int(e[1])): int(e[5]) for e in t.events(L.EV_MAJORITY)}
    assert got == {(0, 4): 2, (1, 4): 1, (1, 6): 2}
    assert t.seat(0, L.F_CUBES_GAINED) == 2 and t.seat(1, L.F_CUBES_GAINED) == 3


def test_wd_r12_night_windows_queens_gift():
    """WD-R12, WD-I5: the night windows come before each card; an egg from Queen's Gift in
    NW_B lands before the start of B, so two equal dice on that tile hatch it; the same play
    in NW_C (after B) leaves the egg, and the dice on the tile stay F-dice."""
    for window, hatched in ((1, True), (2, False)):     # NW_B, NW_C
        t = Table(2)
        give(t, 0, L.Q_QUEENS_GIFT)
        t.tile_dice(0, 2, 3, 3)
        script = [PASS] * window + [card(L.Q_QUEENS_GIFT, 1 + 2)]
        t.night(script)
        windows = [ph for ph, _, _ in t.seen if ph == L.PH_WINDOW]
        assert len(windows) == window + 1, "one decision per window until the card is played"
        assert t.state[L.S_DISCARD] == 1 and t.seat(0, L.F_HAND + L.Q_QUEENS_GIFT) == 0
        assert t.seat(0, L.F_EGGS_HATCHED) == int(hatched)
        assert t.state[t.b(0) + L.F_EGG + 2] == int(not hatched)
        assert t.seat(0, L.F_POOL) == 6 + int(hatched)
    t = Table(2)
    give(t, 1, L.Q_QUEENS_GIFT)
    supply = int(t.state[L.S_TILE_SUPPLY])
    t.night([card(L.Q_QUEENS_GIFT)])
    assert t.seat(1, L.F_N_TILES) == 4 and t.state[L.S_TILE_SUPPLY] == supply - 1


def test_wd_r12_relocation_then_honey():
    """WD-R12: Relocation in a night window shares two tiles' cubes out: {blue 3} and
    {blue 1, pink 1} become {blue 4} and {pink 1}; the pair of 2s on the first tile then
    makes honey at F."""
    t = Table(2)
    give(t, 0, L.Q_RELOCATION)
    t.cubes(0, 0, c1=3)
    t.cubes(0, 1, c1=1, c3=1)
    t.tile_dice(0, 0, 2, 2)
    t.night([card(L.Q_RELOCATION, O.encode_relocation(0, 1, O.encode_move(1, 0)))])
    assert t.seat(0, L.F_HONEY) == 1 and t.tile(0, 1) == [0, 0, 0, 1, 0, 0]
    assert t.state[L.S_QUEEN_PLAYED] == 1


def test_wd_d6_harvest():
    """WD-D6: after every flower paid out, Harvest adds a cube of a flower the player took
    from; two Harvests stack; with the colour short, plays settle in turn order from S."""
    t = Table(2)
    give(t, 0, L.Q_HARVEST, 2)
    t.flower(2, 0, 1)
    t.play(L.PH_D, [card(L.Q_HARVEST, 1), card(L.Q_HARVEST, 1)], stop=L.PH_E)
    assert t.seen[0][2] == [PASS, card(L.Q_HARVEST, 1)], "only flower 2 paid the seat"
    assert t.seat(0, L.F_CUBES_GAINED) == 4 and t.tile(0, 0)[1] == 4
    assert t.state[L.S_DISCARD] == 2
    t = Table(2)
    t.state[L.S_START] = 1
    for seat in (0, 1):
        give(t, seat, L.Q_HARVEST)
        t.flower(3, seat, 1)
    t.state[L.S_CUBE_SUPPLY + 2] = 3
    t.play(L.PH_D, [card(L.Q_HARVEST, 2)] * 2, stop=L.PH_E)
    assert [s for _, s, _ in t.seen[:1]] == [1], "S = seat 1 harvests first"
    assert t.seat(1, L.F_CUBES_GAINED) == 2 and t.seat(0, L.F_CUBES_GAINED) == 1
    assert t.state[L.S_CUBE_SUPPLY + 2] == 0
    assert t.seat(0, L.F_HAND + L.Q_HARVEST) == 1, "no empty play: the supply ran out"


def test_wd_q2_scout_resolves_before_the_next_play():
    """WD-Q2: after a Scout play the player keeps a card (D_KEEP) before anything else can be
    played; scout_keep = 2 keeps two of the three drawn."""
    t = Table(2, {"scout_keep": 2})
    give(t, 0, L.Q_SCOUT)
    give(t, 0, L.Q_SICK_DAY)
    t.play(L.PH_DAY, [card(L.Q_SCOUT)], stop=L.PH_PLACE)
    phases = [ph for ph, _, _ in t.seen]
    assert phases[:3] == [L.PH_WINDOW, L.PH_KEEP, L.PH_KEEP] or phases[:2] == [L.PH_WINDOW, L.PH_KEEP]
    assert t.seen[-1][0] == L.PH_WINDOW, "the window goes on after the keep"
    assert t.state[L.S_DISCARD] == 1 + 1
    hand = t.state[t.b(0) + L.F_HAND:t.b(0) + L.F_HAND + L.N_QUEEN]
    assert hand.sum() == 3, "Sick Day and the two cards kept"


def test_wd_q3_discard_pile():
    """WD-Q3: played cards go to the discard pile, which is never reshuffled (WD-I12): the
    deck + the hands + the discard pile always hold the whole deck."""
    t = Table(3)
    give(t, 0, L.Q_SCOUT)                      # one card more than the deck's 27
    t.play(L.PH_DAY, [card(L.Q_SCOUT)], stop=L.PH_PLACE)
    held = sum(int(t.state[t.b(p) + L.F_HAND:t.b(p) + L.F_HAND + L.N_QUEEN].sum()) for p in range(3))
    left = t.state[L.S_DECK_N] - t.state[L.S_DECK_POS]
    assert t.state[L.S_DISCARD] == 3 and held == 1
    assert left + held + t.state[L.S_DISCARD] == t.state[L.S_DECK_N] + 1


def test_wd_q5_no_empty_plays():
    """WD-Q5: a card whose effect cannot apply is not offered: Queen's Gift with no tile in
    the supply and no EMPTY tile, Scout on an empty deck, Harvest on a flower that paid
    nothing: no decision is posted at all."""
    t = Table(2)
    give(t, 0, L.Q_QUEENS_GIFT)
    give(t, 0, L.Q_HARVEST)
    t.state[L.S_TILE_SUPPLY] = 0
    for tile in range(3):
        t.cubes(0, tile, c0=1)
    t.night()
    assert t.seen == [] and t.state[L.S_QUEEN_PLAYED] == 0
    t = Table(2)
    give(t, 1, L.Q_SCOUT)
    t.state[L.S_DECK_POS] = t.state[L.S_DECK_N]
    t.play(L.PH_DAY, stop=L.PH_PLACE)
    assert t.seen == []


def test_wd_q6_cards_drawn_at_g_wait_for_the_next_day():
    """WD-Q6: a card drawn at G cannot be played that night (no window after G); it is first
    offered in the next day's DW0."""
    t = Table(2)
    t.state[L.S_DECK + t.state[L.S_DECK_POS]] = L.Q_SICK_DAY
    t.slot(G, 3, 0)
    t.night()
    assert t.seat(0, L.F_HAND + L.Q_SICK_DAY) == 1
    assert [ph for ph, _, _ in t.seen if ph == L.PH_WINDOW] == []
    t.play(L.PH_DAY, stop=L.PH_PLACE)
    assert t.seen and t.seen[0][0] == L.PH_WINDOW and t.seen[0][1] == 0


def _ripe(t, seat, tile, dice, **cubes):
    t.cubes(seat, tile, **cubes)
    t.tile_dice(seat, tile, *dice)


def test_t26_alchemy_and_efficiency_wd_f7():
    """T-26, WD-F7: {blue 3, pink 1} with two 2s makes no honey; with Alchemy it flips and 3
    blue + 1 pink go back; with Efficiency it flips and all 4 cubes go back. A card flip is a
    choice: keeping the card (FLIP_NONE) is offered."""
    for q, kind in ((None, None), (L.Q_ALCHEMY, L.FLIP_ALCHEMY), (L.Q_EFFICIENCY, L.FLIP_EFFICIENCY)):
        t = Table(2)
        _ripe(t, 0, 1, (2, 2), c1=3, c3=1)
        blue, pink = (int(t.state[L.S_CUBE_SUPPLY + c]) for c in (1, 3))
        if q is not None:
            give(t, 0, q)
        t.night([O.encode_flip(kind, 1)] if q is not None else [])
        flips = [o for ph, _, o in t.seen if ph == L.PH_F_FLIP]
        assert t.seat(0, L.F_HONEY) == (0 if q is None else 1)
        if q is not None:
            assert flips == [[O.encode_flip(kind, 1), L.FLIP_NONE]]
            assert t.state[L.S_CUBE_SUPPLY + 1] == blue + 3 and t.state[L.S_CUBE_SUPPLY + 3] == pink + 1
            assert t.state[L.S_DISCARD] == 1 and t.seat(0, L.F_HAND + q) == 0


def test_wd_q7_efficiency_with_alchemy():
    """WD-Q7: {blue 2, pink 1} needs both cards (3 cubes, 2 colours); they may not apply to
    the same conversion by default; with allow_efficiency_with_alchemy the pair flips it and
    both cards are played."""
    for allow, honey in ((False, 0), (True, 1)):
        t = Table(2, {"allow_efficiency_with_alchemy": allow})
        _ripe(t, 0, 0, (4, 4), c1=2, c3=1)
        give(t, 0, L.Q_EFFICIENCY)
        give(t, 0, L.Q_ALCHEMY)
        t.night()
        assert t.seat(0, L.F_HONEY) == honey
        assert t.state[L.S_DISCARD] == 2 * honey
        if allow:
            assert [o for ph, _, o in t.seen if ph == L.PH_F_FLIP] == [[O.encode_flip(L.FLIP_BOTH, 0), L.FLIP_NONE]]


def test_t27_expertise_wd_i18():
    """T-27, WD-I18: {yellow 4} with a 2 and a 5 makes no honey; Expertise makes that unequal
    pair count and the tile flips. One card covers one pair: with two such tiles and one
    card, only one flips. At B (DP-13), Expertise hatches an egg tile holding a 1 and a 4."""
    expert = O.encode_pair(1, 1, 2 - 1, 5 - 1)   # a 2 and a 5 on tile 1
    for held, honey in ((0, 0), (1, 1)):
        t = Table(2)
        _ripe(t, 0, 1, (2, 5), c0=4)
        _ripe(t, 0, 2, (3, 6), c0=4)
        give(t, 0, L.Q_EXPERTISE, held)
        t.night([expert] if held else [])
        assert t.seat(0, L.F_HONEY) == honey and t.state[L.S_DISCARD] == held
        if held:
            pairs = [o for ph, _, o in t.seen if ph == L.PH_F][0]
            assert expert in pairs and L.PAIR_DONE in pairs
            assert t.tile(0, 2) == [4, 0, 0, 0, 0, 0], "the second tile has no card left"
    t = Table(2)
    t.egg(0, 0)
    t.tile_dice(0, 0, 1, 4)
    give(t, 0, L.Q_EXPERTISE)
    t.night([card(L.Q_EXPERTISE, 0)])
    assert t.seat(0, L.F_EGGS_HATCHED) == 1 and t.seat(0, L.F_POOL) == 7
    assert [ph for ph, _, _ in t.seen][:1] == [L.PH_B]


def test_wd_i18_one_flower_per_harvest():
    """WD-I18: a Harvest adds to one flower only: after taking from flowers 1 and 2, one card
    adds a cube of the chosen colour and none of the other."""
    t = Table(2)
    give(t, 0, L.Q_HARVEST)
    t.flower(1, 0, 1)
    t.flower(2, 0, 1)
    t.play(L.PH_D, [card(L.Q_HARVEST, 1)], stop=L.PH_E)
    assert t.seen[0][2] == [PASS, card(L.Q_HARVEST, 0), card(L.Q_HARVEST, 1)]
    assert t.seat(0, L.F_CUBES_GAINED) == 2 + 2 + 1
    placed = t.events(L.EV_CUBE)
    assert (placed[:, 2] == 0).sum() == 2 and (placed[:, 2] == 1).sum() == 3


def test_card_parameters_checked(tmp_path):
    """The card parameters are range-checked with one clear message: scout_keep <= scout_draw,
    efficiency_cubes <= pollen_per_honey; a queen_cards.csv moving a card to the other phase
    is refused (the kernel's windows are fixed, WD-I14)."""
    for tweaks, name in (({"scout_draw": 2, "scout_keep": 3}, "scout_keep"),
                         ({"efficiency_cubes": 5}, "efficiency_cubes"),
                         ({"alchemy_max_colours": 5}, "alchemy_max_colours"),
                         ({"harvest_bonus": 0}, "harvest_bonus")):
        with pytest.raises(SpecError, match=name):
            batch.make_arm(SPEC, 2, tweaks=tweaks)
    d = tmp_path / "c"
    d.mkdir()
    for f in COMPONENTS_DIR.iterdir():
        (d / f.name).write_text(f.read_text())
    text = (d / "queen_cards.csv").read_text().replace("5,scout,Scout,day", "5,scout,Scout,night")
    (d / "queen_cards.csv").write_text(text)
    with pytest.raises(SpecError, match="column 'phase'"):
        load_components(d)
