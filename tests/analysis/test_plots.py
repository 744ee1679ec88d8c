"""Figure functions return figures with the expected panels, error bars and reference lines."""
from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analysis import db, plots

from analysis_synth import SOLO_VARIANTS, make_solo_store


def test_seat_win_rate_plot_has_reference_lines(tiny_store):
    con = db.connect(tiny_store)
    fig = plots.seat_win_rate_plot(db.seat_win_rates(con, "tiny"))
    assert isinstance(fig, Figure)
    axes = [a for a in fig.axes if a.get_visible()]
    assert len(axes) == 2
    refs = sorted(round(l.get_ydata()[0], 4) for a in axes for l in a.lines
                  if l.get_linestyle() == "--")
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
    every interval stays inside it, and the cards are named."""
    probs = {(v, "greedy"): p for v, p in zip(SOLO_VARIANTS, [.1, .06, .04, .02, .01])}
    probs.update({(v, "novice"): p / 5 for (v, _), p in probs.items()})
    store = make_solo_store(tmp_path / "s", "low", probs, n_games=600,
                            policies=("greedy", "novice"))
    cards = db.solo_task_cards(db.connect(store), "low")
    assert cards["high"].max() < 0.25
    fig = plots.task_card_plot(cards, ["T1", "T2", "T3", "T4", "T5", "T6"])
    assert _empty_axes(fig) == []
    for ax, pol in zip(fig.axes, ("greedy", "novice")):  # each panel scaled to its own data
        high = cards.loc[cards["policy"] == pol, "high"].max()
        bottom, top = ax.get_ylim()
        assert bottom == 0 and high < top < 1.3 * high + 0.02, pol
        assert [t.get_text() for t in ax.get_xticklabels()] == [f"T{i}" for i in range(1, 7)]


def test_metric_curve_plot():
    df = pd.DataFrame({"x": [1, 2, 3] * 2, "estimate": [.5, .55, .6, .5, .45, .4],
                       "low": [.45, .5, .55, .45, .4, .35], "high": [.55, .6, .65, .55, .5, .45],
                       "seat": [0] * 3 + [1] * 3})
    fig = plots.metric_curve_plot(df, "x", hue="seat", reference=0.5, percent=True)
    ax = fig.axes[0]
    assert len(ax.collections) == 2  # one band per seat
    assert any(l.get_linestyle() == "--" for l in ax.lines)


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
