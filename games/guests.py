"""Guest accounts ("play as guest", ``web.pages.play_bot``): what they may do, how many a client
may make, and how stale ones are removed.

A guest (``Player.is_guest``) plays casual games, against bots, and watches. It cannot open or
join a rated table, join a league, ladder or tournament, or create a league: those raise
:func:`forbid_guest`'s 403. A client address may make ``GUEST_RATE`` guests (default
``10/hour``, :class:`GuestCreationThrottle`).

:func:`cleanup_guests` (Celery beat, the in-process ``clock_sweeper`` and ``manage.py
cleanup_guests``) deletes guests idle for ``GUEST_TTL_HOURS`` (default 24) together with their
tables, but only when nothing worth keeping would go with them: every table the guest sat at or
opened must be casual and have no human player but the guest (bots only), and the guest must
have no league, ladder or tournament entries. Any other guest (one made before these rules,
say) is kept, so no rated result, rating history or other person's game record ever loses a
player. Idle means no sign-in, and no table of theirs opened, started, moved or finished, within
the TTL.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import Forbidden
from common.throttles import CountingThrottle

from .models import Player, Table

log = logging.getLogger(__name__)

#: What a guest is told, with what it tried to do (``what``, as the callers name it).
GUEST_LIMITS = "guests can play casual games against bots; create an account to {what}"


def _guest_limits(what: str) -> str:
    """:data:`GUEST_LIMITS` in the active language: one whole sentence for each thing the
    callers refuse (``what`` in English, as they pass it), a general one for anything else."""
    known = {
        "play rated games": _(
            "guests can play casual games against bots; create an account to play rated games"
        ),
        "play in tournaments": _(
            "guests can play casual games against bots; create an account to play in tournaments"
        ),
        "join ladders": _("guests can play casual games against bots; create an account to join ladders"),
        "join leagues": _("guests can play casual games against bots; create an account to join leagues"),
        "create leagues": _("guests can play casual games against bots; create an account to create leagues"),
        "organise events": _(
            "guests can play casual games against bots; create an account to organise events"
        ),
        "create teams": _("guests can play casual games against bots; create an account to create teams"),
        "join teams": _("guests can play casual games against bots; create an account to join teams"),
        "run a bot account": _(
            "guests can play casual games against bots; create an account to run a bot account"
        ),
    }
    return known.get(what) or _(
        "guests can play casual games against bots; create an account to %(what)s"
    ) % {"what": what}


def forbid_guest(player: Player, what: str) -> None:
    """Refuse (403) a guest's action that needs a full account."""
    if player.is_guest:
        raise Forbidden(_guest_limits(what))


class EmailNotVerified(Forbidden):
    code = "email_not_verified"


#: Outside bot accounts (``Player.is_outside_bot``) follow the house bots' rating policy
#: (``games.services.tables.BOTS_UNRATED``): unrated tables only, so no events and no ladders.
OUTSIDE_BOTS_UNRATED = "bot accounts play unrated tables only (as the house bots do): they cannot {what}"


def _outside_bots_unrated(what: str) -> str:
    """:data:`OUTSIDE_BOTS_UNRATED` in the active language (see :func:`_guest_limits`)."""
    known = {
        "play rated games": _(
            "bot accounts play unrated tables only (as the house bots do): they cannot play rated games"
        ),
        "play in tournaments": _(
            "bot accounts play unrated tables only (as the house bots do): they cannot play in tournaments"
        ),
        "join ladders": _(
            "bot accounts play unrated tables only (as the house bots do): they cannot join ladders"
        ),
    }
    return known.get(what) or _(
        "bot accounts play unrated tables only (as the house bots do): they cannot %(what)s"
    ) % {"what": what}


def _verify_first(what: str) -> str:
    """Why an account must verify its e-mail address before ``what`` (see :func:`_guest_limits`)."""
    known = {
        "play rated games": _(
            "to play rated games on this site, verify your e-mail address first (settings: "
            "/accounts/settings/)"
        ),
        "play in tournaments": _(
            "to play in tournaments on this site, verify your e-mail address first (settings: "
            "/accounts/settings/)"
        ),
        "join ladders": _(
            "to join ladders on this site, verify your e-mail address first (settings: /accounts/settings/)"
        ),
    }
    return known.get(what) or _(
        "to %(what)s on this site, verify your e-mail address first (settings: /accounts/settings/)"
    ) % {"what": what}


