"""The payloads of the events' announcements (:mod:`tournaments.events`), read from their own
tables by the writes that announce them, so that their listeners need not read them."""

from __future__ import annotations

from games import selectors as games
from games.events import PlayerRef
from games.models import Player

from ..events import EventNews, LateEntryNews, PairedTable, RoundPaired
from ..models import LateEntryInvitation, Registration, Round, RoundTable, Tournament
from .selectors import final_places


def round_paired(round_id: int) -> RoundPaired:
    """A round just paired: its tables with their players, and its byes (three queries)."""
    rnd = Round.objects.select_related("tournament").get(pk=round_id)
    boards = RoundTable.objects.filter(round=rnd).order_by("number")
    table_ids = list(boards.values_list("table_id", flat=True))
    seated = games.seated_players(table_ids)
    byes = Player.objects.in_bulk(list(rnd.byes or []))
    return RoundPaired(
        round_id=rnd.pk,
        tournament_id=rnd.tournament_id,
        event=rnd.tournament.name,
        number=rnd.number,
        tables=tuple(PairedTable(table_id=t, players=tuple(seated.get(t, {}).values())) for t in table_ids),
        byes=tuple(PlayerRef.of(byes[p]) for p in rnd.byes or [] if p in byes),
        deadline=rnd.deadline,
    )


def event_news(tournament_id: int, *, state: str, again: int = 0) -> EventNews:
    """An event started, finished (with everyone's final place) or reopened."""
    t = Tournament.objects.get(pk=tournament_id)
    entrants = [
        r.player
        for r in Registration.objects.filter(tournament=t)
        .exclude(status=Registration.Status.WITHDRAWN)
        .select_related("player")
        .order_by("pk")
    ]
    return EventNews(
        tournament_id=t.pk,
        event=t.name,
        state=state,
        again=again,
        entrants=tuple(PlayerRef.of(p) for p in entrants),
        places=final_places([t]).get(t.pk, {}) if state == "finished" else {},
    )


def calendar_news(
    tournament_id: int, *, state: str, reason: str = "", came: int = 0, needed: int = 0
) -> EventNews:
    """The calendar's news of an event not started yet, for everyone registered: it starts within
    the hour (starts_soon), it was postponed (its new start), or it was called off (the reason,
    how many came and how many were needed); check_in_open goes to those not checked in yet."""
    t = Tournament.objects.get(pk=tournament_id)
    regs = Registration.objects.filter(tournament=t).exclude(status=Registration.Status.WITHDRAWN)
    if state == "check_in_open":
        regs = regs.filter(status=Registration.Status.REGISTERED)
    return EventNews(
        tournament_id=t.pk,
        event=t.name,
        state=state,
        again=0,
        entrants=tuple(PlayerRef.of(r.player) for r in regs.select_related("player").order_by("pk")),
        starts_at=t.starts_at,
        reason=reason,
        came=came,
        needed=needed,
    )


def late_entry_news(invitation: LateEntryInvitation) -> LateEntryNews:
    """An invitation into a running event, and the round its player plays (or would play) from."""
    t = invitation.tournament
    start = t.current_round + 1
    if invitation.status == LateEntryInvitation.Status.ACCEPTED:
        joined = (
            Registration.objects.filter(tournament=t, player_id=invitation.player_id)
            .values_list("joined_round", flat=True)
            .first()
        )
        start = joined or start
    return LateEntryNews(
        invitation_id=invitation.pk,
        tournament_id=t.pk,
        event=t.name,
        status=invitation.status,
        missed=invitation.missed,
        round=start,
        player=PlayerRef.of(invitation.player),
        invited_by=PlayerRef.of(invitation.invited_by) if invitation.invited_by else None,
    )
