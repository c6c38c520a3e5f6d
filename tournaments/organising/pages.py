"""The organiser dashboard and its actions (same services as the API): creating leagues and events,
bot matches, asking for the organiser role.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy
from django.views.decorators.http import require_POST

from common.errors import ServiceError
from common.players import request_player
from games.models import Player
from games.wording import time_left_text

from .. import selectors as league_selectors
from ..competitions import selectors as event_selectors
from ..competitions import services
from ..models import Ladder, League, Tournament
from . import actions, botmatches, roles, selectors
from .console import _places_text
from .forms import BotMatchForm, LeagueForm, OrganiserRequestForm, TournamentForm


@login_required
@require_POST
def bot_match_page(request: HttpRequest) -> HttpResponse:
    form = BotMatchForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items())
        messages.error(request, _("bot match: %(errors)s") % {"errors": errors})
        return redirect("dashboard")
    d = form.cleaned_data
    levels = [d[f"seat{n}"] for n in range(1, 5) if d[f"seat{n}"]]
    try:
        tables = botmatches.bot_match_start(
            by=request_player(request),
            game=d["game"],
            levels=levels,
            games_count=d["games"],
            rated=d["rated"],
        )
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        listed = ", ".join(f"#{t}" for t in tables)
        messages.success(
            request,
            ngettext(
                "bot match started: table %(tables)s", "bot match started: tables %(tables)s", len(tables)
            )
            % {"tables": listed},
        )
    return redirect("dashboard")


def _event_form_fields(form: TournamentForm) -> list[tuple[Any, str]]:
    """The event form's fields, each with the formats it applies to ("" for all); the schedule's
    fields are left to their own fieldset (``form.SCHEDULE``)."""
    return [
        (field, " ".join(TournamentForm.ONLY_FOR.get(field.name, [])))
        for field in form
        if field.name not in TournamentForm.SCHEDULE
    ]


def _create_event(request: HttpRequest, me: Player, form: TournamentForm) -> Tournament | None:
    d = form.cleaned_data
    tc = (
        {"kind": "fischer", "base": d["base_minutes"] * 60, "increment": d["increment"]}
        if d["base_minutes"]
        else None
    )
    fmt = d["format"]
    arena = fmt == Tournament.Format.ARENA
    try:
        t = services.tournament_create(
            organiser=me,
            league=d["league"],
            name=d["name"],
            game=d["game"],
            seats=d["seats"],
            format=fmt,
            rounds=(d["rounds"] or None) if fmt == Tournament.Format.SWISS else None,
            advance=(d["advance"] or 1) if fmt == Tournament.Format.KNOCKOUT else 1,
            time_control=tc,
            rated=d["rated"],
            check_in=d["check_in"],
            requested_bye=d["requested_bye"] or "half",
            max_players=d["max_players"],
            rating_min=d["rating_min"],
            rating_max=d["rating_max"],
            registration_opens=d["registration_opens"],
            registration_closes=d["registration_closes"],
            **form.schedule(),
            **({"duration_minutes": d["duration_minutes"], "berserk": d["berserk"]} if arena else {}),
            **(
                {"team_battle_top": d["team_battle_top"], "battle_teams": d["battle_teams"]}
                if arena and (d.get("team_battle_top") or d.get("battle_teams"))
                else {}
            ),
        )
    except ServiceError as exc:
        messages.error(request, exc.detail)
        return None
    words = {"event": t.name, "format": t.get_format_display(), "n": t.max_players}
    if t.max_players:
        done = ngettext(
            "%(event)s created (%(format)s, up to %(n)d player): registration is open",
            "%(event)s created (%(format)s, up to %(n)d players): registration is open",
            t.max_players,
        )
    else:
        done = _("%(event)s created (%(format)s, no limit on players): registration is open")
    messages.success(request, done % words)
    return t


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The organiser dashboard: the forms to create a league or an event (they post here), what
    needs attention in the viewer's leagues, finished events and bot matches."""
    me = request_player(request)
    leagues = selectors.organiser_leagues(me, staff=request.user.is_staff)
    league_form, form, league_list = _dashboard_forms(request, leagues)
    if request.method == "POST":
        if request.POST.get("form") == "league":
            done = _post_league(request, me, league_form)
        else:
            done = _post_event(request, me, form)
        if done is not None:
            return done
    board = selectors.dashboard(leagues)
    attention = [*_event_notes(board.events), *_ladder_notes(board.ladders)]
    may_organise = roles.may_organise(player=me)  # also who may start bot matches (``botmatches``)
    context = {
        "form": form,
        "form_fields": _event_form_fields(form),
        "schedule_fields": [
            (form[name], " ".join(TournamentForm.ONLY_FOR.get(name, []))) for name in TournamentForm.SCHEDULE
        ],
        "league_form": league_form,
        "events": board.events,
        "finished": actions.finished_events(leagues=leagues) if league_list else [],
        "attention": attention,
        "leagues": league_list,
        "bot_form": BotMatchForm(),
        "can_bot_match": may_organise,
        "may_organise": may_organise,
        "bot_tables": selectors.bot_tables(me),
    }
    return render(request, "tournaments/dashboard.html", context)


