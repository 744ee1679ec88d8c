"""HTML reports: one self-contained file with the required sections and reproducibility facts."""
from __future__ import annotations

import html as html_lib
import re

import pytest

from analysis.reports import ASSUMED_COMPONENTS_TEXT, write_report
from sim.spec import SpecError

from analysis_synth import SOLO_VARIANTS, make_solo_store


def _text(page: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _assert_self_contained(html: str):
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert "<link" not in html.lower() and "<script" not in html.lower()
    srcs = re.findall(r'<img[^>]*src="([^"]+)"', html)
    assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs)
    return srcs


def test_multiplayer_report(tiny_store, tmp_path):
    out = write_report(tiny_store, "tiny", tmp_path / "reports")
    assert out == tmp_path / "reports" / "tiny.html"
    assert [p.name for p in out.parent.iterdir()] == ["tiny.html"]  # one file, no temp left
    html = out.read_text()
    srcs = _assert_self_contained(html)
    assert len(srcs) >= 3  # win rates, scores, game length
    for section in ("summary", "arms", "win-rates", "first-player", "seat-balance", "scores",
                    "game-length", "end-reasons", "exact-settings"):
        assert f'id="{section}"' in html, section
    text = _text(html)
    assert "Master seed 7" in text
    assert "abc1234" in text                                  # code version
    assert "rattlebones 1.0" in text                          # game version
    assert "seat 0: greedy; seat 1: random; seat 2: greedy" in text   # policies per seat
    assert ASSUMED_COMPONENTS_TEXT in text
    assert "target = 25" in text                              # tweak shown
    # golden numbers of the tiny store: p2 seat 0 wins 3.5 of 6 games
    assert "58.3%" in text and "Wilson" in text
    assert "Seat 0 (start player) wins 58.3%" in text
    assert "goodness" in text.lower() and "chi-square" in text
    # truncated games are shown
    assert 'id="truncated-warning"' in html and "1 truncated game(s)" in text
    assert "max_rounds" in text
    assert "Seats play different policies" in text            # p3 has mixed policies


def test_solo_report(tmp_path):
    probs = {v: p for v, p in zip(SOLO_VARIANTS, [0.85, 0.6, 0.4, 0.2, 0.05])}
    store = make_solo_store(tmp_path / "store", "fs_solo", probs, n_games=300,
                            policies=("greedy", "novice"))
    out = write_report(store, "fs_solo", tmp_path / "out")
    html = out.read_text()
    _assert_self_contained(html)
    for section in ("solo-ladder", "monotonicity", "loss-day", "task-cards", "exact-settings",
                    "game-length", "end-reasons"):
        assert f'id="{section}"' in html, section
    assert 'id="seat-balance"' not in html and 'id="truncated-warning"' not in html
    text = _text(html)
    assert "Solo difficulty report" in text
    assert "Policy greedy: monotone" in text
    assert "solo_easy < solo_base < solo_hard < solo_very_hard < solo_hell" in text
    assert "end (7)" in text
    assert "fs-1.2" in text and "Master seed 11" in text and ASSUMED_COMPONENTS_TEXT in text
    assert '"solo_row_size": 4' in text
    # 'very hard' is one reading of a garbled sentence, even when the other one is not played
    assert ("This experiment plays only solo_very_hard: its figures hold under that reading; "
            "solo_very_hard_one_free is not played.") in text
    assert re.search(r"solo_very_hard \('very hard' reading 1 of 2\) \d+\.\d%", text)


