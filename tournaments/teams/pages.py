"""The team pages: the list of teams (with a form for a new team), a team (members in board
order, rating average, results, joining and leaving, one's own invitation), and the captain's
tools (invitations and requests, board order and alternates, captain and vice-captain, details).

Every form posts to :func:`team_action`, which calls the same services as the API and says in a
message what happened or why not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import NotFound, ServiceError
from common.players import request_player, visitor_player
from games.models import GameKind, Player

from ..models import League, Team, TeamInvitation
from . import selectors, services


def _team(slug: str) -> Team:
    try:
        return selectors.team(slug=slug)
    except NotFound:
        raise Http404("no such team") from None


def _number(raw: str | None) -> int | None:
    raw = (raw or "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 9 else None


def _my_clubs(me: Player | None) -> list[League]:
    """The clubs ``me`` may make a team in: the ones they are a member or an organiser of."""
    if me is None:
        return []
    return list(League.objects.filter(Q(members=me) | Q(organisers=me)).distinct().order_by("name"))


def _member_rows(team: Team) -> list[dict[str, Any]]:
    return [
        {
            "member": m,
            "player": m.player,
            "rating": m.rating,  # type: ignore[attr-defined]
            "position": n,
            "captain": m.player_id == team.captain_id,
            "vice": m.player_id == team.vice_captain_id,
        }
        for n, m in enumerate(selectors.board_order(team=team), start=1)
    ]


# ------------------------------------------------------------------ pages
def team_list_page(request: HttpRequest) -> HttpResponse:
    """Every team (or one club's: ``?league=``), a name search (``?q=``), and a new team's form
    for signed-in players (posted here)."""
    me = visitor_player(request)
    if request.method == "POST":
        return _create(request)
    league = None
    if request.GET.get("league"):
        league = League.objects.filter(slug=request.GET["league"]).first()
        if league is None:
            raise Http404("no such league")
    search = request.GET.get("q", "")[:80]
    context = {
        "teams": selectors.team_list(league=league, search=search)[:200],
        "league": league,
        "search": search,
        "clubs": _my_clubs(me),
        "games": GameKind.choices,
        "default_game": Team._meta.get_field("game").default,
        "orders": Team.BoardOrder.choices,
        "can_create": me is not None and not me.is_guest and not me.is_bot,
        "mine": list(selectors.player_teams(player=me)) if me is not None else [],
    }
    return render(request, "teams/team_list.html", context)


def team_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A team: its members in board order with ratings and roles, the rating average, its results,
    and the reader's own actions (join, leave, answer an invitation)."""
    team = _team(slug)
    me = visitor_player(request)
    rows = _member_rows(team)
    manages = services.can_manage(team=team, player=me)
    context = {
        "team": team,
        "rows": rows,
        "regulars": sum(1 for r in rows if not r["member"].alternate),
        "average": selectors.rating_average(team=team),
        "results": selectors.team_results(team=team),
        "is_member": me is not None and any(r["player"].pk == me.pk for r in rows),
        "manages": manages,
        "invitation": selectors.my_invitation(team=team, player=me),
        "requests": (
            selectors.pending_invitations(team=team).filter(kind=TeamInvitation.Kind.REQUEST).count()
            if manages
            else 0
        ),
    }
    return render(request, "teams/team.html", context)


@login_required
def team_manage_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The captain's tools: invite by username, answer requests, order the boards and mark the
    alternates, name the captain and vice-captain, edit the details."""
    team = _team(slug)
    me = request_player(request)
    if not services.can_manage(team=team, player=me):
        messages.error(
            request, _("Only the captain and vice-captain of %(team)s may manage it.") % {"team": team.name}
        )
        return redirect("team", slug=team.slug)
    pending = list(selectors.pending_invitations(team=team))
    context = {
        "team": team,
        "rows": _member_rows(team),
        "requests": [i for i in pending if i.kind == TeamInvitation.Kind.REQUEST],
        "invited": [i for i in pending if i.kind == TeamInvitation.Kind.INVITE],
        "games": GameKind.choices,
        "orders": Team.BoardOrder.choices,
        "sets_roles": services.can_set_roles(team=team, player=me),
    }
    return render(request, "teams/team_manage.html", context)


# ------------------------------------------------------------------ the forms
def _create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    me = request_player(request)
    p = request.POST
    league = None
    if p.get("league"):
        league = League.objects.filter(slug=p["league"]).first()
    try:
        team = services.team_create(
            by=me,
            name=p.get("name", ""),
            league=league,
            game=p.get("game") or GameKind.PACRU,
            board_order=p.get("board_order") or Team.BoardOrder.RATING,
            description=p.get("description", ""),
        )
    except ServiceError as exc:
        messages.error(request, exc.detail)
        return redirect("teams")
    messages.success(request, _("Your team %(team)s is made: you are its captain.") % {"team": team.name})
    return redirect("team", slug=team.slug)


def _invitee(raw: str) -> Player:
    name = raw.strip()
    found = Player.objects.filter(user__username__iexact=name).first() if name else None
    found = found or (Player.objects.filter(display_name__iexact=name).first() if name else None)
    if found is None:
        raise NotFound(_("there is no player called %(name)s") % {"name": repr(name)})
    return found


def _invite(request: HttpRequest, team: Team, me: Player) -> str:
    player = _invitee(request.POST.get("username", ""))
    services.invite(team_id=team.pk, by=me, player_id=player.pk)
    return _("%(player)s is invited: they join when they accept.") % {"player": player.display_name}


def _answer(request: HttpRequest, team: Team, me: Player, accept: bool) -> str:
    invitation_id = _number(request.POST.get("invitation"))
    if invitation_id is None or not TeamInvitation.objects.filter(pk=invitation_id, team=team).exists():
        raise NotFound(_("there is no such invitation for %(team)s") % {"team": team.name})
    done = services.answer(invitation_id=invitation_id, by=me, accept=accept)
    args = {"player": done.player.display_name, "team": team.name}
    if done.kind == TeamInvitation.Kind.REQUEST:
        return (
            _("%(player)s is on %(team)s now.") if accept else _("You declined %(player)s's request.")
        ) % args
    return (_("Welcome to %(team)s!") if accept else _("You declined the invitation to %(team)s.")) % args


def _cancel(request: HttpRequest, team: Team, me: Player) -> str:
    invitation_id = _number(request.POST.get("invitation"))
    if invitation_id is None or not TeamInvitation.objects.filter(pk=invitation_id, team=team).exists():
        raise NotFound(_("there is no such invitation for %(team)s") % {"team": team.name})
    done = services.cancel_invitation(invitation_id=invitation_id, by=me)
    if done.kind == TeamInvitation.Kind.REQUEST:
        return _("You withdrew your request to join %(team)s.") % {"team": team.name}
    return _("The invitation to %(player)s is withdrawn.") % {"player": done.player.display_name}


def _join(request: HttpRequest, team: Team, me: Player) -> str:
    services.request_join(team_id=team.pk, by=me)
    return _("You asked to join %(team)s: its captain answers.") % {"team": team.name}


def _leave(request: HttpRequest, team: Team, me: Player) -> str:
    if services.leave(team_id=team.pk, by=me):
        return _("You left %(team)s, its last player: the team is gone.") % {"team": team.name}
    return _("You left %(team)s.") % {"team": team.name}


def _remove(request: HttpRequest, team: Team, me: Player) -> str:
    player_id = _number(request.POST.get("player"))
    player = Player.objects.filter(pk=player_id).first() if player_id else None
    if player is None:
        raise NotFound(_("there is no such player on %(team)s") % {"team": team.name})
    services.remove_member(team_id=team.pk, by=me, player_id=player.pk)
    return _("%(player)s is no longer on %(team)s.") % {"player": player.display_name, "team": team.name}


def _roles(request: HttpRequest, team: Team, me: Player) -> str:
    captain = _number(request.POST.get("captain"))
    vice = _number(request.POST.get("vice_captain"))
    services.set_roles(team_id=team.pk, by=me, captain_id=captain, vice_captain_id=vice or 0)
    return _("The captain and vice-captain are saved.")


def _boards(request: HttpRequest, team: Team, me: Player) -> str:
    """Each member's board number (blank: after those numbered, by rating) and alternate box."""
    regulars: list[tuple[int, int, int]] = []
    alternates: list[tuple[float, int, int]] = []
    for row in _member_rows(team):
        pid = row["player"].pk
        board = _number(request.POST.get(f"board_{pid}"))
        if request.POST.get(f"alternate_{pid}"):
            alternates.append((board if board is not None else float("inf"), row["position"], pid))
        elif board is not None:
            regulars.append((board, row["position"], pid))
    services.set_board_order(
        team_id=team.pk,
        by=me,
        board_order=request.POST.get("board_order") or None,
        order=[pid for *_, pid in sorted(regulars)],
        alternates=[pid for *_, pid in sorted(alternates)],
    )
    return _("The board order is saved.")


def _edit(request: HttpRequest, team: Team, me: Player) -> str:
    p = request.POST
    services.team_update(
        team_id=team.pk,
        by=me,
        name=p.get("name"),
        description=p.get("description"),
        game=p.get("game") or None,
    )
    return _("The team's details are saved.")


#: action → (handler, the page to go back to: "team" or "team-manage").
ACTIONS: dict[str, tuple[Callable[..., str], str]] = {
    "join": (_join, "team"),
    "leave": (_leave, "team"),
    "accept": (lambda r, t, me: _answer(r, t, me, True), "team"),
    "decline": (lambda r, t, me: _answer(r, t, me, False), "team"),
    "cancel": (_cancel, "team"),
    "invite": (_invite, "team-manage"),
    "remove": (_remove, "team-manage"),
    "roles": (_roles, "team-manage"),
    "boards": (_boards, "team-manage"),
    "edit": (_edit, "team-manage"),
}


@login_required
@require_POST
def team_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """Any form of the team pages; ``next=manage`` comes back to the captain's tools."""
    team = _team(slug)
    if action not in ACTIONS:
        raise Http404("no such action")
    handler, page = ACTIONS[action]
    if request.POST.get("next") == "manage":
        page = "team-manage"
    me = request_player(request)
    try:
        done = handler(request, team, me)
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, done)
    if not Team.objects.filter(pk=team.pk).exists():
        return redirect("teams")
    if page == "team-manage" and not services.can_manage(team=Team.objects.get(pk=team.pk), player=me):
        page = "team"
    return redirect(page, slug=team.slug)
