"""The Discord surface shared by the cogs: persistent components and the messages
that carry them (the publisher, `bot.publisher`, posts the public ones).

Every component is a `DynamicItem` whose custom id carries what a click needs
(`arbiter:hand:<match id>`), so buttons and menus on old messages, in channels
and in DMs, keep working after a restart: the handler is rebuilt from the id
and everything else comes from the store. An id comes back from the client, so it is
believed only through `component_match`, the first thing every component's callback
asks: a forged id, or one used in another server, is refused with a sentence before
anything is read or changed.

A change a player makes (an action, a lobby step) is saved with what it must tell the
table (outbox notices, in the same transaction); the reply tells the player at once, and
the publisher posts the public side. The interaction is deferred before any work
(Discord allows 3 seconds), and a private reply that fails after the change was saved is
only logged: the public board and line still follow.
"""
