"""Events other apps subscribe to; games never calls into them directly.

``game_finished`` is sent once, after the transaction that finished a table
commits, with ``table_id``. Receivers (ratings, tournaments) must be safe to
run twice: they schedule idempotent work.
"""

from django.dispatch import Signal

game_finished = Signal()
