"""Invariants of finished Cupcake Empire games (placeholder; completed below)."""


def audit(arm, master_seed, first_index, games, seats):
    """Violated invariants of a batch (empty when all hold)."""
    return []
