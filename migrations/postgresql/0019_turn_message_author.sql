-- PostgreSQL's form of migration 0019: whose command a turn message reads as.

ALTER TABLE turn_messages ADD COLUMN author BIGINT;
