"""The one decision interface (sim.decide), over the registry: every game is a resumable step
machine whose kernel loop is ``while advance: apply(choose)``.

For every game and player count:
- stepping a game from Python with the seats' policies gives the rows of ``play_many`` (greedy
  and random), so the kernels play through the interface;
- the scripted policy replays a recorded list of decisions exactly, and an index the game does
  not offer is refused with the decision named;
- a state copied at a random decision plays on to the same result as the original;
- every option listed at sampled decisions is legal: applying it succeeds and the game plays on
  to a proper end.
"""
import numpy as np
import pytest

from sim import batch, decide, registry
from sim.spec import G_TRUNCATED

GAMES = registry.available_games()
SEED = 23


def _cases():
    for g in GAMES:
        spec = registry.make(g)
        for n in range(spec.min_players, spec.max_players + 1):
            yield pytest.param(g, n, id=f"{g}-{n}p")


def _arm(game, n, policy="greedy", seat_policies=None):
    return batch.make_arm(registry.make(game), n, policy=policy, seat_policies=seat_policies)


def _start(arm, index, kinds=None):
    k, p = arm.policy_arrays
    return decide.start(arm.spec.steps, arm.rules, arm.comp, arm.n_players,
                        k if kinds is None else kinds, p, SEED, index)


def _rows(arm, game):
    spec = arm.spec
    return game.results(arm.n_players, len(spec.game_column_names), len(spec.seat_column_names))


def _record(game):
    """Play on with the seats' policies, returning the option indices taken."""
    taken = []
    while game.advance():
        i = game.choose()
        taken.append(i)
        game.apply(i)
    return taken


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_its_step_machine(game):
    steps = registry.make(game).steps
    assert isinstance(steps, decide.Steps), f"{game}: GameSpec.steps is not set"
    assert steps.points and all(isinstance(k, int) for k in steps.points), game


@pytest.mark.parametrize("game", GAMES)
def test_dice_reach_tests_as_chance_points_not_through_the_state(game):
    """A game's chance points (``Steps.chance_points``) have codes of their own, apart from
    its decision points, and read as text; no block of the game's layout declares a test hook
    (a forced-dice queue written into the production state)."""
    spec = registry.make(game)
    steps = spec.steps
    assert not set(steps.chance_points) & set(steps.points), game
    for code in steps.chance_points:
        assert steps.option_text is not None and steps.option_text(code, 1), (game, code)
    hooks = [f"{b.prefix}{f.name}" for b in spec.layouts for f in b.fields
             if "force" in f.name or "test hook" in f.doc]
    assert not hooks, hooks


@pytest.mark.parametrize("game,n", list(_cases()))
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_stepping_with_the_seats_policies_equals_play_many(game, n, policy):
    arm = _arm(game, n, policy)
    games, seats = batch.run_games(arm, SEED, 0, 6)
    for i in range(6):
        g = _start(arm, i).play_on()
        row, seat_rows = _rows(arm, g)
        assert np.array_equal(row, games[i]) and np.array_equal(seat_rows, seats[i]), f"game {i}"


@pytest.mark.parametrize("game,n", list(_cases()))
def test_the_scripted_policy_replays_recorded_decisions(game, n):
    """Record a greedy game's decisions, then play them as a script with every seat on
    `random`: same game. A strict script stops with the next decision pending."""
    arm = _arm(game, n)
    original = _start(arm, 3)
    taken = _record(original)
    assert len(taken) > 10, "a game should take more than ten real decisions"
    kinds = np.zeros_like(arm.policy_arrays[0])       # every seat random (kind 0) ...
    scripted = decide.play_script(_start(arm, 3, kinds), taken)  # ... but the script decides
    assert np.array_equal(scripted.state, original.state)
    half = decide.play_script(_start(arm, 3, kinds), taken[: len(taken) // 2], strict=True)
    assert not half.over and half.decisions == len(taken) // 2
    before = half.state.copy()
    assert half.advance() and np.array_equal(half.state, before), "advance with a decision pending"
    point, seat, codes = half.steps.pending(half.state)
    assert point in half.steps.points and 0 <= seat < n and len(codes) >= 2
    with pytest.raises(decide.ScriptError, match="out of range"):
        decide.play_script(_start(arm, 3, kinds), taken[:2] + [99999])


@pytest.mark.parametrize("game,n", list(_cases()))
def test_a_state_copied_at_a_decision_plays_on_to_the_same_result(game, n):
    arm = _arm(game, n, seat_policies={0: "random"})
    rng = np.random.default_rng(n)
    for index in range(3):
        original = _start(arm, index)
        length = len(_record(_start(arm, index)))
        stop = int(rng.integers(1, length))
        original.play_on(max_decisions=stop)
        assert original.advance(), "a decision is pending"
        copy = original.copy()
        original.play_on()
        copy.play_on()
        assert np.array_equal(copy.state, original.state), f"game {index}, copy at {stop}"
        assert np.array_equal(_rows(arm, copy)[1], _rows(arm, original)[1])


@pytest.mark.parametrize("game,n", list(_cases()))
def test_every_listed_option_is_legal(game, n):
    """In two random games, at the first three decisions of every decision point met and at
    every 50th decision, each listed option applies to a copy and the copy plays on to an
    untruncated end."""
    arm = _arm(game, n, "random")
    checked, seen = 0, {}
    for index in range(2):
        g = _start(arm, index)
        k = 0
        while g.advance():
            point, seat, codes = g.steps.pending(g.state)
            if seen.get(point, 0) < 3 or k % 50 == 0:
                seen[point] = seen.get(point, 0) + 1
                assert len(codes) >= 2 and len(set(codes)) == len(codes), g.steps.describe(g.state)
                for i in range(len(codes)):
                    c = g.copy()
                    c.apply(i)      # raises ScriptError if the game refuses it
                    c.play_out()
                    assert c.over and _rows(arm, c)[0][G_TRUNCATED] == 0
                    checked += 1
            g.apply(g.choose())
            k += 1
    assert checked > 20


@pytest.mark.parametrize("game,n", list(_cases()))
def test_every_listed_option_reads_as_text(game, n):
    """Each game declares its option encodings once (``options.py``) and reads them back with
    ``option_text``: at every decision of a random game every listed option has a text, the
    texts of one decision differ (so the decoding tells the options apart), and none falls
    back to the bare code."""
    arm = _arm(game, n, "random")
    steps = arm.spec.steps
    assert steps.option_text is not None, f"{game}: Steps.option_text is not set"
    g = _start(arm, 0)
    points = set()
    while g.advance():
        point, seat, codes = steps.pending(g.state)
        texts = [steps.option_text(point, c) for c in codes]
        assert all(t and not t.startswith("code ") for t in texts), (point, codes, texts)
        assert len(set(texts)) == len(texts), (steps.points.get(point, point), codes, texts)
        points.add(point)
        g.apply(g.choose())
    assert len(points) >= 2
