"""Errors the engine raises. Both are ``ValueError`` so callers can catch either."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move (or other action) that the rules do not allow in this position.

    The message says in words what is wrong, e.g. ``"e1-e4: the chevron on e1
    has power 1 and cannot move 3 fields"``.
    """


class InvalidPosition(ValueError):
    """A position document (RULES §9 JSON) or game record that cannot be loaded."""
