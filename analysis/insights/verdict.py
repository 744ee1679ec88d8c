"""The plain verdict sentence of an arm's insights (thresholds in ``docs/metrics_play.md``).

* **swingy** when the mean lead-change rate is at least :data:`SWINGY` (the lead changes after
  at least one round in five), else **stable**;
* **close** when the mean decisiveness is at least :data:`CLOSE` (on average the eventual
  winner takes the lead for good only in the last 40% of the game), **decided early** below
  :data:`EARLY` (in the first 40%), else **settled mid-game**.

The labels use the point estimates; the sentence gives the numbers so a reader can weigh
them against the intervals in the sections.
"""
from __future__ import annotations

__all__ = ["SWINGY", "CLOSE", "EARLY", "verdict"]

SWINGY = 0.20
CLOSE = 0.60
EARLY = 0.40


def _pct(x) -> str:
    return f"{100 * x:.0f}%"


def _health(ins: dict) -> list[str]:
    out = []
    f = ins["flags"]
    t = f["truncated"]
    if t["games"]:
        out.append(f"{t['games']} of {t['n_games']} games hit the round cap")
    s = f["stall"]
    if s["recorded"] and s["games"]:
        out.append(f"{s['games']} of {s['n_games']} traced games stalled for {s['K']}+ rounds")
    nl = f["no_legal_option"]
    if nl["recorded"] and nl["games"]:
        out.append(f"{nl['games']} of {nl['n_games']} traced games reached a decision with "
                   f"no legal option ({nl['decisions']} passed by the rules)")
    return out


def _solo(ins: dict) -> str:
    c = ins["completion"]
    w = c["with_winner"]
    if not c["n_games"]:
        return "solo: no games"
    text = (f"solo: won {_pct(w['estimate'])} of {c['n_games']} games (95% CI "
            f"{_pct(w['low'])} to {_pct(w['high'])})")
    lost = ins["duration"].get("loss_hazard", [])
    floor = max(1, 0.05 * c["n_games"])
    alive = [r for r in lost if r["at_risk"] >= floor and r["hazard"] is not None]
    if alive:
        peak = max(alive, key=lambda r: r["hazard"])
        if peak["hazard"] > 0:
            text += (f"; losses peak at round {peak['round']} ({_pct(peak['hazard'])} of the "
                     f"games still running then are lost there)")
    return text


def verdict(ins: dict) -> str:
    """One sentence from an :func:`analysis.insights.insights` dict (without its verdict)."""
    if ins["duration"].get("loss_hazard") is not None:
        parts = [_solo(ins)]
    else:
        lc = ins["lead_change_rate"]["mean"]["estimate"]
        behind = ins["drama"]["behind_share"]["estimate"]
        dec = ins["decisiveness"]["mean"]["estimate"]
        if lc is not None and dec is None:
            swing = "swingy" if lc >= SWINGY else "stable"
            parts = [f"{swing}: the lead changes in {_pct(lc)} of rounds; no traced game had "
                     f"a winner ({ins['lead_change_rate']['n_games']} traced games)"]
        elif lc is None or dec is None:
            c = ins["completion"]
            p50 = ins["duration"]["p50"]["estimate"]
            text = "no round traces (run with --trace N)"
            if c["n_games"]:
                text += (f"; {_pct(c['completed']['estimate'])} of {c['n_games']} games "
                         f"completed, {_pct(c['natural_ties']['estimate'])} ended in a tie")
                if p50 is not None:
                    text += f", median length {p50:g} rounds"
            parts = [text]
        else:
            close = "close" if dec >= CLOSE else "decided early" if dec < EARLY \
                else "settled mid-game"
            swing = "swingy" if lc >= SWINGY else "stable"
            text = (f"{close} and {swing}: the lead changes in {_pct(lc)} of rounds; the "
                    f"eventual winner was behind after {_pct(behind)} of rounds and led for "
                    f"good from {_pct(dec)} of the way through "
                    f"({ins['decisiveness']['n_games']} traced games)")
            parts = [text]
    parts += _health(ins)
    return "; ".join(parts) + "."
