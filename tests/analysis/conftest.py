"""Fixtures of the analysis tests: small synthetic stores (see analysis_synth.py)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest

from analysis_synth import arm_manifest, make_multiplayer_arm, write_arm, write_manifest


@pytest.fixture
def tiny_store(tmp_path) -> Path:
    """Hand-countable 2-arm multiplayer store.

    Arm ``p2`` (2 players, 6 games): winners 0,0,1,0,tie(0,1),none -> seat 0 wins 4 games with
    win-share sum 3.5, seat 1 wins 2 with 1.5. Arm ``p3`` (3 players, 3 games): 0, 1, 2.
    """
    store = tmp_path / "store"
    g, s = make_multiplayer_arm(
        "tiny", "p2", 2, [[0], [0], [1], [0], [0, 1], []],
        scores=[[5, 3], [6, 1], [2, 7], [9, 0], [4, 4], [1, 1]],
        rounds=[3, 4, 5, 6, 7, 200], truncated=[False] * 5 + [True],
        end_reason=["target_score"] * 5 + ["max_rounds"],
    )
    write_arm(store, "tiny", "p2", "rattlebones", g, s, chunk_size=4)
    g, s = make_multiplayer_arm("tiny", "p3", 3, [[0], [1], [2]], rounds=[8, 8, 11],
                                policies=["greedy", "random", "greedy"])
    write_arm(store, "tiny", "p3", "rattlebones", g, s)
    write_manifest(store, "tiny", [
        arm_manifest("p2", "rattlebones", 2),
        arm_manifest("p3", "rattlebones", 3, policies=["greedy", "random", "greedy"],
                     tweaks={"target": 25}, rule_values={"target": 25}),
    ], master_seed=7, n_games=6)
    return store
