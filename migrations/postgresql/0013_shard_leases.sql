-- PostgreSQL's form of migration 0013: shard leases (see ../0013_shard_leases.sql).

CREATE TABLE shard_leases (
    shard      INTEGER          PRIMARY KEY,
    holder     TEXT             NOT NULL,
    epoch      INTEGER          NOT NULL DEFAULT 1,
    expires_at DOUBLE PRECISION NOT NULL,
    wanted_by  TEXT,
    wanted_at  DOUBLE PRECISION
);
