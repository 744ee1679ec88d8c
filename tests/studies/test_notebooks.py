"""The notebooks run top to bottom on a fresh store with tiny game counts (nbclient)."""
import json
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.slow

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NAMES = ["01_win_rates.ipynb", "02_first_player_advantage.ipynb", "03_solo_difficulty.ipynb",
         "04_rule_tweaks.ipynb", "05_how_the_game_plays.ipynb"]


def test_all_notebooks_present():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == NAMES


@pytest.fixture(scope="module")
def nb_store(tmp_path_factory, flower_compare):
    """One empty store shared by the notebooks (``flower_compare`` compiles the kernel first,
    so the notebook kernels load it from the numba cache)."""
    return tmp_path_factory.mktemp("nb") / "store"


# Run in the kernel after the setup cell: every figure the notebook displays goes through
# analysis.figcheck on its way to the PNG, and its text (titles, axis labels, legends) is kept.
CHECK = """
from IPython import get_ipython as _gi
from matplotlib.figure import Figure as _Figure
from analysis import figcheck as _figcheck
_CHARTS = []
_png = _gi().display_formatter.formatters["image/png"]
_to_png = _png.lookup_by_type(_Figure)
def _checked(fig, *a, **k):
    texts = [t.get_text() for ax in fig.axes for t in
             [ax.title, ax.xaxis.label, ax.yaxis.label] + ax.get_xticklabels()
             + ax.get_yticklabels() + (ax.get_legend().get_texts() if ax.get_legend() else [])]
    _CHARTS.append({"defects": _figcheck.defects(fig), "texts": texts})
    return _to_png(fig, *a, **k)
_png.for_type(_Figure, _checked)
"""
REPORT = "import json as _json; print('CHARTS=' + _json.dumps(_CHARTS))"


@pytest.mark.parametrize("name", NAMES)
def test_notebook_executes(name, nb_store, monkeypatch, tmp_path):
    """Each notebook runs; plays greedy and the expert; says what the bot caveat means for
    its charts; every chart it draws is clean (analysis.figcheck: no duplicate ticks, no empty
    legend, no overlapping text, whole-number ticks, distinct policy colours), none is by seat
    in the Flower Shop (its seats are symmetric by construction); no warning on stderr and no
    six-decimal floats in its tables."""
    monkeypatch.setenv("PLAYTEST_STORE", str(nb_store))
    monkeypatch.setenv("PLAYTEST_NOTEBOOK_GAMES", "120")
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    markdown = " ".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "bot caveat" in markdown.lower() and "expert" in markdown
    assert "EXPERT" in " ".join(c.source for c in nb.cells if c.cell_type == "code")
    setup = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    nb.cells.insert(setup + 1, nbformat.v4.new_code_cell(CHECK))
    nb.cells.append(nbformat.v4.new_code_cell(REPORT))
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [o for o in outputs if o.get("output_type") == "error"]
    assert not errors
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert images, "every notebook draws at least one chart"
    charts = json.loads(nb.cells[-1].outputs[0]["text"].split("CHARTS=", 1)[1])
    assert len(charts) == len(images)
    assert [c["defects"] for c in charts if c["defects"]] == []
    labels = " ".join(t for c in charts for t in c["texts"]).lower()
    assert not re.search(r"\bseats? \d|\bby seat|\(0 = start player\)", labels), labels
    # (the Flower Shop: charts by initiative die)
    stderr = "".join(o.get("text", "") for o in outputs if o.get("name") == "stderr")
    assert "Warning" not in stderr, stderr
    plain = " ".join(o.get("text", "") + o.get("data", {}).get("text/plain", "")
                     for o in outputs)
    assert not re.search(r"\d\.\d{5,}", plain), re.findall(r"\S*\d\.\d{5,}\S*", plain)[:5]
