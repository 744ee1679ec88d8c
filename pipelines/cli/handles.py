"""Experiment handles a person can type, and what ``playtest list`` says about each experiment.

Every command that takes an experiment (``report``, ``show``) accepts, in this order:

1. its full name;
2. ``latest``: the experiment run last (its manifest's ``updated_at``);
3. its short id: the first :data:`SHORT_ID_LENGTH` hex digits of the SHA-256 of its name,
   shown by ``playtest list`` (stable: the same name always has the same id);
4. a unique prefix of its name or of its short id.

A prefix that fits several experiments is refused with the candidates listed (exit code 2).

Status (``list``, ``show``): ``finished`` (every planned chunk done), ``running`` (a process
holds the experiment's lock), ``partial`` (the last run ended normally with some chunks not
done, e.g. arms kept from an earlier run), ``interrupted`` (not finished and no process holds
its lock: the run was killed or failed; running the same command again resumes it).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Optional

from analysis.words import count

LATEST = "latest"
SHORT_ID_LENGTH = 7


def short_id(name: str) -> str:
    """The experiment's short id: 7 hex digits of the SHA-256 of its name."""
    return hashlib.sha256(name.encode("utf-8")).hexdigest()[:SHORT_ID_LENGTH]


@dataclass(frozen=True)
class Entry:
    """One experiment of a store, as ``list`` shows it."""

    name: str
    manifest: Optional[dict]  # None: unreadable (``problem`` says why)
    status: str
    when: Optional[datetime]  # last run (updated_at, else created_at, else the file's mtime)
    problem: Optional[str] = None

    @property
    def id(self) -> str:
        return short_id(self.name)

    @property
    def date(self) -> str:
        """``2025-03-02 14:05`` in local time, or ``?``."""
        return self.when.astimezone().strftime("%Y-%m-%d %H:%M") if self.when else "?"

    def games(self) -> tuple[int, int]:
        """(games finished in the least advanced arm, games planned per arm)."""
        from analysis.storage import expand, read_arm

        done, planned = [], []
        for a in (self.manifest or {}).get("arms") or []:
            plan, fin = read_arm(a)
            done.append(sum(stop - start for c, start, stop in expand(plan) if c in fin))
            planned.append(sum(stop - start for _, start, stop in expand(plan)))
        return (min(done), max(planned)) if planned else (0, 0)


def _parse_time(text) -> Optional[datetime]:
    if not isinstance(text, str):
        return None
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def status(store, name: str, manifest: Optional[dict]) -> str:
    """``finished``, ``running``, ``partial`` or ``interrupted`` (module docstring);
    ``unreadable`` for a damaged manifest."""
    if manifest is None:
        return "unreadable"
    if manifest.get("status") == "complete":
        return "finished"
    if store.is_locked(name):
        return "running"
    if manifest.get("status") == "partial":
        return "partial"
    return "interrupted"


def entry(store, name: str) -> Entry:
    """One experiment of ``store`` (:class:`pipelines.store.Store`); a damaged manifest gives
    an entry with status ``unreadable`` and the reason."""
    from analysis.storage import StoreError

    path = store.manifest_path(name)
    try:
        m, problem = store.read_manifest(name), None
    except StoreError as e:
        m, problem = None, str(e)
    when = _parse_time((m or {}).get("updated_at")) or _parse_time((m or {}).get("created_at"))
    if when is None:
        try:
            when = datetime.fromtimestamp(path.stat().st_mtime, timezone.utc)
        except OSError:
            when = None
    return Entry(name, m, status(store, name, m), when, problem)


def entries(store) -> list[Entry]:
    """Every experiment of the store, oldest run first (the latest last)."""
    es = [entry(store, n) for n in store.experiments()]
    epoch = datetime.min.replace(tzinfo=timezone.utc)
    return sorted(es, key=lambda e: (e.when or epoch, e.name))


def resolve(store, handle: str) -> str:
    """The experiment name ``handle`` stands for (module docstring).

    Raises
    ------
    sim.spec.SpecError
        No experiment, or several, fit the handle (exit code 2): the message lists the
        candidates (short id and name) or the closest names.
    """
    from sim.spec import SpecError

    from .common import did_you_mean

    names = store.experiments()
    if handle in names:
        return handle
    root = store.root
    if not handle.strip():
        raise SpecError("give an experiment: its name, a unique prefix, its short id (see "
                        "`playtest list`) or `latest`")
    if not names:
        raise SpecError(f"unknown experiment '{handle}': the store {root} holds no experiments "
                        f"yet (run `playtest run GAME` first, or give --store DIR)")
    if handle.lower() == LATEST:
        return entries(store)[-1].name
    ids = {n: short_id(n) for n in names}
    exact = [n for n in names if ids[n] == handle.lower()]
    if len(exact) == 1:
        return exact[0]
    found = exact or [n for n in names
                      if n.startswith(handle) or (len(handle) >= 4
                                                  and ids[n].startswith(handle.lower()))]
    if len(found) == 1:
        return found[0]
    if found:
        lines = "\n".join(f"  {ids[n]}  {n}" for n in found[:20])
        more = f"\n  ... and {len(found) - 20} more" if len(found) > 20 else ""
        raise SpecError(f"'{handle}' fits {count(len(found), 'experiment')} in store {root}; "
                        f"give more of the name, or the short id:\n{lines}{more}")
    raise SpecError(f"unknown experiment '{handle}' in store {root} (give a name, a unique "
                    f"prefix, a short id from `playtest list`, or `latest`); "
                    + did_you_mean(handle, names))
