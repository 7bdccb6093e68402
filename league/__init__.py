"""Leagues: skill ratings from finished matches, seasons, and tournaments.

Pure: it reads results handed to it and returns numbers and pairings; the bot stores
them (`bot.service.store`) and shows them. It imports nothing of the bot, of storage or
of Discord."""
