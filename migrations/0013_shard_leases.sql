-- Shard leases: which process does the background work of each gateway shard (fires
-- its matches' deadlines, delivers their outbox lanes). A match belongs to the shard of
-- its server (direct messages to shard 0). A lease runs out at `expires_at` (seconds
-- since 1970, the database's own clock, so the processes' clocks never need to agree)
-- unless its holder renews it; `epoch` counts the holders it has had. A process that
-- runs the shard at the gateway and finds it held by another (standing in since the
-- first one died) asks for it back with `wanted_by`; the holder hands it over.
-- SQLite serves one process, which holds every shard: the table is there so both
-- engines have one schema.

CREATE TABLE shard_leases (
    shard      INTEGER PRIMARY KEY,
    holder     TEXT    NOT NULL,
    epoch      INTEGER NOT NULL DEFAULT 1,
    expires_at REAL    NOT NULL,
    wanted_by  TEXT,
    wanted_at  REAL
);
