"""Terminal tables of a stored experiment's results that several commands print: the win rates
(``run``, ``show``, ``demo``), solo win probabilities, the comparison of a tweak with its
baseline (``compare``), a sweep (``sweep``) and the ladder (``ladder``); and
:func:`result_items`, which picks those of an experiment's kind (``run``, ``run --spec``,
``show``). The numbers come from :mod:`analysis.summary`; this module only lays them out, with
one format per kind (:mod:`analysis.words`): rates in percent with one decimal, differences in
points."""
from __future__ import annotations

from pathlib import Path

from rich.table import Table

from analysis.words import count, pct, pct_ci, points

from .common import registry


def _win_rate_table(wt) -> Table:
    title = f"Win rate by {wt.by}" + (f" ({wt.game})" if wt.game else "")
    t = Table(title=title)
    for c in ("players",) + (("arm",) if wt.several_arms else ()) + (
            wt.by, "games", "win rate", "95% CI", "fair share"):
        t.add_column(c, justify="right")
    for r in wt.rows:
        t.add_row(str(r.n_players), *((r.arm,) if wt.several_arms else ()), r.value,
                  f"{r.n_games:,}", pct(r.win_rate), pct_ci(r.low, r.high), pct(r.fair_share))
    return t


def win_rate_tables(store_root: Path, experiment: str, game: str,
                    factor_only: bool = False) -> list[Table]:
    """Win rate (mean win_share, Wilson 95%) by seat and player count, and by the game's balance
    factor (``GameSpec.balance_factor``, e.g. Flower Shop initiative dice) when not the seat;
    ``factor_only``: by the balance factor alone."""
    from analysis import summary

    factor = registry().make(game).balance_factor
    return [_win_rate_table(wt)
            for wt in summary.win_rate_tables(store_root, experiment, factor, factor_only)]


def solo_table(rows) -> Table:
    """Solo win probability per arm and policy (:class:`analysis.summary.SoloRow`)."""
    t = Table(title="Solo win probability")
    for c, j in (("arm", "left"), ("variant", "left"), ("policy", "left"), ("games", "right"),
                 ("win prob.", "right"), ("95% CI", "right")):
        t.add_column(c, justify=j, overflow="fold")
    for r in rows:
        t.add_row(r.arm, r.variant, r.policy, f"{r.n_games:,}",
                  pct(r.win_rate), pct_ci(r.low, r.high))
    return t


def run_items(store_root, experiment: str, games) -> list:
    """What ends ``playtest run``: win rates by each game's balance factor (multiplayer arms)
    and solo win probabilities (solo arms). DuckDB and numpy only: no pandas or scipy."""
    from analysis import summary

    known = set(registry().available_games())
    factors = {g: registry().make(g).balance_factor for g in dict.fromkeys(games) if g in known}
    tables, solo = summary.result_tables(store_root, experiment, factors, factor_only=True)
    items: list = [_win_rate_table(wt) for wt in tables]
    if solo:
        items.append(solo_table(solo))
    unknown = [g for g in dict.fromkeys(games) if g not in known]
    if unknown:
        items.append(f"note: no result table for {', '.join(unknown)} (not a game of this "
                     f"installation; see `playtest games`)")
    if not items:
        items.append("no finished games yet: run the same command again to simulate them")
    return items


def compare_items(store_root, experiment: str, pairs: list[dict]) -> list:
    """Each tweak − baseline pair: every metric's paired difference with its verdict."""
    from analysis import studies, summary

    items: list = []
    for pair, tab in summary.compare_tables(store_root, experiment, pairs):
        n = int(tab["n"].max()) if len(tab) else 0
        t = Table(title=f"{pair['tweak']} − {pair['baseline']} ({pair['n_players']} "
                        f"{'player' if pair['n_players'] == 1 else 'players'}, "
                        f"{count(n, 'paired game')}; differences of rates in points)")
        for c in ("metric", "baseline", "tweak", "Δ", "paired 95% CI", "unpaired CI",
                  "verdict"):
            t.add_column(c, overflow="fold")
        for r in tab.itertuples():
            if r.scale == "prop":  # rates in percent, their differences in points
                val, dif = pct, points
            else:
                val, dif = (lambda x: f"{x:.3f}"), (lambda x: f"{x:+.3f}")  # noqa: E731
            t.add_row(r.label, val(r.baseline), val(r.tweak), dif(r.diff),
                      f"{dif(r.low)}…{dif(r.high)}",
                      f"{dif(r.unpaired_low)}…{dif(r.unpaired_high)}", r.verdict)
        items.append(t)
        if len(tab) and (tab["verdict"] == studies.IDENTICAL).all():
            items.append(f"note: the tweak changed no game ({pair['n_players']} "
                         f"{'player' if pair['n_players'] == 1 else 'players'}): both arms are "
                         f"identical game by game")
    return items


def sweep_items(store_root, experiment: str, source: dict) -> list:
    """The sweep's table: estimate ± 95% half-width per point (rates in %)."""
    from analysis import summary

    table = summary.sweep_table(store_root, experiment, source)
    if table.empty:
        return ["no finished games yet: run the same command again to simulate them"]
    t = Table(title="Sweep: estimate ± 95% half-width (rates in %)")
    cols = [c for c in table.columns if c not in ("arm",)]
    for c in cols:
        t.add_column(c.replace("first-player adv.", "1st adv."), overflow="fold")
    for _, r in table.iterrows():
        t.add_row(*(str(r[c]) for c in cols))
    return [t]


def result_items(store_root, experiment: str, source: dict, games) -> list:
    """The results of an experiment, by the kind of command that made it (``source`` is the
    manifest's ``spec``: how it was defined; ``games`` the games of its arms): a ladder's
    tables, a comparison's paired differences (``compare``, or a spec with a baseline arm), a
    sweep's table, else the win rates and solo win probabilities of ``run`` (``run``,
    ``run --spec``, the pilot of ``plan``)."""
    source = source if isinstance(source, dict) else {}
    kind = source.get("kind")
    if kind == "ladder":
        return ladder_tables(store_root, experiment, source)
    if kind == "sweep":
        return sweep_items(store_root, experiment, source)
    if source.get("pairs"):
        return compare_items(store_root, experiment, source["pairs"])
    return run_items(store_root, experiment, games)


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
            t.add_row(*(str(r[k]) for k in keys))
        items.append(t)

    if lad.n_players == 1:
        table("Solo win probability", ("policy", "games", "win prob.", "95% CI"),
              ("policy", "games", "rate", "ci"), rows["solo"])
        table("Steps: each rung minus the one below (paired)",
              ("step", "games", "difference", "95% CI", "verdict"),
              ("step", "games", "diff", "ci", "verdict"), rows["steps"])
    else:
        table(f"Head to head, {lad.n_players} players: one seat of the higher rung vs the "
              f"others",
              ("higher rung", "vs", "games", "seat win rate", "95% CI", "fair", "by seat",
               "verdict"),
              ("a", "b", "games", "rate", "ci", "fair", "by_seat", "verdict"), rows["pairs"])
        if rows["ratings"]:
            table("Ratings (Bradley-Terry, Elo scale)", ("policy", "rating", "95% CI", "rank"),
                  ("policy", "rating", "ci", "rank"), rows["ratings"])
    items += [s for s in (rows["skill"], lad.verdict) if s]
    items += rows["skill_luck_text"]  # how much of the game is skill (analysis.ladder)
    return items
