-- PostgreSQL's form of migration 0007: the message carrying a match's current turn.

CREATE TABLE turn_messages (
    match_id   BIGINT PRIMARY KEY REFERENCES matches (id),
    message_id BIGINT NOT NULL,
    turn       TEXT   NOT NULL,
    body       TEXT   NOT NULL
);
