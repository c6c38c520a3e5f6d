"""Account actions: e-mail addresses and their verification, preferences, deletion, export.

Each action is one transaction, refuses bad input with a :class:`common.errors.ServiceError`
saying why, and changes nothing when it refuses.
"""

from __future__ import annotations

import io
import json
import secrets
import zipfile
from datetime import timedelta
from typing import Any
from zoneinfo import available_timezones

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.errors import Conflict, Forbidden, InvalidInput
from games import services as games
from games.models import Player, Seat, Table
from ratings.models import Rating, RatingChange
from tournaments import ladders
from tournaments import services as events
from tournaments.models import Challenge, LadderMember, QueueEntry, Registration, Tournament

from . import sessions
from .models import Account, Notification, NotificationSetting, OutgoingMail
from .notify import queue_account_mail, site_url, verified_address

VERIFY_SALT = "accounts.verify-email"
#: A verification link works this long.
VERIFY_DAYS = 7
#: At most one verification (or reset) mail per account in this time.
RESEND_SECONDS = 60


def account_of(user: Any) -> Account:
    account, _created = Account.objects.get_or_create(user=user)
    return account


def is_verified(user: Any) -> bool:
    return bool(verified_address(user, Account.objects.filter(user=user).first()))


def _field(name: str, problem: str) -> str:
    """A refusal naming the field it is about ("email: ..."): the name stays as the API spells it."""
    return f"{name}: {problem}"


def clean_email(email: str, user: Any | None = None) -> str:
    """The address, normalised, if it is valid and no other account has it."""
    email = (email or "").strip()
    if not email:
        problem = _("enter an e-mail address")
        raise InvalidInput(_field("email", problem), fields={"email": [problem]})
    if len(email) > 254:
        problem = _("at most 254 characters")
        raise InvalidInput(_field("email", problem), fields={"email": [problem]})
    try:
        validate_email(email)
    except ValidationError:
        raise InvalidInput(
            _field("email", _("%(address)s is not an e-mail address") % {"address": repr(email)}),
            fields={"email": [_("not an e-mail address")]},
        ) from None
    local, _at, domain = email.rpartition("@")
    email = f"{local}@{domain.lower()}"
    User = get_user_model()
    others = User.objects.filter(email__iexact=email)
    if user is not None:
        others = others.exclude(pk=user.pk)
    if others.exists():
        problem = _("another account uses this address")
        raise InvalidInput(_field("email", problem), fields={"email": [problem]})
    return email


def recently_mailed(user: Any, prefix: str) -> bool:
    since = timezone.now() - timedelta(seconds=RESEND_SECONDS)
    return OutgoingMail.objects.filter(user=user, key__startswith=prefix, created_at__gt=since).exists()


def send_verification(user: Any, address: str) -> bool:
    """Queue the mail with the link that verifies ``address`` for ``user``; False when one was
    sent in the last minute (so the button cannot be used to flood an inbox)."""
    prefix = f"verify:{user.pk}:"
    if recently_mailed(user, prefix):
        return False
    token = signing.dumps({"u": user.pk, "e": address}, salt=VERIFY_SALT, compress=True)
    context = {
        "name": getattr(getattr(user, "player", None), "display_name", user.get_username()),
        "link": site_url(reverse("verify-email", args=[token])),
        "days": VERIFY_DAYS,
        "site": settings.SITE_NAME,
    }
    queue_account_mail(
        user,
        template="verify",
        subject=gettext_lazy("Confirm your e-mail address for %(site)s"),
        context=context,
        key=prefix + secrets.token_hex(8),
        to=address,
    )
    return True


