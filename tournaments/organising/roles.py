"""The organiser role: who may create leagues and start bot matches, and how they get to.

Staff grant the role (the admin's *Organiser roles* and its actions on *Organiser requests*, or
``manage.py organiser grant NAME``); a player may ask for it (``/organiser/request/``, or
``POST /api/v1/organiser-requests/``), one pending request at a time. Staff need no role. The role
lets a player create leagues (they become the new league's organiser) and start bot matches, at
most ``OrganiserRole.bot_tables_per_day`` tables (default 200) in any 24 hours. Running a league's
events is for that league's organisers (``League.organisers``), who need not hold the role: the
role is about creating clubs and spending the bot workers' time, not about running one.

Players who organised a league before the role existed were granted it by the migration that
introduced it, so no club lost its organisers.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from common.errors import Conflict, Forbidden, NotFound
from games.guests import forbid_guest
from games.models import Player, Table

from ..models import OrganiserRequest, OrganiserRole


def may_organise(*, player: Player) -> bool:
    """Staff, or a player granted the organiser role."""
    return bool(player.user.is_staff) or OrganiserRole.objects.filter(player=player).exists()


#: What needs the role (``require_role``'s ``doing``), each refusal a whole sentence.
ROLE_REFUSALS = {
    "creating a league": gettext_lazy(
        "creating a league is for organisers: ask staff for the role at /organiser/request/ "
        "(or POST /api/v1/organiser-requests/)"
    ),
    "starting bot matches": gettext_lazy(
        "starting bot matches is for organisers: ask staff for the role at /organiser/request/ "
        "(or POST /api/v1/organiser-requests/)"
    ),
}


def require_role(*, player: Player, doing: str) -> None:
    """Refuse (403) ``doing`` (a key of :data:`ROLE_REFUSALS`) to a player without the role."""
    if not may_organise(player=player):
        refusal = ROLE_REFUSALS.get(doing)
        if refusal is None:
            refusal = _(
                "%(doing)s is for organisers: ask staff for the role at /organiser/request/ "
                "(or POST /api/v1/organiser-requests/)"
            ) % {"doing": doing}
        raise Forbidden(str(refusal))


def _require_staff(by: Player) -> None:
    if not by.user.is_staff:
        raise Forbidden(_("only staff grant or withdraw the organiser role"))


@transaction.atomic
def grant(*, player: Player, by: Player | None, bot_tables_per_day: int | None = None) -> OrganiserRole:
    """Give ``player`` the role (``by`` is staff; ``None`` from the command line). Pending requests
    of the player are marked granted. Granting again only updates the bot-table limit."""
    if by is not None:
        _require_staff(by)
    if player.is_bot or player.is_guest:
        raise Conflict(_("bots and guests cannot be organisers"))
    role, _created = OrganiserRole.objects.get_or_create(player=player, defaults={"granted_by": by})
    if bot_tables_per_day is not None:
        role.bot_tables_per_day = bot_tables_per_day
        role.save(update_fields=["bot_tables_per_day"])
    OrganiserRequest.objects.filter(player=player, status=OrganiserRequest.Status.PENDING).update(
        status=OrganiserRequest.Status.GRANTED, decided_by=by, decided_at=timezone.now()
    )
    return role


@transaction.atomic
def revoke(*, player: Player, by: Player | None) -> None:
    """Take the role back (the player stays organiser of the leagues they run)."""
    if by is not None:
        _require_staff(by)
    deleted, _rows = OrganiserRole.objects.filter(player=player).delete()
    if not deleted:
        raise Conflict(_("%(player)s is not an organiser") % {"player": player})


@transaction.atomic
def request_role(*, player: Player, message: str = "") -> OrganiserRequest:
    """Ask staff for the role (one pending request at a time)."""
    forbid_guest(player, "organise events")
    if player.is_bot:
        raise Forbidden(_("bots cannot be organisers"))
    if may_organise(player=player):
        raise Conflict(_("you are an organiser already"))
    message = message.strip()
    if len(message) > 1000:
        raise Conflict(_("say it in at most 1,000 characters"))
    try:
        with transaction.atomic():
            return OrganiserRequest.objects.create(player=player, message=message)
    except IntegrityError:
        raise Conflict(_("you have asked already: staff will answer your pending request")) from None


def _pending(request_id: int) -> OrganiserRequest:
    req = OrganiserRequest.objects.select_for_update().filter(pk=request_id).select_related("player").first()
    if req is None:
        raise NotFound(_("there is no organiser request %(id)s") % {"id": request_id})
    if req.status != OrganiserRequest.Status.PENDING:
        raise Conflict(_("this request was %(status)s already") % {"status": req.get_status_display()})
    return req


@transaction.atomic
def grant_request(*, request_id: int, by: Player) -> OrganiserRequest:
    """Staff grant a pending request (the player gets the role)."""
    _require_staff(by)
    req = _pending(request_id)
    grant(player=req.player, by=by)
    req.refresh_from_db()
    return req


@transaction.atomic
def refuse(*, request_id: int, by: Player) -> OrganiserRequest:
    """Staff refuse a pending request; the player may ask again."""
    _require_staff(by)
    req = _pending(request_id)
    req.status = OrganiserRequest.Status.REFUSED
    req.decided_by, req.decided_at = by, timezone.now()
    req.save(update_fields=["status", "decided_by", "decided_at"])
    return req


def bot_tables_started(*, player: Player, hours: float = 24) -> int:
    """Tables between bots only that ``player`` opened in the last ``hours``."""
    since = timezone.now() - timedelta(hours=hours)
    return (
        Table.objects.filter(created_by=player, created_at__gte=since, seats__isnull=False)
        .exclude(seats__player__is_bot=False)
        .distinct()
        .count()
    )


class BotMatchLimit(Conflict):
    code = "bot_match_limit"


def require_bot_tables(*, player: Player, count: int) -> None:
    """Refuse a bot match of ``count`` tables that would take ``player`` past their daily limit
    (staff have none)."""
    require_role(player=player, doing="starting bot matches")
    if player.user.is_staff:
        return
    limit = OrganiserRole.objects.get(player=player).bot_tables_per_day
    used = bot_tables_started(player=player)
    if used + count > limit:
        raise BotMatchLimit(
            ngettext(
                "this would make %(n)d bot-match table in 24 hours; your limit is %(limit)d "
                "(%(left)d left): ask staff for a higher one",
                "this would make %(n)d bot-match tables in 24 hours; your limit is %(limit)d "
                "(%(left)d left): ask staff for a higher one",
                used + count,
            )
            % {"n": used + count, "limit": limit, "left": max(0, limit - used)}
        )
