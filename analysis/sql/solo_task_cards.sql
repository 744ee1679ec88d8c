-- requires: games.task_card, games.task_card_2
-- Mart: solo win probability per task card. A game with two cards counts once for each card;
-- card ids are as stored (task_card_2 < 0 = no second card).
CREATE OR REPLACE VIEW solo_task_cards AS
WITH cards AS (
    SELECT experiment, arm, game, variant, policy, won, task_card AS card FROM solo_games
    WHERE task_card >= 0
    UNION ALL
    SELECT experiment, arm, game, variant, policy, won, task_card_2 AS card FROM solo_games
    WHERE task_card_2 >= 0
)
SELECT experiment,
       arm,
       game,
       variant,
       policy,
       card,
       count(*) AS n_games,
       sum(CASE WHEN won THEN 1 ELSE 0 END) AS wins,
       avg(CASE WHEN won THEN 1.0 ELSE 0.0 END) AS win_rate
FROM cards
GROUP BY experiment, arm, game, variant, policy, card;
