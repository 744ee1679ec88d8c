"""What every report kind (experiment, solo, compare, sweep, plan, ladder) shows first, and the
hygiene of every chart it draws: synthetic stores with planted effects (report_kinds.py)."""
from __future__ import annotations

import html as html_lib
import json
import re
import warnings

import pytest

from analysis import figcheck, plots, robust, studies
from analysis.reports import render, write_report, write_study_report

import report_kinds as rk

FAIR = 1 / 3


def _text(fragment: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment))).strip()


def _first_paragraph(path) -> tuple[str, str]:
    """The class and the text of the first paragraph of a report's body."""
    page = path.read_text()
    body = page[page.index("<body>"):]
    m = re.search(r"<p( class=\"([^\"]*)\")?[^>]*>(.*?)</p>", body, re.S)
    assert body.index(m.group(0)) < body.index("<h2"), "the sentence comes before any section"
    return m.group(2) or "", _text(m.group(3))


POINTS = r"[+-]?\d+\.\d points"


@pytest.mark.parametrize("rates, word, cls", [
    ({"greedy": FAIR - 0.05, "expert": FAIR + 0.04}, "contradicted", "bad"),
    ({"greedy": FAIR - 0.05, "expert": FAIR - 0.04}, "holds", "ok"),
    ({"greedy": FAIR - 0.05, "expert": FAIR + 0.002}, "one policy only", "verdict"),
    ({"greedy": FAIR - 0.05}, "one policy only", "verdict"),
])
def test_the_experiment_report_opens_with_effect_policy_and_robustness(tmp_path, rates, word,
                                                                        cls):
    store, exp = rk.experiment_store(tmp_path, rates)
    got, text = _first_paragraph(write_report(store, exp, tmp_path / "out"))
    assert text.startswith("Under greedy, the I-D holder wins ") and "below its fair share" in text
    assert re.search(r"wins \d\.\d points below", text) and "95% CI" in text
    assert word in text and got == f"headline {cls}", (got, text)
    if len(rates) > 1:
        assert "expert" in text
    if word == "contradicted":
        assert "a bot effect, not a rule effect" in text
    if len(rates) == 1:
        assert "--also-policy expert" in text  # the next rung of the game's ladder


@pytest.mark.parametrize("kind, words", [
    ("solo", ("Under search (the strongest policy played)", "monotone", "holds")),
    ("compare", ("Under greedy, seat_bonus_gold=1", "improves balance", "holds")),
    ("sweep", ("Under greedy", "comes closest to balance", "one policy only")),
    ("plan", ("Under greedy", "2-point difference", "one policy only")),
    ("ladder", ("Playing random < greedy < expert", "beats", "holds")),
])
def test_every_report_kind_opens_with_effect_policy_and_robustness(tmp_path, kind, words):
    if kind == "solo":
        path = write_report(*rk.solo_store(tmp_path), tmp_path / "out")
    elif kind in ("compare", "plan"):
        store, exp = rk.compare_store(tmp_path, {"greedy": (0.05, 0.0), "expert": (0.045, 0.0)})
        path = (write_report(store, exp, tmp_path / "out") if kind == "compare" else
                write_study_report(store, exp, tmp_path / "out", plan={"delta": 0.02}))
    elif kind == "sweep":
        path = write_report(*rk.sweep_store(tmp_path), tmp_path / "out")
    else:
        path = write_report(*rk.ladder_store(tmp_path), tmp_path / "out")
    cls, text = _first_paragraph(path)
    for w in words:
        assert w in text, (w, text)
    assert re.search(POINTS, text) or re.search(r"\d+\.\d%", text), text  # the effect's size
    assert cls.startswith("headline")
    if "holds" in words:
        assert cls == "headline ok"


