-- The outbox: everything an accepted change must tell Discord (a public line, the
-- board, a ping, a DM), written in the change's own transaction and delivered
-- afterwards by the publisher, in order per lane (a match's channel, or one user's
-- DMs), at least once. A row is done once `delivered_at` or `given_up` is set.
--
-- `progress` is what delivery has already done for the row (JSON: the message it
-- posted, the steps it finished), written as each step succeeds, so a retry after a
-- failure or a crash never posts the same line twice.

CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id     INTEGER NOT NULL REFERENCES matches (id),
    lane         TEXT    NOT NULL,  -- 'match:<id>' or 'dm:<user id>'
    kind         TEXT    NOT NULL CHECK (kind IN ('board', 'start', 'action', 'say', 'dm')),
    body         TEXT    NOT NULL,  -- JSON, what the kind needs
    created_at   TEXT    NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT,
    progress     TEXT    NOT NULL DEFAULT '{}',
    delivered_at TEXT,
    given_up     TEXT               -- why it never can be delivered
);

CREATE INDEX outbox_pending ON outbox (lane, id) WHERE delivered_at IS NULL AND given_up IS NULL;
