-- PostgreSQL's form of migration 0004: match clocks. PostgreSQL changes a CHECK in
-- place (SQLite rebuilds the table); existing matches take their server's defaults.

ALTER TABLE matches DROP CONSTRAINT matches_status;
ALTER TABLE matches ADD CONSTRAINT matches_status
    CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned'));

ALTER TABLE matches ADD COLUMN clock_seconds INTEGER NOT NULL DEFAULT 86400
    CHECK (clock_seconds BETWEEN 300 AND 1209600);
ALTER TABLE matches ADD COLUMN timeout_policy TEXT NOT NULL DEFAULT 'skip'
    CHECK (timeout_policy IN ('skip', 'abandon'));

UPDATE matches m SET
    clock_seconds = LEAST(GREATEST(COALESCE(g.default_clock_seconds, 86400), 300), 1209600),
    timeout_policy = CASE WHEN g.default_timeout_policy IN ('skip', 'abandon')
                          THEN g.default_timeout_policy ELSE 'skip' END
FROM guild_settings g WHERE g.guild_id = m.guild_id;

CREATE TABLE deadlines (
    match_id      BIGINT  NOT NULL REFERENCES matches (id),
    seat          INTEGER NOT NULL,
    version       INTEGER NOT NULL,
    decisions     INTEGER NOT NULL,
    out_of_turn   INTEGER NOT NULL DEFAULT 0,
    clock_seconds INTEGER NOT NULL,
    due_at        TEXT    NOT NULL,
    reminded      INTEGER NOT NULL DEFAULT 0,
    nudged        INTEGER NOT NULL DEFAULT 0,
    frozen_at     TEXT,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE pauses (
    match_id   BIGINT  PRIMARY KEY REFERENCES matches (id),
    kind       TEXT    NOT NULL CHECK (kind IN ('agreed', 'moderator')),
    user_id    BIGINT  NOT NULL,
    paused_at  TEXT    NOT NULL,
    ends_at    TEXT    NOT NULL
);

CREATE TABLE pause_votes (
    match_id BIGINT  NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE seat_clocks (
    match_id       BIGINT  NOT NULL REFERENCES matches (id),
    seat           INTEGER NOT NULL,
    timeouts       INTEGER NOT NULL DEFAULT 0,
    timeout_mark   INTEGER NOT NULL DEFAULT -1,
    vacation_used  INTEGER NOT NULL DEFAULT 0,
    vacation_from  TEXT,
    vacation_until TEXT,
    vacation_mark  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE notify (
    user_id         BIGINT  PRIMARY KEY,
    enabled         INTEGER NOT NULL DEFAULT 0,
    dm_closed_until TEXT
);
