"""Rule-hole flags: games that point at a hole in the rules or the kernel, with their rate per
10,000 games (Wilson interval, scaled) and examples that ``playtest replay`` reproduces.

* ``truncated``: stopped by the max-rounds guard (every game of the arm);
* ``stall``: a run of at least ``stall_rounds`` consecutive rounds in which no seat's score
  changed (traced games; :mod:`analysis.insights.traces`);
* ``no_legal_option``: a seat reached a decision point with no legal option (traced games
  whose ``actions`` record ``no_legal``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ._intervals import LEVEL, wilson

__all__ = ["PER", "replay_command", "flag", "flags"]

PER = 10_000
KEYS = ["master_seed", "game_index"]


def replay_command(game: str, n_players: int, master_seed: int, game_index: int,
                   options: str = "") -> str:
    """The ``playtest replay`` command that plays one stored game again (``options``: the
    arm's other rule options, e.g. ``--variant short --set target=25``)."""
    cmd = (f"playtest replay {game} --players {int(n_players)} --seed {int(master_seed)} "
           f"--game-index {int(game_index)}")
    return f"{cmd} {options}".rstrip()


def flag(hits: pd.DataFrame, n_games: int, game: str, n_players: int, max_examples: int = 5,
         options: str = "", recorded: bool = True, level: float = LEVEL, **extra) -> dict:
    """One flag: ``games`` flagged out of ``n_games``, ``per_10000`` (Wilson, scaled) and up
    to ``max_examples`` examples (lowest ``master_seed, game_index`` first) with their replay
    command. ``hits``: one row per flagged game (``master_seed, game_index`` and any detail
    columns, copied into the examples)."""
    hits = hits.sort_values(KEYS) if len(hits) else hits
    examples = []
    for row in hits.head(max_examples).to_dict(orient="records"):
        row = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in row.items()}
        row["command"] = replay_command(game, n_players, row["master_seed"],
                                        row["game_index"], options)
        examples.append(row)
    return {"recorded": recorded, "games": len(hits), "n_games": int(n_games),
            "per_10000": wilson(len(hits), n_games, scale=PER, level=level),
            "examples": examples, **extra}


def flags(games: pd.DataFrame, trace: pd.DataFrame | None = None,
          actions: pd.DataFrame | None = None, stall_rounds: int = 10, max_examples: int = 5,
          replay_options: str = "", level: float = LEVEL) -> dict:
    """Every flag of one arm.

    Parameters
    ----------
    games : DataFrame
        The arm's ``games`` rows.
    trace : DataFrame, optional
        :func:`analysis.insights.traces.game_trace_table` of the traced games.
    actions : DataFrame, optional
        The arm's ``actions`` rows.
    stall_rounds : int, default 10
        K: static rounds in a row that make a stall.
    replay_options : str
        The arm's rule options other than the game and player count, appended to the commands.
    """
    game = str(games["game"].iloc[0]) if len(games) and "game" in games else "GAME"
    n_players = int(games["n_players"].iloc[0]) if len(games) else 0
    common = dict(game=game, n_players=n_players, max_examples=max_examples,
                  options=replay_options, level=level)
    trunc = games[games["truncated"].fillna(False).astype(bool)] if len(games) else games
    out = {"truncated": flag(trunc[KEYS + ["rounds"]] if len(trunc) else
                             pd.DataFrame(columns=KEYS), len(games), **common)}
    if trace is not None and len(trace):
        st = trace[trace["stall_rounds"] >= stall_rounds]
        hits = pd.DataFrame({"master_seed": st["master_seed"], "game_index": st["game_index"],
                             "static_rounds": st["stall_rounds"],
                             "from_round": st["stall_end"] - st["stall_rounds"] + 1,
                             "to_round": st["stall_end"]})
        out["stall"] = flag(hits, len(trace), K=int(stall_rounds), **common)
    else:
        out["stall"] = flag(pd.DataFrame(columns=KEYS), 0, recorded=False,
                            K=int(stall_rounds), **common)
    if actions is not None and len(actions) and "no_legal" in actions:
        pts = actions.groupby(KEYS + ["seat", "point"], as_index=False)["no_legal"].first()
        bad = pts[pts["no_legal"] > 0]
        per_game = bad.groupby(KEYS, as_index=False).agg(
            decisions=("no_legal", "sum"),
            points=("point", lambda s: ", ".join(sorted(set(map(str, s))))))
        n_traced = int(actions[KEYS].drop_duplicates().shape[0])
        out["no_legal_option"] = flag(per_game, n_traced,
                                      decisions=int(bad["no_legal"].sum()), **common)
    else:
        out["no_legal_option"] = flag(pd.DataFrame(columns=KEYS), 0, recorded=False, **common)
    return out
