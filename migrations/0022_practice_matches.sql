-- Practice matches: a moderator may mark a match as practice (`/mod practice`). A practice
-- match is never rated, and its players may ask the AI for a hint (`/hint`).

ALTER TABLE matches ADD COLUMN practice INTEGER NOT NULL DEFAULT 0;
