-- Match clocks: each match's clock and timeout policy, a final status 'abandoned'
-- (the clock ended the match with no winner), the running deadline of every seat
-- that must decide, pauses and pause votes, each seat's timeouts and vacation, and
-- who wants their turns by direct message.

-- SQLite can't change a CHECK constraint in place, so `matches` is rebuilt (the
-- migration runner turns foreign keys off while a migration runs and checks every
-- reference before it commits). Existing matches take their server's defaults.
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
                     CHECK (timeout_policy IN ('skip', 'abandon'))
);

INSERT INTO matches_rebuilt (
    id, guild_id, channel_id, game, variant, pack, seed, rules_version, status, snapshot,
    version, board_message_id, created_by, options, created_at, updated_at, seed_chosen,
    clock_seconds, timeout_policy
)
SELECT
    m.id, m.guild_id, m.channel_id, m.game, m.variant, m.pack, m.seed, m.rules_version,
    m.status, m.snapshot, m.version, m.board_message_id, m.created_by, m.options,
    m.created_at, m.updated_at, m.seed_chosen,
    MIN(MAX(COALESCE(g.default_clock_seconds, 86400), 300), 1209600),
    CASE WHEN g.default_timeout_policy IN ('skip', 'abandon')
         THEN g.default_timeout_policy ELSE 'skip' END
FROM matches m LEFT JOIN guild_settings g ON g.guild_id = m.guild_id;

-- Keep the id counter where it was (an id is never handed out twice).
DELETE FROM sqlite_sequence WHERE name = 'matches_rebuilt';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'matches_rebuilt', seq FROM sqlite_sequence WHERE name = 'matches';

DROP TABLE matches;
ALTER TABLE matches_rebuilt RENAME TO matches;

-- A channel or thread holds at most one open match.
CREATE UNIQUE INDEX matches_one_open_per_channel
    ON matches (channel_id) WHERE status IN ('lobby', 'active');

-- The clock of each seat the match waits for. A row belongs to the match version it
-- was armed for; the scheduler ignores a row whose version is not the match's.
CREATE TABLE deadlines (
    match_id      INTEGER NOT NULL REFERENCES matches (id),
    seat          INTEGER NOT NULL,
    version       INTEGER NOT NULL,            -- the match version it was armed for
    decisions     INTEGER NOT NULL,            -- the seat's decision count then
    out_of_turn   INTEGER NOT NULL DEFAULT 0,  -- a decision outside the seat's turn
    clock_seconds INTEGER NOT NULL,            -- the length of this clock
    due_at        TEXT    NOT NULL,            -- ISO time, UTC
    reminded      INTEGER NOT NULL DEFAULT 0,  -- 0 none, 1 at half time, 2 near the end
    nudged        INTEGER NOT NULL DEFAULT 0,  -- a player nudged the decider already
    frozen_at     TEXT,                        -- paused or on vacation since; NULL: running
    PRIMARY KEY (match_id, seat)
);

-- A match paused by its players' agreement or by a moderator, until `ends_at` at most.
CREATE TABLE pauses (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (id),
    kind       TEXT    NOT NULL CHECK (kind IN ('agreed', 'moderator')),
    user_id    INTEGER NOT NULL,  -- who paused it (the last to agree, or the moderator)
    paused_at  TEXT    NOT NULL,
    ends_at    TEXT    NOT NULL
);

CREATE TABLE pause_votes (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);

-- Per seat: consecutive timeouts, and the vacation budget and the vacation under way.
CREATE TABLE seat_clocks (
    match_id       INTEGER NOT NULL REFERENCES matches (id),
    seat           INTEGER NOT NULL,
    timeouts       INTEGER NOT NULL DEFAULT 0,   -- in a row, since the seat last acted
    timeout_mark   INTEGER NOT NULL DEFAULT -1,  -- its decision count after the last one
    vacation_used  INTEGER NOT NULL DEFAULT 0,   -- seconds of budget spent
    vacation_from  TEXT,                         -- the vacation under way, if any
    vacation_until TEXT,
    vacation_mark  INTEGER NOT NULL DEFAULT 0,   -- its decision count when it began
    PRIMARY KEY (match_id, seat)
);

-- Players who asked for their turns and reminders by direct message; a closed DM
-- stops the attempts until `dm_closed_until`.
CREATE TABLE notify (
    user_id         INTEGER PRIMARY KEY,
    enabled         INTEGER NOT NULL DEFAULT 0,
    dm_closed_until TEXT
);