def test_compare_says_whether_balance_improved_under_each_policy(tmp_path):
    store, exp = rk.compare_store(tmp_path, {"greedy": (0.05, 0.0), "expert": (0.0, 0.06)})
    path = write_report(store, exp, tmp_path / "out")
    cls, text = _first_paragraph(path)
    assert text.startswith("Under greedy, seat_bonus_gold=1 (3 players, 4,000 paired games) "
                           "improves balance: the largest gap from the fair share goes from ")
    assert "under expert it is contradicted" in text and cls == "headline bad"
    page = path.read_text()
    # two sections, titled with their policy, each saying whether balance improved
    heads = re.findall(r"<h3>(seat_bonus_gold=1, 3 players, under \w+)</h3>", page)
    assert heads == ["seat_bonus_gold=1, 3 players, under greedy",
                     "seat_bonus_gold=1, 3 players, under expert"]
    verdicts = _text(page[page.index('<section id="verdict">'):page.index("</section>")])
    assert "balance improved." in verdicts and "balance got worse." in verdicts
    assert re.search(r"Largest gap from the fair share \(over every initiative die\): \d\.\d "
                     r"points in the baseline \(I-D \+\d\.\d; 95% CI", verdicts)
    assert "distance to the fair share" in _text(page)  # a robustness row of its own


def test_an_undecided_result_is_amber_with_the_games_and_time_it_needs(tmp_path):
    """The designer's overshoot (+2.4 -> -3.2 points) on 4,000 games: closer or further from
    balance is undecided; the sentence is amber and says how many games (and, at the speed
    the manifest records, how long) a decision needs."""
    store, exp = rk.compare_store(tmp_path, {"greedy": rk.OVERSHOOT["greedy"]})
    path = store / "experiments" / f"{exp}.json"
    m = json.loads(path.read_text())
    m["games_per_s"] = 250.0
    path.write_text(json.dumps(m))
    cls, text = _first_paragraph(write_report(store, exp, tmp_path / "out"))
    assert cls == "headline warn"
    assert "leaves it undecided whether balance improves" in text
    assert "it overshoots: I-D goes from +2.4 to " in text
    m = re.search(r"about ([\d,]+) games per arm would make the 95% interval exclude 0 "
                  r"\(([\d,]+) more than the 4,000 played; about [\d.]+ (s|min|h|days) at the "
                  r"measured 250 games/s\)", text)
    assert m, text
    assert int(m.group(1).replace(",", "")) > 4000
    # the experiment report: no die clearly off its fair share
    store, exp = rk.experiment_store(tmp_path, {"greedy": FAIR + 0.006}, name="close")
    cls, text = _first_paragraph(write_report(store, exp, tmp_path / "out"))
    assert cls == "headline warn" and "Under greedy, no initiative die wins clearly" in text
    assert re.search(r"undecided: if the effect is as large as measured, about [\d,]+ games "
                     r"would make the 95% interval exclude 0 \([\d,]+ more than the 4,000 "
                     r"played\)", text), text
    assert "one policy only" in text


