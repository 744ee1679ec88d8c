"""Conformance over the registry: every game, player count and shipped policy.

Games terminate without truncation, winners and ranks are consistent with scores, the
game's own invariants hold (``GameSpec.audit``), and jitted == un-jitted. (How a game folder is
built, its declared layouts and imports, is checked in ``test_conventions.py``.)
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim import batch, registry
from tests import golden
from sim.spec import S_RANK, S_SCORE, S_WON, G_N_WINNERS, G_TRUNCATED, G_WINNER_SEAT, G_END_REASON

GAMES = registry.available_games()
SHARED = Path(__file__).resolve().parents[2] / "shared"


def _cases():
    for g in GAMES:
        spec = registry.make(g)
        for n in range(spec.min_players, spec.max_players + 1):
            for pol in spec.policies:
                if spec.policies[pol].params is not None:
                    continue  # the search policies: tests/test_search.py (fewer games, slower)
                yield pytest.param(g, n, pol, id=f"{g}-{n}p-{pol}")


@pytest.mark.parametrize("game,n_players,policy", list(_cases()))
def test_games_are_well_formed(game, n_players, policy):
    spec = registry.make(game)
    arm = batch.make_arm(spec, n_players, policy=policy)
    games, seats = golden.run(game, n_players, policy)  # the golden runs: seed 11, 300 games
    assert games[:, G_TRUNCATED].sum() == 0, "truncated games"
    won = seats[:, :, S_WON]
    assert np.array_equal(won.sum(axis=1), games[:, G_N_WINNERS])
    single = games[:, G_N_WINNERS] == 1
    assert np.array_equal(games[single, G_WINNER_SEAT], won[single].argmax(axis=1))
    assert np.all(games[~single, G_WINNER_SEAT] == -1)
    assert np.all((games[:, G_END_REASON] >= 0) & (games[:, G_END_REASON] < len(spec.end_reasons)))
    rank, score = seats[:, :, S_RANK], seats[:, :, S_SCORE]
    assert np.all((rank >= 1) & (rank <= n_players))
    if n_players > 1:
        assert np.all(games[:, G_N_WINNERS] >= 1)
        assert np.array_equal(won == 1, rank == 1)
        # a better rank never has a lower score
        for a in range(n_players):
            for b in range(n_players):
                better = rank[:, a] < rank[:, b]
                assert np.all(score[better, a] >= score[better, b])
    if spec.audit is not None:
        problems = spec.audit(arm, golden.SEED, 0, games, seats)
        assert not problems, problems[:10]


def _jit_cases():
    """Every game at its fewest and most players under random and greedy, and every solo
    variant's hardest-working path (the Flower Shop's feasibility solver) under greedy."""
    for g in GAMES:
        spec = registry.make(g)
        for n in sorted({spec.min_players, spec.max_players}):
            for pol in ("random", "greedy"):
                yield g, n, pol, None
    yield "flower_shop", 1, "expert", "solo_hell"


_UNJITTED = """
import json, sys
from sim import batch, registry
out = []
for game, n, pol, variant in json.loads(sys.argv[1]):
    arm = batch.make_arm(registry.make(game), n, variant=variant, policy=pol)
    g, s = batch.run_games(arm, 5, 1000, int(sys.argv[2]))
    out.append([g.tolist(), s.tolist()])
print(json.dumps(out))
"""
JIT_GAMES = 3


@pytest.mark.slow
def test_jitted_equals_unjitted():
    """The kernels run as plain Python (NUMBA_DISABLE_JIT=1, one subprocess for every game)
    and give the rows of the compiled kernels, game by game."""
    cases = list(_jit_cases())
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", _UNJITTED, json.dumps(cases),
                          str(JIT_GAMES)], env=env, capture_output=True, text=True, timeout=1200)
    assert out.returncode == 0, out.stderr[-3000:]
    for (game, n, pol, variant), (g, s) in zip(cases, json.loads(out.stdout), strict=True):
        arm = batch.make_arm(registry.make(game), n, variant=variant, policy=pol)
        gj, sj = batch.run_games(arm, 5, 1000, JIT_GAMES)
        assert g == gj.tolist() and s == sj.tolist(), (game, n, pol, variant)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_a_pure_function_of_seed_and_index(game):
    """Game i of a batch equals game i played alone (chunking cannot change results)."""
    spec = registry.make(game)
    arm = batch.make_arm(spec, spec.max_players, policy="greedy")
    g_all, s_all = batch.run_games(arm, 3, 0, 50)
    g_one, s_one = batch.run_games(arm, 3, 37, 1)
    assert np.array_equal(g_all[37], g_one[0]) and np.array_equal(s_all[37], s_one[0])
    ev, g_row, s_rows = batch.replay(arm, 3, 37)
    assert np.array_equal(g_row, g_one[0]) and np.array_equal(s_rows, s_one[0])
    assert len(ev) > 0


@pytest.mark.parametrize("game", GAMES)
def test_every_spec_rule_id_has_a_status(game):
    """Every rule ID of shared/rules/<game>.md is listed as implemented or not yet."""
    text = (SHARED / "rules" / f"{game}.md").read_text()
    ids = set(re.findall(r"\*\*((?:FS|RB|CE|WD)-[A-Z]+(?:-[A-Z]+)*-?\d+)\b", text))
    # variant tables write "FS-V-HELL-1, -2, -3": expand the shorthand
    for stem, rest in re.findall(r"\b((?:FS|RB|CE|WD)-V-[A-Z]+)-(\d(?:, -\d)*)", text):
        ids |= {f"{stem}-{d}" for d in re.findall(r"\d", rest)}
    listed = {r.rule_id for r in registry.make(game).rules}
    assert ids, "no rule ids parsed"
    assert ids <= listed, sorted(ids - listed)


@pytest.mark.parametrize("game", GAMES)
def test_every_provenance_tag_is_explained(game):
    """Each tag a parameter carries has a meaning in the game's legend, and `playtest rules`
    prints the legend under the parameter table."""
    from typer.testing import CliRunner

    from pipelines.cli import app
    spec = registry.make(game)
    used = {p.source for p in spec.params}
    assert used <= set(spec.provenance), used - set(spec.provenance)
    r = CliRunner().invoke(app, ["rules", game], env={"COLUMNS": "400"})
    assert r.exit_code == 0, r.output
    legend = " ".join(ln for ln in r.output.splitlines() if ln.startswith("source:"))
    for tag in used:
        assert f"{tag} {spec.provenance[tag]}" in legend
