-- The last outbox notice whose lines a turn message shows. The message's new lines and
-- the notice's delivered mark are saved behind, and a transaction in between can save
-- the one without the other: a notice read back after a crash (or by the process taking
-- its shard over) whose id is not past `through` is shown already, and is not added to
-- the message a second time.

ALTER TABLE turn_messages ADD COLUMN through INTEGER NOT NULL DEFAULT 0;
