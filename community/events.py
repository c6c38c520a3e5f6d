"""The community app's events; ``accounts`` turns them into notifications (and mail), ``live``
into pushes. Sent after commit with ``games.events.send_after_commit``; each payload is plain,
frozen data, so a listener reads none of this app's tables.

* ``chat_posted``: ``post``, a :class:`ChatPosted` (every message: live pages listen);
* ``mentioned``: ``mention``, a :class:`Mention` (a message named players as ``@name``);
* ``table_challenge``: ``challenge``, a :class:`TableChallenge` (a player challenged another to a
  table, or the challenge was accepted, declined or withdrawn);
* ``moderated``: ``decision``, a :class:`ModerationDecision` (a moderator acted on a player:
  the player is told in their own language);
* ``reports_piling``: ``piling``, a :class:`ReportsPiling` (open reports about a player reached
  ``CHAT_REPORT_MAIL_THRESHOLD``: the room's moderators are mailed).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.events import Event, PlayerRef


@dataclass(frozen=True)
class ChatPosted:
    room_id: int
    message_id: int


@dataclass(frozen=True)
class Mention:
    message_id: int
    room_id: int
    author: PlayerRef
    #: The start of the message, as text (at most 140 characters).
    excerpt: str
    #: The page where the room is shown (a path: ``/tables/12/``).
    url: str
    mentioned: tuple[PlayerRef, ...]


@dataclass(frozen=True)
class TableChallenge:
    table_id: int
    game: str
    players: int
    rated: bool
    #: ``sent``, ``accepted``, ``declined`` or ``withdrawn``.
    status: str
    by: PlayerRef
    to: PlayerRef
    #: The time control in words, as ``TimeControl.to_dict()`` (the receiver describes it).
    time_control: dict[str, object]


@dataclass(frozen=True)
class ModerationDecision:
    #: ``ModerationAction.Action`` value: ``delete_message``, ``mute``, ``unmute``, ``warn``,
    #: ``resolve`` (a report by this player was acted on), ``dismiss``.
    action: str
    action_id: int
    player: PlayerRef
    reason: str
    #: Mutes: until when, and where (``room``, ``league``, ``site``); the room's or club's name.
    until: datetime | None = None
    scope: str = ""
    where: str = ""


@dataclass(frozen=True)
class ReportsPiling:
    player: PlayerRef
    open_reports: int
    #: Who to mail: the club's organisers (or staff, for a room without a club).
    moderators: tuple[PlayerRef, ...]
    #: The moderation queue's path.
    url: str


chat_posted = Event("chat_posted")
mentioned = Event("mentioned")
table_challenge = Event("table_challenge")
moderated = Event("moderated")
reports_piling = Event("reports_piling")
