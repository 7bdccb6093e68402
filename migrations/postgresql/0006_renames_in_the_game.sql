-- PostgreSQL's form of migration 0006: the match version at which a seat was renamed.

ALTER TABLE seat_replacements ADD COLUMN version INTEGER;
