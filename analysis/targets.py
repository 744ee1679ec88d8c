"""Target solo win probabilities: what a designer wants each variant's win rate to be, given
in a run spec's ``[targets]`` table, by ``playtest report --target`` or to ``write_report``;
the solo report grades each variant against them (*on target*, *too easy*, *too hard*)."""
from __future__ import annotations

from collections.abc import Iterable

__all__ = ["check_targets"]


def check_targets(targets, variants: Iterable[str] | None = None) -> dict:
    """Target win probabilities as given: ``{variant: p}`` or ``{variant: {policy: p}}`` with
    0 <= p <= 1; with ``variants`` (the game's), an unknown variant is refused too. Returns a
    copy; raises ValueError naming the bad entry (and the valid variants)."""
    if targets is None:
        return {}
    if not isinstance(targets, dict):
        raise ValueError(f"targets: must be a table like {{ <variant> = 0.05 }}, got "
                         f"{targets!r}")
    names = list(variants) if variants is not None else None
    for k, v in targets.items():
        if names is not None and k not in names:
            raise ValueError(f"targets: unknown variant {k!r}; valid: {', '.join(names)}")
        vals = v.items() if isinstance(v, dict) else [(None, v)]
        for pol, x in vals:
            where = f"targets.{k}" + (f".{pol}" if pol else "")
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x <= 1:
                raise ValueError(f"{where}: a target win probability in the range 0..1, "
                                 f"got {x!r}")
    return dict(targets)
