-- Moderation, history and stats: undone actions (the action log stays append-only, so
-- an undo is a row of its own that replay skips), seats handed to another member, and
-- each finished match's result per seat.

CREATE TABLE undone (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    seq        INTEGER NOT NULL,  -- the action taken back
    user_id    INTEGER NOT NULL,  -- the moderator who took it back
    forced     INTEGER NOT NULL,  -- it had revealed hidden cards or drawn at random
    created_at TEXT    NOT NULL,
    PRIMARY KEY (match_id, seq),
    FOREIGN KEY (match_id, seq) REFERENCES actions (match_id, seq)
);

CREATE TABLE seat_replacements (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id     INTEGER NOT NULL REFERENCES matches (id),
    seat         INTEGER NOT NULL,
    old_user_id  INTEGER NOT NULL,
    old_name     TEXT    NOT NULL,  -- the first one is the name the game dealt the seat in
    new_user_id  INTEGER NOT NULL,
    new_name     TEXT    NOT NULL,
    moderator_id INTEGER NOT NULL,
    created_at   TEXT    NOT NULL
);

CREATE INDEX seat_replacements_by_match ON seat_replacements (match_id, seat, id);

CREATE TABLE results (
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    seat        INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER,
    game        TEXT    NOT NULL,
    result      TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    recorded_at TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat)
);

CREATE INDEX results_by_player ON results (guild_id, user_id, game);
CREATE INDEX results_by_game ON results (guild_id, game, user_id);

CREATE INDEX matches_open_by_guild ON matches (guild_id) WHERE status IN ('lobby', 'active');
