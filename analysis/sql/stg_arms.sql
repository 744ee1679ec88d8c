-- Staging: one row per experiment x arm, from the manifests (missing keys -> NULL).
CREATE OR REPLACE VIEW stg_arms AS
WITH a AS (
    SELECT name AS experiment,
           unnest(json_extract(manifest, '$.arms[*]')) AS arm_json,
           unnest(range(CAST(coalesce(json_array_length(manifest, '$.arms'), 0) AS BIGINT))) AS arm_index
    FROM experiments
)
SELECT experiment,
       arm_index,
       arm_json ->> 'name' AS arm,
       arm_json ->> 'game' AS game,
       TRY_CAST(arm_json ->> 'n_players' AS BIGINT) AS n_players,
       arm_json ->> 'variant' AS variant,
       arm_json -> 'policies' AS policies,
       arm_json -> 'rule_values' AS rule_values,
       arm_json -> 'tweaks' AS tweaks,
       TRY_CAST(arm_json -> 'components' ->> 'assumed' AS BOOLEAN) AS components_assumed,
       arm_json -> 'components' ->> 'dir' AS components_dir,
       arm_json -> 'components' ->> 'digest' AS components_digest,
       arm_json ->> 'game_version' AS game_version,
       TRY_CAST(arm_json ->> 'n_games' AS BIGINT) AS n_games_requested
FROM a;
