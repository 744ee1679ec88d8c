"""Component data, rule tables and layout constants of the Flower Shop."""
import shutil

import numpy as np
import pytest

from sim import components as C
from sim.games.flower_shop import layout as L
from sim.games.flower_shop import rules as R
from sim.spec import SpecError

from .kernel_helpers import SPEC, TB

DATA = R.COMPONENTS_DIR


def test_every_spec_rule_id_has_a_status():
    """RULES lists every rule ID of shared/rules/flower_shop.md, and nothing else."""
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[3] / "shared" / "rules" / "flower_shop.md").read_text()
    ids = set(re.findall(r"\*\*(FS-[A-Z0-9-]+)\*\*", text))
    ids |= set(re.findall(r"FS-V-[A-Z]+-\d", text))
    ids |= {"FS-V-EASY-2", "FS-V-HARD-3", "FS-V-VHARD-2", "FS-V-HELL-2", "FS-V-HELL-3",
            "FS-U1", "FS-U3", "FS-U4", "FS-U5", "FS-U6", "FS-U7"}
    have = {r.rule_id for r in R.RULES}
    assert ids <= have, ids - have
    assert have <= ids, have - ids


def test_default_components_match_spec():
    """§2.7 / §2.8 facts of the default data: 32 tiles, 109 flowers, T01 = 3 lilies, yellow,
    5 stars; 6 cards; uniform dice; the snake initiative dice."""
    comp = R.load_components()
    tiles, tasks, conflicts, fd, vd, init = comp.arrays
    assert tiles.shape == (32, L.TL_W) and tiles[:, L.TL_FLOWERS].sum() == 109
    assert list(tiles[0, :6]) == [0, 3, 0, 0, 0, 0]
    assert tiles[0, L.TL_VASE] == 0 and tiles[0, L.TL_STARS] == 5
    assert tasks.shape == (6, 6) and conflicts.shape == (6, 6)
    assert list(fd) == [0, 1, 2, 3, 4, 5] and list(vd) == [0, 1, 2, 3, 4, 5]
    assert sorted(init.ravel()) == list(range(1, 25)) and (init.sum(axis=1) == 75).all()
    assert comp.assumed and len(comp.digest) == 16
    assert TB["tile_ids"][0] == "T01" and TB["task_ids"][0] == "T1"


def _copy(tmp_path):
    d = tmp_path / "comp"
    shutil.copytree(DATA, d)
    return d


def _edit(path, old, new):
    path.write_text(path.read_text().replace(old, new, 1))


@pytest.mark.parametrize("fname,old,new,needles", [
    ("tiles.csv", "T02,3,0,0,0,0,0,0,blue", "T02,3,0,0,0,0,0,0,bleu", ("tiles.csv", "row 2", "'vase'", "bleu")),
    ("tiles.csv", "T03,0,0,2,1", "T03,0,0,x,1", ("tiles.csv", "row 3", "'sunflower'")),
    ("tiles.csv", "T04,0,0,0,2,1,0,0,pink,candle,5,A,A-06", "T04,0,0,0,2,1,0,0,pink,candle,5,A,",
     ("tiles.csv", "row 4", "'assumption_id'")),
    ("tiles.csv", "tile_id,rose,", "tile_id,rosa,", ("tiles.csv", "missing column", "rose")),
    ("tasks.csv", "T2,DIFF_VASE", "T2,DIFF_VASES", ("tasks.csv", "row 2", "'row_condition'")),
    ("tasks.csv", "T1,SUM_FLOWERS_EQ,10,2", "T1,SUM_FLOWERS_EQ,1.5,2", ("tasks.csv", "row 1", "'row_param'")),
    ("components.toml", 'flower_die_faces = ["rose", "lily", "sunflower", "tulip"',
     'flower_die_faces = ["rose", "lily", "sunflower", "tulpe"',
     ("components.toml", "flower_die_faces", "item 4", "tulpe")),
    ("components.toml", "I-B = [2, 7, 10, 15, 18, 23]", "I-B = [2, 7, 10, 15, 18]",
     ("components.toml", "I-B")),
])
def test_malformed_components_raise_specerror(tmp_path, fname, old, new, needles):
    """Malformed data raises SpecError naming the file, the row and the column."""
    d = _copy(tmp_path)
    _edit(d / fname, old, new)
    assert (d / fname).read_text() != (DATA / fname).read_text()
    with pytest.raises(SpecError) as e:
        R.load_components(d)
    for n in needles:
        assert n in str(e.value), (n, str(e.value))


