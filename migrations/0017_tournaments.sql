-- Tournaments (`league.tournament`): a moderator's event with a sign-up, rounds of
-- pairings, each pairing a match of its own, and standings worked out from the games.

CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,  -- its messages; each match in a thread of it
    name          TEXT    NOT NULL,
    game          TEXT    NOT NULL,
    variant       TEXT    NOT NULL,
    format        TEXT    NOT NULL CHECK (format IN ('swiss', 'round-robin', 'elimination')),
    rounds        INTEGER NOT NULL,  -- as asked (Swiss); fixed by the entrants at the start
    seeding       TEXT    NOT NULL CHECK (seeding IN ('rating', 'random')),
    round_seconds INTEGER NOT NULL,  -- each round's deadline, from its start
    -- A match still going at its round's deadline: 'forfeit', the seats it waits for
    -- forfeit (a game waiting on both sides is drawn); 'moderator', a moderator records it.
    at_deadline   TEXT    NOT NULL DEFAULT 'forfeit' CHECK (at_deadline IN ('forfeit', 'moderator')),
    signup_until  TEXT    NOT NULL,
    seed          INTEGER NOT NULL,  -- random seeding, teams and the matches' deals
    status        TEXT    NOT NULL DEFAULT 'signup'
                  CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round         INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: not started)
    round_ends    TEXT,
    message_id    INTEGER,           -- the sign-up, then the standings
    created_by    INTEGER NOT NULL,
    created_at    TEXT    NOT NULL
);

CREATE INDEX tournaments_open ON tournaments (guild_id) WHERE status IN ('signup', 'running');
CREATE UNIQUE INDEX tournaments_one_open_a_channel ON tournaments (channel_id)
    WHERE status IN ('signup', 'running');

-- Who signed up; at the start each player gets an entrant (teammates share one).
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    joined_at     TEXT    NOT NULL,
    entrant       INTEGER,
    PRIMARY KEY (tournament_id, user_id)
);

-- The sides that are paired, best seed first; one that dropped out is paired no more.
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    entrant       INTEGER NOT NULL,
    seed          INTEGER NOT NULL,  -- 1 is the best
    name          TEXT    NOT NULL,
    dropped_round INTEGER,           -- paired no more from this round on
    PRIMARY KEY (tournament_id, entrant)
);

-- Each round's pairings and how each ended: `points` are `a`'s (1, 0.5, 0); a bye has
-- no `b`. `how`: played, recorded (by a moderator), deadline, dropped, bye.
CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,  -- its table number in the round, 1 on
    a             INTEGER NOT NULL,
    b             INTEGER,
    points        REAL,
    how           TEXT,
    match_id      INTEGER REFERENCES matches (id),
    thread_id     INTEGER,
    PRIMARY KEY (tournament_id, round, board)
);

CREATE UNIQUE INDEX tournament_games_by_match ON tournament_games (match_id)
    WHERE match_id IS NOT NULL;

-- What moderators (and the deadlines) did to an event.
CREATE TABLE tournament_log (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER,           -- NULL: the bot (a deadline)
    kind          TEXT    NOT NULL,
    text          TEXT    NOT NULL,
    created_at    TEXT    NOT NULL
);
