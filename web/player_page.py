"""The player page: ratings and their history (``ratings.pages``), with the player's events and
ladder positions (tournaments' reads: ``web`` may read every app, ``ratings`` may not)."""

from ratings.pages import player_page

__all__ = ["player_page"]
