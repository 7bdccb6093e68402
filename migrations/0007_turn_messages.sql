-- The message that carries the public lines of a match's current turn: the publisher
-- edits it as the turn goes on instead of posting a message per action, and posts a
-- new one when the turn changes, when it would grow past Discord's 2000 characters, or
-- when someone new must be pinged (Discord notifies no mention added by an edit).
-- Kept in the database so that after a restart the next line still edits the same one.

CREATE TABLE turn_messages (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (id),
    message_id INTEGER NOT NULL,
    turn       TEXT    NOT NULL,  -- the turn it belongs to (bot.matches.Table.turn)
    body       TEXT    NOT NULL   -- its lines, without the lines naming the deciders
);
