-- A seat the AI plays: its level ("easy" or "strong"), or NULL for a person. A seat the
-- AI was given for an absent player keeps that player's user id, so they can take it
-- back; a seat added to a lobby for the AI has a user id below zero, no one's.

ALTER TABLE seats ADD COLUMN ai TEXT;

-- A result of a match the AI played a seat of: kept for the player's own record against
-- Arbiter, and left out of the records and leaderboards between people.
ALTER TABLE results ADD COLUMN with_ai INTEGER NOT NULL DEFAULT 0;
