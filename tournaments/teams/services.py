"""Team membership: creating and editing a team, invitations and requests to join, leaving and
removing members, the captain's roles and board order (``docs`` of issue 38: teams).

Every function is keyword-only and one transaction under the team's row lock (``_locked``); a
refusal raises a :class:`common.errors.ServiceError` saying what was wrong and why, and changes
nothing.

The choices made here:

* **Who manages a team** (:func:`can_manage`): its captain and vice-captain, staff, and the
  organisers of the team's league. Only the captain (or staff, or an organiser) changes the
  captain and vice-captain (:func:`set_roles`): a vice-captain cannot make themselves captain.
* **Club teams** (``league`` set): the creator must be a member or an organiser of the league (or
  staff). The players on a club team need not be members of the club: a club may field guests
  from elsewhere, and nobody is added to a club by joining one of its teams.
* **Who may be on a team**: a person's account: never a bot, a guest or a deleted account.
* **The address** (``slug``) is made unique from the name when the team is created and kept when
  it is renamed, so links to the team keep working. Names are unique (ignoring case) among the
  teams of one club, and among the open teams (no club).
* **Leaving**: a captain leaves only after handing the captaincy to another member; a captain
  alone on the team may leave, which deletes the team, unless it has played (a match, or an
  entry in a team event under way): its results stay, so the team stays too.
* **A deleted account** (:func:`on_player_deleted`): the captaincy passes to the vice-captain,
  else the member who joined first; a team left with nobody is deleted unless it has played
  (then it keeps its results, captained by the deleted account, with no members).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games.blocks import has_blocked
from games.events import PlayerRef, send_after_commit
from games.guests import forbid_guest
from games.models import GameKind, Player

from ..events import TeamInvitationNews, team_invitation_changed
from ..models import League, Team, TeamEntry, TeamEvent, TeamInvitation, TeamMatchSide, TeamMember
from ..selectors import is_organiser

NAME_MAX = 80
DESCRIPTION_MAX = 2000


# ------------------------------------------------------------------ reads the services share
def can_manage(*, team: Team, player: Player | None) -> bool:
    """Whether ``player`` manages ``team``: its captain or vice-captain, staff, or an organiser of
    the team's league."""
    if player is None:
        return False
    if player.pk in (team.captain_id, team.vice_captain_id):
        return True
    if player.user.is_staff:
        return True
    return team.league_id is not None and team.league.organisers.filter(pk=player.pk).exists()


def can_set_roles(*, team: Team, player: Player | None) -> bool:
    """Whether ``player`` may name the captain and vice-captain: the captain, staff or an
    organiser of the team's league (not the vice-captain)."""
    if player is None:
        return False
    if player.pk == team.captain_id or player.user.is_staff:
        return True
    return team.league_id is not None and team.league.organisers.filter(pk=player.pk).exists()


def has_played(*, team: Team) -> bool:
    """Whether the team has results to keep: a match, or an entry in a team event under way."""
    if TeamMatchSide.objects.filter(team=team).exists():
        return True
    return TeamEntry.objects.filter(
        team=team, withdrawn=False, event__status=TeamEvent.Status.RUNNING
    ).exists()


def _locked(team_id: int) -> Team:
    team = (
        Team.objects.select_for_update(of=("self",))
        .select_related("league", "captain", "vice_captain")
        .filter(pk=team_id)
        .first()
    )
    if team is None:
        raise NotFound(_("there is no team %(id)s") % {"id": team_id})
    return team


def _require_manager(team: Team, by: Player) -> None:
    if not can_manage(team=team, player=by):
        raise Forbidden(
            _("only the captain and vice-captain of %(team)s (or its club's organisers) may do this")
            % {"team": team.name}
        )


def _player(player_id: int) -> Player:
    player = Player.objects.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise NotFound(_("there is no player %(id)s") % {"id": player_id})
    return player


def _may_play_on_teams(player: Player, what: str) -> None:
    """Refuse guests, bots and deleted accounts (``what``: "join teams", "create teams" ...)."""
    forbid_guest(player, what)
    if player.is_bot:
        raise Forbidden(
            _("%(player)s is a bot: teams are made of people, bots cannot be on a team")
            % {"player": player.display_name}
        )
    if not player.user.is_active:
        raise Conflict(_("%(player)s's account is closed") % {"player": player.display_name})