def _dashboard_forms(
    request: HttpRequest, leagues: QuerySet[League]
) -> tuple[LeagueForm, TournamentForm, list[League]]:
    """The league form and the event form (bound to the post they answer, if any), and the
    organiser's leagues, read once: the event form's choices and the page use the same rows."""
    posted = request.method == "POST"
    league_form = LeagueForm(request.POST if posted and request.POST.get("form") == "league" else None)
    form = TournamentForm(request.POST if posted and request.POST.get("form") != "league" else None)
    form.fields["league"].queryset = leagues  # type: ignore[attr-defined]
    league_list = list(leagues)
    form.fields["league"].choices = [("", "---------")] + [(x.pk, x.name) for x in league_list]  # type: ignore[attr-defined]
    return league_form, form, league_list


def _post_league(request: HttpRequest, me: Player, league_form: LeagueForm) -> HttpResponse | None:
    """Create the posted league; a redirect once created, else ``None`` (the page shows the errors)."""
    if not league_form.is_valid():
        return None
    try:
        league = services.league_create(
            organiser=me,
            name=league_form.cleaned_data["name"],
            description=league_form.cleaned_data["description"],
        )
    except ServiceError as exc:
        messages.error(request, exc.detail)
        return None
    messages.success(request, _("League %(league)s created: you are its organiser") % {"league": league.name})
    return redirect("dashboard")


def _post_event(request: HttpRequest, me: Player, form: TournamentForm) -> HttpResponse | None:
    """Create the posted event; a redirect to its console once created, else ``None``."""
    if not form.is_valid():
        return None
    t = _create_event(request, me, form)
    return redirect("organiser-event", t.pk) if t is not None else None


def _event_notes(events: list[Tournament]) -> list[tuple[Any, str]]:
    """The events needing attention, each with a note: registration open, or the round being played."""
    notes: list[tuple[Any, str]] = []
    for t in events:
        if t.status == Tournament.Status.REGISTRATION:
            registered = t.registered  # type: ignore[attr-defined]
            notes.append(
                (
                    t,
                    ngettext(
                        "registration open: %(n)d player", "registration open: %(n)d players", registered
                    )
                    % {"n": registered},
                )
            )
        if t.status == Tournament.Status.RUNNING:
            notes.append((t, _running_note(t)))
    return notes


