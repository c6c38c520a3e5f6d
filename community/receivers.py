"""Reactions of the community app to other apps' events (none yet besides its own signals)."""
