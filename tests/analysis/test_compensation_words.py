"""The answer of a compensation study in words (analysis/reports/compensation.py): verdict
first, merged across policies that agree; "the bots react to the bonus" only when a seat is
off its fair share and games went differently; "Keep" when the best value is the game's own."""
from analysis.reports.compensation import policy_table, search_points, verdict_lines


def _rates(win, half=0.006, **extra):
    n = len(win)
    return {"win_rate": list(win), "low": [w - half for w in win],
            "high": [w + half for w in win], "fair": 1 / n, **extra}


def _bonus(whole, interval, resim=None):
    n = len(whole)
    gap = {"estimate": 0.004, "low": 0.0, "high": 0.012, "win_rate": [1 / n] * n}
    return {"bonus": [float(x) for x in whole], "interval": [[0.0, 0.0]] + interval,
            "whole": list(whole), "half": list(whole), "residual": gap, "half_residual": gap,
            "before": {"win_rate": [0.53, 0.47]}, "stored": [0.53, 0.47], "games": 20000,
            "resimulated": resim}


def _points(results, notes=()):
    return {"mode": "points", "n_players": 2, "policies": list(results), "results": results,
            "notes": list(notes)}


def test_agreeing_policies_share_one_sentence_verdict_first():
    res = _points({
        "greedy": _bonus((0, 2), [[1.4, 2.6]], _rates((0.502, 0.498), played_differently=0.0,
                                                      reacted=False)),
        "expert": _bonus((0, 2), [[1.2, 2.9]], _rates((0.497, 0.503), half=0.004,
                                                      played_differently=0.1, reacted=False))})
    lines = verdict_lines(res)
    assert lines == ["Give seat 1 +2 points (95% CI +1.40 to +2.60 under greedy; +1.20 to "
                     "+2.90 under expert): then every seat wins 50% ± 0.6 points under greedy "
                     "and expert (re-simulated with the bonus in the rules, 95% intervals)."]
    cols, rows = policy_table(res)
    assert cols == ["", "greedy", "expert"]
    assert ["best whole points", "0 / +2", "0 / +2"] in rows
    assert search_points(res) == []


def test_the_bots_react_only_when_a_seat_is_off_and_games_went_differently():
    off = _rates((0.54, 0.46), played_differently=0.37, reacted=True)
    res = _points({"greedy": _bonus((0, 3), [[2.5, 3.4]], off)})
    line = verdict_lines(res)[0]
    assert line.startswith("Give seat 1 +3 points (95% CI +2.50 to +3.40): then under greedy "
                           "seat 0 wins 54.0%")
    assert "the bots react to the bonus (37.0% of the games went differently)" in line
    same = _rates((0.54, 0.46), played_differently=0.0, reacted=False)
    line = verdict_lines(_points({"greedy": _bonus((0, 3), [[2.5, 3.4]], same)}))[0]
    assert "react" not in line and "whole points cannot do better" in line


def test_offline_only_with_the_note():
    note = "Not re-simulated: g has no rule parameter end_bonus_points yet."
    lines = verdict_lines(_points({"greedy": _bonus((0, 1), [[0.6, 1.3]])}, [note]))
    assert lines[0] == ("Give seat 1 +1 point (95% CI +0.60 to +1.30): then, on the stored "
                        "games, every seat wins within 0.4 points of 50% (95% CI 0.0 to 1.2) "
                        "under greedy (offline; not re-simulated).")
    assert lines[1] == note
    assert verdict_lines(_points({"greedy": _bonus((0, 1), [[0.6, 1.3]])}, [note]),
                         notes=False) == lines[:1]


def test_parameter_keep_set_and_no_sign_change():
    def search(best, base, bracketed=True):
        return {"bonus": best, "root": 0.58, "interval": [0.48, 0.68], "converged": True,
                "bracketed": bracketed, "note": "no sign change on [0, 4]: 4 comes closest",
                "seats": [1], "base_value": base,
                "residual": {"estimate": 0.021, "low": 0.015, "high": 0.028},
                "resimulated": _rates((0.479, 0.521)), "base_rates": _rates((0.53, 0.47)),
                "points": [{"value": 0, "estimate": -0.03, "se": 0.003},
                           {"value": 1, "estimate": 0.021, "se": 0.003}],
                "arms": [{"value": 0, "arm": "p2"}, {"value": 1, "arm": "gold0_1-p2"}]}

    res = {"mode": "parameter", "n_players": 2, "param": "gold", "per_seat": True,
           "range": [0, 4], "policies": ["greedy"], "notes": [],
           "results": {"greedy": search(1, 0)}}
    assert verdict_lines(res)[0].startswith("Set gold = 1 for seat 1 (root 0.58, 95% CI 0.48 "
                                            "to 0.68): then under greedy seat 0 wins 47.9%")
    res["results"]["greedy"] = search(0, 0)
    assert verdict_lines(res)[0].startswith("Keep gold = 0 for seat 1 (as it is; root 0.58")
    res["results"]["greedy"] = search(4, 0, bracketed=False)
    assert verdict_lines(res)[0] == ("Under greedy, no value of gold from 0 to 4 equalises the "
                                     "seats: no sign change on [0, 4]: 4 comes closest.")
    pts = search_points({**res, "results": {"greedy": search(1, 0)}})
    assert [(p["value"], p["arm"], p["best"]) for p in pts] == [("0", "p2", ""),
                                                               ("1", "gold0_1-p2", "best")]