def test_solo_first_screen_is_the_graded_variant_by_skill_table(tmp_path, monkeypatch):
    """Variants easiest first, policies weakest first (the game's ladder, search last), win
    probabilities with intervals graded against targets; the statistics wording in <details>;
    the game-length table in difficulty order without a Tied column; every end reason
    explained."""
    import dataclasses

    import sim.registry

    real = sim.registry.make

    def make(game):
        spec = real(game)
        if game != "flower_shop":
            return spec
        return dataclasses.replace(spec, end_reason_notes={
            "solo_infeasible": "the end-of-day check found the orders can no longer be met"})

    monkeypatch.setattr(sim.registry, "make", make)
    store, exp = rk.solo_store(tmp_path, targets={"solo_hell": 0.05, "solo_easy": 0.9})
    page = write_report(store, exp, tmp_path / "out").read_text()
    body = page[page.index("<body>"):]
    first = body[:body.index("</section>")]
    grid = first[first.index('<table class="grid"'):first.index("</table>")]
    head = re.findall(r"<th>(.*?)</th>", grid)
    assert head == ["Variant (easiest first)", "novice", "greedy", "expert", "search", "Target"]
    rows = re.findall(r"<tr><td>(\w+)", grid)
    assert rows == ["solo_easy", "solo_base", "solo_hard", "solo_very_hard", "solo_hell"]
    assert re.search(r"\d+\.\d% \(\d+\.\d–\d+\.\d%\)", _text(grid))
    assert "too hard" in _text(grid) and "on target" in _text(grid)  # easy at 90%: too hard
    assert 'class="num bad"' in grid and 'class="num ok"' in grid
    assert "Holm" not in _text(re.sub(r"<details.*?</details>", "", first, flags=re.S))
    mono = page[page.index('<section id="monotonicity">'):]
    mono = mono[:mono.index("</section>")]
    assert "Holm" in mono and "Holm" not in _text(re.sub(r"<details.*?</details>", "", mono,
                                                          flags=re.S))
    # the checks per policy: weakest first
    assert [m for m in re.findall(r"<h3>Policy (\w+)", mono)] == [
        "novice", "greedy", "expert", "search"]
    length = page[page.index('<section id="game-length">'):]
    length = length[:length.index("</section>")]
    assert "Tied" not in length and "No winner" not in length
    order = re.findall(r"<tr><td>(solo_\w+)</td><td>(\w+)</td>", length)
    assert order[:4] == [("solo_easy", p) for p in ("novice", "greedy", "expert", "search")]
    assert [v for v, _ in order[::4]] == list(rk.SOLO_VARIANTS)
    ends = _text(page[page.index('<section id="end-reasons">'):])
    assert "solo_infeasible the end-of-day check found the orders can no longer be met" in ends
    assert "solo_win not described by the game" in ends


def _collect_charts(monkeypatch) -> list:
    seen = []
    real = render.figure_to_data_uri

    def check(fig, *a, **k):
        seen.append((fig.axes[0].get_title() if fig.axes else "", figcheck.defects(fig),
                     _legend_colours(fig)))
        return real(fig, *a, **k)

    monkeypatch.setattr(render, "figure_to_data_uri", check)
    return seen


def _legend_colours(fig) -> dict:
    out = {}
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is None:
            continue
        for text, h in zip(leg.get_texts(), leg.legend_handles):
            out[text.get_text()] = figcheck._style(h)[0]
    return out


def test_every_chart_of_every_report_kind_is_clean(tmp_path, monkeypatch):
    """No duplicate tick labels, no empty legend, no overlapping text, whole-number ticks for
    whole-number parameters, and one distinct colour per policy, on every chart of every report
    kind; and no matplotlib warning while drawing them."""
    seen = _collect_charts(monkeypatch)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", module="matplotlib")
        warnings.filterwarnings("error", category=UserWarning)
        paths = rk.write_all(tmp_path)
    assert set(paths) == {"experiment", "solo", "compare", "plan", "sweep", "ladder",
                          "solo ladder"}
    assert len(seen) >= 15
    assert [(t, d) for t, d, _ in seen if d] == []
    # a policy has one colour, the same in every chart, and no two policies share one
    colours: dict[str, set] = {}
    for _, _, legend in seen:
        for label, colour in legend.items():
            if label in plots.POLICY_COLORS:
                colours.setdefault(label, set()).add(colour)
    assert {"novice", "greedy", "expert", "search"} <= set(colours)
    assert all(len(c) == 1 for c in colours.values()), colours
    assert len({c.pop() for c in colours.values()}) == len(colours)


def test_sweep_grades_in_one_vocabulary(tmp_path):
    path = write_report(*rk.sweep_store(tmp_path), tmp_path / "out")
    page = path.read_text()
    table = page[page.index('<section id="sweep-table">'):]
    table = table[:table.index("</table>")]
    grades = re.findall(r"<td class=\"num\">([a-z ]+)</td></tr>", table)
    assert grades == ["unbalanced", "plausibly balanced", "undecided"]
    caption = _text(page[page.index('<section id="verdict">'):page.index('<section id="sweep'
                                                                        '-table">')])
    for g, meaning in studies.BALANCE_GRADES.items():
        assert f"{g}: {meaning}" in caption
    assert "Unbalanced (some value's 95% interval lies entirely outside the band): x=1" in caption
    assert "unclear" not in _text(page)


