-- Per-seat decision counters (a menu is stale only once its own seat has acted),
-- the pack a match really plays with, and whether its seed was chosen by a player.

ALTER TABLE seats ADD COLUMN decisions INTEGER NOT NULL DEFAULT 0;

UPDATE seats SET decisions = (
    SELECT COUNT(*) FROM actions
    WHERE actions.match_id = seats.match_id AND actions.seat = seats.seat
);

-- A chosen seed makes every shuffle predictable, so it is announced; a drawn one is
-- never shown while the match is open. Older matches are treated as drawn.
ALTER TABLE matches ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0;

-- The pack column used to hold the placeholder 'bundled' while Tooth & Nail played
-- its bundled pack, named in the pack file: record that name.
UPDATE matches SET pack = 'Arbiter core pack'
WHERE game = 'tooth-and-nail' AND pack = 'bundled';
