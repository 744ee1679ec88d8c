-- Mart: score distribution summary by experiment / arm / seat.
CREATE OR REPLACE VIEW score_summary AS
SELECT experiment,
       arm,
       game,
       n_players,
       seat,
       string_agg(DISTINCT policy, ', ' ORDER BY policy) AS policy,
       count(*) AS n_games,
       avg(score) AS mean_score,
       stddev_samp(score) AS sd_score,
       min(score) AS min_score,
       quantile_cont(score, 0.25) AS q25_score,
       quantile_cont(score, 0.5) AS median_score,
       quantile_cont(score, 0.75) AS q75_score,
       max(score) AS max_score
FROM stg_seats
GROUP BY experiment, arm, game, n_players, seat;