def test_balance_grades():
    import pandas as pd

    def rows(*triples):
        return pd.DataFrame(triples, columns=["estimate", "low", "high"])

    assert studies.balance_grade(rows((.34, .33, .35)), 3, 0.02) == "balanced"
    assert studies.balance_grade(rows((.34, .31, .37)), 3, 0.02) == "plausibly balanced"
    assert studies.balance_grade(rows((.36, .34, .38)), 3, 0.02) == "undecided"
    assert studies.balance_grade(rows((.38, .36, .40)), 3, 0.02) == "unbalanced"
    assert studies.balance_status is studies.balance_grade


def test_robust_table_colours():
    def verdict(*signs, bad_sign=0):
        v = robust.Verdict("x", bad_sign=bad_sign)
        for i, s in enumerate(signs):
            v.add(f"p{i}", "cell", {1: "monotone", -1: "not monotone", 0: "inconclusive"}[s], s)
        return v

    none_hold = robust.table("t", ["p0", "p1"], [verdict(1, 0), verdict(0, 0)])
    assert none_hold["summary"].startswith("0 of 2 verdicts hold") and none_hold["cls"] == "warn"
    assert robust.table("t", ["p0", "p1"], [verdict(1, 1)])["cls"] == "ok"
    assert robust.table("t", ["p0", "p1"], [verdict(1, 1), verdict(1, -1)])["cls"] == "bad"
    row = robust.table("t", ["p0", "p1"], [verdict(-1, -1, bad_sign=-1)])["rows"][0]
    assert row["status"] == "holds: not monotone (p0, p1)" and row["cls"] == "bad"
    assert row["cell_cls"] == ["bad", "bad"]


def test_pairing_note_only_when_pairing_helps():
    from analysis.reports.study import _pairing_text

    assert "1.0×" not in _pairing_text(1.03) and "hardly narrowed" in _pairing_text(1.03)
    assert "about 3.0× narrower" in _pairing_text(3.0) and "about 9.0× the games" in \
        _pairing_text(3.0)


def test_balance_change_finds_the_improvement_and_the_overshoot(tmp_path):
    from analysis import db

    store, exp = rk.compare_store(tmp_path, {"greedy": (0.05, 0.0), "expert": (0.04, -0.05)})
    con = db.connect(store)
    bc = studies.balance_change(studies.arm_games(con, exp, "tweak-p3"),
                                studies.arm_games(con, exp, "baseline-p3"))
    assert bc["verdict"] == "closer to balance" and bc["before_value"] == "I-D"
    assert bc["low"] < bc["change"] < bc["high"] < 0 and not bc["overshoot"]
    bc = studies.balance_change(studies.arm_games(con, exp, "tweak-p3-expert"),
                                studies.arm_games(con, exp, "baseline-p3-expert"))
    assert bc["overshoot"] and bc["gap_after_of_before_value"] < 0


def test_a_gap_the_expert_does_not_reproduce_is_called_the_bot_s(tmp_path):
    """The designer's case: greedy's I-D holder 3.3 points below, the expert +0.6 (undecided,
    but its interval excludes -3.3): not a contradiction, yet at least partly greedy's play."""
    store, exp = rk.experiment_store(tmp_path, {"greedy": FAIR - 0.033, "expert": FAIR + 0.006},
                                     n_games=12000)
    cls, text = _first_paragraph(write_report(store, exp, tmp_path / "out"))
    assert cls == "headline verdict" and "one policy only" in text
    assert re.search(r"expert does not reproduce it \(its interval excludes greedy's -\d\.\d\): "
                     r"at least part of it is greedy's play, not the rules", text), text