def test_solo_report_labels_the_two_readings_of_very_hard(tmp_path):
    """solo_very_hard and solo_very_hard_one_free are two readings of one garbled sentence
    (FS-V-VHARD-1): the summary and the ladder table say so, and the ladder is checked once
    with each reading in the 'very hard' place, never with one reading as a rung above the
    other."""
    probs = dict(zip(SOLO_VARIANTS[:4] + ("solo_very_hard_one_free", "solo_hell"),
                     [0.85, 0.6, 0.4, 0.6, 0.2, 0.05]))
    store = make_solo_store(tmp_path / "store", "readings", probs, n_games=400)
    html = write_report(store, "readings", tmp_path / "out").read_text()
    body = html[html.index("<body>"):]
    summary = _text(body[:body.index("</section>")])
    assert ("'Very hard' is one garbled sentence in the source (FS-V-VHARD-1), read 2 ways: "
            "solo_very_hard = reading 1, the spec's reading") in summary
    assert "solo_very_hard_one_free = reading 2, the other reading" in summary
    assert "alternatives for the one 'very hard' rung, not two rungs" in summary
    assert re.search(r"solo_very_hard_one_free \('very hard' reading 2 of 2\) \d+\.\d%", summary)
    assert ("Ladder with 'very hard' reading 1 of 2 (solo_very_hard): not monotone" in summary
            and "Ladder with 'very hard' reading 2 of 2 (solo_very_hard_one_free): monotone"
            in summary)
    table = html[html.index('<section id="solo-ladder">'):]
    table = table[:table.index("</table>")]
    row = html_lib.unescape(re.search(r"<tr><td>solo_very_hard_one_free<br>(.*?)</tr>",
                                      table).group(1))
    assert "'very hard' reading 2 of 2 of a garbled source sentence (FS-V-VHARD-1)" in row
    row = html_lib.unescape(re.search(r"<tr><td>solo_very_hard<br>(.*?)</tr>",
                                      table).group(1))
    assert "'very hard' reading 1 of 2 of a garbled source sentence (FS-V-VHARD-1)" in row
    mono = _text(html[html.index('<section id="monotonicity">'):html.index('id="loss-day"')])
    assert "solo_very_hard solo_very_hard_one_free" not in mono  # never a step between them
    assert "solo_very_hard_one_free solo_hell" in mono and "solo_very_hard solo_hell" in mono
    assert "left out" not in mono


def test_solo_report_flags_swapped_ladder(tmp_path):
    probs = {"solo_easy": 0.8, "solo_base": 0.3, "solo_hard": 0.6, "solo_very_hard": 0.2,
             "solo_hell": 0.02}
    store = make_solo_store(tmp_path / "store", "swapped", probs, n_games=400)
    html = write_report(store, "swapped", tmp_path / "out").read_text()
    text = _text(html)
    assert "Policy greedy: not monotone" in text
    assert "solo_hard wins more often than solo_base" in text
    # the verdict opens the report: variants ordered by measured win probability, not by name
    body = html[html.index("<body>"):]
    first = _text(body[:body.index("</section>")])
    ladder = re.search(r"Policy greedy, easiest to hardest by measured win probability: "
                       r"(.*?)\. Ladder:", first).group(1)
    assert [x.split()[0] for x in ladder.split(", ")] == [
        "solo_easy", "solo_hard", "solo_base", "solo_very_hard", "solo_hell"]
    assert "Ladder: not monotone" in first


def test_solo_report_says_harder_by_the_interval_but_not_after_holm(tmp_path):
    """Steps of 3.3 points on 2,000 games: each unadjusted 95% interval excludes 0 but no
    Holm-adjusted test is significant; the verdict, the evidence and the step table say so
    plainly instead of "no significant difference" next to an interval excluding 0."""
    probs = dict(zip(SOLO_VARIANTS, [0.5, 0.467, 0.434, 0.401, 0.1]))
    store = make_solo_store(tmp_path / "store", "close", probs, n_games=2000, exact=True)
    html = write_report(store, "close", tmp_path / "out").read_text()
    text = _text(html[:html.index('<section id="assumed-components">')])  # all cards' games
    assert "Policy greedy: inconclusive" in text
    assert "no significant difference" not in text
    for easier, harder in zip(SOLO_VARIANTS[:3], SOLO_VARIANTS[1:4]):
        assert re.search(f"{harder} is harder than {easier} by the interval " + r"\([^)]*95% CI "
                         r"\+0\.\d to \+6\.\d\), but not significant after correcting for 4 "
                         r"comparisons", text), (easier, harder)
    mono = html[html.index('<section id="monotonicity">'):]
    assert mono.count("<td>harder by the interval; not significant after Holm</td>") == 3


