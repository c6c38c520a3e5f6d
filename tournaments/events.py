"""Events of clubs, ladders and events that other apps (notifications) subscribe to. Each is
sent after the transaction that made it commits (``games.events.send_after_commit``); the
receivers read what they need by id.

* ``challenge_changed``: ``challenge_id``, ``status`` (pending: made; accepted, declined,
  cancelled, expired).
* ``round_paired``: ``round_id``, a new round with its tables and byes.
* ``event_changed``: ``tournament_id``, ``state`` ("started" or "finished").
* ``entered``: ``registration_id``, ``by_id``: an organiser registered someone else.
* ``late_entry_invited``: ``invitation_id``: an organiser invites a player into a running event
  (``LateEntryInvitation``); the player is entered only if they accept.
* ``late_entry_answered``: ``invitation_id``: the player accepted or declined it.
"""

from django.dispatch import Signal

challenge_changed = Signal()
round_paired = Signal()
event_changed = Signal()
entered = Signal()
late_entry_invited = Signal()
late_entry_answered = Signal()
