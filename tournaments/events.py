"""Events of clubs, ladders and events that other apps (notifications, live pages) subscribe to.

Each is sent after the transaction that made it commits (``games.events``' robust path) and
carries a typed payload (frozen dataclasses below, built by :mod:`tournaments.news`) with what
its listeners need, so that they read nothing of this app's tables:

* ``challenge_changed``: ``challenge``, a :class:`ChallengeNews` (made: pending; accepted,
  declined, cancelled, expired).
* ``round_paired``: ``paired``, a :class:`RoundPaired`: a new round with its tables and byes
  (and its deadline, for correspondence rounds).
* ``round_deadline_near``: ``near``, a :class:`DeadlineNear`: 24 hours are left before a round's
  deadline, and these tables are unfinished (sent once per round, by the calendar's sweep).
* ``event_changed``: ``event``, an :class:`EventNews`: started, finished, or reopened (a
  corrected result gave a finished event more to play); and from the calendar: starts_soon (within
  the hour), check_in_open, postponed (a new start time) or called_off (by the organiser, or at the
  start time for too few players).
* ``entered``: ``entry``, an :class:`Entry`: an organiser registered someone else.
* ``late_entry_invited``: ``invitation``, a :class:`LateEntryNews`: an organiser invites a player
  into a running event; the player is entered only if they accept.
* ``late_entry_answered``: ``invitation``, a :class:`LateEntryNews`: the player accepted or
  declined it.
* ``queue_changed``: ``ladder_id``, ``player_id``: a player joined or left a ladder's matchmaking
  queue (who waits, and the estimated wait, changed).
* ``queue_table_formed``: ``formed``, a :class:`QueueTableFormed`: a ladder's matchmaking queue
  seated these players at a new table. Their pages go there, and each is told.
* ``pool_changed``: ``pool_id``, ``players`` (ids): players joined, left or were let go from a
  quick pairing pool (who waits changed; ``tournaments.pools``).
* ``pool_table_formed``: ``formed``, a :class:`PoolTableFormed`: a quick pairing pool's wave
  seated these players at a new table. Their pages go there, and each is told.
* ``result_recorded``: ``recorded``, a :class:`ResultRecorded`: a finished table's result was
  counted by its event round or its ladder challenge (standings, places and rounds may have
  moved on). Sent by the ``game_finished`` task, and again if it runs twice.
* ``arena_changed``: ``arena``, an :class:`ArenaChanged`: an arena seated players (their pages go
  to their new tables), counted a table, or a player joined, paused, came back or left: its
  leaderboard changed (no notification: the pages show it).
* ``season_changed``: ``season``, a :class:`SeasonNews`: a season started (each player's
  division) or finished (each player's place and where it takes them next season).
* ``team_invitation_changed``: ``invitation``, a :class:`TeamInvitationNews`: a captain invited a
  player, or a player asked to join a team (pending); or the other side answered (accepted, declined).
* ``team_event_changed``: ``news``, a :class:`TeamEventNews`: a team event started, paired a round
  (captains: line-ups due), opened a round's boards (players: their tables), counted a board,
  finished a round, finished or was called off (``tournaments.teams.news``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from games.events import Event, PlayerRef


@dataclass(frozen=True)
class ChallengeNews:
    id: int
    status: str  # pending, accepted, declined, cancelled, expired
    outcome: str  # "" until decided: challenger, challenged, draw, forfeit
    ladder_id: int
    ladder: str  # its name
    position: bool  # a position ladder (a challenge left unanswered is a forfeit)
    challenger: PlayerRef
    challenged: PlayerRef
    expires_at: datetime
    table_id: int | None


@dataclass(frozen=True)
class PairedTable:
    table_id: int
    players: tuple[PlayerRef, ...]  # in seat order


@dataclass(frozen=True)
class RoundPaired:
    round_id: int
    tournament_id: int
    event: str  # its name
    number: int
    tables: tuple[PairedTable, ...]
    byes: tuple[PlayerRef, ...]
    #: Correspondence rounds: when tables still unfinished are settled (None: no deadline).
    deadline: datetime | None = None


@dataclass(frozen=True)
class DeadlineNear:
    """A round's deadline is 24 hours away, and ``tables`` are still unfinished."""

    round_id: int
    tournament_id: int
    event: str  # its name
    number: int
    deadline: datetime
    rule: str  # the event's deadline rule: score, draw, forfeit
    #: Per unfinished table: its id and the players at it (in seat order).
    tables: tuple[PairedTable, ...]