def _running_note(t: Tournament) -> str:
    """A running event's note: "round 3: 2 tables still playing (paused), 1 past their deadline"."""
    if t.format == Tournament.Format.ARENA and t.ends_at is not None:  # no rounds: the time left
        left = max(0.0, (t.ends_at - timezone.now()).total_seconds())
        return _("arena: ends in %(left)s") % {"left": time_left_text(left)}
    waiting, overdue = t.waiting, t.overdue  # type: ignore[attr-defined]
    note = ngettext(
        "round %(round)d: %(n)d table still playing",
        "round %(round)d: %(n)d tables still playing",
        waiting,
    ) % {"round": t.current_round, "n": waiting}
    if t.paused:
        # Translators: a running event's note on the dashboard, when the organisers paused it.
        note = _("%(note)s (paused)") % {"note": note}
    if overdue:
        note = ngettext(
            "%(note)s, %(n)d past their deadline", "%(note)s, %(n)d past their deadline", overdue
        ) % {"note": note, "n": overdue}
    return note


def _ladder_notes(ladders: list[Ladder]) -> list[tuple[Any, str]]:
    """The ladders with challenges waiting for an answer or players in the queue, each with a note."""
    notes: list[tuple[Any, str]] = []
    for ladder in ladders:
        count, queued = ladder.pending, ladder.queued  # type: ignore[attr-defined]
        parts = []
        if count:
            parts.append(
                ngettext(
                    "%(n)d challenge waiting for an answer", "%(n)d challenges waiting for an answer", count
                )
                % {"n": count}
            )
        if queued:
            parts.append(
                ngettext("%(n)d player in the queue", "%(n)d players in the queue", queued) % {"n": queued}
            )
        if parts:
            notes.append((ladder, ", ".join(parts)))
    return notes


@login_required
def organiser_request_page(request: HttpRequest) -> HttpResponse:
    """Ask staff for the organiser role (``tournaments.organising.roles``), and see the answer."""
    me = request_player(request)
    form = OrganiserRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            roles.request_role(player=me, message=form.cleaned_data["message"])
        except ServiceError as exc:
            messages.error(request, exc.detail)
        else:
            messages.success(request, _("asked: staff will answer your request"))
            return redirect("organiser-request")
    context = {
        "form": form,
        "may_organise": roles.may_organise(player=me),
        "requests": selectors.organiser_requests(me) if not request.user.is_staff else [],
    }
    return render(request, "tournaments/organiser_request.html", context)


#: The dashboard's actions, as its confirmation names them.
DASHBOARD_ACTIONS = {
    "start": pgettext_lazy("organiser action", "start"),
    "next-round": pgettext_lazy("organiser action", "next round"),
    "add-bot": pgettext_lazy("organiser action", "add bot"),
    "late-entry": pgettext_lazy("organiser action", "late entry"),
    "withdraw": pgettext_lazy("organiser action", "withdraw"),
}


@login_required
@require_POST
def dashboard_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    me = request_player(request)
    try:
        if action == "start":
            services.start(tournament_id=tournament_id, by=me)
        elif action == "next-round":
            services.next_round(tournament_id=tournament_id, by=me)
        elif action == "add-bot":
            services.register_bot(tournament_id=tournament_id, level=request.POST.get("level", ""), by=me)
        elif action == "late-entry":
            who = league_selectors.find_player(request.POST.get("player"))
            if who is None:
                raise Http404("no such player")
            missed = request.POST.get("missed", "zero")
            invitation = services.late_entry(tournament_id=tournament_id, player=who, by=me, missed=missed)
            if invitation.status == invitation.Status.PENDING:
                messages.success(
                    request,
                    _(
                        "%(name)s is invited to enter %(event)s late: they are entered (from the next "
                        "round) only if they accept"
                    )
                    % {"name": who.display_name, "event": invitation.tournament.name},
                )
                return redirect("dashboard")
        elif action == "withdraw":
            who = league_selectors.find_player(request.POST.get("player"))
            if who is None:
                raise Http404("no such player")
            services.withdraw(tournament_id=tournament_id, player=who, by=me)
        else:
            raise Http404("no such action")
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        t = event_selectors.tournament(tournament_id)
        messages.success(
            request,
            _("%(event)s: %(action)s done (%(places)s)")
            % {"event": t.name, "action": DASHBOARD_ACTIONS.get(action, action), "places": _places_text(t)},
        )
    return redirect("dashboard")


# ------------------------------------------------------------ the event page
