-- PostgreSQL's form of migration 0015: the level of the AI playing a seat, if one does.

ALTER TABLE seats ADD COLUMN ai TEXT;
