-- PostgreSQL's form of migration 0018: whether the AI ever made a move for a seat (a match
-- the AI played in is never rated, even after its players took their seats back).

ALTER TABLE seats ADD COLUMN ai_played INTEGER NOT NULL DEFAULT 0;

UPDATE seats SET ai_played = 1
WHERE ai IS NOT NULL
   OR EXISTS (SELECT 1 FROM match_log l WHERE l.match_id = seats.match_id AND l.kind = 'ai');
