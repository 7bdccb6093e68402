-- The `ai` timeout policy: when a decider's time runs out, the AI plays their seat until
-- they are back. The policy was offered but the CHECK of migration 0004 refused it.
-- SQLite can't change a CHECK in place: `matches` is rebuilt as in 0004 (foreign keys
-- are off while a migration runs and every reference is checked before it commits).

CREATE TABLE matches_rebuilt (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    game             TEXT    NOT NULL,
    variant          TEXT    NOT NULL,
    pack             TEXT    NOT NULL DEFAULT 'bundled',
    seed             INTEGER NOT NULL,
    rules_version    TEXT    NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    snapshot         TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    board_message_id INTEGER,
    created_by       INTEGER NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    seed_chosen      INTEGER NOT NULL DEFAULT 0,
    clock_seconds    INTEGER NOT NULL DEFAULT 86400        -- per decision, 5 min to 14 days
                     CHECK (clock_seconds BETWEEN 300 AND 1209600),
    timeout_policy   TEXT    NOT NULL DEFAULT 'skip'
                     CHECK (timeout_policy IN ('skip', 'abandon', 'ai'))
);

INSERT INTO matches_rebuilt (
    id, guild_id, channel_id, game, variant, pack, seed, rules_version, status, snapshot,
    version, board_message_id, created_by, options, created_at, updated_at, seed_chosen,
    clock_seconds, timeout_policy
)
SELECT
    id, guild_id, channel_id, game, variant, pack, seed, rules_version, status, snapshot,
    version, board_message_id, created_by, options, created_at, updated_at, seed_chosen,
    clock_seconds, timeout_policy
FROM matches;

-- Keep the id counter where it was (an id is never handed out twice).
DELETE FROM sqlite_sequence WHERE name = 'matches_rebuilt';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'matches_rebuilt', seq FROM sqlite_sequence WHERE name = 'matches';

DROP TABLE matches;
ALTER TABLE matches_rebuilt RENAME TO matches;

CREATE UNIQUE INDEX matches_one_open_per_channel
    ON matches (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX matches_open_by_guild ON matches (guild_id) WHERE status IN ('lobby', 'active');
