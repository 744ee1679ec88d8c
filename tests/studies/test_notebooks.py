"""The notebooks run top to bottom on a fresh store with tiny game counts (nbclient)."""
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


@pytest.mark.parametrize("name", NAMES)
def test_notebook_executes(name, nb_store, monkeypatch, tmp_path):
    monkeypatch.setenv("PLAYTEST_STORE", str(nb_store))
    monkeypatch.setenv("PLAYTEST_NOTEBOOK_GAMES", "120")
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert images, "every notebook draws at least one chart"
