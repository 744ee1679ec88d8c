"""Simulation core: counter-based RNG, game specs, the registry and the batch runner.

Each game lives in ``sim/games/<game>/`` and exports ``SPEC`` (a :class:`sim.spec.GameSpec`).
"""
