"""The player page: ratings and their history (``ratings.pages``), with the player's events and
ladder positions (tournaments' reads: ``web`` may read every app, ``ratings`` may not), and the
signed-in visitor's Block / Unblock button (``games.blocks``).

Everything is read in a fixed number of queries, however many events, rounds, tables and
ladder members there are: the final places of finished events are computed from the rounds of
all those events read at once, with the same standings functions the event page uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from common.errors import NotFound, ServiceError
from common.players import visitor_player
from common.redirects import redirect_next
from games import blocks
from ratings.pages import player_context
from tournaments.competitions import selectors as event_reads
from tournaments.ladders.selectors import ladder_places
from tournaments.models import Ladder, LadderMember, Registration, Tournament
from tournaments.teams import selectors as team_reads

#: Events listed on the page (the most recent registrations); a note says when there are more.
EVENTS_SHOWN = 12


@dataclass
class EventLine:
    tournament: Tournament
    state: str  # in words: "registered", "checked in", "withdrawn", "playing: round 3", "finished"
    place: int | None = None  # the final place, once the event is finished
    entrants: int = 0


@dataclass
class LadderLine:
    ladder: Ladder
    name: str
    position: int | None
    members: int


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    context = player_context(request, player_id)
    player = context["player"]
    events, total = player_events(player.pk)
    context.update(
        events=events,
        events_total=total,
        events_more=total > len(events),
        ladders=ladder_positions(player.pk),
        teams=list(team_reads.player_teams(player=player)),
    )
    me = visitor_player(request)
    # The Block / Unblock button: for a signed-in visitor on another player's page, not a house bot's.
    context["can_block"] = me is not None and me.pk != player.pk and not player.is_house_bot
    context["blocked"] = context["can_block"] and blocks.has_blocked(me, player.pk)
    return render(request, "ratings/player.html", context)


@login_required
@require_POST
def player_block_page(request: HttpRequest, player_id: int, action: str) -> HttpResponse:
    """Block or unblock a player from their page (or from the settings' list of blocked players:
    the form's ``next``), through the same service as the API (``games.blocks``)."""
    me = visitor_player(request)
    assert me is not None
    try:
        if action == "block":
            blocks.block(player=me, other_id=player_id)
        elif action == "unblock":
            blocks.unblock(player=me, other_id=player_id)
        else:
            raise Http404(f"no action {action!r}")
    except NotFound:
        raise Http404(f"there is no player {player_id}") from None
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect_next(request, reverse("player", args=[player_id]))


# ---------------------------------------------------------------- events
def player_events(player_id: int, limit: int = EVENTS_SHOWN) -> tuple[list[EventLine], int]:
    """The player's latest events (drafts left out), newest first, with where they stand; and how
    many events the player has in all."""
    regs = (
        Registration.objects.filter(player_id=player_id)
        .exclude(tournament__status=Tournament.Status.DRAFT)
        .select_related("tournament", "tournament__league")
        .order_by("-tournament__created", "-tournament_id")
    )
    shown = list(regs[: limit + 1])
    total = len(shown) if len(shown) <= limit else regs.count()
    shown = shown[:limit]
    finished = [r.tournament for r in shown if r.tournament.status == Tournament.Status.FINISHED]
    places = final_places(finished, player_id)
    lines = []
    for r in shown:
        t = r.tournament
        line = EventLine(tournament=t, state=_state(t, r))
        if t.pk in places:
            line.place, line.entrants = places[t.pk]
        lines.append(line)
    return lines, total


def _state(t: Tournament, r: Registration) -> str:
    """The player's state in the event, in words (in the active language)."""
    if r.status == Registration.Status.WITHDRAWN:
        return pgettext("a player's state in an event", "withdrawn")
    if t.status == Tournament.Status.FINISHED:
        return pgettext("a player's state in an event", "finished")
    if t.status == Tournament.Status.RUNNING:
        if t.paused:
            return _("playing: round %(number)d (paused)") % {"number": t.current_round}
        return _("playing: round %(number)d") % {"number": t.current_round}
    return (
        pgettext("a player's state in an event", "checked in")
        if r.status == Registration.Status.CHECKED_IN
        else pgettext("a player's state in an event", "registered")
    )


def final_places(events: list[Tournament], player_id: int) -> dict[int, tuple[int, int]]:
    """Tournament id → (the player's final place, the number of players in the standings) for these
    finished events (``tournaments.selectors.final_places``: the events' own standings)."""
    out = {}
    for tid, places in event_reads.final_places(events).items():
        if player_id in places:
            out[tid] = (places[player_id], len(places))
    return out


# ---------------------------------------------------------------- ladders
def ladder_positions(player_id: int) -> list[LadderLine]:
    """The ladders the player is on, by name, with their place (as ``tournaments.selectors.
    ladder_order`` orders the members) and the number of members (three queries)."""
    mine = list(LadderMember.objects.filter(player_id=player_id).select_related("ladder", "ladder__league"))
    if not mine:
        return []
    places = ladder_places([m.ladder for m in mine], player_id)
    lines = []
    for m in mine:
        position, count = places[m.ladder_id]
        lines.append(LadderLine(ladder=m.ladder, name=str(m.ladder), position=position, members=count))
    return sorted(lines, key=lambda line: line.name.lower())
