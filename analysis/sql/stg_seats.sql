-- Staging: one row per game x seat; seat 0 = start player.
CREATE OR REPLACE VIEW stg_seats AS
SELECT * REPLACE (
    CAST(experiment AS VARCHAR) AS experiment,
    CAST(arm AS VARCHAR) AS arm,
    CAST(game AS VARCHAR) AS game,
    CAST(n_players AS BIGINT) AS n_players,
    CAST(game_index AS BIGINT) AS game_index,
    CAST(seat AS BIGINT) AS seat,
    CAST(policy AS VARCHAR) AS policy,
    CAST(won AS BOOLEAN) AS won,
    CAST(win_share AS DOUBLE) AS win_share
)
FROM seats;
