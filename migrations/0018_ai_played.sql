-- Whether the AI ever made a move for a seat. A match the AI played in is never rated
-- between people, even after its players took their seats back (`ai` is cleared then).
-- Matches from before this column: a seat the AI plays now, or any seat of a match whose
-- log says the AI took a seat over, counts as played.

ALTER TABLE seats ADD COLUMN ai_played INTEGER NOT NULL DEFAULT 0;

UPDATE seats SET ai_played = 1
WHERE ai IS NOT NULL
   OR EXISTS (SELECT 1 FROM match_log l WHERE l.match_id = seats.match_id AND l.kind = 'ai');
