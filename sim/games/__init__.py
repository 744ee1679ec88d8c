"""One package per game: rules.py, components/, kernel.py, policies.py, __init__.py (SPEC)."""
