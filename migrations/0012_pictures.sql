-- Pictures of the table: how a server shows its boards (`/settings pictures`), and how
-- a player sees their own private views (`/profile pictures`): "both" (a picture and
-- the text), "pictures" (the picture, with the text the picture doesn't show) or
-- "text" (no picture).

ALTER TABLE guild_settings ADD COLUMN board_pictures TEXT NOT NULL DEFAULT 'both';

CREATE TABLE player_settings (
    user_id  INTEGER PRIMARY KEY,
    pictures TEXT    NOT NULL DEFAULT 'both'
);
