-- Mart: win rate (mean win_share) by experiment / arm / player count / seat, with counts.
-- wins = games won outright or shared; win_share_sum = sum of 1/n_winners over won games.
CREATE OR REPLACE VIEW seat_win_rates AS
SELECT experiment,
       arm,
       game,
       n_players,
       seat,
       string_agg(DISTINCT policy, ', ' ORDER BY policy) AS policy,
       count(*) AS n_games,
       sum(CASE WHEN won THEN 1 ELSE 0 END) AS wins,
       sum(win_share) AS win_share_sum,
       avg(win_share) AS win_rate,
       1.0 / n_players AS fair_share
FROM stg_seats
GROUP BY experiment, arm, game, n_players, seat;