def test_component_copy_and_digest(tmp_path):
    """A copied folder loads identically; editing a datum changes the digest and the arrays."""
    d = _copy(tmp_path)
    a, b = R.load_components(DATA), R.load_components(d)
    assert a.digest == b.digest
    _edit(d / "tiles.csv", "T01,0,3,0,0,0,0,0,yellow,cup,5", "T01,0,3,0,0,0,0,0,yellow,cup,6")
    c = R.load_components(d)
    assert c.digest != a.digest and c.arrays[0][0, 11] == 6
    with pytest.raises(SpecError, match="does not exist"):
        R.load_components(tmp_path / "nope")


def test_read_csv_generic_errors(tmp_path):
    """sim.components.read_csv: missing file, missing column, bad provenance, duplicates."""
    p = tmp_path / "x.csv"
    with pytest.raises(SpecError, match="missing"):
        C.read_csv(p, {"a": C.cell_int()})
    p.write_text("a,provenance\n1,R\n1,Q\n")
    with pytest.raises(SpecError, match=r"x.csv: row 2, column 'provenance'"):
        C.read_csv(p, {"a": C.cell_int()})
    p.write_text("a,provenance\n1,R\n1,D\n")
    with pytest.raises(SpecError, match="duplicate"):
        C.read_csv(p, {"a": C.cell_int()}, unique="a")
    rows = C.read_csv(p, {"a": C.cell_int(0, 5)})
    assert [r["a"] for r in rows] == [1, 1]


def test_variants_and_validation():
    """Variants: base for 2-4 players, solo presets for 1; cross-parameter validation."""
    assert SPEC.default_variant(1) == "solo_base" and SPEC.default_variant(3) == "base"
    v = SPEC.rule_values(1, "solo_very_hard")
    assert v["extra_lock_cost_schedule"] == (1, 2, 3, 4)
    assert SPEC.rule_values(1, "solo_hell")["solo_require_compatible_tasks"] is True
    with pytest.raises(SpecError):
        SPEC.rule_values(2, "solo_easy")
    with pytest.raises(SpecError, match="min_locks"):
        SPEC.rule_values(2, None, {"min_locks": 3})
    with pytest.raises(SpecError, match="days"):
        SPEC.rule_values(2, None, {"days": 7})
    with pytest.raises(SpecError, match="tiles"):
        SPEC.rule_values(4, None, {"row_size_offset": 3, "shop_cols": 4, "days": 7})
    with pytest.raises(SpecError, match="opponent"):
        SPEC.rule_values(1, None, {"solo_opponent_die": "I-D"})
    assert SPEC.rule_values(4, None, {"tiebreak_order": "money+ribbons"})["tiebreak_order"] == "money+ribbons"


def test_state_layout_fits():
    """The fixed state layout holds the largest supported configuration."""
    assert L.S_STACK + L.MAX_TILES <= L.S_DISCARD and L.S_DISCARD + L.MAX_TILES <= L.S_LEN
    assert L.F_FACE + L.MAX_DICE <= L.F_SHOP and L.F_FDAY + L.MAX_SLOTS <= L.SEAT_LEN
    assert L.MAX_TILES == L.MAX_TILES and L.MAX_ROW == L.MAX_ROW
    assert np.int64(L.S_ROW + L.MAX_ROW) <= L.S_STACK_POS
