-- PostgreSQL's form of migration 0002: per-seat decision counters, the pack a match
-- really plays with, and whether its seed was chosen by a player.

ALTER TABLE seats ADD COLUMN decisions INTEGER NOT NULL DEFAULT 0;

UPDATE seats SET decisions = (
    SELECT COUNT(*) FROM actions
    WHERE actions.match_id = seats.match_id AND actions.seat = seats.seat
);

ALTER TABLE matches ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0;

UPDATE matches SET pack = 'Arbiter core pack'
WHERE game = 'tooth-and-nail' AND pack = 'bundled';