def _member(team: Team, player_id: int) -> TeamMember | None:
    return TeamMember.objects.select_for_update().filter(team=team, player_id=player_id).first()


def _members(team: Team) -> list[TeamMember]:
    return list(TeamMember.objects.select_for_update().filter(team=team).order_by("joined", "id"))


# ------------------------------------------------------------------ names and addresses
def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not slugify(name):
        raise InvalidInput(_("a team needs a name with letters or digits"))
    if len(name) > NAME_MAX:
        raise InvalidInput(_("a team's name has at most %(n)d characters") % {"n": NAME_MAX})
    return name


def _check_name_free(name: str, league: League | None, exclude: int | None = None) -> None:
    same = Team.objects.filter(name__iexact=name, league=league)
    if exclude is not None:
        same = same.exclude(pk=exclude)
    taken = same.first()
    if taken is not None:
        name = taken.name
        if league is not None:
            raise Conflict(
                _("%(league)s has a team named %(name)s already: choose another name")
                % {"league": league.name, "name": name}
            )
        raise Conflict(_("there is a team named %(name)s already: choose another name") % {"name": name})


def _free_slug(name: str) -> str:
    """``name`` as an address, with ``-2``, ``-3`` ... when the plain one is taken."""
    base = slugify(name)[:72].strip("-") or "team"
    taken = set(Team.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def _check_choices(*, game: str | None, board_order: str | None, description: str | None) -> None:
    if game is not None and game not in GameKind.values:
        raise InvalidInput(
            _("there is no game %(game)s: choose one of %(games)s")
            % {"game": repr(game), "games": ", ".join(GameKind.values)}
        )
    if board_order is not None and board_order not in Team.BoardOrder.values:
        raise InvalidInput(
            _("the board order is by rating (rating) or as the captain sets it (captain), not %(value)s")
            % {"value": repr(board_order)}
        )
    if description is not None and len(description) > DESCRIPTION_MAX:
        raise InvalidInput(_("a team's description has at most %(n)d characters") % {"n": DESCRIPTION_MAX})


# ------------------------------------------------------------------ the team
@transaction.atomic
def team_create(
    *,
    by: Player,
    name: str,
    league: League | None = None,
    game: str = GameKind.PACRU,
    board_order: str = Team.BoardOrder.RATING,
    description: str = "",
) -> Team:
    """A new team with ``by`` as its captain and first member. A club team (``league``): ``by``
    must be a member or an organiser of the club (or staff)."""
    _may_play_on_teams(by, "create teams")
    name = _clean_name(name)
    _check_choices(game=game, board_order=board_order, description=description)
    if league is not None:
        in_club = league.members.filter(pk=by.pk).exists() or is_organiser(league, by)
        if not in_club:
            raise Forbidden(
                _("only members and organisers of %(league)s may create its teams: join the league first")
                % {"league": league.name}
            )
    _check_name_free(name, league)
    for _attempt in range(3):
        try:
            with transaction.atomic():
                team = Team.objects.create(
                    league=league,
                    name=name,
                    slug=_free_slug(name),
                    description=description.strip(),
                    game=game,
                    board_order=board_order,
                    captain=by,
                    created_by=by,
                )
        except IntegrityError:  # the address was taken meanwhile: take the next one
            continue
        TeamMember.objects.create(team=team, player=by)
        return team
    raise Conflict(_("the team's address is taken: try again"))


@transaction.atomic
def team_update(
    *,
    team_id: int,
    by: Player,
    name: str | None = None,
    description: str | None = None,
    board_order: str | None = None,
    game: str | None = None,
) -> Team:
    """Change a team's name, description, board order rule or game (its managers). The address
    stays as it was."""
    team = _locked(team_id)
    _require_manager(team, by)
    _check_choices(game=game, board_order=board_order, description=description)
    changed: list[str] = []
    if name is not None:
        name = _clean_name(name)
        if name != team.name:
            _check_name_free(name, team.league, exclude=team.pk)
            team.name = name
            changed.append("name")
    values = {"description": description.strip() if description is not None else None}
    values |= {"board_order": board_order, "game": game}
    for field, value in values.items():
        if value is not None and value != getattr(team, field):
            setattr(team, field, value)
            changed.append(field)
    if changed:
        team.save(update_fields=changed)
    return team


# ------------------------------------------------------------------ invitations and requests
def _managers(team: Team) -> tuple[PlayerRef, ...]:
    people = [team.captain] + ([team.vice_captain] if team.vice_captain_id else [])
    return tuple(PlayerRef.of(p) for p in people if p is not None)


def _announce(invitation: TeamInvitation, team: Team, answered_by: Player | None = None) -> None:
    by = invitation.by if invitation.kind == TeamInvitation.Kind.INVITE else answered_by
    news = TeamInvitationNews(
        invitation_id=invitation.pk,
        team=team.name,
        team_slug=team.slug,
        kind=invitation.kind,
        status=invitation.status,
        player=PlayerRef.of(invitation.player),
        by=PlayerRef.of(by) if by is not None else None,
        managers=_managers(team),
    )
    send_after_commit(team_invitation_changed, invitation=news)


def _refuse_pending(team: Team, player: Player, *, asker: bool) -> None:
    """Refuse a second pending invitation or request for ``player`` (``asker``: they ask themselves)."""
    pending = TeamInvitation.objects.filter(
        team=team, player=player, status=TeamInvitation.Status.PENDING
    ).first()
    if pending is None:
        return
    args = {"player": player.display_name, "team": team.name}
    invited = pending.kind == TeamInvitation.Kind.INVITE
    if asker and invited:
        raise Conflict(
            _("you are invited to %(team)s already: accept the invitation on the team's page") % args
        )
    if asker:
        raise Conflict(_("you have asked to join %(team)s already: the request waits for an answer") % args)
    if invited:
        raise Conflict(
            _("%(player)s is invited to %(team)s already: the invitation waits for their answer") % args
        )
    raise Conflict(_("%(player)s has asked to join %(team)s already: accept their request instead") % args)


@transaction.atomic
def invite(*, team_id: int, by: Player, player_id: int) -> TeamInvitation:
    """The captain or vice-captain invites a player; they join if they accept."""
    team = _locked(team_id)
    _require_manager(team, by)
    player = _player(player_id)
    _may_play_on_teams(player, "join teams")
    if _member(team, player.pk) is not None:
        raise Conflict(
            _("%(player)s is on %(team)s already") % {"player": player.display_name, "team": team.name}
        )
    _refuse_pending(team, player, asker=False)
    if has_blocked(player, by.pk):
        raise Forbidden(_("%(player)s takes no invitations from you") % {"player": player.display_name})
    invitation = TeamInvitation.objects.create(
        team=team, player=player, kind=TeamInvitation.Kind.INVITE, by=by
    )
    _announce(invitation, team)
    return invitation


@transaction.atomic
def request_join(*, team_id: int, by: Player) -> TeamInvitation:
    """A player asks to join a team; its captain or vice-captain answers."""
    team = _locked(team_id)
    _may_play_on_teams(by, "join teams")
    if _member(team, by.pk) is not None:
        raise Conflict(_("you are on %(team)s already") % {"team": team.name})
    _refuse_pending(team, by, asker=True)
    invitation = TeamInvitation.objects.create(team=team, player=by, kind=TeamInvitation.Kind.REQUEST, by=by)
    _announce(invitation, team)
    return invitation


def _locked_invitation(invitation_id: int) -> tuple[TeamInvitation, Team]:
    """The invitation and its team, both locked (the team first, as every other write does)."""
    team_id = TeamInvitation.objects.filter(pk=invitation_id).values_list("team_id", flat=True).first()
    if team_id is None:
        raise NotFound(_("there is no team invitation %(id)s") % {"id": invitation_id})
    team = _locked(team_id)
    invitation = (
        TeamInvitation.objects.select_for_update(of=("self",))
        .select_related("player__user", "by")
        .get(pk=invitation_id)
    )
    if invitation.status != TeamInvitation.Status.PENDING:
        raise Conflict(
            _("this invitation to %(team)s is %(status)s already: there is nothing left to answer")
            % {"team": team.name, "status": invitation.get_status_display()}
        )
    return invitation, team


@transaction.atomic
def answer(*, invitation_id: int, by: Player, accept: bool) -> TeamInvitation:
    """The invited player answers an invitation; the captain or vice-captain answers a request.
    Accepting makes the player a member (after the team's regulars, by rating)."""
    invitation, team = _locked_invitation(invitation_id)
    if invitation.kind == TeamInvitation.Kind.INVITE:
        if by.pk != invitation.player_id:
            raise Forbidden(
                _("only the invited player may answer an invitation to %(team)s") % {"team": team.name}
            )
    else:
        _require_manager(team, by)
    if accept:
        _may_play_on_teams(invitation.player, "join teams")
        TeamMember.objects.get_or_create(team=team, player=invitation.player)
    invitation.status = TeamInvitation.Status.ACCEPTED if accept else TeamInvitation.Status.DECLINED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    _announce(invitation, team, answered_by=by)
    return invitation


@transaction.atomic
def cancel_invitation(*, invitation_id: int, by: Player) -> TeamInvitation:
    """Withdraw an invitation (the team's managers) or one's own request to join (the player)."""
    invitation, team = _locked_invitation(invitation_id)
    if invitation.kind == TeamInvitation.Kind.INVITE:
        _require_manager(team, by)
    elif by.pk != invitation.player_id:
        raise Forbidden(
            _("only the player who asked may withdraw a request to join %(team)s: decline it instead")
            % {"team": team.name}
        )
    invitation.status = TeamInvitation.Status.CANCELLED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    return invitation


# ------------------------------------------------------------------ members
def _drop(team: Team, member: TeamMember) -> None:
    if team.vice_captain_id == member.player_id:
        team.vice_captain = None
        team.save(update_fields=["vice_captain"])
    member.delete()


@transaction.atomic
def leave(*, team_id: int, by: Player) -> bool:
    """Leave a team. The captain hands the captaincy to another member first; a captain alone on
    the team deletes it by leaving, unless it has played. True when the team was deleted."""
    team = _locked(team_id)
    member = _member(team, by.pk)
    if member is None:
        raise Conflict(_("you are not on %(team)s") % {"team": team.name})
    if team.captain_id == by.pk:
        if TeamMember.objects.filter(team=team).exclude(pk=member.pk).exists():
            raise Conflict(
                _("you captain %(team)s: make another member captain first, then leave") % {"team": team.name}
            )
        if has_played(team=team):
            raise Conflict(
                _(
                    "you are the last player of %(team)s, which has played: its results stay, so it "
                    "cannot be left empty. Invite a player and make them captain first."
                )
                % {"team": team.name}
            )
        team.delete()
        return True
    _drop(team, member)
    return False


@transaction.atomic
def remove_member(*, team_id: int, by: Player, player_id: int) -> None:
    """Take a player off the team (its managers; never the captain, who hands over first)."""
    team = _locked(team_id)
    _require_manager(team, by)
    member = _member(team, player_id)
    if member is None:
        raise NotFound(_("player %(id)s is not on %(team)s") % {"id": player_id, "team": team.name})
    if team.captain_id == player_id:
        raise Conflict(
            _("the captain cannot be taken off %(team)s: make another member captain first")
            % {"team": team.name}
        )
    _drop(team, member)


@transaction.atomic
def set_roles(
    *, team_id: int, by: Player, captain_id: int | None = None, vice_captain_id: int | None = None
) -> Team:
    """Name the captain and the vice-captain among the members (the captain, staff or the club's
    organisers). ``None`` keeps a role as it is; ``vice_captain_id=0``: no vice-captain."""
    team = _locked(team_id)
    if not can_set_roles(team=team, player=by):
        raise Forbidden(
            _("only the captain of %(team)s (or its club's organisers) may name the captain and vice-captain")
            % {"team": team.name}
        )
    members = set(TeamMember.objects.filter(team=team).values_list("player_id", flat=True))
    for pid in (captain_id, vice_captain_id):
        if pid and pid not in members:
            raise InvalidInput(
                _("player %(id)s is not on %(team)s: only members can be captain or vice-captain")
                % {"id": pid, "team": team.name}
            )
    captain = captain_id or team.captain_id
    vice = team.vice_captain_id if vice_captain_id is None else (vice_captain_id or None)
    if vice == captain:
        if vice_captain_id:
            raise InvalidInput(_("the captain cannot also be the vice-captain"))
        vice = None  # the vice-captain became captain
    team.captain_id, team.vice_captain_id = captain, vice
    team.save(update_fields=["captain", "vice_captain"])
    return team


def _ids(values: Any, what: str) -> list[int]:
    if not isinstance(values, list | tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise InvalidInput(_("%(what)s must be a list of player ids") % {"what": what})
    return list(values)


@transaction.atomic
def set_board_order(
    *,
    team_id: int,
    by: Player,
    board_order: str | None = None,
    order: list[int],
    alternates: list[int],
) -> Team:
    """The captain's board order (``order``: player ids, board 1 first) and the alternates (in
    the order they step in); members in neither list are regulars after those placed. With
    ``board_order`` the rule changes too: by rating, or as the captain sets it."""
    team = _locked(team_id)
    _require_manager(team, by)
    _check_choices(game=None, board_order=board_order, description=None)
    order, alternates = _ids(order, "order"), _ids(alternates, "alternates")
    listed = order + alternates
    if len(set(listed)) != len(listed):
        raise InvalidInput(_("a player is listed twice: each member has one board, or is an alternate"))
    members = {m.player_id: m for m in _members(team)}
    strangers = [pid for pid in listed if pid not in members]
    if strangers:
        raise InvalidInput(
            _("players %(ids)s are not on %(team)s")
            % {"ids": ", ".join(map(str, strangers)), "team": team.name}
        )
    place = {pid: (n, False) for n, pid in enumerate(order, start=1)}
    place |= {pid: (n, True) for n, pid in enumerate(alternates, start=1)}
    for pid, m in members.items():
        board, alternate = place.get(pid, (None, False))
        if (m.board, m.alternate) != (board, alternate):
            m.board, m.alternate = board, alternate
            m.save(update_fields=["board", "alternate"])
    if board_order is not None and board_order != team.board_order:
        team.board_order = board_order
        team.save(update_fields=["board_order"])
    return team


# ------------------------------------------------------------------ a deleted account
def _hand_over(team: Team, player: Player) -> None:
    """``player`` captains ``team`` and goes: the vice-captain, else the longest-standing other
    member, becomes captain; nobody left: the team is deleted unless it has played."""
    others = TeamMember.objects.filter(team=team).exclude(player=player).order_by("joined", "id")
    successor = (
        team.vice_captain_id
        if team.vice_captain_id and others.filter(player_id=team.vice_captain_id).exists()
        else None
    )
    if successor is None:
        successor = others.values_list("player_id", flat=True).first()
    if successor is not None:
        team.captain_id = successor
        if team.vice_captain_id in (successor, player.pk):
            team.vice_captain_id = None
        team.save(update_fields=["captain", "vice_captain"])
    elif not has_played(team=team):
        team.delete()


@transaction.atomic
def on_player_deleted(*, player: Player) -> None:
    """An account is being deleted (``accounts.services.delete_account``): its teams go on without
    it (the captaincy handed over, see the module's notes), its memberships and pending
    invitations and requests end."""
    teams = set(TeamMember.objects.filter(player=player).values_list("team_id", flat=True))
    teams |= set(Team.objects.filter(Q(captain=player) | Q(vice_captain=player)).values_list("pk", flat=True))
    for team_id in sorted(teams):
        team = _locked(team_id)
        if team.captain_id == player.pk:
            _hand_over(team, player)
            if not Team.objects.filter(pk=team.pk).exists():
                continue
        elif team.vice_captain_id == player.pk:
            team.vice_captain = None
            team.save(update_fields=["vice_captain"])
        TeamMember.objects.filter(team=team, player=player).delete()
    TeamInvitation.objects.filter(player=player, status=TeamInvitation.Status.PENDING).update(
        status=TeamInvitation.Status.CANCELLED, answered_at=timezone.now()
    )
