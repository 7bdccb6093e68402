-- A seat the AI plays: its level ("easy" or "strong"), or NULL for a person. A seat the
-- AI was given for an absent player keeps that player's user id, so they can take it
-- back; a seat added to a lobby for the AI has a user id below zero, no one's.

ALTER TABLE seats ADD COLUMN ai TEXT;