def test_solo_report_says_the_step_goes_the_wrong_way(tmp_path):
    probs = dict(zip(SOLO_VARIANTS, [0.5, 0.533, 0.5, 0.467, 0.1]))
    store = make_solo_store(tmp_path / "store", "wrong", probs, n_games=2000, exact=True)
    text = _text(write_report(store, "wrong", tmp_path / "out").read_text())
    assert ("the step goes the wrong way: solo_base is easier than solo_easy by the interval "
            "(50.0% vs 53.3%") in text
    assert "goes the wrong way by the interval; not significant after Holm" in text


def test_solo_report_shows_what_the_assumed_components_do(tmp_path):
    """The task card dealt is the one assumed component a solo game varies: T1 (the documented
    card) is planted much easier in solo_hard, so the ladder is monotone over every card but not
    on the games dealt T1; the section says so, names the cards and their provenance, and lists
    the assumptions the experiment does not vary with the spec's documented alternatives."""
    probs = dict(zip(SOLO_VARIANTS, [0.8, 0.5, 0.3, 0.15, 0.05]))
    store = make_solo_store(tmp_path / "store", "cards", probs, n_games=1500,
                            card_probs={("solo_hard", 0): 0.75})
    html = write_report(store, "cards", tmp_path / "out").read_text()
    sec = html[html.index('<section id="assumed-components">'):]
    sec = sec[:sec.index("</section>")]
    text = _text(sec)
    assert "What the assumed components do" in text and 'id="task-cards"' in sec
    assert "T1 documented [D] rows: SUM_FLOWERS_EQ 10; columns: SAME_KNICK" in text
    assert "T2 assumed (A-07) rows: DIFF_VASE; columns: SAME_VASE" in text
    assert re.search(r"solo_hard greedy T\d: [\d.]+% \([^)]*\) T1: 7\d\.\d% \([^)]*\) T1: "
                     r"7\d\.\d% \([^)]*\) yes: the intervals do not overlap", text)
    assert re.search(r"Policy greedy: with every card the ladder is monotone; on the games dealt "
                     r"T1 \([\d,]+–[\d,]+ per variant\) it is not monotone\. The verdict rests "
                     r"on the assumed cards", text)
    assert "solo_hard wins more often than solo_base" in text
    assert "none of the assumptions below is varied" in text
    assert re.search(r"A-02 flower_die_faces \(6 distinct types, no wild face\) a flower die "
                     r"with 5 flower types \+ 1 wild face", text)
    assert "A-07 tasks.csv: 5 of 6 rows" in text


def test_solo_report_compares_alternative_component_data(tmp_path):
    """Arms that differ only in their component data are not extra rungs: the ladder uses the
    main data, and each alternative set is compared with it variant by variant and by its own
    ladder verdict (here the wild-face die makes solo_hard easier than solo_base)."""
    probs = dict(zip(SOLO_VARIANTS, [0.8, 0.5, 0.3, 0.15, 0.05]))
    wild = dict(zip(SOLO_VARIANTS, [0.8, 0.5, 0.7, 0.15, 0.05]))
    store = make_solo_store(tmp_path / "store", "alt", probs, n_games=1000,
                            alt_components={"wild_face": wild})
    html = write_report(store, "alt", tmp_path / "out").read_text()
    text = _text(html)
    assert "Policy greedy: monotone" in text and "left out" not in text
    sec = _text(html[html.index('<section id="assumed-components">'):])
    assert "plays 1 alternative set(s) (wild_face [digest wild_face]" in sec
    assert "Alternative component data: wild_face [digest wild_face]" in sec
    assert re.search(r"solo_hard greedy 3\d\.\d% \([^)]*\) 7\d\.\d% \([^)]*\) \+[34]\d\.\d "
                     r"\(\+\d+\.\d to \+\d+\.\d\)", sec)
    assert ("Policy greedy: the ladder is not monotone with these data (monotone with the main "
            "data).") in sec


def test_unknown_experiment_lists_valid_names(tiny_store, tmp_path):
    with pytest.raises(SpecError, match=r"unknown experiment 'nope'; valid: tiny"):
        write_report(tiny_store, "nope", tmp_path)
    with pytest.raises(SpecError, match="no experiments"):
        write_report(tmp_path / "empty", "x", tmp_path)
    assert not list(tmp_path.glob("*.html"))


