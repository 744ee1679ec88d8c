"""Running an experiment from a command (``run``, the studies, ``demo``) and saying what was done:
the summary lines, the rule-status warning, the precision-targeted loop (``--precision``), and
before the run the game counts of the ``--also-policy`` arms (``run`` and ``compare``:
``--also-games``, ``--budget``) with the estimated time of the slow arms."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from rich.text import Text

from analysis.words import count

from .. import settings
from .common import err, out, registry


@dataclass(frozen=True)
class RunSettings:
    """How a command runs its experiment: ``--store``, ``--workers``, ``--executor``,
    ``--scheduler``, ``--quiet``, ``--replan``."""

    store: Optional[str]
    workers: Optional[int] = None
    executor: str = "local"
    scheduler: Optional[str] = None
    quiet: bool = False
    replan: bool = False

    def run(self, exp, store=None):
        """Run ``exp`` (into ``store``, default ``self.store``) and print the summary."""
        from ..runner import COMPILE_NOTE_S, run

        res = run(exp, self.store if store is None else store, workers=self.workers,
                  executor=self.executor, scheduler=self.scheduler, quiet=self.quiet,
                  replan=self.replan)
        _warn_unfinished_rules(a.game for a in exp.arms)  # after the input checks of ``run``
        for n in res.notes:
            err.print(f"note: {n}", markup=False, soft_wrap=True)
        arms = ", ".join(f"{a.name} ({a.game} {a.arm.n_players}p {a.arm.variant})"
                         for a in exp.arms)
        if res.simulated == 0:
            out.print(Text.assemble("experiment ", (res.experiment, "bold"),
                                    f" is complete ({count(res.total_games, 'game')} in "
                                    f"{count(len(res.arms), 'arm')}); nothing to simulate"),
                      soft_wrap=True)
        else:
            out.print(Text.assemble("experiment ", (res.experiment, "bold"), ": simulated "
                      f"{count(res.simulated, 'game')} ({count(res.chunks_done, 'chunk')}"
                      + (f", {res.chunks_skipped} already done" if res.chunks_skipped else "")
                      + f") in {res.elapsed:.1f} s"
                      + (f" ({res.kernel_load_s:.0f} s compiling the kernel)"
                         if res.kernel_load_s > COMPILE_NOTE_S else "")
                      + f", {res.games_per_s:,.0f} games/s "
                      f"({res.executor}, {count(res.workers, 'worker')})"), soft_wrap=True)
        out.print(f"arms: {arms}", soft_wrap=True, markup=False)
        out.print(f"store: {res.store}  manifest: {res.manifest_path}", soft_wrap=True,
                  markup=False)
        return res

    def simulate(self, exp, precision, max_games, start_small):
        """Run ``exp``: its game counts, or with ``precision`` until the intervals are narrow
        enough (starting small when ``start_small``, i.e. no --games given)."""
        if precision is None:
            return self.run(exp)
        if start_small:
            _start_size(exp, max_games)
        return self._run_precise(exp, precision, max_games)[0]

    def _run_precise(self, exp, precision, max_games):
        """Precision-targeted run (pipelines.studies.run_to_precision) with the usual summary."""
        from ..studies import run_to_precision

        def one_round(e, st, **kw):
            return self.run(e, st)

        res, outcome = run_to_precision(
            exp, self.store, precision, max_games, run_fn=one_round,
            echo=lambda m: err.print(m, markup=False, soft_wrap=True))
        style = "green" if outcome.met else "yellow"
        out.print(Text.assemble((outcome.describe(), style), "; "
                                f"{count(sum(outcome.games_per_arm.values()), 'game')} in "
                                f"{count(len(exp.arms), 'arm')}, {outcome.elapsed:.1f} s"),
                  soft_wrap=True)
        return res, outcome


def use_legacy_name(exp, store) -> None:
    """Resume an experiment stored under the name the same command (``run``, ``compare``)
    derived before the also-policies left the derived name (``...-and-search-...``), rather
    than playing it again under the new one."""
    from ..store import Store

    if not exp.name_derived or not exp.legacy_name:
        return
    st = Store(settings.store_root(store))
    if st.read_manifest(exp.name) is None and st.read_manifest(exp.legacy_name) is not None:
        err.print(f"note: resuming {exp.legacy_name} (the name this command had before "
                  f"--also-policy arms joined the experiment of their --policy)",
                  markup=False, soft_wrap=True)
        exp.name = exp.legacy_name


def plan_counts(exp, how: RunSettings, budget_s, announce: bool = True, speed=None) -> list:
    """The game counts of ``exp``'s --also-policy arms (``run``, ``compare``: ``--budget``, or
    as recorded) and the estimated time of its slow arms, printed before the run
    (:mod:`pipelines.budget`). A pilot runs only when there is a budget to spend or a search
    arm with games to play.
    ``speed(resolved_arm) -> games/s`` replaces the pilot (tests)."""
    from ..budget import describe, measure_speed, plan_also_counts
    from ..runner import check_run_options, load_kernels, share_kernels
    from ..store import Store

    from sim.search import uses_search

    also = exp.also_arms()
    if not also and not any(uses_search(ra.arm) for ra in exp.arms):
        return []  # nothing to count or announce (and the manifest is read under the lock)
    old = Store(settings.store_root(how.store)).read_manifest(exp.name)
    if speed is None:
        workers = check_run_options(how.workers, how.executor, how.scheduler)
        shared = None

        def speed(ra):
            nonlocal shared
            import numba

            from rich.console import Console

            if shared is None:
                shared = share_kernels(exp.arms)
                numba.set_num_threads(max(1, min(workers, numba.config.NUMBA_NUM_THREADS)))
            arm = shared[ra.name].arm
            load_kernels([arm], how.quiet)
            with Console(stderr=True, quiet=how.quiet).status(
                    f"Measuring arm {ra.name} ({ra.label(64)}) in a short pilot "
                    f"(nothing stored)"):
                return measure_speed(arm, exp.seed)[0]
    explicit = [ra.name for ra in also if ra.config.games is not None]
    estimates, notes = plan_also_counts(exp, old, budget_s, explicit, speed=speed)
    exp.n_games = max(ra.n_games for ra in exp.arms)
    if announce:
        for line in notes + describe(estimates, exp, budget_s is not None):
            err.print(f"note: {line}", markup=False, soft_wrap=True)
    return estimates


def check_precision_options(precision, max_games) -> None:
    """--precision in range, --max-games a valid count and only given with --precision."""
    from sim.spec import SpecError

    from ..studies import check_precision

    check_precision(precision, max_games)
    if precision is None and max_games is not None:
        raise SpecError("--max-games only applies with --precision")


def _start_size(exp, max_games) -> None:
    """--precision without --games: start with a small batch (grown as needed)."""
    from ..studies import DEFAULT_MAX_GAMES, DEFAULT_PRECISION_START

    n = min(DEFAULT_PRECISION_START, max_games or DEFAULT_MAX_GAMES)
    for ra in exp.arms:
        if ra.config.games is None:
            ra.n_games = n
    exp.n_games = max(ra.n_games for ra in exp.arms)


def _warn_unfinished_rules(game_ids) -> None:
    """Say, with the results of a run, when a game does not implement every rule ID of its spec
    yet: its results are then results of other rules than the rulebook's."""
    for gid in dict.fromkeys(game_ids):
        spec = registry().make(gid)
        todo = [r.rule_id for r in spec.rules if not r.implemented]
        if todo:
            err.print(f"warning: {gid} does not implement {len(todo)} of its "
                      f"{count(len(spec.rules), 'rule ID')} yet ({', '.join(todo[:6])}{', ...' if len(todo) > 6 else ''}; "
                      f"see `playtest rules {gid}`): its results do not reflect the full rules",
                      markup=False, soft_wrap=True)
