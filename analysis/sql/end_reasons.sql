-- Mart: how games ended, by experiment / arm.
CREATE OR REPLACE VIEW end_reasons AS
SELECT experiment,
       arm,
       game,
       n_players,
       end_reason,
       count(*) AS n_games,
       count(*) / sum(count(*)) OVER (PARTITION BY experiment, arm) AS share
FROM stg_games
GROUP BY experiment, arm, game, n_players, end_reason;
