"""Discord glue: slash commands that parse an interaction, call the match service, render."""
