"""Policies (§10): the greedy heuristic's choices on hand-built decisions, its presets, and
what they do over whole games."""
import numpy as np

from sim import batch
from sim.spec import G_N_WINNERS
from sim.games.cupcake_empire import SPEC
from sim.games.cupcake_empire import kernel as K
from sim.games.cupcake_empire import layout as L
from sim.games.cupcake_empire import options as O
from sim.games.cupcake_empire import rules as R

from .helpers import CHOC, FL, Game, act, ctype, house

SCOLS = {c: i for i, c in enumerate(SPEC.seat_column_names)}


def pick(g, policy="greedy"):
    """The option code the policy takes at the pending decision."""
    kinds, pp = SPEC.pack_policies([policy] * g.n)
    i = int(K.choose(g.state, g.rules, g.comp, kinds, pp, (np.zeros(1),)))
    return g.options()[i]


def _seller():
    g = Game(2)
    g.clear()
    g.put(0, 4, "green", "green")                                    # level 2, reach 3
    g.building("shop", "BEI2", 0, 0)
    for d in (1, 3):
        g.state[L.S_HOUSE + house("BEI2", d)] = ctype(CHOC, "mint")
    g.serve(0, CHOC, FL["mint"])
    g.set_seat(0, L.F_INCOME, 20)
    return g


def test_greedy_activates_the_sale_and_takes_the_best_customer():
    """DP6: with only column 4 able to act, greedy activates it at level 2 (not a level-0
    reroll); DP11: it sells to the value-3 customer, not the value-1 one."""
    g = _seller()
    g.start_turn(0)
    assert g.run(until=(L.D_ACTIVATE,)) == 1
    assert pick(g) == act(4, 2)
    g.script(act(4, 2))
    assert g.run(until=(L.D_SELL,)) == 1
    assert g.options() == [house("BEI2", 1), house("BEI2", 3)]
    assert pick(g) == house("BEI2", 3)
    assert pick(g, "greedy:customer_w_value=0") == house("BEI2", 1)  # tie: the nearer house


def test_greedy_overflow_keeps_the_column_experts():
    """DP13: with overflow_keep_experts greedy sends a die that is no expert in the full column
    to the rest area (orange, keeping column 2's yellow); without it, the first listed."""
    g = Game(2)
    g.clear()
    g.put(0, 2, *("grey",) * 5)
    g.put(0, 4, "grey", "grey", "yellow", "orange")
    g.force(1, 1, 2, 2)
    g.start_turn(0)
    g.script(act(4, 0))
    assert g.run(until=(L.D_OVERFLOW,)) == 1
    assert g.options() == [2, 3]
    assert pick(g) == 3
    assert pick(g, "greedy:overflow_keep_experts=false") == 2


def test_greedy_makes_menus_and_no_free_preset_never_pays():
    """DP3: greedy makes a menu when it can; greedy_no_free never uses rest recalls or
    special actions (no income paid, no idea spent on discs) over whole games, greedy does."""
    g = Game(2)
    g.clear()
    g.set_seat(0, L.F_STOCK_BASE + CHOC, 1)
    g.set_seat(0, L.F_STOCK_FROST + FL["mint"], 1)
    g.start_turn(0)
    assert g.run(until=(L.D_FREE,)) == 1
    assert pick(g) == L.FA_MENU and pick(g, "greedy_no_free") == L.FA_MENU
    for policy, paid in (("greedy_no_free", False), ("greedy", True)):
        arm = batch.make_arm(SPEC, 3, policy=policy)
        _, seats = batch.run_games(arm, 5, 0, 200)
        assert (seats[:, :, SCOLS["income_paid"]].sum() > 0) == paid, policy


def test_greedy_beats_random_and_presets_differ():
    """Over 400 2-player games greedy (seat 0 and seat 1 in turn) wins far more than half
    against random; the salesman preset plays differently from greedy."""
    wins = 0
    for seat in (0, 1):
        arm = batch.make_arm(SPEC, 2, policy="random", seat_policies={seat: "greedy"})
        _, seats = batch.run_games(arm, 9, 0, 200)
        wins += seats[:, seat, SCOLS["won"]].sum()
    assert wins / 400 > 0.9
    a = batch.run_games(batch.make_arm(SPEC, 4, policy="greedy"), 9, 0, 100)[1]
    b = batch.run_games(batch.make_arm(SPEC, 4, policy="salesman"), 9, 0, 100)[1]
    assert not np.array_equal(a, b)