def test_report_target_option_grades_the_solo_variants_and_refuses_bad_targets(tmp_path):
    """`playtest report EXP --target VARIANT[:POLICY]=P`: the solo table gets its Target column
    (the store has no targets of its own) and grades from the command line; an unknown variant lists the valid ones and a value
    outside 0..1 says the range (exit 2, no report written)."""
    from typer.testing import CliRunner

    from pipelines.cli import app

    store, exp = rk.solo_store(tmp_path)
    out = tmp_path / "out"

    def report(*targets):
        args = ["report", exp, "--store", str(store), "--out", str(out)]
        for t in targets:
            args += ["--target", t]
        return CliRunner().invoke(app, args, catch_exceptions=False)

    r = report("solo_hell=0.05", "solo_easy:expert=0.9")
    assert r.exit_code == 0, r.output
    page = (out / f"{exp}.html").read_text()
    body = page[page.index("<body>"):]
    grid = body[body.index('<table class="grid"'):]
    grid = grid[:grid.index("</table>")]
    assert "Target" in re.findall(r"<th>(.*?)</th>", grid)
    rows = {m.group(1): _text(m.group(0)) for m in re.finditer(r"<tr><td>(\w+)</td>.*?</tr>",
                                                              grid, re.S)}
    assert "5.0%" in rows["solo_hell"] and "90.0%" in rows["solo_easy"]
    assert "%" not in rows["solo_base"].split()[-1]  # no target given for solo_base
    (out / f"{exp}.html").unlink()
    for bad, words in [("solo_nope=0.1", ["unknown variant 'solo_nope'", "solo_hell"]),
                       ("solo_hell=1.5", ["range 0..1", "got 1.5"]),
                       ("solo_hell=lots", ["range 0..1", "got 'lots'"]),
                       ("solo_hell", ["VARIANT=P"])]:
        r = report(bad)
        assert r.exit_code == 2, (bad, r.output)
        assert all(w in r.output for w in words), (bad, r.output)
        assert not (out / f"{exp}.html").exists()


def test_a_run_spec_targets_table_is_checked_and_recorded_for_the_report(tmp_path):
    """A run spec's ``[targets]`` table: kept with the experiment's source (the manifest's
    ``spec``, which the solo report grades against); an unknown variant or a value outside
    0..1 is refused when the spec is read, naming it."""
    from pipelines.experiment import from_toml
    from sim.spec import SpecError

    body = ('[experiment]\ngame = "flower_shop"\ngames = 10\n[[arms]]\nplayers = 1\n'
            'variant = "solo_hell"\n')
    ok = tmp_path / "ok.toml"
    ok.write_text(body + '[targets]\nsolo_hell = 0.05\nsolo_easy = { expert = 0.9 }\n')
    exp = from_toml(ok)
    assert exp.source["targets"] == {"solo_hell": 0.05, "solo_easy": {"expert": 0.9}}
    assert "targets" not in from_toml(_write(tmp_path / "none.toml", body)).source
    for bad, words in [('[targets]\nsolo_nope = 0.1\n', ["solo_nope", "solo_hell, "]),
                       ('[targets]\nsolo_hell = 2\n', ["targets.solo_hell", "0..1"])]:
        with pytest.raises(SpecError) as e:
            from_toml(_write(tmp_path / "bad.toml", body + bad))
        assert all(w in str(e.value) for w in words), str(e.value)


def _write(path, text):
    path.write_text(text)
    return path


def test_report_percentages_have_one_decimal_even_when_small():
    """One number format: a percentage prints with one decimal in reports as in the terminal,
    small ones included (an estimate and its interval alike)."""
    from analysis.reports import formatting as fmt
    from analysis.words import pct, pct_ci

    assert fmt.pct(0.0033) == pct(0.0033) == "0.3%"
    assert fmt.ci(0.001, 0.019) == pct_ci(0.001, 0.019) == "0.1–1.9%"
    assert fmt.pct(None) == fmt.ci(float("nan"), 0.1) == "n/a"
