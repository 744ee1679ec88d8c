-- Mart: game-length frequencies by experiment / arm.
CREATE OR REPLACE VIEW rounds_histogram AS
SELECT experiment, arm, n_players, rounds, count(*) AS n
FROM stg_games
GROUP BY experiment, arm, n_players, rounds;
