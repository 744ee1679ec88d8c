"""``python -m pipelines`` = ``playtest``."""
from .cli import main

main()
