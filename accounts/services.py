"""Account actions: signing up, e-mail addresses and their verification, preferences, deletion,
export.

Each action is one transaction, refuses bad input with a :class:`common.errors.ServiceError`
saying why, and changes nothing when it refuses.
"""

from __future__ import annotations

import io
import json
import re
import secrets
import zipfile
from datetime import timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import available_timezones

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.errors import Conflict, Forbidden, InvalidInput
from community import challenges, chat, friends
from games import names
from games import services as games
from games.models import Block, Player, Seat, Table
from ratings.models import Rating, RatingChange
from tournaments import ladders
from tournaments.competitions import services as events
from tournaments.models import AuditEntry, Challenge, LadderMember, QueueEntry, Registration, Tournament
from tournaments.teams import services as team_services

from . import sessions
from .mail_limits import limited_error
from .models import Account, Notification, NotificationSetting, OutgoingMail
from .notify import queue_account_mail, site_url, verified_address

if TYPE_CHECKING:
    from django.contrib.auth.models import User

VERIFY_SALT = "accounts.verify-email"
#: A verification link works this long.
VERIFY_DAYS = 7
#: At most one verification (or reset) mail per account in this time.
RESEND_SECONDS = 60


def account_of(*, user: User) -> Account:
    account, _created = Account.objects.get_or_create(user=user)
    return account


def is_verified(*, user: User) -> bool:
    return bool(verified_address(user=user, account=Account.objects.filter(user=user).first()))


def _field(name: str, problem: str) -> str:
    """A refusal naming the field it is about ("email: ..."): the name stays as the API spells it."""
    return f"{name}: {problem}"


def clean_email(*, email: str) -> str:
    """The address, normalised, if it is valid. Whether another account has it is not said
    here (sign-up and the settings page answer the same for an address in use, so they do not
    tell who has an account): an address is only ever one account's once verified
    (:func:`verify_email`), and mail meant for its owner goes to them (:func:`send_verification`)."""
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
    return f"{local}@{domain.lower()}"


def verified_owner(*, address: str, user: User | None = None) -> User | None:
    """The active account (other than ``user``) whose verified address ``address`` is, or None."""
    owners = get_user_model().objects.filter(
        email__iexact=address, is_active=True, account__email_verified_at__isnull=False
    )
    if user is not None:
        owners = owners.exclude(pk=user.pk)
    return owners.first()


def recently_mailed(*, user: User, prefix: str) -> bool:
    since = timezone.now() - timedelta(seconds=RESEND_SECONDS)
    return OutgoingMail.objects.filter(user_id=user.pk, key__startswith=prefix, created_at__gt=since).exists()


def _display(user: User) -> str:
    return str(getattr(getattr(user, "player", None), "display_name", user.get_username()))


def send_verification(*, user: User, address: str, client: str = "") -> bool:
    """Queue the mail with the link that verifies ``address`` for ``user``; False when one was
    sent in the last minute (so the button cannot be used to flood an inbox).

    An address another account has verified gets no link (it is theirs): its owner is told
    instead that someone tried to use it, and the requester is answered as for any address.
    Past a mail limit (``accounts.mail_limits``) nothing is sent and :class:`MailLimited` is
    raised. An address in use counts as a fresh one does (one mail to it), so the answer tells
    nothing about who has it."""
    prefix = f"verify:{user.pk}:"
    if recently_mailed(user=user, prefix=prefix):
        return False
    owner = verified_owner(address=address, user=user)
    if owner is not None:
        sent = queue_account_mail(
            user=owner,
            template="address_in_use",
            subject=gettext_lazy("Someone tried to use your e-mail address on %(site)s"),
            context={"name": _display(owner), "site": settings.SITE_NAME, "address": address},
            key=prefix + "inuse:" + secrets.token_hex(8),
            to=owner.email,
            client=client,
        )
    else:
        token = signing.dumps({"u": user.pk, "e": address}, salt=VERIFY_SALT, compress=True)
        context = {
            "name": _display(user),
            "link": site_url(reverse("verify-email", args=[token])),
            "days": VERIFY_DAYS,
            "site": settings.SITE_NAME,
        }
        sent = queue_account_mail(
            user=user,
            template="verify",
            subject=gettext_lazy("Confirm your e-mail address for %(site)s"),
            context=context,
            key=prefix + secrets.token_hex(8),
            to=address,
            client=client,
        )
    if not sent:
        raise limited_error()
    return sent


def _no_guests(user: User) -> None:
    if getattr(getattr(user, "player", None), "is_guest", False):
        raise Forbidden(_("a guest account cannot have an e-mail address: sign up for an account first"))


