-- PostgreSQL's form of migration 0016: each result's side, place, ending, season and
-- rating order; the server's season and rated endings; seasons, ratings and their changes.

ALTER TABLE results ADD COLUMN team INTEGER;     -- the side (teammates share it;
                                                 -- older results: set at start-up)
ALTER TABLE results ADD COLUMN place INTEGER;    -- 1 is first; equal places tie
ALTER TABLE results ADD COLUMN ending TEXT NOT NULL DEFAULT 'played';
ALTER TABLE results ADD COLUMN season INTEGER NOT NULL DEFAULT 1;
-- NULL: not yet decided (results from before ratings, decided at start-up); 0: not
-- rated; n > 0: the n-th match rated in its server, game and season.
ALTER TABLE results ADD COLUMN rating_seq INTEGER;

UPDATE results SET place = CASE result WHEN 'win' THEN 1 WHEN 'draw' THEN 2 ELSE 3 END;

CREATE INDEX results_rated ON results (guild_id, game, season, rating_seq)
    WHERE rating_seq > 0;

-- A server's current season, and which endings of a match it rates beside a match
-- played to its end (a JSON list of `league.ratings.ENDING_CHOICES`).
ALTER TABLE guild_settings ADD COLUMN season INTEGER NOT NULL DEFAULT 1;
ALTER TABLE guild_settings ADD COLUMN rated_endings TEXT NOT NULL
    DEFAULT '["concessions", "timeouts"]';

CREATE TABLE seasons (
    guild_id   BIGINT  NOT NULL,
    season     INTEGER NOT NULL,
    started_at TEXT    NOT NULL,
    started_by BIGINT  NOT NULL,  -- the moderator
    PRIMARY KEY (guild_id, season)
);

-- Each player's rating as the rated matches left it, and what each match did to it.
CREATE TABLE ratings (
    guild_id   BIGINT  NOT NULL,
    game       TEXT    NOT NULL,
    season     INTEGER NOT NULL,
    user_id    BIGINT  NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game, season, user_id)
);

CREATE TABLE rating_changes (
    match_id     BIGINT  NOT NULL REFERENCES matches (id),
    user_id      BIGINT  NOT NULL,
    guild_id     BIGINT  NOT NULL,
    game         TEXT    NOT NULL,
    season       INTEGER NOT NULL,
    rating_seq   INTEGER NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    at           TEXT    NOT NULL,
    PRIMARY KEY (match_id, user_id)
);

CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, user_id, game, season, rating_seq);
