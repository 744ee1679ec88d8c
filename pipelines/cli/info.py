"""``playtest games``, ``rules`` and ``layout``: what the registry knows about the games."""
import typer
from rich.table import Table
from rich.text import Text

from analysis.words import plural, span

from . import options as opts
from .common import fmt, guarded, out, registry


@guarded
def games_cmd():
    """List games, player counts, variants and policies."""
    reg = registry()
    t = Table(title="Games")
    for c in ("game", "title", "version", "players", "variants", "policies"):
        t.add_column(c, overflow="fold")
    for gid in reg.available_games():
        s = reg.make(gid)
        players = (f"{s.min_players}" if s.min_players == s.max_players
                   else f"{s.min_players}-{s.max_players}")
        t.add_row(gid, s.title, s.version, players, ", ".join(s.variants), ", ".join(s.policies))
    out.print(t)


@guarded
def rules_cmd(game: opts.Game):
    """Every rule parameter (name, default, range, meaning), variants, policies, rule status."""
    spec = registry().make(game)
    n = span((spec.min_players, spec.max_players))
    out.print(Text.assemble((spec.title, "bold"), f" ({spec.id}, version {spec.version}), {n} "
                            f"{plural(spec.max_players, 'player')}"))

    t = Table(title="Rule parameters (--set NAME=VALUE)")
    for c in ("name", "kind", "default", "range", "meaning", "source"):
        t.add_column(c, overflow="fold")
    for p in spec.params:
        t.add_row(p.name, p.kind, fmt(p.default), p.range_text(), p.doc, p.source)
    out.print(t)
    used = sorted({p.source for p in spec.params})
    if spec.provenance:
        out.print("source: " + "; ".join(f"{tag} {spec.provenance.get(tag, '(no meaning given)')}"
                                         for tag in used), markup=False, soft_wrap=True)

    t = Table(title="Variants (--variant NAME)")
    for c in ("variant", "players", "overrides", "meaning", "rules"):
        t.add_column(c, overflow="fold")
    for v in spec.variants.values():
        pl = "any" if not v.players else f"{v.players[0]}-{v.players[1]}"
        ov = ", ".join(f"{k}={fmt(x)}" for k, x in v.overrides.items()) or "(defaults)"
        t.add_row(v.name, pl, ov, v.doc, ", ".join(v.rule_ids))
    out.print(t)
    counts = range(spec.min_players, spec.max_players + 1)
    defaults = sorted({spec.default_variant(n) for n in counts})
    out.print("default variant: " + ", ".join(
        f"{n}p={spec.default_variant(n)}" for n in counts)
        if len(defaults) > 1 else f"default variant: {defaults[0]}")

    t = Table(title="Policies (--policy NAME[:k=v,...], --seat-policy SEAT=NAME)")
    for c in ("policy", "presets", "meaning"):
        t.add_column(c, overflow="fold")
    for p in spec.policies.values():
        presets = ", ".join(f"{k}={fmt(x)}" for k, x in p.overrides.items())
        t.add_row(p.name, presets or "(defaults)", p.doc)
    out.print(t)
    out.print("ladder (`playtest ladder`, weakest first): " + " < ".join(spec.ladder)
              + (f" < {spec.search_rung} (with --search)" if spec.search_rung else ""),
              markup=False, soft_wrap=True)
    t = Table(title="Policy parameters")
    for c in ("name", "kind", "default", "range", "meaning"):
        t.add_column(c, overflow="fold")
    for p in spec.policy_params:
        t.add_row(p.name, p.kind, fmt(p.default), p.range_text(), p.doc)
    out.print(t)
    own = next((p.params for p in spec.policies.values() if p.params is not None), None)
    if own:  # the search policies' table (sim.search)
        t = Table(title="Search policy parameters (search, oracle: docs/search.md)")
        for c in ("name", "kind", "default", "range", "meaning"):
            t.add_column(c, overflow="fold")
        for p in own:
            t.add_row(p.name, p.kind, fmt(p.default), p.range_text(), p.doc)
        out.print(t)

    t = Table(title="Output columns")
    t.add_column("table")
    t.add_column("column")
    t.add_column("meaning", overflow="fold")
    for c in spec.game_columns:
        t.add_row("games", c.name, c.doc)
    for c in spec.seat_columns:
        t.add_row("seats", c.name, c.doc)
    t.add_row("games", "end_reason", ", ".join(spec.end_reasons))
    out.print(t)

    done = [r for r in spec.rules if r.implemented]
    todo = [r for r in spec.rules if not r.implemented]
    out.print(f"Rule IDs: {len(done)} of {len(spec.rules)} implemented"
              + ("" if todo else " (all)"))
    if todo:
        t = Table(title="Not implemented")
        t.add_column("rule")
        t.add_column("summary", overflow="fold")
        t.add_column("note", overflow="fold")
        for r in todo:
            t.add_row(r.rule_id, r.summary, r.note)
        out.print(t)


@guarded
def layout_cmd(game: opts.Game):
    """The game's array layouts (parameters, state, seat block, output rows), as derived from
    their declarations: every offset the kernel uses, with its size and meaning."""
    spec = registry().make(game)
    if not spec.layouts:
        out.print(f"{spec.id}: no declared layouts")
        return
    for block in spec.layouts:
        typer.echo(block.table())
        typer.echo("")