@transaction.atomic
def set_email(*, user: User, email: str, first: bool = False, client: str = "") -> str:
    """Give ``user`` the address ``email``, to be verified by the link mailed to it.

    The first address (sign-up) is the account's at once, unverified. A change is kept aside
    until its link is followed: the old address stays the account's (and verified) until then.
    Past a mail limit it is refused (:class:`MailLimited`: 429, nothing changed; a sign-up makes
    no account). Guest accounts cannot have an address (they would let anyone mail anyone
    without signing up)."""
    _no_guests(user)
    email = clean_email(email=email)
    account = account_of(user=user)
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
        send_verification(user=user, address=account.pending_email or user.email, client=client)
    return email


def sign_up(
    *, username: str, password: str, email: str = "", display_name: str = "", client: str = ""
) -> Player:
    """A new account, for the sign-up page and the register API alike (they differ only in how
    they answer: a signed-in browser, or a token): the user and its player
    (``games.services.player_register``: the username, look-alike, name and password rules),
    its account row, and its ``email`` with the mail that verifies it (``client``, the asking
    address, counts towards ``accounts.mail_limits``).

    All or nothing in one transaction: a refusal at any step (a name taken meanwhile, a mail
    limit reached) leaves no user behind. The mail is queued in the transaction and goes out
    after the commit (``accounts.outbox``), so a sign-up that fails sends nothing."""
    email = (email or "").strip()
    if not email and settings.SIGNUP_EMAIL_REQUIRED:
        raise InvalidInput(
            _field("email", _("this site needs an e-mail address to sign up")),
            fields={"email": [_("required")]},
        )
    if email:
        email = clean_email(email=email)
    with transaction.atomic():
        player = games.player_register(username=username, password=password, display_name=display_name)
        account_of(user=player.user)
        if email:
            set_email(user=player.user, email=email, first=True, client=client)
    return player


@transaction.atomic
def change_email(*, user: User, email: str, password: str, client: str = "") -> str:
    """The settings page's change of address: it needs the current password (a browser left
    signed in must not hand the account to whoever reads the new address), and the old,
    verified address is told (within the mail limits) so that its owner learns of a change
    they did not make."""
    _no_guests(user)
    if not user.check_password(password or ""):
        problem = _("the password is not right: the address was not changed")
        raise Forbidden(_field("password", problem), fields={"password": [problem]})
    account = account_of(user=user)
    old = user.email if account.email_verified_at else ""
    address = set_email(user=user, email=email, client=client)
    if old and address.lower() != old.lower():
        queue_account_mail(
            user=user,
            template="email_changing",
            subject=gettext_lazy("Your e-mail address on %(site)s is being changed"),
            context={"name": _display(user), "site": settings.SITE_NAME, "address": address, "old": old},
            key=f"changing:{user.pk}:{secrets.token_hex(8)}",
            to=old,
            client=client,
        )
    return address


