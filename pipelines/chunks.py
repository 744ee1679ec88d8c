"""An arm's chunk plan, kept small in the manifest: segments of equal chunks and finished ranges.

Reading a plan (:func:`expand`, :func:`read_arm`, :func:`from_ranges`, :func:`segment_chunks`)
is the store's read side, :mod:`analysis.storage`, imported here; this module grows, re-plans
and records plans.

A *segment* ``{"chunk": c0, "start": a, "stop": b, "size": k}`` stands for the chunks
``c0, c0 + 1, ...`` covering game indices ``[a, b)`` in steps of ``k`` (the last one may be
shorter). A plan is a list of segments in chunk order; growing an experiment appends one segment,
so a plan of a million games in 50,000-game chunks is one line of JSON, not twenty entries (and
a billion games are not 20,000 entries rewritten after every chunk). Finished chunks are stored
as inclusive ranges ``[[0, 19], [21, 21]]``.

Manifests of format 1 (one ``{"chunk", "start", "stop"}`` entry per chunk and a list of finished
chunk numbers) read as the same plan: each old entry is a one-chunk segment.
"""
from __future__ import annotations

from typing import Iterable

from analysis.storage import expand, from_ranges, read_arm, segment_chunks

__all__ = ["segment_chunks", "count", "expand", "planned_games", "next_chunk", "extend",
           "to_ranges", "from_ranges", "read_arm", "replan"]


def count(plan: list[dict]) -> int:
    """Number of chunks in a plan."""
    return sum(segment_chunks(s) for s in plan)


def planned_games(plan: list[dict]) -> int:
    """Games covered by a plan (its highest stop)."""
    return max((s["stop"] for s in plan), default=0)


def next_chunk(plan: list[dict]) -> int:
    return max((s["chunk"] + segment_chunks(s) for s in plan), default=0)


def extend(plan: list[dict], n_games: int, size: int) -> list[dict]:
    """The plan grown to ``n_games`` with chunks of ``size`` (earlier chunks unchanged)."""
    start = planned_games(plan)
    if start >= n_games:
        return [dict(s) for s in plan]
    return [dict(s) for s in plan] + [
        {"chunk": next_chunk(plan), "start": start, "stop": n_games, "size": size}]


def to_ranges(chunks: Iterable[int]) -> list[list[int]]:
    """Chunk numbers -> sorted inclusive ranges ``[[lo, hi], ...]``."""
    out: list[list[int]] = []
    for c in sorted(set(chunks)):
        if out and c == out[-1][1] + 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def replan(plan: list[dict], finished: set[int], n_games: int, size: int
           ) -> tuple[list[dict], set[int], list[int]]:
    """Re-plan an arm for ``n_games`` in chunks of ``size`` (``--replan``).

    Finished chunks that end at or before ``n_games`` are kept as they are (their files stay);
    every other chunk is dropped, and the games not covered by a kept chunk are planned afresh
    in chunks of ``size``, numbered after every chunk number used so far (so no part file of a
    dropped chunk can be mistaken for a new one).

    Returns
    -------
    (plan, finished, dropped chunk numbers whose part files must be deleted)
    """
    kept, dropped = [], []
    for c, a, b in expand(plan):
        (kept if c in finished and b <= n_games else dropped).append((c, a, b))
    new: list[dict] = [{"chunk": c, "start": a, "stop": b, "size": b - a} for c, a, b in kept]
    number = next_chunk(plan)
    pos = 0
    for a, b in [(k[1], k[2]) for k in sorted(kept, key=lambda k: k[1])] + [(n_games, n_games)]:
        if pos < a:
            new.append({"chunk": number, "start": pos, "stop": a, "size": size})
            number += segment_chunks(new[-1])
        pos = max(pos, b)
    return new, {c for c, _, _ in kept}, [c for c, _, _ in dropped]
