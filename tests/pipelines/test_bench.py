"""The benchmark script runs (tiny counts, fake game)."""
import sys

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


def test_bench_subprocess_measurements():
    assert bench.per_game_seconds("fakedice", 2, 5, True, PRELUDE) > 0
    assert bench.peak_memory_mb("fakedice", 2, 1000, FAKECLI) > 10
    assert bench.start_seconds("fakedice", 2, FAKECLI) > 0


def test_bench_unknown_game(capsys):
    assert bench.main(["--game", "nogame", "--skip-subprocess"]) == 2
    assert "unknown game" in capsys.readouterr().out
