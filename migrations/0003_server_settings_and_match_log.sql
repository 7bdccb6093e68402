-- Per-server settings, and the part of a match's log that is not a game action
-- (moderator actions, timeouts, pauses), each entry naming who did it.

CREATE TABLE guild_settings (
    guild_id               INTEGER PRIMARY KEY,
    mod_role_id            INTEGER,
    match_channels         TEXT    NOT NULL DEFAULT '[]',  -- JSON ids; empty: anywhere
    default_clock_seconds  INTEGER NOT NULL DEFAULT 86400,
    default_timeout_policy TEXT    NOT NULL DEFAULT 'skip',
    reminder_cadence       TEXT    NOT NULL DEFAULT 'half-and-end',
    updated_at             TEXT    NOT NULL
);

CREATE TABLE match_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    version    INTEGER NOT NULL,  -- the match version when it was written
    user_id    INTEGER,           -- who did it; NULL when the bot did (a deadline)
    kind       TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    created_at TEXT    NOT NULL
);

CREATE INDEX match_log_by_match ON match_log (match_id, id);
