"""Figure functions return figures with the expected panels, error bars and reference lines."""
from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analysis import db, figcheck, plots

from analysis_synth import SOLO_VARIANTS, make_solo_store


def test_seat_win_rate_plot_has_reference_lines(tiny_store):
    con = db.connect(tiny_store)
    fig = plots.seat_win_rate_plot(db.seat_win_rates(con, "tiny"))
    assert isinstance(fig, Figure)
    axes = [a for a in fig.axes if a.get_visible()]
    assert len(axes) == 2
    refs = sorted(round(ln.get_ydata()[0], 4) for a in axes for ln in a.lines
                  if ln.get_linestyle() == "--")
    assert refs == [round(1 / 3, 4), 0.5]


def test_histogram_plots(tiny_store):
    con = db.connect(tiny_store)
    fig = plots.score_distribution_plot(db.score_histogram(con, "tiny"))
    assert len([a for a in fig.axes if a.get_visible()]) == 2
    fig = plots.rounds_distribution_plot(db.rounds_histogram(con, "tiny"))
    heights = [p.get_height() for p in fig.axes[0].patches]  # one bar per value (or bin)
    assert len(heights) > 1 and abs(sum(heights) - 1.0) < 1e-9


def test_solo_plots(tmp_path):
    store = make_solo_store(tmp_path / "s", "solo", dict(zip(reversed(SOLO_VARIANTS),
                                                             [.05, .2, .4, .6, .8])), n_games=60)
    con = db.connect(store)
    lad = db.solo_ladder(con, "solo")
    fig = plots.solo_ladder_plot(lad)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == list(SOLO_VARIANTS)  # ladder order, whatever the input order
    assert isinstance(plots.loss_day_plot(db.solo_loss_day(con, "solo")), Figure)
    assert isinstance(plots.task_card_plot(db.solo_task_cards(con, "solo")), Figure)


def test_task_card_axis_is_scaled_to_the_data(tmp_path):
    """Win probabilities under 25% get an axis just above the highest 95% bound, not 0-100%,
    every interval stays inside it, the panels (one per policy, weakest first) share that
    scale, and the cards are named."""
    probs = {(v, "greedy"): p for v, p in zip(SOLO_VARIANTS, [.1, .06, .04, .02, .01])}
    probs.update({(v, "novice"): p / 5 for (v, _), p in probs.items()})
    store = make_solo_store(tmp_path / "s", "low", probs, n_games=600,
                            policies=("greedy", "novice"))
    cards = db.solo_task_cards(db.connect(store), "low")
    assert cards["high"].max() < 0.25
    fig = plots.task_card_plot(cards, ["T1", "T2", "T3", "T4", "T5", "T6"])
    assert _empty_axes(fig) == [] and figcheck.defects(fig) == []
    high = cards["high"].max()
    assert [ax.get_title() for ax in fig.axes] == ["policy novice", "policy greedy"]
    for ax in fig.axes:  # one scale for both panels
        bottom, top = ax.get_ylim()
        assert bottom == 0 and high < top < 1.3 * high + 0.02
        assert [t.get_text() for t in ax.get_xticklabels()] == [f"T{i}" for i in range(1, 7)]


def test_metric_curve_plot():
    df = pd.DataFrame({"x": [1, 2, 3] * 2, "estimate": [.5, .55, .6, .5, .45, .4],
                       "low": [.45, .5, .55, .45, .4, .35], "high": [.55, .6, .65, .55, .5, .45],
                       "seat": [0] * 3 + [1] * 3})
    fig = plots.metric_curve_plot(df, "x", hue="seat", reference=0.5, percent=True)
    ax = fig.axes[0]
    assert len(ax.collections) == 2  # one band per seat
    assert any(ln.get_linestyle() == "--" for ln in ax.lines)


def _empty_axes(fig) -> list[str]:
    """Titles of the visible axes that draw no finite data (reference lines and bands, drawn in
    axes coordinates, do not count)."""
    import numpy as np

    empty = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        data = [ln for ln in ax.lines if all(ln.get_transform().contains_branch_seperately(ax.transData))
                and np.isfinite(np.asarray(ln.get_ydata(), float)).sum()
                >= (1 if ln.get_marker() not in (None, "None", "") else 2)]
        data += [p for p in ax.patches if all(p.get_transform().contains_branch_seperately(ax.transData))
                 and np.isfinite(p.get_height()) and p.get_height() > 0]
        data += [c for c in ax.collections if np.isfinite(np.asarray(
            c.get_offsets() if len(c.get_offsets()) and c.get_offsets().size > 2
            else [v for p in c.get_paths() for v in p.vertices.ravel()], float)).any()]
        data += ax.images
        if not data:
            empty.append(ax.get_title() or "(untitled)")
    return empty


def test_empty_axis_check_fails_on_empty_and_all_nan_axes():
    fig = Figure()
    ax, ax2 = fig.subplots(1, 2)
    ax.axhline(0.5, ls="--")  # a reference line alone is not data
    ax.set_title("empty")
    ax2.plot([1, 2], [float("nan")] * 2)
    ax2.set_title("nan")
    assert _empty_axes(fig) == ["empty", "nan"]


