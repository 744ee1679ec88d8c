"""analysis.db.arm_fingerprints: arms that played identical games are recognised, others not."""
import duckdb

from analysis import db

COLS = "experiment, arm, master_seed, game_index, seat, won, score, money, tokens, tiles_finished, " \
       "lock_payments, lock_steps, skips"


def _con(rows):
    con = duckdb.connect()
    con.execute("CREATE TABLE seats (experiment VARCHAR, arm VARCHAR, master_seed BIGINT, "
                "game_index BIGINT, seat BIGINT, won BIGINT, score BIGINT, money BIGINT, tokens BIGINT, "
                "tiles_finished BIGINT, lock_payments BIGINT, lock_steps BIGINT, skips BIGINT)")
    con.executemany(f"INSERT INTO seats ({COLS}) VALUES ({', '.join('?' * 13)})", rows)
    return con


def test_identical_arms_share_a_fingerprint_and_one_changed_value_breaks_it():
    games = [(1, i, 0, i % 2, 10 + i, 3, 1, 6, 0, 4, 0) for i in range(50)]
    rows = [("e", "base", *g) for g in games] + [("e", "vhard", *g) for g in reversed(games)]
    changed = list(games)
    changed[7] = changed[7][:8] + (1,) + changed[7][9:]          # one game paid $1 for a lock
    rows += [("e", "other", *g) for g in changed]
    fp = db.arm_fingerprints(_con(rows), "e", ["base", "vhard", "other"])
    assert fp["base"] == fp["vhard"]
    assert fp["other"][0] == 50 and fp["other"] != fp["base"]
    assert db.arm_fingerprints(_con(rows), "e", []) == {}
