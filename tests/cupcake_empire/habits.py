"""The habits of issue "Stronger play", item 4, counted over replayed games (event logs).

``python -m tests.cupcake_empire.habits POLICY [GAMES] [PLAYERS] [SEED]`` prints the counts;
``test_policies.py`` checks them on a few games.

A seat's turn is a *known last turn* when, at its start, the end was already triggered (the
final round, a seat after the trigger seat: CE-E1, CE-E2), or its income + min(production,
sales) reaches end_threshold (it triggers the end this turn unless it pays income away:
CE-T5, CE-T8), or it is round max_rounds (CE-E4): what ``policies.last_turn`` says at W1.
"""
from __future__ import annotations

import sys
from collections import Counter

import numpy as np

from sim import batch
from sim.games.cupcake_empire import SPEC
from sim.games.cupcake_empire import layout as L
from sim.spec import S_SCORE


def habits(policy: str, games: int = 2000, players: int = 4, seed: int = 1) -> Counter:
    """Counts over games 0..games-1 of ``policy`` in every seat: turns, known last turns, those
    with income paid (EV_PAY) and the income, SP3 ideas bought on them, seats that lost by no
    more than their last-turn payments, activations of columns 1-4 below L_avail (and below an
    available level 3), empty-column passes (level 0, nothing rolled) and the longest run of
    them by one seat."""
    arm = batch.make_arm(SPEC, players, policy=policy)
    thr, maxr = arm.rule_values["end_threshold"], arm.rule_values["max_rounds"]
    c: Counter = Counter()
    for gi in range(games):
        ev, _, seats = batch.replay(arm, seed, gi)
        code = ev[:, 0]
        end = ev[code == L.EV_END][0]
        trig, truncated = int(end[1]), int(end[5])
        turns = np.flatnonzero(code == L.EV_TURN)
        final_round = int(ev[turns[-1], 2])
        bounds = list(turns) + [len(ev)]
        paid_last = np.zeros(players, dtype=np.int64)
        run = np.zeros(players, dtype=np.int64)
        for i in range(len(turns)):
            t = ev[bounds[i]:bounds[i + 1]]
            seat, rnd, inc, p, s = (int(x) for x in t[0, 1:6])
            known = (rnd == final_round and not truncated and seat > trig) or \
                inc + min(p, s) >= thr or rnd >= maxr
            c["turns"] += 1
            act = t[t[:, 0] == L.EV_ACTIVATE]
            if len(act):
                col, lav, lex = int(act[0, 2]), int(act[0, 3]), int(act[0, 4])
                if col <= 4 and lex < lav:
                    c["columns 1-4 below L_avail"] += 1
                    c["columns 1-4 below an available level 3"] += lav == 3
                if lex == 0 and not (t[:, 0] == L.EV_ROLL).any():
                    c["empty-column passes"] += 1
                    run[seat] += 1
                    c["longest pass run"] = max(c["longest pass run"], int(run[seat]))
                else:
                    run[seat] = 0
            if known:
                c["known last turns"] += 1
                spent = int(t[t[:, 0] == L.EV_PAY, 2].sum())
                c["known last turns with income paid"] += spent > 0
                c["income paid on known last turns"] += spent
                paid_last[seat] += spent
                sp = t[t[:, 0] == L.EV_SPECIAL]
                c["SP3 ideas bought on known last turns"] += int((sp[:, 2] == L.SP_IDEA).sum())
        score = seats[:, S_SCORE]
        best = score.max()
        c["seats lost by <= their last-turn payments"] += int(
            ((paid_last > 0) & (score < best) & (score + paid_last >= best)).sum())
    return c


KEYS = ("turns", "known last turns", "known last turns with income paid",
        "income paid on known last turns", "SP3 ideas bought on known last turns",
        "seats lost by <= their last-turn payments", "columns 1-4 below L_avail",
        "columns 1-4 below an available level 3", "empty-column passes", "longest pass run")


def main(argv: list[str]) -> None:
    policy = argv[0]
    games, players, seed = (int(x) for x in (argv[1:] + ["2000", "4", "1"][len(argv) - 1:])[:3])
    c = habits(policy, games, players, seed)
    print(f"{policy}: {games} games, {players} players, seed {seed}")
    for k in KEYS:
        print(f"  {k}: {c[k]}")


if __name__ == "__main__":
    main(sys.argv[1:])
