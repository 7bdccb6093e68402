-- A player's standing answers: preferences they set for themselves (`/profile`), by
-- game, under which the game answers a decision for them when it comes (letting an
-- attack through when they hold no Instant, say).

CREATE TABLE standing_answers (
    user_id    INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    preference TEXT    NOT NULL,
    PRIMARY KEY (user_id, game, preference)
);
