-- Mart: solo difficulty ladder, win probability per experiment / arm (variant) / policy (skill).
CREATE OR REPLACE VIEW solo_ladder AS
SELECT s.experiment,
       s.arm,
       s.game,
       coalesce(a.variant, s.arm) AS variant,
       s.policy,
       count(*) AS n_games,
       sum(CASE WHEN s.won THEN 1 ELSE 0 END) AS wins,
       avg(CASE WHEN s.won THEN 1.0 ELSE 0.0 END) AS win_rate
FROM stg_seats AS s
LEFT JOIN stg_arms AS a ON a.experiment = s.experiment AND a.arm = s.arm
WHERE s.n_players = 1
GROUP BY s.experiment, s.arm, s.game, coalesce(a.variant, s.arm), s.policy;