@transaction.atomic
def verify_email(*, token: str) -> User:
    """Follow a verification link: the address it names becomes the account's, verified. It is
    then this account's alone: other accounts holding it unverified (or waiting to) lose it."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=timedelta(days=VERIFY_DAYS))
    except signing.SignatureExpired:
        raise Conflict(_("this link has expired: ask for a new one on your settings page")) from None
    except signing.BadSignature:
        raise InvalidInput(_("this link is not valid: copy the whole link from the e-mail")) from None
    users = get_user_model().objects
    user = users.select_for_update().filter(pk=data.get("u"), is_active=True).first()
    if user is None:
        raise InvalidInput(_("this link belongs to an account that no longer exists"))
    address = str(data.get("e", ""))
    if verified_owner(address=address, user=user) is not None:
        raise Conflict(_("another account has confirmed this address: use another one"))
    account = account_of(user=user)
    if address.lower() == (account.pending_email or "").lower():
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
    Account.objects.filter(pending_email__iexact=address).exclude(user=user).update(pending_email="")
    users.filter(email__iexact=address).exclude(pk=user.pk).update(email="")
    return user


def set_preferences(*, user: User, language: str, time_zone: str) -> Account:
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
    account = account_of(user=user)
    account.language = language
    account.time_zone = time_zone
    account.save(update_fields=["language", "time_zone"])
    return account


# ---------------------------------------------------------------------------------------------
# Passwords


def password_changed(*, user: User, keep: str | None) -> int:
    """After a password change or reset: end every session of ``user`` but ``keep`` (the browser
    that changed it, as Django's ``update_session_auth_hash``) and every API token, in the token
    cache too. Whoever knew the old password, or held a token got with it, is out; programs get
    a new token by signing in again. The number of sessions ended."""
    return sessions.end_all(user, keep=keep, tokens=True)


# ---------------------------------------------------------------------------------------------
# Deletion


def anonymous_name(*, player: Player) -> str:
    """The name a deleted player is shown by. Nobody can take it first (``games.names.reserved``),
    and the player's key is a held one (``games.names.HELD``), so even a name taken before that
    rule cannot block a deletion."""
    return f"deleted player {player.pk}"


def deleted_username(*, user: User) -> str:
    """A deleted account's username: ":" is refused in usernames by sign-up (the API and the
    page), so nobody can hold it first."""
    return f"deleted:{user.pk}"


def _scrub(value: Any, name: re.Pattern[str], label: str) -> Any:
    """``value`` (a notification's params, an audit line's detail) with the name replaced."""
    if isinstance(value, str):
        return name.sub(label, value)
    if isinstance(value, list):
        return [_scrub(v, name, label) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v, name, label) for k, v in value.items()}
    return value


def scrub_name(*, player: Player, old: str, label: str) -> None:
    """Replace a deleted player's old name by ``label`` in other players' notifications and in
    the audit lines of the events they were in (in the same transaction as the deletion). The
    name is replaced where it stands as a whole word ("Al" in "Al resigned", not in "Alan")."""
    name = re.compile(rf"(?<!\w){re.escape(old)}(?!\w)")
    events_in = Registration.objects.filter(player=player).values("tournament_id")
    lines = AuditEntry.objects.filter(
        Q(detail__player=player.pk) | Q(tournament_id__in=events_in, reason__contains=old)
    )
    for entry in lines:
        entry.detail = _scrub(entry.detail, name, label)
        if entry.detail.get("player") == player.pk and "name" in entry.detail:
            entry.detail["name"] = label
        entry.reason = name.sub(label, entry.reason)
        entry.save(update_fields=["detail", "reason"])
    # The params are JSON: the name is in its text as written, or with its non-ASCII escaped.
    text = Cast("params", TextField())
    escaped = json.dumps(old)[1:-1]
    wanted = Q(params_text__contains=old) | Q(params_text__contains=escaped)
    for n in Notification.objects.annotate(params_text=text).filter(wanted).exclude(user=player.user_id):
        params = _scrub(n.params, name, label)
        if params != n.params:
            Notification.objects.filter(pk=n.pk).update(params=params)


def delete_account(*, user: User, password: str) -> None:
    """Delete an account, keeping every game and result: the player is renamed "deleted player
    N", its personal data (name, address, preferences, notifications, sessions, token) removed,
    its games in play resigned, its open seats, registrations, ladder places and challenges left,
    its teams left (a team it captains passes to its vice-captain or longest-standing member), its
    blocks and follows (made and received) removed, the challenges to a table waiting for it
    aborted, its chat messages' text removed (each kept as a "deleted message").
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
        # Their teams go on without them (the captaincy handed over: tournaments.teams.services).
        team_services.on_player_deleted(player=player)
        # Their blocks (personal data) and the blocks of them (they play no more) go too.
        Block.objects.filter(Q(player=player) | Q(blocked=player)).delete()
        # So do their follows both ways, and the challenges to a table waiting for them.
        friends.forget(player=player)
        challenges.forget(player=player)
        # Their chat messages stay in place as "deleted message": text and author gone.
        chat.scrub_author(player=player)

        old_name, label = player.display_name, anonymous_name(player=player)
        username_key = player.username_key
        # A held key: no name, taken now or before, can make the deletion fail (games.names.HELD).
        Player.objects.filter(pk=player.pk).update(
            display_name=label,
            name_key=f"{names.HELD}deleted:{player.pk}",
            email_verified=False,
            # The old username stays held a while: nobody takes it (or a look-alike) at once.
            username_key=username_key,
            username_held_until=timezone.now() + timedelta(days=settings.USERNAME_HOLD_DAYS),
        )
        scrub_name(player=player, old=old_name, label=label)
        user.username = deleted_username(user=user)
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


def export(*, user: User) -> bytes:
    """A zip of one's own data: ``account.json``, ``games.json`` (every table with its seats,
    result and moves), ``ratings.json`` (current ratings and every change) and one game record
    per finished table under ``records/``."""
    player = user.player
    account = account_of(user=user)
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
                archive.writestr(f"records/table-{t.pk}.txt", games.record_text(table=t))
    return buffer.getvalue()
