-- Staging for solo marts: one row per solo game with its variant, policy and outcome.
CREATE OR REPLACE VIEW solo_games AS
SELECT g.* REPLACE (coalesce(g.variant, a.variant, g.arm) AS variant),
       s.policy,
       s.won
FROM stg_games AS g
JOIN stg_seats AS s
  ON s.experiment = g.experiment AND s.arm = g.arm AND s.game_index = g.game_index AND s.seat = 0
LEFT JOIN stg_arms AS a ON a.experiment = g.experiment AND a.arm = g.arm
WHERE g.n_players = 1;
