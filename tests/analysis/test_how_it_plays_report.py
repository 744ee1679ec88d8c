"""The experiment report's "How the game plays" section (analysis/reports/how_it_plays.py):
shown for traced arms with the numbers analysis.insights computes, one line without traces."""
from __future__ import annotations

import html as html_lib
import re

import numpy as np
import pandas as pd
import pytest

from analysis.insights import insights, load_arm
from analysis.reports import write_report
from analysis.reports.how_it_plays import NO_TRACES, num_cell, pct_cell

SEED = 3


def _text(page: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _section(page: str) -> str:
    m = re.search(r'<section id="how-it-plays">.*?</section>', page, re.S)
    assert m, "no How the game plays section"
    return m.group(0)


def _table_rows(section: str) -> dict[str, list[str]]:
    """The side-by-side table: label -> cells (one per arm)."""
    m = re.search(r'<table class="how-table">.*?</table>', section, re.S)
    rows = {}
    for tr in re.findall(r"<tr>(.*?)</tr>", m.group(0), re.S):
        cells = [_text(c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
        rows[cells[0]] = cells[1:]
    return rows


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    """200 games of Rattlebones 2p under greedy and under expert, every game traced."""
    from pipelines import experiment as ex
    from pipelines import runner

    store = tmp_path_factory.mktemp("how") / "store"
    exp = ex.from_cli("rattlebones", players="2", games=200, seed=SEED, experiment="rb",
                      also_policies=["expert"], trace=200)
    runner.run(exp, store, workers=1, quiet=True)
    out = write_report(store, "rb", tmp_path_factory.mktemp("reports"))
    return store, out.read_text()


def _hand_lead_change_rate(rounds: pd.DataFrame) -> float:
    """Lead change rate by its definition (docs/metrics_play.md §4), straight from the rows:
    per game, rounds r >= 2 whose leader set differs from round r - 1's, over R - 1."""
    rates = []
    for _, g in rounds.groupby(["master_seed", "game_index"]):
        top = g.groupby("round")["score"].transform("max")
        leaders = g[g["score"] == top].groupby("round")["seat"].apply(frozenset).sort_index()
        if len(leaders) < 2:
            continue
        changes = sum(a != b for a, b in zip(leaders.iloc[1:], leaders.iloc[:-1]))
        rates.append(changes / (len(leaders) - 1))
    return float(np.mean(rates))


def test_section_shows_the_verdict_and_the_insights_numbers_per_arm(traced):
    store, page = traced
    sec = _section(page)
    text = _text(sec)
    assert NO_TRACES not in text
    rows = _table_rows(sec)
    head = rows.pop("Measure (95% CI)")
    assert head == ["p2 (greedy)", "p2-expert (expert)"]   # side by side, one table
    assert sec.count('class="how-table"') == 1
    for i, arm in enumerate(["p2", "p2-expert"]):
        t = load_arm(store, "rb", arm)                       # the parquet parts, not the views
        ins = insights(t["games"], t["seats"], t["rounds"], t["actions"])
        # the plain verdict first, word for word
        assert f"{arm} ({'greedy' if i == 0 else 'expert'}): {ins['verdict']}" in text
        lc = ins["lead_change_rate"]["mean"]
        assert lc["n"] == 200
        assert lc["estimate"] == pytest.approx(_hand_lead_change_rate(t["rounds"]), abs=1e-12)
        assert rows["lead change rate (share of rounds)"][i] == pct_cell(lc)
        assert rows["decisiveness: led for good from (share of the game)"][i] == \
            pct_cell(ins["decisiveness"]["mean"])
        assert rows["drama: winner behind after (share of rounds)"][i] == \
            pct_cell(ins["drama"]["behind_share"])
        assert rows["completed"][i] == pct_cell(ins["completion"]["completed"])
        assert rows["duration: mean rounds"][i] == num_cell(ins["duration"]["mean"])
        assert rows["duration: median rounds (p50)"][i] == num_cell(ins["duration"]["p50"])
        assert rows["duration: 95th percentile (p95)"][i] == num_cell(ins["duration"]["p95"])
        assert rows["closeness: 1/√E[margin²]"][i] == num_cell(ins["closeness"]["closeness"], 3)
        assert rows["games (traced)"][i] == "200 (200)"
    # e.g. "14.0% (12.9–15.0%)": an estimate with its interval
    assert re.fullmatch(r"\d+\.\d% \(\d+\.\d–\d+\.\d%\)",
                        rows["lead change rate (share of rounds)"][0])
    assert "which readings survive stronger play" in text


def test_section_has_comebacks_actions_and_flags_with_replay_commands(traced):
    store, page = traced
    sec = _section(page)
    text = _text(sec)
    assert sec.count("<img") == 2                                 # a comeback heatmap per arm
    assert "P(win | trailing by d after round r) as a table" in text
    assert "Actions under the strongest policy" in text
    assert "Never picked when legal" in text and "Always picked when legal" in text
    assert "Association, not cause" in text
    assert "Win lift (points)" in text
    for name in ("truncated", "stall", "no legal option"):
        assert f"<td>{name}</td>" in sec
    t = load_arm(store, "rb", "p2")
    ins = insights(t["games"], t["seats"], t["rounds"], t["actions"])
    stall = ins["flags"]["stall"]
    assert f"{stall['games']:,} of {stall['n_games']:,}" in text
    assert num_cell(stall["per_10000"], 1) in text
    if stall["examples"]:
        ex = stall["examples"][0]
        assert (f"playtest replay rattlebones --players 2 --seed {SEED} "
                f"--game-index {ex['game_index']} --variant base --policy greedy") in text


def test_untraced_experiment_gets_one_line(tiny_store, tmp_path):
    page = write_report(tiny_store, "tiny", tmp_path / "r").read_text()
    sec = _section(page)
    assert _text(sec).strip() == f"How the game plays {NO_TRACES}"
    assert "<table" not in sec and "<img" not in sec
