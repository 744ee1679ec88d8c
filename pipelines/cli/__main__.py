"""``python -m pipelines.cli`` = ``playtest`` (as is ``python -m pipelines``)."""
from . import main

main()
