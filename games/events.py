"""Events other apps subscribe to; games never calls into them directly.

``game_finished`` is sent once, after the transaction that finished a table commits, with
``result``: a :class:`games.results.GameResult` (per seat: player, rank, markers and how the
seat ended). Receivers (ratings, tournaments) must be safe to run twice: they schedule
idempotent work.
"""

from django.dispatch import Signal

game_finished = Signal()
