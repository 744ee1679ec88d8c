"""Self-contained HTML reports of one experiment (``playtest report EXPERIMENT``) and of the
studies (``playtest compare / sweep / plan / ladder``).

One file, no external resources: CSS inline, charts embedded as base64 PNG, every table
downloadable as CSV. The report states what a reader needs to reproduce it (design.md §5):
games per arm, master seed, code and game versions, policies per seat, rule values that differ
from the defaults, and whether the component data are assumed defaults.

Multiplayer arms get: win rate by seat (and by the game's balance factor) with Wilson 95%
intervals (table and chart), the first-player advantage (seat 0 minus 1/N, with interval), a
chi-square goodness-of-fit test of seat balance in plain words, score distributions, game
length, end reasons and truncated games. Solo arms get the difficulty report: the ladder (win
probability per variant and skill level, in the order the game declares:
``GameSpec.solo_difficulty``), a monotonicity verdict with its evidence (once per reading of a
rung whose source sentence is garbled), the day of loss per variant, "what the assumed
components do" (win probability per task card by name and provenance from
``GameSpec.component_notes``, whether the verdict holds on the documented cards alone, and the
assumed component data the experiment does not vary) and the exact settings.

Modules, one job each:

* :mod:`.write`: which report an experiment gets; build, render and write it
  (:func:`write_report`, :func:`write_study_report`);
* :mod:`.summary`: what every report states first (experiment, versions, seed, arms and
  settings from the manifest);
* :mod:`.experiment`: the experiment report's sections (:func:`build_context`);
* :mod:`.solo`: its solo difficulty section;
* :mod:`.how_it_plays`: its "How the game plays" section (the insights of traced arms);
* :mod:`.study`: the compare, sweep, plan and ladder contexts;
* :mod:`.compensation`: the compensation study (``playtest compensate``) in words, tables and
  its report's context;
* :mod:`.formatting`: numbers as a report prints them;
* :mod:`.render`: figures as data URIs, the Jinja templates (``analysis/templates``), CSV
  links, the atomic file write.

The names below are the package's public API.
"""
from .compensation import compensate_context
from .experiment import build_context
from .render import figure_to_data_uri, render_report
from .study import (compare_context, ladder_context, ladder_rows, plan_context, plan_rows,
                    study_kind, study_pairs, sweep_context, sweep_long, sweep_table)
from .summary import ASSUMED_COMPONENTS_TEXT, policy_text
from .write import write_report, write_study_report

__all__ = ["ASSUMED_COMPONENTS_TEXT", "write_report", "render_report", "build_context",
           "figure_to_data_uri", "policy_text", "study_kind", "study_pairs", "compare_context",
           "sweep_long", "sweep_table", "sweep_context", "plan_rows", "plan_context",
           "ladder_rows", "ladder_context", "compensate_context", "write_study_report"]
