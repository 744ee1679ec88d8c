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
    assert len(fig.axes[0].lines) == 1


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


def test_metric_curve_plot():
    df = pd.DataFrame({"x": [1, 2, 3] * 2, "estimate": [.5, .55, .6, .5, .45, .4],
                       "low": [.45, .5, .55, .45, .4, .35], "high": [.55, .6, .65, .55, .5, .45],
                       "seat": [0] * 3 + [1] * 3})
    fig = plots.metric_curve_plot(df, "x", hue="seat", reference=0.5, percent=True)
    ax = fig.axes[0]
    assert len(ax.collections) == 2  # one band per seat
    assert any(l.get_linestyle() == "--" for l in ax.lines)
