-- PostgreSQL's form of migration 0015: the level of the AI playing a seat, if one does.

ALTER TABLE seats ADD COLUMN ai TEXT;

-- A result of a match the AI played a seat of: kept for the player's own record against
-- Arbiter, and left out of the records and leaderboards between people.
ALTER TABLE results ADD COLUMN with_ai INTEGER NOT NULL DEFAULT 0;
