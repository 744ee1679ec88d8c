-- Mart: score frequencies by experiment / arm / seat (for distribution charts of any size).
CREATE OR REPLACE VIEW score_histogram AS
SELECT experiment, arm, n_players, seat, score, count(*) AS n
FROM stg_seats
GROUP BY experiment, arm, n_players, seat, score;
