"""Helpers of the study tests (a module with a unique name, so any test order imports it)."""
from pathlib import Path

from pipe_helpers import listing  # noqa: F401  (tests/pipelines is on sys.path, see conftest)


def html_text(path: Path) -> str:
    """Visible text of a report (tags, styles and embedded images removed)."""
    import html
    import re

    s = Path(path).read_text(encoding="utf-8")
    s = re.sub(r"<(style|script)>.*?</\1>", " ", s, flags=re.S)
    s = re.sub(r"<[^>]+>", " ", s)
    return re.sub(r"\s+", " ", html.unescape(s))
