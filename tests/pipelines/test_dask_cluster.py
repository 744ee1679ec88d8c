"""``playtest run --executor dask --scheduler ADDRESS`` on a real multi-process Dask cluster on
localhost, with one worker killed mid-run: the store is identical to a local run (issue 18).

A real game (its kernel is cached, so the worker processes load it instead of compiling); the
fake game lives only in the test process and cannot reach separate worker processes.
"""
import os
import signal
import time

import pytest

from pipe_helpers import content
from pipelines import experiment as ex, runner

pytestmark = pytest.mark.slow

distributed = pytest.importorskip("distributed")

GAMES, CHUNK = 2400, 200


def test_real_cluster_with_a_worker_killed_mid_run_matches_a_local_run(tmp_path):
    exp = ex.from_cli("rattlebones", players="2", games=GAMES, seed=4, chunk_size=CHUNK)
    t0 = time.perf_counter()
    runner.run(exp, tmp_path / "local", workers=1, quiet=True)
    local_s = time.perf_counter() - t0

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        pids = [w.process.pid for w in cluster.workers.values()]
        killed = []

        def kill_one(arm, chunk):
            if not killed:  # after the first finished chunk, a worker dies
                os.kill(pids[0], signal.SIGKILL)
                killed.append(chunk)

        t0 = time.perf_counter()
        res = runner.run(exp, tmp_path / "dask", executor="dask", scheduler=cluster.scheduler_address,
                         quiet=True, after_chunk=kill_one)
        dask_s = time.perf_counter() - t0
    assert killed and res.simulated == GAMES and res.executor == "dask"
    print(f"\n{GAMES} rattlebones 2p games in {GAMES // CHUNK} chunks: local executor (1 thread) "
          f"{local_s:.1f} s, dask (2 worker processes, one killed) {dask_s:.1f} s")
    for table in ("games", "seats"):
        assert content(tmp_path / "dask", table).equals(content(tmp_path / "local", table))
