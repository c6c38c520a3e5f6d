"""Leagues (clubs) and their calendar, events, ladders and organiser roles: one module each,
all importable from here (``from tournaments.models import Tournament``)."""

from .clubs import CalendarFeed, Division, EventSeries, League, Season, SeasonEntry
from .events import (
    Announcement,
    AuditEntry,
    LateEntryInvitation,
    Registration,
    Round,
    RoundTable,
    Tournament,
)
from .ladders import Challenge, Ladder, LadderMember, QueueEntry, QueueTable
from .play_now import ArenaPlayer, ArenaTable, Pool, PoolEntry, PoolTable
from .roles import OrganiserRequest, OrganiserRole
from .teams import (
    LineUp,
    Team,
    TeamBoard,
    TeamEntry,
    TeamEvent,
    TeamInvitation,
    TeamMatch,
    TeamMatchSide,
    TeamMember,
    TeamRound,
    TeamSeasonEntry,
)

__all__ = [
    "Announcement",
    "ArenaPlayer",
    "ArenaTable",
    "AuditEntry",
    "CalendarFeed",
    "Challenge",
    "Division",
    "EventSeries",
    "Ladder",
    "LadderMember",
    "LateEntryInvitation",
    "League",
    "LineUp",
    "OrganiserRequest",
    "OrganiserRole",
    "Pool",
    "PoolEntry",
    "PoolTable",
    "QueueEntry",
    "QueueTable",
    "Registration",
    "Round",
    "RoundTable",
    "Season",
    "SeasonEntry",
    "Team",
    "TeamBoard",
    "TeamEntry",
    "TeamEvent",
    "TeamInvitation",
    "TeamMatch",
    "TeamMatchSide",
    "TeamMember",
    "TeamRound",
    "TeamSeasonEntry",
    "Tournament",
]
