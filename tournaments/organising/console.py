"""An event's organiser page (the console) and its actions: registrations, seeds, results,
announcements, the round's controls and the exports (same services as the API).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from common.errors import InvalidInput, NotFound, ServiceError
from common.players import request_player
from common.validation import ascii_int, ascii_int_or_none
from games.models import Player
from games.wording import ordinal

from .. import selectors as league_selectors
from ..calendar import starts
from ..competitions import selectors as event_selectors
from ..competitions import services
from ..competitions.views import sitting_out
from ..models import Registration, Round, Tournament
from . import actions, arena_console
from .forms import DATETIME_FORMATS, LEVEL_CHOICES


def _organised_event(request: HttpRequest, tournament_id: int) -> tuple[Player, Tournament]:
    """The event and the organiser looking at it: 404 for no event, 403 for anybody else."""
    me = request_player(request)
    t = Tournament.objects.select_related("league").filter(pk=tournament_id).first()
    if t is None:
        raise Http404("no such event")
    if not league_selectors.is_organiser(t.league, me):
        raise PermissionDenied(
            _("only organisers of %(league)s manage this event") % {"league": t.league.name}
        )
    return me, t


def _round_summary(rnd: Round | None, again: bool = False) -> str:
    """ "Round 3 paired: 4 tables, bye for Dave"."""
    if rnd is None:
        return ""
    count = rnd.tables.count()
    words = {"round": rnd.number, "n": count}
    if again:
        text = ngettext(
            "Round %(round)d paired again: %(n)d table", "Round %(round)d paired again: %(n)d tables", count
        )
    else:
        text = ngettext("Round %(round)d paired: %(n)d table", "Round %(round)d paired: %(n)d tables", count)
    text %= words
    if rnd.byes:
        names = dict(Player.objects.filter(pk__in=rnd.byes).values_list("pk", "display_name"))
        listed = ", ".join(names.get(p, "?") for p in rnd.byes)
        text = _("%(summary)s, bye for %(names)s") % {"summary": text, "names": listed}
    return text


def _places_text(t: Tournament) -> str:
    taken = services.places_taken(t=t)
    if t.max_players:
        return ngettext("%(taken)d of %(n)d place", "%(taken)d of %(n)d places", t.max_players) % {
            "taken": taken,
            "n": t.max_players,
        }
    return ngettext("%(n)d player registered", "%(n)d players registered", taken) % {"n": taken}


def _current_round(t: Tournament) -> Round | None:
    return Round.objects.filter(tournament=t, number=t.current_round).first()


def _next_round_block(t: Tournament, rounds: list[Round]) -> str:
    """Why the next round cannot be started by hand now ("" when it can)."""
    if t.status != Tournament.Status.RUNNING:
        return _("the event is %(status)s") % {"status": t.get_status_display()}
    current = next((r for r in rounds if r.number == t.current_round), None)
    if current is not None and current.status != Round.Status.FINISHED:
        playing = sum(1 for rt in current.tables.all() if rt.table.status == "active")
        return ngettext(
            "round %(round)d is still being played (%(n)d table playing)",
            "round %(round)d is still being played (%(n)d tables playing)",
            playing,
        ) % {"round": current.number, "n": playing}
    if t.format != Tournament.Format.DOUBLE_ELIMINATION and t.current_round >= t.rounds:
        return _("every round has been played")
    return ""


def _scheduled(t: Tournament) -> dict[str, Any] | None:
    """A scheduled event not started: when, how many would play now, and how many it needs."""
    if t.starts_at is None or t.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        return None
    return {"at": t.starts_at, "present": starts.present(t=t), "needed": starts.needed(t=t)}


@login_required
def event_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _, t = _organised_event(request, tournament_id)
    detail = event_selectors.tournament_detail(tournament_id)
    rounds = list(detail.round_set.all())
    current = next((r for r in rounds if r.number == t.current_round), None)
    repair_block = (
        services.repair_refusal(rnd=current)
        if current is not None and current.status == Round.Status.RUNNING
        else ""
    )
    repairable = current is not None and current.status == Round.Status.RUNNING and not repair_block
    regs = actions.registrations(t=t)
    names = {r.player_id: r.player.display_name for r in regs}
    gone = {r.player_id for r in regs if r.status == Registration.Status.WITHDRAWN}
    boards = []
    for rnd in reversed(rounds):
        tables = []
        seated: set[int] = set()
        for rt in rnd.tables.all():
            seats = list(rt.table.seats.all())
            seated.update(s.player_id for s in seats)
            tables.append(
                {
                    "board": rt.number,
                    "table": rt.table,
                    "seats": seats,
                    "choices": [(n, ordinal(n)) for n in range(1, len(seats) + 1)],
                    "refusal": (
                        actions.correction_refusal(t=t, rnd=rnd) if rt.table.status == "finished" else ""
                    ),
                }
            )
        # Who has no table: byes, and a round robin's sit-out (``sitting_out``).
        off = [*rnd.byes, *sitting_out(t, rnd, seated, gone)]
        boards.append({"round": rnd, "tables": tables, "byes": [names.get(p, "?") for p in off]})
    find = request.GET.get("find", "").strip()
    context = {
        "t": t,
        "detail": detail,
        "registrations": regs,
        "active_count": sum(1 for r in regs if r.status != Registration.Status.WITHDRAWN),
        "places": _places_text(t),
        "not_started": t.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION),
        "scheduled": _scheduled(t),
        "running": t.status == Tournament.Status.RUNNING,
        "current": current,
        "next_block": _next_round_block(t, rounds),
        "repairable": repairable,
        "repair_block": repair_block,
        "boards": boards,
        "find": find,
        "found": actions.matching_players(name=find) if find else [],
        "entered": {r.player_id for r in regs if r.status != Registration.Status.WITHDRAWN},
        "announcements": list(t.announcements.select_related("author")),
        "audit": actions.audit_log(t=t),
        "levels": [level for level, _ in LEVEL_CHOICES],
        "seeded_format": t.format in actions.ELIMINATION_FORMATS,
        # An arena has no rounds: its clock, players, tables and leaderboard instead (``arena_console``).
        "arena": arena_console.arena_console(t=t) if arena_console.is_arena(t) else None,
        "use_seeds": t.format not in (Tournament.Format.ROUND_ROBIN, Tournament.Format.ARENA)
        and t.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION),
    }
    return render(request, "tournaments/organiser_event.html", context)


def _register(request: HttpRequest, me: Player, t: Tournament) -> str | HttpResponse:
    if request.POST.get("player"):
        who = league_selectors.find_player(request.POST.get("player"))
        if who is None or who.is_bot or who.is_guest:
            raise InvalidInput(_("there is no such player"))
    else:
        name = request.POST.get("player_name", "").strip()
        if not name:
            raise InvalidInput(_("type a name to find the player to register"))
        found = actions.matching_players(name=name)
        if not found:
            raise NotFound(_("nobody is called %(name)s (or anything like it)") % {"name": repr(name)})
        if len(found) > 1:
            messages.info(
                request,
                ngettext(
                    "%(n)d player matches %(name)s: choose one below",
                    "%(n)d players match %(name)s: choose one below",
                    len(found),
                )
                % {"n": len(found), "name": repr(name)},
            )
            return redirect(f"{reverse('organiser-event', args=[t.pk])}?find={quote(name)}#register")
        who = found[0]
    services.register(tournament_id=t.pk, player=who, by=me)
    t.refresh_from_db()
    words = {"name": who.display_name, "places": _places_text(t)}
    if t.check_in:
        return _("%(name)s registered (checked in): %(places)s") % words
    return _("%(name)s registered: %(places)s") % words


#: The largest seed a form may give: what the column holds (seeds are 1, 2, 3, … in practice).
SEED_MAX = 2**31 - 1


def _seeds(request: HttpRequest, me: Player, t: Tournament) -> str:
    seeds: dict[int, int | None] = {}
    for key, value in request.POST.items():
        player_id = ascii_int_or_none(key[5:]) if key.startswith("seed_") else None
        if player_id is None:
            continue
        value = value.strip()
        try:
            seeds[player_id] = ascii_int(value, hi=SEED_MAX) if value else None
        except ValueError:
            message = _("a seed is a whole number, not %(value)s") % {"value": repr(value)}
            raise InvalidInput(message) from None
    services.set_seeds(tournament_id=t.pk, seeds=seeds, by=me)
    rows = Registration.objects.filter(tournament=t, seed__isnull=False).select_related("player")
    listed = ", ".join(f"{r.seed}. {r.player.display_name}" for r in rows.order_by("seed"))
    if listed:
        return _("Seeds saved: %(seeds)s") % {"seeds": listed}
    return _("Seeds saved: nobody is seeded (the bracket follows ratings)")


def _result(request: HttpRequest, me: Player, t: Tournament) -> str:
    table_id = ascii_int_or_none(request.POST.get("table"))
    if table_id is None:
        raise InvalidInput(_("which table? (no table was named)"))
    ranks: dict[int, int] = {}
    for key, value in request.POST.items():
        seat = ascii_int_or_none(key[5:]) if key.startswith("rank_") else None
        if seat is not None:
            rank = ascii_int_or_none(value)
            if rank is None:
                raise InvalidInput(_("choose a place for seat %(seat)s") % {"seat": seat})
            ranks[seat] = rank
    change = actions.enter_result(
        tournament_id=t.pk, table_id=table_id, ranks=ranks, reason=request.POST.get("reason", ""), by=me
    )
    return change.message


def _player_named(request: HttpRequest) -> Player:
    who = league_selectors.find_player(request.POST.get("player"))
    if who is None:
        raise NotFound(_("there is no such player"))
    return who


@login_required
@require_POST
def event_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """Every write of the event page: one service call, a confirmation in words, back to the page."""
    me, t = _organised_event(request, tournament_id)
    page = redirect("organiser-event", t.pk)
    act = EVENT_ACTIONS.get(action)
    if act is None:
        raise Http404("no such action")
    refusal = arena_console.round_action_refusal(t=t, action=action)
    if refusal:  # a round's action for an arena: refused before any service is called
        messages.error(request, refusal)
        return page
    try:
        done = act(request, me, t)
    except ServiceError as exc:
        messages.error(request, exc.detail)
        return page
    if isinstance(done, HttpResponse):
        return done
    messages.success(request, done)
    return page


def _remove(request: HttpRequest, me: Player, t: Tournament) -> str:
    who = _player_named(request)
    services.withdraw(tournament_id=t.pk, player=who, by=me)
    return _("%(name)s removed from %(event)s: %(places)s") % {
        "name": who.display_name,
        "event": t.name,
        "places": _places_text(t),
    }


def _check_in(request: HttpRequest, me: Player, t: Tournament) -> str:
    who = _player_named(request)
    services.check_in(tournament_id=t.pk, player=who, by=me)
    return _("%(name)s checked in") % {"name": who.display_name}


def _add_bot(request: HttpRequest, me: Player, t: Tournament) -> str:
    reg = services.register_bot(tournament_id=t.pk, level=request.POST.get("level", ""), by=me)
    return _("%(name)s entered (checked in): %(places)s") % {
        "name": reg.player.display_name,
        "places": _places_text(t),
    }


def _start(request: HttpRequest, me: Player, t: Tournament) -> str:
    services.start(tournament_id=t.pk, by=me)
    t.refresh_from_db()
    if arena_console.is_arena(t):
        return arena_console.started_words(t=t)
    return _("%(event)s started. %(summary)s") % {
        "event": t.name,
        "summary": _round_summary(_current_round(t)),
    }


def _postpone(request: HttpRequest, me: Player, t: Tournament) -> str:
    field = forms.DateTimeField(input_formats=DATETIME_FORMATS)
    try:
        at = field.clean(request.POST.get("starts_at", "").strip())
    except ValidationError:
        raise InvalidInput(_("give the new start time as a date and a time")) from None
    t = starts.postpone(tournament_id=t.pk, starts_at=at, by=me)
    return _("%(event)s now starts at %(when)s: the registered players are told") % {
        "event": t.name,
        "when": date_format(localtime(t.starts_at), "DATETIME_FORMAT"),
    }


def _call_off(request: HttpRequest, me: Player, t: Tournament) -> str:
    starts.call_off(tournament_id=t.pk, by=me, reason=request.POST.get("reason", ""))
    return _("%(event)s is called off: the registered players are told") % {"event": t.name}


def _pause(request: HttpRequest, me: Player, t: Tournament) -> str:
    services.pause(tournament_id=t.pk, by=me)
    if arena_console.is_arena(t):
        return arena_console.paused_words(t=t)
    return _("%(event)s paused: round %(round)s plays on, and no new round is paired until you resume") % {
        "event": t.name,
        "round": t.current_round,
    }


def _resume(request: HttpRequest, me: Player, t: Tournament) -> str:
    rnd = services.resume(tournament_id=t.pk, by=me)
    t.refresh_from_db()
    if arena_console.is_arena(t) and t.status == Tournament.Status.RUNNING:
        return arena_console.resumed_words(t=t)
    if rnd:
        return _("%(event)s resumed. %(summary)s") % {"event": t.name, "summary": _round_summary(rnd)}
    if t.status == Tournament.Status.FINISHED:
        return _("%(event)s resumed: every round has been played, the event is finished") % {"event": t.name}
    return _("%(event)s resumed") % {"event": t.name}


def _next_round(request: HttpRequest, me: Player, t: Tournament) -> str:
    return _round_summary(services.next_round(tournament_id=t.pk, by=me))


def _repair(request: HttpRequest, me: Player, t: Tournament) -> str:
    if request.POST.get("confirm") != "yes":
        raise InvalidInput(
            _(
                "round %(round)s was not paired again: tick the box to confirm that its tables are "
                "deleted and everyone is paired afresh"
            )
            % {"round": t.current_round}
        )
    return _round_summary(services.repair_round(tournament_id=t.pk, by=me), again=True)


def _announce(request: HttpRequest, me: Player, t: Tournament) -> str:
    actions.announce(tournament_id=t.pk, text=request.POST.get("text", ""), by=me)
    return _("Announcement posted on the event page")


def _announcement_delete(request: HttpRequest, me: Player, t: Tournament) -> str:
    announcement_id = ascii_int_or_none(request.POST.get("announcement"))
    if announcement_id is None:
        raise NotFound(_("there is no such announcement"))
    actions.announcement_delete(tournament_id=t.pk, announcement_id=announcement_id, by=me)
    return _("Announcement deleted")


#: The event page's actions (the last part of the address): each does one write and says what it did
#: (or answers with a page of its own, as registering by a name several players match does).
EVENT_ACTIONS: dict[str, Callable[[HttpRequest, Player, Tournament], str | HttpResponse]] = {
    "register": _register,
    "remove": _remove,
    "check-in": _check_in,
    "seeds": _seeds,
    "add-bot": _add_bot,
    "start": _start,
    "postpone": _postpone,
    "call-off": _call_off,
    "pause": _pause,
    "resume": _resume,
    "next-round": _next_round,
    "repair": _repair,
    "result": _result,
    "announce": _announce,
    "announcement-delete": _announcement_delete,
}


def _download(request: HttpRequest, tournament_id: int, what: str) -> HttpResponse:
    """One of the event's exports, as an attachment named after the event."""
    _me, t = _organised_event(request, tournament_id)
    build, content_type, suffix = EXPORTS[what]
    if arena_console.is_arena(t):  # no rounds: the leaderboard and the arena's tables
        if what not in ARENA_EXPORTS:
            messages.error(request, _("an arena has no rounds, so no crosstable: export its standings"))
            return redirect("organiser-event", t.pk)
        build = ARENA_EXPORTS[what]
    response = HttpResponse(build(t=t), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{slugify(t.name) or t.pk}-{suffix}"'
    return response


EXPORTS: dict[str, tuple[Callable[..., Any], str, str]] = {
    "standings": (actions.standings_csv, "text/csv; charset=utf-8", "standings.csv"),
    "crosstable": (actions.crosstable_csv, "text/csv; charset=utf-8", "crosstable.csv"),
    "records": (actions.records_zip, "application/zip", "records.zip"),
}
ARENA_EXPORTS: dict[str, Callable[..., Any]] = {
    "standings": arena_console.standings_csv,
    "records": arena_console.records_zip,
}


@login_required
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _download(request, tournament_id, "standings")


@login_required
def crosstable_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _download(request, tournament_id, "crosstable")


@login_required
def records_zip(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _download(request, tournament_id, "records")
