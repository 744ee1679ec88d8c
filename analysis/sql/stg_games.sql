-- Staging: one row per simulated game, common columns normalised; game-specific columns pass through.
CREATE OR REPLACE VIEW stg_games AS
SELECT * REPLACE (
    CAST(experiment AS VARCHAR) AS experiment,
    CAST(arm AS VARCHAR) AS arm,
    CAST(game AS VARCHAR) AS game,
    CAST(n_players AS BIGINT) AS n_players,
    CAST(game_index AS BIGINT) AS game_index,
    CAST(rounds AS BIGINT) AS rounds,
    CAST(truncated AS BOOLEAN) AS truncated,
    CAST(n_winners AS BIGINT) AS n_winners,
    CAST(winner_seat AS BIGINT) AS winner_seat,
    CAST(end_reason AS VARCHAR) AS end_reason
)
FROM games;
