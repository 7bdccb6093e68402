-- Matches, their seats and their append-only action log.

CREATE TABLE matches (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    game             TEXT    NOT NULL,
    variant          TEXT    NOT NULL,
    pack             TEXT    NOT NULL DEFAULT 'bundled',
    seed             INTEGER NOT NULL,
    rules_version    TEXT    NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    snapshot         TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    board_message_id INTEGER,
    created_by       INTEGER NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL
);

-- A channel or thread holds at most one open match.
CREATE UNIQUE INDEX matches_one_open_per_channel
    ON matches (channel_id) WHERE status IN ('lobby', 'active');

CREATE TABLE seats (
    match_id     INTEGER NOT NULL REFERENCES matches (id),
    seat         INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    team         INTEGER,
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, user_id)
);

CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE actions (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    seq        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    events     TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (match_id, seq)
);

-- The log is append-only.
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
