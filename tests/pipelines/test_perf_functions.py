"""``pipelines.perf_functions``: naming and charging the sampled addresses, and its errors."""
from pipelines import perf_functions as PF

SLOT = ("_ZN3sim5games12waggle_dance8policies9_slot_nowB4v189B52c8tJTIeFIjxB2IKSgI4CrvQClUa"
        "PLCRh1KiFSRRBdGoCAA_3d_3dE5ArrayIxLi1E1C7mutable7alignedE")


def test_demangle_numba_symbols():
    assert PF.demangle(SLOT) == "sim.games.waggle_dance.policies._slot_now"
    assert PF.demangle("_ZN7cpython3sim5games12waggle_dance6kernel9play_manyB2v1E5Array") \
        == "sim.games.waggle_dance.kernel.play_many (wrapper)"
    assert PF.demangle("cfunc._ZN3sim3rng4drawB2v1E") == "sim.rng.draw"
    assert PF.demangle("NRT_incref.private") == "NRT_incref.private"


def test_charge_by_function_ranges():
    """A function runs from its start to the next one's; the last for ``last_size`` bytes."""
    functions = [(2000, "b"), (1000, "a"), (3000, "c")]
    samples = [999, 1000, 1500, 1999, 2000, 2999, 3000, 3099, 3100, 5000]
    counts, outside = PF.charge(functions, samples, last_size=100)
    assert counts == {"a": 3, "b": 2, "c": 2}
    assert outside == 3                      # 999 before a; 3100 and 5000 past c's 100 bytes


def test_bad_input_exits_2(capsys, monkeypatch):
    assert PF.main(["--game", "chess"]) == 2
    assert "waggle_dance" in capsys.readouterr().err       # the valid names are listed
    assert PF.main(["--game", "waggle_dance", "--players", "9"]) == 2
    assert "2-4 players" in capsys.readouterr().err
    monkeypatch.setattr(PF.shutil, "which", lambda name: None)
    assert PF.main(["--game", "waggle_dance"]) == 2
    assert "perf" in capsys.readouterr().err
