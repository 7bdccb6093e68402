-- PostgreSQL's form of migration 0011: a player's standing answers.

CREATE TABLE standing_answers (
    user_id    BIGINT NOT NULL,
    game       TEXT   NOT NULL,
    preference TEXT   NOT NULL,
    PRIMARY KEY (user_id, game, preference)
);
