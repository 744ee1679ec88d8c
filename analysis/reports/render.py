"""From a report context to a self-contained HTML file: figures embedded as data URIs, the Jinja
templates of ``analysis/templates``, a CSV download link under every table, an atomic write."""
from __future__ import annotations

import base64
import csv
import functools
import html as html_lib
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import jinja2

__all__ = ["figure_to_data_uri", "with_csv_links", "render", "render_report", "write_html",
           "safe_name"]


def figure_to_data_uri(fig, dpi: int = 100) -> str:
    """Render a matplotlib figure to a ``data:image/png;base64,...`` URI (for ``<img src>``)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    if getattr(fig.canvas, "manager", None) is not None:  # a pyplot figure: release it
        import matplotlib.pyplot as plt

        plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


class _TableText(HTMLParser):
    """The rows of cell texts of one HTML table."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self.rows:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


_TABLE = re.compile(r"<table[\s>].*?</table>", re.S)
_HEADING = re.compile(r"<h[23][^>]*>(.*?)</h[23]>", re.S)


def with_csv_links(html: str) -> str:
    """Every table of a report followed by a link that downloads it as CSV (a ``data:`` URI,
    so the report stays one self-contained file without scripts)."""
    parts, last = [], 0
    for k, m in enumerate(_TABLE.finditer(html), 1):
        parser = _TableText()
        parser.feed(m.group(0))
        rows = [r for r in parser.rows if r]
        if not rows:
            continue
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        headings = _HEADING.findall(html, 0, m.start())
        title = html_lib.unescape(re.sub(r"<[^>]+>", "", headings[-1])) if headings else "table"
        name = f"{k:02d}-{re.sub(r'[^A-Za-z0-9]+', '_', title).strip('_').lower()[:40]}.csv"
        data = base64.b64encode(buf.getvalue().encode("utf-8")).decode("ascii")
        parts += [html[last:m.end()],
                  f'\n<p class="csv"><a download="{name}" href="data:text/csv;base64,{data}">'
                  f"download this table (CSV)</a></p>"]
        last = m.end()
    return "".join(parts) + html[last:]


def write_html(out_dir, name: str, html: str) -> Path:
    """Write ``html`` (with its CSV links) to ``<out_dir>/<name>`` under a temporary name,
    renamed when complete; return the path."""
    html = with_csv_links(html)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(html, encoding="utf-8")
    tmp.replace(path)
    return path


@functools.lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("analysis", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, context: dict) -> str:
    """The HTML of ``template`` (a file of ``analysis/templates``) filled with ``context``."""
    return _env().get_template(template).render(**context)


def render_report(context: dict) -> str:
    """Render the HTML of an experiment report's context
    (:func:`analysis.reports.build_context`)."""
    return render("report.html.j2", context)


def safe_name(name: str) -> str:
    """``name`` as a file name (characters other than letters, digits and ``._=+-`` become
    ``_``)."""
    return re.sub(r"[^A-Za-z0-9._=+-]+", "_", name).strip("._") or "experiment"