@dataclass(frozen=True)
class EventNews:
    tournament_id: int
    event: str  # its name
    state: str  # started, finished, reopened; starts_soon, check_in_open, postponed, called_off
    #: 0, or after a reopening the round the event reopened or finished at (news once more).
    again: int
    entrants: tuple[PlayerRef, ...]  # everyone entered and not withdrawn
    #: Finished: player id → final place.
    places: Mapping[int, int] = field(default_factory=dict)
    #: The calendar's states (starts_soon, check_in_open, postponed, called_off): the start time
    #: (postponed: the new one), and for called_off the reason, how many came and how many were needed.
    starts_at: datetime | None = None
    reason: str = ""
    came: int = 0
    needed: int = 0


@dataclass(frozen=True)
class Entry:
    registration_id: int
    tournament_id: int
    event: str
    player: PlayerRef
    by: PlayerRef | None  # the organiser who entered them (None: no longer known)


@dataclass(frozen=True)
class LateEntryNews:
    invitation_id: int
    tournament_id: int
    event: str
    status: str  # pending, accepted, declined
    missed: str  # what each missed round pays: zero or half
    round: int  # the round they play from (if they accept, or accepted)
    player: PlayerRef
    invited_by: PlayerRef | None


@dataclass(frozen=True)
class QueueTableFormed:
    ladder_id: int
    ladder: str
    game: str
    table_id: int
    players: tuple[PlayerRef, ...]


@dataclass(frozen=True)
class PoolTableFormed:
    pool_id: int
    game: str
    time_control: Mapping[str, object]  # the pool's clock (games.clocks.TimeControl.to_dict)
    rated: bool
    table_id: int
    players: tuple[PlayerRef, ...]  # in seat order


@dataclass(frozen=True)
class ResultRecorded:
    table_id: int
    tournament_id: int | None  # the event whose round the table was played in
    ladder_id: int | None  # the ladder whose challenge or queue seated it


@dataclass(frozen=True)
class ArenaChanged:
    tournament_id: int
    #: The players whose own situation changed (seated at a new table, paused, back…).
    players: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeasonMove:
    """One player of a season: where they play (started) or how they did and where they go (finished)."""

    player: PlayerRef
    division: str  # the name the division was given; "" when none (it is named from level and group)
    level: int  # the division's level (1 = top); 0 in a points series
    group: str = ""  # the division's group at its level ("A", "B"), if the level has several
    place: int | None = None  # finished: the place in the division (or the series)
    movement: str = ""  # finished: up, down or stay
    to_level: int = 0  # finished: the level they start next season at (0: they leave the league's seasons)


@dataclass(frozen=True)
class SeasonNews:
    season_id: int
    season: str  # its name
    league: str  # the league's slug
    league_name: str
    state: str  # started, finished
    players: tuple[SeasonMove, ...]
    next_season_id: int | None = None  # finished: the season opened next


@dataclass(frozen=True)
class TeamInvitationNews:
    invitation_id: int
    team: str  # its name
    team_slug: str
    kind: str  # invite (a captain invites ``player``) or request (``player`` asks to join)
    status: str  # pending, accepted, declined
    player: PlayerRef  # the invited player, or the one asking
    #: An invitation: who invited; a request: who answered it (None while pending, or not known).
    by: PlayerRef | None
    managers: tuple[PlayerRef, ...] = ()  # the team's captain and vice-captain


@dataclass(frozen=True)
class TeamSideNews:
    """A team with a match in a paired round: its managers (captain, vice) and its opponents."""

    team_id: int
    team: str
    managers: tuple[PlayerRef, ...]
    opponents: tuple[str, ...]
    match_id: int
    team_slug: str = ""


@dataclass(frozen=True)
class TeamBoardNews:
    """A board's table opened: its players in seat order."""

    match_id: int
    board: int
    table_id: int
    players: tuple[PlayerRef, ...]


@dataclass(frozen=True)
class TeamEventNews:
    event_id: int
    event: str  # its name
    state: str  # started, paired, opened, counted, round_finished, finished, cancelled
    round_id: int | None = None
    number: int = 0  # the round's number
    starts_at: datetime | None = None  # the round's start (line-ups close then)
    sides: tuple[TeamSideNews, ...] = ()  # paired: each team with a match
    boards: tuple[TeamBoardNews, ...] = ()  # opened: the tables opened
    players: tuple[int, ...] = ()  # the players whose own pages change


challenge_changed = Event("challenge_changed")
round_paired = Event("round_paired")
round_deadline_near = Event("round_deadline_near")
event_changed = Event("event_changed")
entered = Event("entered")
late_entry_invited = Event("late_entry_invited")
late_entry_answered = Event("late_entry_answered")
queue_changed = Event("queue_changed")
queue_table_formed = Event("queue_table_formed")
pool_changed = Event("pool_changed")
pool_table_formed = Event("pool_table_formed")
result_recorded = Event("result_recorded")
season_changed = Event("season_changed")
arena_changed = Event("arena_changed")
team_invitation_changed = Event("team_invitation_changed")
team_event_changed = Event("team_event_changed")
