-- Whose command a turn message reads as: the user whose interaction's followup posted it
-- (Discord heads it "<user> used /play"), NULL when the bot posted it in the channel.
-- Another player's lines are never added to it: they go in a message of their own.
-- A turn message saved before this column reads as nobody's.

ALTER TABLE turn_messages ADD COLUMN author INTEGER;