def test_single_value_histogram_is_not_empty_and_has_integer_ticks():
    """Every game lasts 6 rounds: the game-length chart still shows a bar at 6."""
    hist = pd.DataFrame({"arm": ["a"], "rounds": [6], "n": [500]})
    fig = plots.rounds_distribution_plot(hist)
    assert _empty_axes(fig) == []
    ticks = fig.axes[0].get_xticks()
    assert all(float(t).is_integer() for t in ticks) and 6 in ticks


def test_integer_parameter_gets_integer_ticks():
    df = pd.DataFrame({"x": [2, 3, 4], "estimate": [.1, .2, .3], "low": [0, .1, .2],
                       "high": [.2, .3, .4]})
    fig = plots.metric_curve_plot(df, "x")
    assert list(fig.axes[0].get_xticks()) == [2, 3, 4]


def test_no_report_chart_has_an_empty_axis(tiny_store, tmp_path, monkeypatch):
    """Every chart of the run, solo, compare, sweep and plan reports draws data on every axis."""
    from analysis import reports
    from analysis.reports import render
    from test_factor_studies import _compare_store, _sweep_store

    seen = []
    real = render.figure_to_data_uri

    def check(fig, *a, **k):
        seen.append((fig, _empty_axes(fig)))
        return real(fig, *a, **k)

    monkeypatch.setattr(render, "figure_to_data_uri", check)
    solo = make_solo_store(tmp_path / "solo", "solo", dict(zip(SOLO_VARIANTS,
                                                               [.8, .6, .4, .2, .05])), n_games=60)
    reports.write_report(tiny_store, "tiny", tmp_path / "o1")
    reports.write_report(solo, "solo", tmp_path / "o2")
    store, exp = _compare_store(tmp_path, "flower_shop", handicap_die=3)
    reports.write_report(store, exp, tmp_path / "o3")
    reports.write_study_report(store, exp, tmp_path / "o4", plan={"delta": 0.02})
    store, exp = _sweep_store(tmp_path, "rattlebones", handicap_seat=1)
    reports.write_report(store, exp, tmp_path / "o5")
    assert len(seen) >= 10
    assert [e for _, e in seen if e] == []


