-- PostgreSQL's form of migration 0012: how a server shows its boards, and how a player
-- sees their own private views.

ALTER TABLE guild_settings ADD COLUMN board_pictures TEXT NOT NULL DEFAULT 'both';

CREATE TABLE player_settings (
    user_id  BIGINT PRIMARY KEY,
    pictures TEXT   NOT NULL DEFAULT 'both'
);
