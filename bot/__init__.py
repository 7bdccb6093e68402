"""Arbiter's process: settings, the bot, the store, the match service and rendering."""
