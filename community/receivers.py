"""Reactions of the community app to other apps' events (none yet besides its own signals)."""

from . import challenges  # noqa: F401  (a challenged player's join: the challenge is accepted)
