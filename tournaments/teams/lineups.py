"""Line-ups: which of a team's players sit at which board in a round.

A team's captain or vice-captain (also staff and the team's club's organisers, and the event's
organisers) sets the round's line-up while the round is paired and until its start
(``TeamRound.starts_at``): board 1 first, one entry per board, a member's player id or ``None``
(the board is left empty and forfeited). A player plays for one team per round: one listed in
another team's line-up of the round is refused. Alternates may be listed like regulars.

When no line-up was set by the start, the round uses the default (:func:`default_lineup`): the
team's members in board order (``selectors.board_order``: regulars, then alternates), the first
``boards`` of them, ``None`` for boards still short.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from games.models import Player

from ..models import LineUp, Team, TeamEntry, TeamEvent, TeamMatchSide, TeamMember, TeamRound
from ..selectors import is_organiser
from . import selectors
from .services import can_manage


def lineup_candidates(*, event: TeamEvent, team: Team) -> list[Player]:
    """The team's members in board order for the event's game: regulars, then alternates."""
    return [m.player for m in selectors.board_order(team=team, game=event.game)]


def default_lineup(*, event: TeamEvent, team: Team, taken: Collection[int] = ()) -> list[int | None]:
    """The line-up used when none was set: the first ``boards`` members in board order (regulars,
    then alternates), leaving out ``taken`` (players in another team's line-up of the round);
    ``None`` for the boards still short."""
    ids = [p.pk for p in lineup_candidates(event=event, team=team) if p.pk not in taken]
    chosen: list[int | None] = list(ids[: event.boards])
    return chosen + [None] * (event.boards - len(chosen))


def may_manage(*, event: TeamEvent, team: Team, player: Player | None) -> bool:
    """Whether ``player`` sets ``team``'s line-ups in ``event``."""
    if player is None:
        return False
    return can_manage(team=team, player=player) or is_organiser(event.league, player)


def visible(*, rnd: TeamRound, team: Team, player: Player | None, now: datetime | None = None) -> bool:
    """A line-up is the team's secret until the round starts (its managers see it), then public."""
    if rnd.status != TeamRound.Status.LINEUPS or (now or timezone.now()) >= rnd.starts_at:
        return True
    return may_manage(event=rnd.event, team=team, player=player)


def _players(value: Any, boards: int) -> list[int | None]:
    if not isinstance(value, list | tuple):
        raise InvalidInput(_("players must be a list: one player id (or null) per board, board 1 first"))
    if len(value) != boards:
        raise InvalidInput(
            _(
                "the event plays %(boards)s boards: a line-up lists %(boards)s entries "
                "(a player id or null), not %(n)s"
            )
            % {"boards": boards, "n": len(value)}
        )
    out: list[int | None] = []
    for v in value:
        if v is None:
            out.append(None)
        elif isinstance(v, int) and not isinstance(v, bool) and v > 0:
            out.append(v)
        else:
            raise InvalidInput(_("%(value)s is no player id: give a player id or null") % {"value": repr(v)})
    listed = [p for p in out if p is not None]
    if len(set(listed)) != len(listed):
        raise InvalidInput(_("a player is listed on two boards: each plays one board"))
    return out


@transaction.atomic
def lineup_submit(
    *, round_id: int, team_id: int, by: Player, players: list[int | None], now: datetime | None = None
) -> LineUp:
    """Set ``team``'s line-up for the round (before its start; rules in the module docstring)."""
    event_id = TeamRound.objects.filter(pk=round_id).values_list("event_id", flat=True).first()
    if event_id is None:
        raise NotFound(_("there is no team round %(id)s") % {"id": round_id})
    # The event's row first, then the round's, as opening a round and counting a board lock them:
    # a line-up sent as the calendar opens its round waits for it (no deadlock), then is refused.
    TeamEvent.objects.select_for_update().filter(pk=event_id).first()
    rnd = TeamRound.objects.select_for_update(of=("self",)).select_related("event__league").get(pk=round_id)
    team = Team.objects.select_related("league").filter(pk=team_id).first()
    if team is None:
        raise NotFound(_("there is no team %(id)s") % {"id": team_id})
    event = rnd.event
    if not may_manage(event=event, team=team, player=by):
        raise Forbidden(
            _("only the captain or vice-captain of %(team)s (or an organiser) sets its line-up")
            % {"team": team.name}
        )
    moment = now or timezone.now()
    if rnd.status != TeamRound.Status.LINEUPS or moment >= rnd.starts_at:
        raise Conflict(
            _("the line-up of round %(round)s closed at %(time)s, when the round started")
            % {"round": rnd.number, "time": rnd.starts_at.isoformat()}
        )
    if event.status != TeamEvent.Status.RUNNING:
        raise Conflict(_("%(event)s is not running") % {"event": event.name})
    if not TeamMatchSide.objects.filter(match__round=rnd, team=team).exists():
        raise Conflict(
            _("%(team)s plays no match in round %(round)s: it has no line-up to set")
            % {"team": team.name, "round": rnd.number}
        )
    if TeamEntry.objects.filter(event=event, team=team, withdrawn=True).exists():
        raise Conflict(_("%(team)s has withdrawn from %(event)s") % {"team": team.name, "event": event.name})
    chosen = _players(players, event.boards)
    listed = {p for p in chosen if p is not None}
    members = set(
        TeamMember.objects.filter(team=team, player_id__in=listed).values_list("player_id", flat=True)
    )
    if listed - members:
        raise InvalidInput(
            _("player %(id)s is not a member of %(team)s: a line-up lists the team's players only")
            % {"id": min(listed - members), "team": team.name}
        )
    for other in LineUp.objects.filter(round=rnd).exclude(team=team).select_related("team"):
        clash = listed.intersection(p for p in other.players if p is not None)
        if clash:
            raise Conflict(
                _("player %(id)s is in the line-up of %(other)s for this round: a player plays for one team")
                % {"id": min(clash), "other": other.team.name}
            )
    lineup, _created = LineUp.objects.update_or_create(
        round=rnd, team=team, defaults={"players": chosen, "submitted_by": by, "submitted_at": moment}
    )
    return lineup
