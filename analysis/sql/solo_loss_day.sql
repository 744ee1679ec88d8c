-- requires: games.loss_day
-- Mart: day on which solo games ended (loss_day; the game's solo_difficulty.end_day means played
-- to the end, won or lost).
CREATE OR REPLACE VIEW solo_loss_day AS
SELECT experiment,
       arm,
       game,
       variant,
       policy,
       loss_day,
       count(*) AS n_games,
       sum(CASE WHEN won THEN 1 ELSE 0 END) AS wins,
       count(*) / sum(count(*)) OVER (PARTITION BY experiment, arm, variant, policy) AS share
FROM solo_games
GROUP BY experiment, arm, game, variant, policy, loss_day;