def test_replay_text_names_the_events():
    """``playtest replay`` text: every event of a game renders, with the game's own names."""
    arm = batch.make_arm(SPEC, 2, policy="greedy")
    ev, _, _ = batch.replay(arm, 3, 0)
    lines = [SPEC.format_event(e, {"components": arm.components}) for e in ev]
    assert not any(line.startswith("event ") for line in lines)
    assert any("activates column" in line for line in lines)
    assert lines[-1].startswith("game over")


def test_greedy_activation_takes_the_best_option_value():
    """At the activation decision (D10) greedy takes the first option of highest
    ``option_value`` (4p games, every D10 checked)."""
    from sim import decide
    from sim.games.cupcake_empire import policies as P
    arm = batch.make_arm(SPEC, 4, policy="greedy")
    kinds, pp = arm.policy_arrays
    comp = arm.comp
    checked = 0
    for index in range(3):
        game = decide.start(SPEC.steps, arm.rules, comp, 4, kinds, pp, 7, index)
        while game.advance():
            state = game.state
            if state[L.S_POINT] == L.D_ACTIVATE:
                seat, n = int(state[L.S_DECIDER]), int(state[L.S_N_OPTIONS])
                values = [P.option_value(state, arm.rules, comp, pp[seat], seat, L.D_ACTIVATE,
                                         int(state[L.S_OPTIONS + i])) for i in range(n)]
                assert game.choose() == int(np.argmax(values))
                checked += 1
            game.apply(game.choose())
    assert checked > 50


def test_greedy_epsilon_is_the_share_of_uniform_choices():
    """``epsilon`` = the probability of a uniform option at a decision. A small epsilon barely
    changes greedy (head to head against plain greedy, seats rotated: about half the wins);
    epsilon 1 plays like ``random`` (it loses almost every game to greedy)."""
    def share(policy, games=600):
        won = []
        for seat in (0, 1):
            arm = batch.make_arm(SPEC, 2, policy="greedy", seat_policies={seat: policy})
            g, s = batch.run_games(arm, 5, 0, games)
            won.append(s[:, seat, SCOLS["won"]] / np.maximum(g[:, G_N_WINNERS], 1))
        return float(np.concatenate(won).mean())
    assert 0.40 < share("greedy:epsilon=0.01") < 0.60
    assert share("greedy:epsilon=1") < 0.15


# ---- careful (version 1.2): the known last turn, the highest level, no empty-column pass ----
def _last_turn_spender(trigger=True, income=40):
    """Seat 1 of 2 with 2 grey rest dice that lift column 4 to level 1, income to pay for the
    recall or an SP3 idea, nothing to sell; with ``trigger`` seat 0 has triggered the end
    (CE-E1), so this turn is seat 1's last (CE-E2)."""
    g = Game(2)
    g.clear()
    g.put(1, "rest", "grey", "grey")
    g.put(1, 4, "grey", "grey")
    g.set_seat(1, L.F_INCOME, income)
    g.set_seat(1, L.F_PRODUCTION, 5)
    g.set_seat(1, L.F_SALES, 5)
    if trigger:
        g.set(L.S_END_TRIGGERED, 1)
        g.set(L.S_TRIGGER_SEAT, 0)
    g.start_turn(1)
    assert g.run(until=(L.D_FREE,)) == 1
    assert g.options() == [L.FA_DONE, L.FA_REST, L.FA_SPECIAL]
    return g


def test_last_turn_knows_the_end():
    """``policies.last_turn``: the end triggered (CE-E1, CE-E2), income + min(P, S) reaching
    end_threshold before S2 (CE-T5, CE-T8; after S2, in W3, the income alone), round
    max_rounds (CE-E4); not otherwise."""
    from sim.games.cupcake_empire import policies as P
    g = _last_turn_spender(trigger=False, income=64)
    last = lambda: bool(P.last_turn(g.state, g.rules, 1))            # noqa: E731
    assert not last()
    g.set_seat(1, L.F_INCOME, 65)                                   # 65 + min(5, 5) = 70
    assert last()
    g.set(L.S_WINDOW, 3)                                            # S2 paid already
    assert not last()
    g.set(L.S_WINDOW, 1)
    g.set_seat(1, L.F_INCOME, 40)
    g.set(L.S_ROUND, int(g.rules[R.R_MAX_ROUNDS]))
    assert last()
    g.set(L.S_ROUND, 3)
    g.set(L.S_END_TRIGGERED, 1)
    assert last()


