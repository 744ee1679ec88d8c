"""Component CSV reading (sim.components.read_csv): comment lines, whatever a spreadsheet made of
them, are never taken for the header or a data row."""
import pytest

from sim.components import cell_int, cell_str, read_csv
from sim.spec import SpecError

HEADER = "value,name,provenance\n"


@pytest.mark.parametrize("comment", [
    "# faces of the die, one per row\n",
    '"# faces of the die, one per row"\n',  # a spreadsheet quotes a cell with a comma
    '"# faces of the die, one per row",,\n',  # ... and pads the row to the header's width
    '  # indented\n',
])
def test_comment_lines_before_and_between_rows(tmp_path, comment):
    p = tmp_path / "f.csv"
    p.write_text(comment + HEADER + comment + "1,a,R\n" + comment + "2,b,R\n")
    rows = read_csv(p, {"value": cell_int(), "name": cell_str()})
    assert [(r["value"], r["name"], r["_row"]) for r in rows] == [(1, "a", 1), (2, "b", 2)]


def test_an_error_names_the_header_not_a_comment(tmp_path):
    p = tmp_path / "f.csv"
    p.write_text('"# the faces, one per row"\nvalue,provenance\n1,R\n')
    with pytest.raises(SpecError) as e:
        read_csv(p, {"value": cell_int(), "name": cell_str()})
    assert "missing column(s) 'name'" in str(e.value) and "header has: value, provenance" in str(e.value)
    assert "#" not in str(e.value)


def test_a_quoted_cell_may_span_lines(tmp_path):
    p = tmp_path / "f.csv"
    p.write_text(HEADER + '1,"two\nlines",R\n')
    assert read_csv(p, {"value": cell_int(), "name": cell_str()})[0]["name"] == "two\nlines"
