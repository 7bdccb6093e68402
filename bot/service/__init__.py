"""The services: matches, their store, clocks, moderation and stats.

Nothing here imports discord. What an accepted change must tell the table is
written as outbox rows in the change's own transaction (see `outbox`); the Discord
side of `bot/` (the publisher, the components, the replies) reads them and the
results these services return.
"""