def test_careful_greedy_pays_no_income_on_its_known_last_turn():
    """On seat 1's last turn (seat 0 triggered the end, or its own income + S2 income reaches
    70) a recall by income or an SP3 idea has no end-game effect: careful greedy (and expert)
    closes W1 (FA_DONE), the 1.1 greedy (careful=false) recalls; with an idea the recall is
    free of score and careful greedy makes it, paying the idea (D05 method 0). On a turn that
    is not its last careful greedy recalls as before."""
    for trigger, income in ((True, 40), (False, 66)):
        g = _last_turn_spender(trigger, income)
        assert pick(g) == L.FA_DONE and pick(g, "expert") == L.FA_DONE
        assert pick(g, "greedy:careful=false") == L.FA_REST
    g = _last_turn_spender()
    g.set_seat(1, L.F_IDEAS, 1)
    assert pick(g) == L.FA_REST
    g.script((L.D_FREE, L.FA_REST))
    assert g.run(until=(L.D_REST,)) == 1
    assert O.decode_rest(pick(g))[0] == 0
    g = _last_turn_spender(trigger=False, income=40)
    assert pick(g) == L.FA_REST


def test_careful_greedy_plays_its_last_turn_without_paying():
    """Whole last turns: careful greedy never pays income (no EV_PAY) on the known last turn
    of the hand-built position; the 1.1 greedy pays for the recall."""
    for policy, pays in (("greedy", False), ("greedy:careful=false", True)):
        g = _last_turn_spender()
        kinds, pp = SPEC.pack_policies([policy] * 2)
        while True:
            r = int(K.advance_turn(g.state, g.rules, g.comp, g.game.log, False))
            if r != 1:
                break
            g.game.apply(int(K.choose(g.state, g.rules, g.comp, kinds, pp, (np.zeros(1),))))
        paid = [e for e in g.events() if e[0] == L.EV_PAY]
        assert bool(paid) == pays, policy


def test_careful_greedy_takes_the_highest_level_of_column_4():
    """Column 4 at L_avail 3 with the only customer at distance 1: every level sells the same
    (CE-A4), so a higher level never loses; careful greedy activates level 3, the 1.1 greedy
    took level 1 on the tie."""
    g = Game(2)
    g.clear()
    g.put(0, 4, *("grey",) * 6)                                     # 6 dice: level 3
    g.building("shop", "BEI2", 0, 0)
    g.state[L.S_HOUSE + house("BEI2", 1)] = ctype(CHOC, "mint")
    g.serve(0, CHOC, FL["mint"])
    g.start_turn(0)
    assert g.run(until=(L.D_ACTIVATE,)) == 1
    assert pick(g) == act(4, 3) and pick(g, "expert") == act(4, 3)
    assert pick(g, "greedy:careful=false") == act(4, 1)


def test_careful_no_free_does_not_pass_with_an_empty_column():
    """greedy_no_free with column 4 = [green] (level 1, nothing to sell) and every other column
    empty: the 1.1 policy activated empty column 1 at level 0 (no action, no roll: the same
    position next turn, the stall), as w_expert_keep made rerolling the green die look worse;
    careful, it activates column 4 (and rerolls its die)."""
    g = Game(2)
    g.clear()
    g.put(0, 4, "green")
    g.start_turn(0)
    assert g.run(until=(L.D_ACTIVATE,)) == 1
    assert pick(g, "greedy_no_free:careful=false") == act(1, 0)
    assert pick(g, "greedy_no_free") == act(4, 1)
    assert pick(g) == act(4, 1)


def test_careful_habits_over_whole_games():
    """Over 60 replayed 4-player games (``habits``): the 1.1 greedy pays income on known last
    turns and activates columns 1-4 below an available level 3; careful greedy and expert do
    neither; greedy_no_free no longer passes on an empty column for turns on end."""
    from .habits import habits
    old = habits("greedy:careful=false", 60)
    assert old["known last turns with income paid"] > 0
    assert old["columns 1-4 below an available level 3"] > 0
    for policy in ("greedy", "expert"):
        new = habits(policy, 60)
        assert new["known last turns"] > 100
        assert new["known last turns with income paid"] == 0, policy
        assert new["SP3 ideas bought on known last turns"] == 0, policy
        assert new["columns 1-4 below an available level 3"] == 0, policy
    assert habits("greedy_no_free:careful=false", 60)["longest pass run"] >= 3
    assert habits("greedy_no_free", 60)["empty-column passes"] < \
        habits("greedy_no_free:careful=false", 60)["empty-column passes"] // 10
