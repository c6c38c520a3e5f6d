"""Events of clubs, ladders and events that other apps (notifications) subscribe to. Each is
sent after the transaction that made it commits (``games.events.send_after_commit``); the
receivers read what they need by id.

* ``challenge_changed``: ``challenge_id``, ``status`` (pending: made; accepted, declined,
  cancelled, expired).
* ``round_paired``: ``round_id``, a new round with its tables and byes.
* ``event_changed``: ``tournament_id``, ``state`` ("started", "finished", or "reopened": a corrected
  result gave a finished event more to play), ``again`` (0, or after a reopening the round the event
  reopened or finished at: each is news once more).
* ``entered``: ``registration_id``, ``by_id``: an organiser registered someone else.
* ``late_entry_invited``: ``invitation_id``: an organiser invites a player into a running event
  (``LateEntryInvitation``); the player is entered only if they accept.
* ``late_entry_answered``: ``invitation_id``: the player accepted or declined it.
* ``queue_changed``: ``ladder_id``, ``player_id``: a player joined or left a ladder's
  matchmaking queue (who waits, and the estimated wait, changed).
* ``queue_table_formed``: ``ladder_id``, ``table_id``, ``players`` (their ids): a ladder's
  matchmaking queue seated these players at a new table. Their pages go there, and each is told.
"""

from games.events import Event

challenge_changed = Event("challenge_changed")
round_paired = Event("round_paired")
event_changed = Event("event_changed")
entered = Event("entered")
late_entry_invited = Event("late_entry_invited")
late_entry_answered = Event("late_entry_answered")
queue_changed = Event("queue_changed")
queue_table_formed = Event("queue_table_formed")