def test_factor_gap_plot_fits_long_row_labels_without_a_layout_warning():
    """A ladder's pair labels can hold preset paths: they are shortened in the middle to 40
    characters and the panel widens for them, so tight_layout applies (no UserWarning)."""
    import warnings

    long = "@/home/designer/presets/flower_shop/expert_tuned_for_solo_base.toml"
    rates = pd.DataFrame({"arm": ["ladder"] * 2, "n_players": [2, 2],
                          "label": [f"{long} vs random", f"random vs {long}"],
                          "win_rate": [0.6, 0.4], "low": [0.5, 0.3], "high": [0.7, 0.5]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = plots.factor_gap_plot(rates, "pair")
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert len(ticks) == 2 and all(len(t) <= 40 and "…" in t for t in ticks)
    assert ticks[0].endswith("vs random") and ticks[1].startswith("random vs")


def _bad_figures():
    """One figure per defect the chart check must catch."""
    import warnings

    import matplotlib.ticker as mt

    figs = {}
    f = Figure(figsize=(5, 3))
    ax = f.subplots()
    ax.plot([0.5, 1, 2], [0.001, 0.01, 0.018])
    ax.yaxis.set_major_formatter(mt.PercentFormatter(1.0, decimals=0))  # "0%, 0%, 1%, 1%"
    ax.set_ylim(0, 0.02)
    figs["duplicate y tick labels"] = f
    f = Figure()
    ax = f.subplots()
    ax.plot([0.5, 1.5], [1, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ax.legend()
    figs["empty legend"] = f
    f = Figure(figsize=(6.4, 3.8))
    ax = f.subplots()
    ax.plot([0.5, 1.5], [0.1, 0.2])
    ax.set_ylabel("win rate − 1/N by initiative die (95% CI), every player count, every arm")
    ax.set_title("The Little Flower Shop Dice Game: win rate minus fair share by initiative die")
    f.tight_layout()
    figs["overlapping text"] = f
    f = Figure()
    ax = f.subplots()
    ax.plot([2, 3, 4], [0.1, 0.2, 0.3])  # players 2, 3, 4: ticks 2.25, 2.5...
    figs["whole numbers"] = f
    f = Figure()
    ax = f.subplots()
    ax.errorbar([0.5, 1.5], [1, 2], yerr=[0.1, 0.1], color="C0", fmt="o", label="greedy")
    ax.errorbar([0.5, 1.5], [2, 3], yerr=[0.1, 0.1], color="C0", fmt="o", label="search")
    ax.legend()
    figs["look the same"] = f
    return figs


def test_the_chart_check_finds_each_defect():
    for defect, fig in _bad_figures().items():
        found = figcheck.defects(fig)
        assert any(defect in d for d in found), (defect, found)
        assert len(found) == 1, found  # and nothing else


def test_percent_ticks_have_the_decimals_of_their_step():
    fmt = plots.PercentTicks()
    assert fmt.format_ticks([0, 0.0025, 0.005, 0.0075, 0.01]) == [
        "0.00%", "0.25%", "0.50%", "0.75%", "1.00%"]
    assert fmt.format_ticks([0, 0.005, 0.01, 0.015]) == ["0.0%", "0.5%", "1.0%", "1.5%"]
    assert fmt.format_ticks([0, 0.1, 0.2]) == ["0%", "10%", "20%"]
    assert fmt.format_ticks([-0.02, 0, 0.02]) == ["\u22122%", "0%", "2%"]
    fig = Figure(figsize=(4, 3))
    ax = fig.subplots()
    ax.plot([0.5, 1.5, 2.5], [0.001, 0.004, 0.018])
    plots._percent_axis(ax, 0.02)
    assert figcheck.defects(fig) == []


def test_one_colour_per_policy_in_every_chart():
    a = plots.policy_colors(["novice", "greedy", "expert", "search:base=expert,rollouts=64"])
    assert len(set(a.values())) == 4
    assert a["greedy"] == plots.POLICY_COLORS["greedy"]
    assert a["search:base=expert,rollouts=64"] == plots.POLICY_COLORS["search"]
    b = plots.policy_colors(["search", "greedy:w_stars=2", "greedy", "thrifty"])
    assert b["greedy"] == a["greedy"] and b["search"] == plots.POLICY_COLORS["search"]
    assert len(set(b.values())) == 4  # greedy with options is not greedy's colour
    assert plots.policy_colors(["thrifty", "random"])["thrifty"] == b["thrifty"]  # stable


def test_solo_ladder_policies_weakest_first_in_distinct_colours(tmp_path):
    probs = {(v, pol): p * k for v, p in zip(SOLO_VARIANTS, [.5, .4, .3, .2, .1])
             for pol, k in (("greedy", 1.0), ("search", 1.2), ("expert", 1.1), ("novice", .5))}
    store = make_solo_store(tmp_path / "s", "lad", probs, n_games=200,
                            policies=("search", "greedy", "novice", "expert"))
    fig = plots.solo_ladder_plot(db.solo_ladder(db.connect(store), "lad"))
    leg = fig.axes[0].get_legend()
    assert [t.get_text() for t in leg.get_texts()] == ["novice", "greedy", "expert", "search"]
    assert figcheck.defects(fig) == []


def test_curve_legend_names_the_seat_once_and_no_empty_legend():
    import warnings

    df = pd.DataFrame({"x": [1, 2] * 2, "estimate": [.5, .4, .5, .6], "low": [.4, .3, .4, .5],
                       "high": [.6, .5, .6, .7], "seat": ["seat 0"] * 2 + ["seat 1"] * 2,
                       "balanced": [False] * 4})
    fig = plots.metric_curve_plot(df, "x", hue="seat", percent=True)
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["seat 0", "seat 1"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "No artists with labels found to put in legend"
        fig = plots.metric_curve_plot(df[df["seat"] == "seat 0"], "x", mark="balanced")
    assert fig.axes[0].get_legend() is None and figcheck.defects(fig) == []


def test_a_long_y_label_is_wrapped_not_run_into_the_title():
    df = pd.DataFrame({"n_players": [2, 3, 4], "gap": [.01, -.02, .0], "gap_low": [-.01] * 3,
                       "gap_high": [.03] * 3})
    fig = plots.metric_curve_plot(
        df, "n_players", y="gap", low="gap_low", high="gap_high", reference=0.0, percent=True,
        xlabel="players", ylabel="win rate − 1/N by initiative die (95% CI)",
        title="The Little Flower Shop Dice Game: win rate minus fair share by initiative die")
    assert figcheck.defects(fig) == []
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["2", "3", "4"]


def test_side_by_side_panels_share_their_scale():
    rates = pd.DataFrame({"arm": ["greedy"] * 2 + ["expert"] * 2, "n_players": [2] * 4,
                          "label": ["seat 0", "seat 1"] * 2,
                          "win_rate": [.54, .46, .501, .499], "low": [.52, .44, .49, .49],
                          "high": [.56, .48, .51, .51]})
    fig = plots.factor_gap_plot(rates)
    assert fig.axes[0].get_xlim() == fig.axes[1].get_xlim()
    hist = pd.DataFrame({"arm": ["a"] * 3 + ["b"] * 2, "rounds": [5, 6, 7, 9, 10],
                         "n": [10, 80, 10, 50, 50]})
    fig = plots.rounds_distribution_plot(hist)
    assert fig.axes[0].get_xlim() == fig.axes[1].get_xlim()
    assert fig.axes[0].get_ylim() == fig.axes[1].get_ylim()
    assert figcheck.defects(fig) == []
