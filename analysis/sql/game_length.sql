-- Mart: game length (rounds), truncation, ties and no-winner games by experiment / arm.
CREATE OR REPLACE VIEW game_length AS
SELECT experiment,
       arm,
       game,
       n_players,
       count(*) AS n_games,
       avg(rounds) AS mean_rounds,
       stddev_samp(rounds) AS sd_rounds,
       min(rounds) AS min_rounds,
       quantile_cont(rounds, 0.5) AS median_rounds,
       max(rounds) AS max_rounds,
       sum(CASE WHEN truncated THEN 1 ELSE 0 END) AS n_truncated,
       sum(CASE WHEN n_winners > 1 THEN 1 ELSE 0 END) AS n_tied,
       sum(CASE WHEN n_winners = 0 THEN 1 ELSE 0 END) AS n_no_winner
FROM stg_games
GROUP BY experiment, arm, game, n_players;
