"""The benchmark script runs (tiny counts, fake game)."""
import sys

import pytest
from pipe_helpers import HERE
from pipelines import bench

FAKECLI = [sys.executable, str(HERE / "fakecli.py")]
PRELUDE = f"import sys; sys.path[:0] = [{str(HERE)!r}, {str(HERE.parents[1])!r}]; import fakegame; fakegame.install()"


def test_bench_in_process_table(capsys, tmp_path):
    out = tmp_path / "b.json"
    assert bench.main(["--game", "fakedice", "--players", "2", "--quick", "--games", "2000",
                       "--repeats", "2", "--skip-subprocess", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "fakedice" in text and "end-to-end" in text
    assert out.is_file()


@pytest.mark.slow
def test_bench_subprocess_measurements():
    assert bench.per_game_seconds("fakedice", 2, 5, True, PRELUDE) > 0
    assert bench.peak_memory_mb("fakedice", 2, 1000, FAKECLI) > 10
    assert bench.start_seconds("fakedice", 2, FAKECLI) > 0


def test_bench_unknown_game(capsys):
    assert bench.main(["--game", "nogame", "--skip-subprocess"]) == 2
    assert "unknown game" in capsys.readouterr().out


def test_peak_memory_is_the_child_own_not_the_bench_process():
    """A child spawned straight from a process that holds 400 MB reports that 400 MB as its
    own peak on Linux (vfork + exec keeps the parent's high-water mark); the bench measures
    through a small helper process, so a small command still reads small."""
    ballast = bytearray(400 << 20)
    ballast[::4096] = b"\x01" * len(range(0, len(ballast), 4096))
    small = bench.child_peak_rss_mb([sys.executable, "-c", "pass"])
    fill = "b = bytearray(200 << 20); b[::4096] = b'1' * (len(b) // 4096)"
    big = bench.child_peak_rss_mb([sys.executable, "-c", fill])
    del ballast
    assert small < 100
    assert 200 < big < 400


def test_bench_profile_table(capsys):
    """make profile: the rules, setting up, the rules by decision point (the steps to it and
    applying it) and each decision point the games met, per game."""
    import numba
    threads = numba.get_num_threads()
    assert bench.main(["--profile", "--game", "rattlebones", "--players", "2", "--games", "50",
                       "--repeats", "1"]) == 0
    assert numba.get_num_threads() == threads         # profiled on one thread, then restored
    text = capsys.readouterr().out
    assert "rattlebones, 2 players" in text and "(replayed choices)" in text
    assert "setting up" in text and "D02 which dice" in text
    assert "steps to D02 which dice" in text and "applying D02 which dice" in text
    assert "the game's end" in text