def test_report_without_manifest_says_unknown(tiny_store, tmp_path):
    (tiny_store / "experiments" / "tiny.json").unlink()
    html = write_report(tiny_store, "tiny", tmp_path / "o").read_text()
    text = _text(html)
    assert "No manifest found" in text and "unknown" in text
    assert "Master seed 7" in text  # still recovered from the data


def test_manifest_only_experiment(tiny_store, tmp_path):
    import json
    (tiny_store / "experiments" / "queued.json").write_text(json.dumps(
        {"name": "queued", "master_seed": 3, "arms": [{"name": "a", "game": "rattlebones",
                                                         "n_players": 2}]}))
    text = _text(write_report(tiny_store, "queued", tmp_path / "o").read_text())
    assert "0 games stored" in text


def test_rule_changes_against_defaults(monkeypatch):
    from analysis.reports import summary

    monkeypatch.setattr(summary, "_defaults", lambda game: {"target": 30, "dice": [1, 2]})
    items, note = summary._rule_changes({"game": "g", "rule_values": {"target": 30, "dice": [1, 3]}})
    assert items == ["dice = [1, 3] (default [1, 2])"] and "defaults" in note


def test_pipelines_manifest_shape(tiny_store, tmp_path):
    """Manifests as pipelines/ writes them: per-seat policy objects, per-arm n_games,
    top-level game_versions and code_versions."""
    import json
    path = tiny_store / "experiments" / "tiny.json"
    m = json.loads(path.read_text())
    for a in m["arms"]:
        a["policies"] = [{"seat": i, "policy": p.split(":")[0], "spec": p, "params": {}}
                         for i, p in enumerate(a["policies"])]
        a["n_games"] = 10
        del a["game_version"]
    m["arms"][0]["policies"][1]["spec"] = "greedy:w_stars=2"
    m["game_versions"] = {"rattlebones": "rb-7"}
    m["code_versions"] = ["abc1234", "def5678"]
    path.write_text(json.dumps(m))
    text = _text(write_report(tiny_store, "tiny", tmp_path / "o").read_text())
    assert "seat 0: greedy; seat 1: greedy (w_stars=2)" in text
    assert "6 of 10 requested" in text
    assert "rattlebones rb-7" in text
    assert "several code versions: abc1234, def5678" in text


def test_arms_table_says_common_settings_once(tmp_path):
    probs = {v: p for v, p in zip(SOLO_VARIANTS, [0.85, 0.6, 0.4, 0.2, 0.05])}
    store = make_solo_store(tmp_path / "store", "compact", probs, n_games=50)
    html = write_report(store, "compact", tmp_path / "out").read_text()
    assert html.count('<section id="arms">') == 1  # the settings once, not twice
    arms = html[html.index('<section id="arms">'):]
    arms = arms[:arms.index("</section>")]
    assert arms.count("d1g3st") == 1  # the component data, said once for the 5 arms
    assert "Component data (every arm)" in arms and "Players (every arm)" in arms
    for v in SOLO_VARIANTS:  # what differs stays per arm
        assert f"<td>{v}</td>" in arms


def test_every_table_downloads_as_csv(tiny_store, tmp_path):
    """Each table of a report is followed by a data-URI link holding the same cells as CSV."""
    import base64
    import csv
    import io

    page = write_report(tiny_store, "tiny", tmp_path / "o").read_text()
    tables = re.findall(r"<table[\s>].*?</table>\s*<p class=\"csv\"><a download=\"([^\"]+)\" "
                        r"href=\"data:text/csv;base64,([^\"]+)\">", page, re.S)
    assert len(tables) == page.count("<table") > 3
    first = re.search(r"<table[\s>].*?</table>", page, re.S).group(0)
    header = [_text(c).strip() for c in re.findall(r"<th[^>]*>(.*?)</th>", first, re.S)]
    name, data = tables[0]
    rows = list(csv.reader(io.StringIO(base64.b64decode(data).decode("utf-8"))))
    assert name.endswith(".csv") and rows[0] == header[:len(rows[0])] and len(rows) > 1
