-- PostgreSQL's form of migration 0022: a moderator may mark a match as practice
-- (`/mod practice`); a practice match is never rated, and its players may ask for a hint.

ALTER TABLE matches ADD COLUMN practice INTEGER NOT NULL DEFAULT 0;
