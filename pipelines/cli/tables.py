"""Terminal tables of a stored experiment's results that several commands print: the win rates
(``run``, ``show``, ``demo``) and the ladder (``ladder``, ``show``). The numbers come from
:mod:`analysis.summary`; this module only lays them out."""
from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from rich.table import Table

from .common import registry


def win_rate_tables(store_root: Path, experiment: str, game: str,
                    factor_only: bool = False) -> list[Table]:
    """Win rate (mean win_share, Wilson 95%) by seat and player count, and by the game's balance
    factor (``GameSpec.balance_factor``, e.g. Flower Shop initiative dice) when not the seat;
    ``factor_only``: by the balance factor alone (the result table ending ``playtest run``)."""
    from analysis import summary

    factor = registry().make(game).balance_factor
    tables = []
    for wt in summary.win_rate_tables(store_root, experiment, factor, factor_only):
        t = Table(title=f"Win rate by {wt.by} ({experiment})")
        for c in ("players",) + (("arm",) if wt.several_arms else ()) + (
                wt.by, "games", "win rate", "95% CI", "fair share"):
            t.add_column(c, justify="right")
        for r in wt.rows:
            t.add_row(str(r.n_players), *((r.arm,) if wt.several_arms else ()), r.value,
                      f"{r.n_games:,}", f"{r.win_rate:.3f}", f"[{r.low:.3f}, {r.high:.3f}]",
                      f"{r.fair_share:.3f}")
        tables.append(t)
    return tables


def ladder_tables(store_root, experiment: str, source: dict) -> list:
    """The ladder of a stored experiment as terminal tables and sentences (``ladder``,
    ``show``): head to head (or solo win probabilities and steps), ratings, verdict."""
    from analysis import summary

    lad, rows = summary.ladder_rows(store_root, experiment, source)
    items: list = []

    def table(title, cols, keys, data):
        t = Table(title=title)
        for c in cols:
            t.add_column(c, overflow="fold")
        for r in data:
            t.add_row(*(escape(str(r[k])) for k in keys))
        items.append(t)

    if lad.n_players == 1:
        table(f"Solo win probability ({experiment})", ("policy", "games", "win prob.", "95% CI"),
              ("policy", "games", "rate", "ci"), rows["solo"])
        table("Steps: each rung minus the one below (paired)",
              ("step", "games", "difference", "95% CI", "verdict"),
              ("step", "games", "diff", "ci", "verdict"), rows["steps"])
    else:
        table(f"Head to head, {lad.n_players} players: one seat of the higher rung vs the "
              f"others ({experiment})",
              ("higher rung", "vs", "games", "seat win rate", "95% CI", "fair", "by seat",
               "verdict"),
              ("a", "b", "games", "rate", "ci", "fair", "by_seat", "verdict"), rows["pairs"])
        if rows["ratings"]:
            table("Ratings (Bradley-Terry, Elo scale)", ("policy", "rating", "95% CI", "rank"),
                  ("policy", "rating", "ci", "rank"), rows["ratings"])
    items += [s for s in (rows["skill"], lad.verdict) if s]
    items += rows["skill_luck_text"]  # how much of the game is skill (analysis.ladder)
    return items
