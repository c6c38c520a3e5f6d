"""The player page: ratings and their history (``ratings.pages``), with the player's events and
ladder positions (tournaments' reads: ``web`` may read every app, ``ratings`` may not), and the
signed-in visitor's buttons: Follow / Unfollow (``community.friends``), Block / Unblock
(``games.blocks``), Challenge to a table (``community.challenges``) and Report
(``community.reports``), each through the same service as the API.

Everything is read in a fixed number of queries, however many events, rounds, tables and
ladder members there are: the final places of finished events are computed from the rounds of
all those events read at once, with the same standings functions the event page uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from common.errors import NotFound, ServiceError
from common.players import visitor_player
from common.redirects import redirect_next
from community import challenges, friends, reports
from community.models import Report
from games import blocks
from games.models import GameKind, Player
from ratings.pages import player_context
from tournaments.competitions import selectors as event_reads
from tournaments.ladders.selectors import ladder_places
from tournaments.models import Ladder, LadderMember, Registration, Tournament
from tournaments.teams import selectors as team_reads

from .pages import TIME_CONTROL_LABELS, TIME_CONTROLS

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
    context.update(_friend_buttons(me, player))
    return render(request, "ratings/player.html", context)


def _friend_buttons(me: Player | None, player: Player) -> dict[str, object]:
    """Follow, Challenge and Report on another player's page, for a signed-in person (guests
    neither follow, challenge nor report); a challenge that would be refused says why instead."""
    person = me is not None and me.pk != player.pk and not me.is_guest
    can_follow = person and not player.is_guest
    can_challenge = person and not player.is_bot and not player.is_guest
    return {
        "can_follow": can_follow,
        "following": can_follow and friends.is_following(me, player.pk),
        "can_challenge": can_challenge,
        "challenge_refusal": challenges.refusal(by=me, to=player) if can_challenge else None,
        "challenge_games": GameKind.choices,
        "challenge_time_controls": TIME_CONTROL_LABELS,
        "can_report": person,
        "report_reasons": Report.Reason.choices,
    }


@login_required
@require_POST
def player_block_page(request: HttpRequest, player_id: int, action: str) -> HttpResponse:
    """Block or unblock a player from their page (or from the settings' list of blocked players:
    the form's ``next``), follow or unfollow them, challenge them to a table or report them,
    through the same services as the API (``games.blocks``, ``community``)."""
    me = visitor_player(request)
    assert me is not None
    try:
        if action == "block":
            blocks.block(player=me, other_id=player_id)
        elif action == "unblock":
            blocks.unblock(player=me, other_id=player_id)
        elif action == "follow":
            friends.follow(player=me, other_id=player_id)
        elif action == "unfollow":
            friends.unfollow(player=me, other_id=player_id)
        elif action == "challenge":
            return _challenge(request, me, player_id)
        elif action == "report":
            reports.report(
                reporter=me,
                subject=Report.Subject.PLAYER,
                reason=request.POST.get("reason", ""),
                details=request.POST.get("details", ""),
                player_id=player_id,
            )
            messages.success(request, _("Thank you: your report is with the moderators."))
        else:
            raise Http404(f"no action {action!r}")
    except NotFound:
        raise Http404(f"there is no player {player_id}") from None
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect_next(request, reverse("player", args=[player_id]))


def _challenge(request: HttpRequest, me: Player, player_id: int) -> HttpResponse:
    """The player page's challenge form: a table opened with a seat kept for the player."""
    choice = request.POST.get("time_control", "")
    try:
        players = int(request.POST.get("players", "2"))
    except ValueError:
        players = 0
    if choice not in TIME_CONTROLS:
        messages.error(request, _("choose one of the time controls offered"))
    else:
        try:
            table = challenges.challenge(
                by=me,
                to_id=player_id,
                game=request.POST.get("game", ""),
                players=players,
                time_control=TIME_CONTROLS[choice],
                rated=request.POST.get("rated") == "on",
            )
        except NotFound:
            raise Http404(f"there is no player {player_id}") from None
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Challenge sent: your seat is taken and one is kept for them."))
            return redirect("table", table.pk)
    return redirect(reverse("player", args=[player_id]) + "#challenge")


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
