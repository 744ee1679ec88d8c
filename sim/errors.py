"""The one error of bad user input (re-exported by :mod:`sim.spec`): a module of its own so
that modules below ``sim.spec`` (``sim.presets``) raise it without importing ``sim.spec``."""


class SpecError(ValueError):
    """Bad user input about a game: unknown name, value out of range, malformed data."""