@transaction.atomic
def set_email(user: Any, email: str, *, first: bool = False) -> str:
    """Give ``user`` the address ``email``, to be verified by the link mailed to it.

    The first address (sign-up) is the account's at once, unverified. A change is kept aside
    until its link is followed: the old address stays the account's (and verified) until then."""
    email = clean_email(email, user)
    account = account_of(user)
    if first or not user.email:
        user.email = email
        user.save(update_fields=["email"])
        account.email_verified_at = None
        account.pending_email = ""
    elif email.lower() == user.email.lower():
        account.pending_email = ""
    else:
        account.pending_email = email
    account.save(update_fields=["email_verified_at", "pending_email"])
    if account.pending_email or not account.email_verified_at:
        send_verification(user, account.pending_email or user.email)
    return email


@transaction.atomic
def verify_email(token: str) -> Any:
    """Follow a verification link: the address it names becomes the account's, verified."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=timedelta(days=VERIFY_DAYS))
    except signing.SignatureExpired:
        raise Conflict(_("this link has expired: ask for a new one on your settings page")) from None
    except signing.BadSignature:
        raise InvalidInput(_("this link is not valid: copy the whole link from the e-mail")) from None
    User = get_user_model()
    user = User.objects.select_for_update().filter(pk=data.get("u"), is_active=True).first()
    if user is None:
        raise InvalidInput(_("this link belongs to an account that no longer exists"))
    address = str(data.get("e", ""))
    account = account_of(user)
    if address.lower() == (account.pending_email or "").lower():
        clean_email(address, user)  # still nobody else's
        user.email = address
        user.save(update_fields=["email"])
    elif address.lower() != (user.email or "").lower():
        raise Conflict(_("this link is for an address your account no longer uses"))
    account.pending_email = ""
    account.email_verified_at = account.email_verified_at or timezone.now()
    if address.lower() == user.email.lower():
        account.email_verified_at = timezone.now()
    account.save(update_fields=["pending_email", "email_verified_at"])
    Player.objects.filter(user=user).update(email_verified=True)
    return user


def set_preferences(user: Any, *, language: str, time_zone: str) -> Account:
    languages = {code for code, _ in settings.LANGUAGES}
    if language and language not in languages:
        raise InvalidInput(
            _field("language", _("choose one of %(codes)s") % {"codes": ", ".join(sorted(languages))})
        )
    if time_zone and time_zone not in available_timezones():
        raise InvalidInput(
            _field(
                "time_zone",
                _("%(zone)s is not a time zone (e.g. Europe/Madrid)") % {"zone": repr(time_zone)},
            )
        )
    account = account_of(user)
    account.language = language
    account.time_zone = time_zone
    account.save(update_fields=["language", "time_zone"])
    return account


# ---------------------------------------------------------------------------------------------
# Deletion


def anonymous_name(player: Player) -> str:
    return f"deleted player {player.pk}"


def delete_account(user: Any, password: str) -> None:
    """Delete an account, keeping every game and result: the player is renamed "deleted player
    N", its personal data (name, address, preferences, notifications, sessions, token) removed,
    its games in play resigned, its open seats, registrations, ladder places and challenges left.
    """
    if not user.check_password(password):
        raise Forbidden(_("the password is not right: the account was not deleted"))
    player = user.player
    with transaction.atomic():
        for table_id in Seat.objects.filter(player=player, table__status=Table.Status.OPEN).values_list(
            "table_id", flat=True
        ):
            games.seat_leave(table_id=table_id, player=player)
        for table_id in Seat.objects.filter(
            player=player, table__status=Table.Status.ACTIVE, state=Seat.State.PLAYING
        ).values_list("table_id", flat=True):
            games.game_resign(table_id=table_id, player=player)
        for reg in (
            Registration.objects.filter(player=player)
            .exclude(status=Registration.Status.WITHDRAWN)
            .filter(
                tournament__status__in=[
                    Tournament.Status.DRAFT,
                    Tournament.Status.REGISTRATION,
                    Tournament.Status.RUNNING,
                ]
            )
        ):
            events.withdraw(tournament_id=reg.tournament_id, player=player, by=player)
        for c in Challenge.objects.filter(status=Challenge.Status.PENDING).filter(
            challenger=player
        ) | Challenge.objects.filter(status=Challenge.Status.PENDING, challenged=player):
            Challenge.objects.filter(pk=c.pk).update(
                status=Challenge.Status.CANCELLED, answered_at=timezone.now()
            )
        for member in LadderMember.objects.filter(player=player).select_related("ladder"):
            ladders.ladder_leave(ladder=member.ladder, player=player)
        QueueEntry.objects.filter(player=player).delete()

        player.display_name = anonymous_name(player)
        player.email_verified = False
        player.save(update_fields=["display_name", "email_verified"])
        user.username = f"deleted-{user.pk}"
        user.email = ""
        user.first_name = user.last_name = ""
        user.is_active = False
        user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()
        Account.objects.update_or_create(
            user=user,
            defaults={
                "email_verified_at": None,
                "pending_email": "",
                "language": "",
                "time_zone": "",
                "deleted_at": timezone.now(),
            },
        )
        Notification.objects.filter(user=user).delete()
        NotificationSetting.objects.filter(user=user).delete()
        OutgoingMail.objects.filter(user=user).delete()
        sessions.end_all(user)


# ---------------------------------------------------------------------------------------------
# Export


def export(user: Any) -> bytes:
    """A zip of one's own data: ``account.json``, ``games.json`` (every table with its seats,
    result and moves), ``ratings.json`` (current ratings and every change) and one game record
    per finished table under ``records/``."""
    player = user.player
    account = account_of(user)
    tables = list(
        Table.objects.filter(seats__player=player).prefetch_related("seats__player", "moves").order_by("pk")
    )
    games_out = []
    for t in tables:
        games_out.append(
            {
                "table": t.pk,
                "game": t.game,
                "edition": t.edition,
                "players": t.players,
                "rated": t.rated,
                "status": t.status,
                "created_at": t.created_at.isoformat(),
                "started_at": t.started_at.isoformat() if t.started_at else None,
                "finished_at": t.finished_at.isoformat() if t.finished_at else None,
                "end_reason": t.end_reason,
                "time_control": t.time_control,
                "seats": [
                    {
                        "seat": s.number,
                        "player": s.player.display_name,
                        "you": s.player_id == player.pk,
                        "rank": s.rank,
                        "markers": s.markers,
                        "state": s.state,
                    }
                    for s in sorted(t.seats.all(), key=lambda s: s.number)
                ],
                "moves": [
                    {"seq": m.seq, "ply": m.ply, "seat": m.seat, "kind": m.kind, "move": m.notation}
                    for m in sorted(t.moves.all(), key=lambda m: m.seq)
                ],
            }
        )
    ratings_out = {
        "current": [
            {"game": r.game, "mu": r.mu, "sigma": r.sigma, "games": r.games}
            for r in Rating.objects.filter(player=player)
        ],
        "changes": [
            {
                "table": rc.table_id,
                "game": rc.game,
                "mu_before": rc.mu_before,
                "sigma_before": rc.sigma_before,
                "mu_after": rc.mu_after,
                "sigma_after": rc.sigma_after,
            }
            for rc in RatingChange.objects.filter(player=player).order_by("pk")
        ],
    }
    account_out = {
        "username": user.get_username(),
        "display_name": player.display_name,
        "email": user.email,
        "email_verified": bool(account.email_verified_at),
        "joined": user.date_joined.isoformat(),
        "language": account.language,
        "time_zone": account.time_zone,
        "exported_at": timezone.now().isoformat(),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("account.json", json.dumps(account_out, indent=2, ensure_ascii=False))
        archive.writestr("games.json", json.dumps(games_out, indent=2, ensure_ascii=False))
        archive.writestr("ratings.json", json.dumps(ratings_out, indent=2, ensure_ascii=False))
        for t in tables:
            if t.status == Table.Status.FINISHED:
                archive.writestr(f"records/table-{t.pk}.txt", games.record_text(t))
    return buffer.getvalue()
