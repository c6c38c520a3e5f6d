"""Reads for organisers: the leagues they run, the organiser-role requests, the dashboard, bot tables."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, Prefetch, QuerySet
from django.utils import timezone

from games.models import Player, Table

from ..models import Challenge, Ladder, League, OrganiserRequest, QueueEntry, Registration, Tournament
from ..selectors import _count


def organiser_leagues(player: Player, *, staff: bool) -> QuerySet[League]:
    """The leagues a player runs (staff: every league)."""
    return League.objects.all() if staff else player.organised_leagues.all()


def organiser_requests(player: Player) -> list[OrganiserRequest]:
    """A player's own requests for the organiser role, newest first; for staff, every pending one."""
    rows = OrganiserRequest.objects.select_related("player")
    rows = (
        rows.filter(status=OrganiserRequest.Status.PENDING)
        if player.user.is_staff
        else rows.filter(player=player)
    )
    return list(rows[:200])


# the organiser dashboard
@dataclass
class Dashboard:
    """What an organiser's dashboard lists of their leagues: the events that are not finished (with
    ``registrations`` and their players prefetched, and ``registered``, ``waiting`` – tables open
    or being played – and ``overdue`` – of those, past their deadline), and the ladders (with
    ``pending`` challenges and ``queued`` players). Each event also has ``late_candidates``: the
    league's members (people, not bots) not entered in it nor invited into it yet, whom a running
    Swiss may invite to enter late."""

    events: list[Tournament]
    ladders: list[Ladder]


def dashboard(leagues: QuerySet[League]) -> Dashboard:
    """What needs an organiser of ``leagues`` (:func:`organiser_leagues`): a handful of queries, however
    many events."""
    waiting = Table.objects.filter(
        round_table__round__tournament=OuterRef("pk"), status__in=[Table.Status.OPEN, Table.Status.ACTIVE]
    )
    not_withdrawn = Registration.objects.filter(tournament=OuterRef("pk")).exclude(
        status=Registration.Status.WITHDRAWN
    )
    events = (
        Tournament.objects.filter(league__in=leagues)
        .exclude(status=Tournament.Status.FINISHED)
        .annotate(
            registered=_count(not_withdrawn),
            waiting=_count(waiting),
            overdue=_count(waiting.filter(deadline__lt=timezone.now())),
        )
        .prefetch_related(
            Prefetch("registrations", queryset=Registration.objects.select_related("player")),
            Prefetch("league__members", queryset=Player.objects.filter(is_bot=False)),
            "late_invitations",
        )
    )
    ladders = Ladder.objects.filter(league__in=leagues).annotate(
        pending=_count(Challenge.objects.filter(ladder=OuterRef("pk"), status=Challenge.Status.PENDING)),
        queued=_count(QueueEntry.objects.filter(ladder=OuterRef("pk"))),
    )
    listed = list(events)
    for t in listed:
        entered = {r.player_id for r in t.registrations.all()}
        entered |= {i.player_id for i in t.late_invitations.all()}  # invited (or declined) already
        t.late_candidates = [m for m in t.league.members.all() if m.pk not in entered]  # type: ignore[attr-defined]
    return Dashboard(events=listed, ladders=list(ladders))


def bot_tables(player: Player, limit: int = 20) -> QuerySet[Table]:
    """The newest tables ``player`` created where only bots sit, with their seats and players."""
    return (
        Table.objects.filter(created_by=player)
        .exclude(seats__player__is_bot=False)
        .filter(seats__isnull=False)
        .distinct()
        .prefetch_related("seats__player")
        .order_by("-created_at")[:limit]
    )