def require_verified_email(player: Player, what: str) -> None:
    """Refuse (403) rated play to an account without a verified e-mail address, when the site
    asks for one (``RATED_NEEDS_VERIFIED_EMAIL``). Bots never need one; outside bot accounts
    play no rated game at all (nor events or ladders), guests neither."""
    forbid_guest(player, what)
    if _outside_bot(player):
        raise Forbidden(_outside_bots_unrated(what))
    if settings.RATED_NEEDS_VERIFIED_EMAIL and not player.is_bot and not player.email_verified:
        raise EmailNotVerified(_verify_first(what))


def _outside_bot(player: Player) -> bool:
    """Read from the row: the API's player may come from the token cache (``common.auth``, up to
    ``TOKEN_CACHE_SECONDS`` old), from before the account became a bot."""
    if player.is_bot:
        return player.is_outside_bot
    return Player.objects.filter(pk=player.pk, is_bot=True, bot_level="").exists()


class GuestCreationThrottle(CountingThrottle):
    """Guest accounts made per client address (``GUEST_RATE``), counted in the project's cache.

    Works on a plain Django request too (the page ``play_bot`` uses it): DRF's ``get_ident``
    honours ``TRUSTED_PROXIES`` the same way as the API's throttles."""

    scope = "guest"

    def get_rate(self) -> str | None:
        return getattr(settings, "GUEST_RATE", "10/hour")

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def guest_creation_allowed(request: Any) -> bool:
    """Count one guest creation for this client; False when over ``GUEST_RATE``."""
    return GuestCreationThrottle().allow_request(request, None)


def _last_activity(player: Player) -> Any:
    times = [player.created, player.user.last_login]
    for row in Table.objects.filter(Q(seats__player=player) | Q(created_by=player)).values(
        "created_at", "started_at", "turn_started_at", "finished_at"
    ):
        times.extend(row.values())
    return max(t for t in times if t is not None)


def _removable_tables(player: Player) -> list[int] | None:
    """The ids of the guest's tables to delete with it, or None if it must be kept."""
    if (
        player.registrations.exists()
        or player.ladder_memberships.exists()
        or player.leagues.exists()
        or player.organised_leagues.exists()
        or player.created_tournaments.exists()
        or player.challenges_made.exists()
        or player.challenges_received.exists()
    ):
        return None
    tables = Table.objects.filter(Q(seats__player=player) | Q(created_by=player)).distinct()
    if tables.filter(rated=True).exists():
        return None
    others = Table.objects.filter(pk__in=tables.values("pk")).filter(
        Q(seats__player__is_bot=False) & ~Q(seats__player=player)
    )
    if others.exists() or tables.exclude(created_by=player).exclude(created_by__is_bot=True).exists():
        return None
    return list(tables.values_list("pk", flat=True))


def cleanup_guests(*, now: Any = None, ttl_hours: float | None = None, limit: int = 500) -> dict[str, int]:
    """Delete stale guests (see the module's doc); returns ``{"deleted": n, "kept": m}``."""
    now = now or timezone.now()
    ttl = settings.GUEST_TTL_HOURS if ttl_hours is None else ttl_hours
    cutoff = now - timedelta(hours=ttl)
    candidates = (
        Player.objects.filter(is_guest=True, is_bot=False, created__lt=cutoff)
        .filter(Q(user__last_login__isnull=True) | Q(user__last_login__lt=cutoff))
        .select_related("user")
        .order_by("pk")
    )
    deleted = kept = 0
    after = 0
    # Every candidate, ``limit`` per query (by primary key, so the guests kept, and those active
    # since, never fill the page and starve the rest); each guest in a transaction of its own.
    while page := list(candidates.filter(pk__gt=after)[: max(1, limit)]):
        after = page[-1].pk
        for player in page:
            if _last_activity(player) >= cutoff:
                continue
            with transaction.atomic():
                tables = _removable_tables(player)
                if tables is None:
                    kept += 1
                    continue
                Table.objects.filter(pk__in=tables).delete()
                get_user_model().objects.filter(pk=player.user_id).delete()
                deleted += 1
    log.info("retention: guest cleanup: %d deleted, %d kept (records worth keeping)", deleted, kept)
    return {"deleted": deleted, "kept": kept}
