-- PostgreSQL's form of migration 0014: the last notice a turn message shows.

ALTER TABLE turn_messages ADD COLUMN through BIGINT NOT NULL DEFAULT 0;
