"""Creating notifications: one per event and recipient, and the mail each asks for.

:func:`notify` is called after the event's own transaction committed (the receivers) or from a
sweep. It writes the inbox row and, in the same transaction, the mail: queued for sending now
(``immediate``), or marked for the player's next digest (``hourly``, ``daily``). The row's
unique ``(user, key)`` makes a repeated event a no-op, so a notification is never made twice.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext

from common.site import site_url
from ratings import display
from ratings.models import RatingChange

from . import kinds, mail_limits, outbox
from .models import Account, EmailMode, Notification, NotificationSetting

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "accounts.unsubscribe"
ALL_KINDS = "*"


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(*, token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        return int(data["u"]), str(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def unsubscribe_url(*, user_id: int, kind: str) -> str:
    return site_url(reverse("unsubscribe", args=[unsubscribe_token(user_id=user_id, kind=kind)]))


def email_modes(*, user_id: int) -> dict[str, str]:
    """Each kind's e-mail mode for this player: their choice or the kind's default."""
    chosen = dict(NotificationSetting.objects.filter(user_id=user_id).values_list("kind", "email"))
    return {name: chosen.get(name, kind.email) for name, kind in kinds.KINDS.items()}


def set_email_mode(*, user_id: int, kind: str, mode: str) -> None:
    if kind not in kinds.KINDS or mode not in kinds.EMAIL_MODES:
        raise ValueError(f"no such notification kind or e-mail mode: {kind!r}, {mode!r}")
    NotificationSetting.objects.update_or_create(user_id=user_id, kind=kind, defaults={"email": mode})


def verified_address(*, user: Any, account: Account | None) -> str:
    """The address mail may go to: the user's, once verified and while the account is active
    (``account``: the user's, or None when it has none)."""
    if not user.is_active or not user.email or account is None or not account.email_verified_at:
        return ""
    return str(user.email)


def account_of_user(*, user: Any) -> Account | None:
    """The user's account row, read along with the user (``select_related("account")``) or now."""
    return getattr(user, "account", None)  # absent: a reverse one-to-one error, an AttributeError


def recipient_language(*, user: Any, default: str | None = None) -> str:
    """The language to write to ``user`` in (a mail, a notification made in someone else's
    request or in a worker): the one they chose (``Account.language``), else ``default`` (a
    mail the recipient asked for themselves: their request's language), else the site's
    (``LANGUAGE_CODE``). ``user`` may be None (no account: the site's language)."""
    codes = {code for code, _ in settings.LANGUAGES}
    chosen = getattr(account_of_user(user=user), "language", "") if user is not None else ""
    if chosen in codes:
        return str(chosen)
    if default:
        try:
            default = translation.get_supported_language_variant(default)
        except LookupError:
            default = ""
        if default in codes:
            return default
    return str(settings.LANGUAGE_CODE)


@contextmanager
def recipient_locale(*, user: Any, default: str | None = None) -> Iterator[str]:
    """Write to ``user`` inside this block: their language (:func:`recipient_language`, which
    the block yields) and their time zone are the active ones."""
    language = recipient_language(user=user, default=default)
    zone = account_zone(account=account_of_user(user=user) if user is not None else None)
    with translation.override(language), timezone.override(zone):
        yield language


def queue_account_mail(
    *,
    user: Any,
    template: str,
    subject: Any,
    context: dict[str, Any],
    key: str,
    to: str,
    client: str = "",
    discard: bool = False,
) -> bool:
    """One of the mails a person asks for themselves (confirming an address, resetting a
    password) or is told of (a notice about their address): ``templates/accounts/mail/<template>.txt``
    and ``.html``, and ``subject`` (a lazy message with ``%(site)s``), queued in their language,
    or, without a saved choice, in the language of the page they asked on.

    Nobody confirmed they want these, so each is counted (``accounts.mail_limits``: per recipient
    address, per requesting ``client`` address, per account): False, and nothing queued, past a
    limit. ``discard``: do every step and throw the mail away (a password reset for an address
    no account has costs what one for a known address costs, so its timing tells nothing)."""
    allowed = mail_limits.take(to=to, client=client, user_id=user.pk)
    with recipient_locale(user=user, default=translation.get_language()):
        mail = dict(
            key=key,
            to=to,
            subject=str(subject) % {"site": settings.SITE_NAME},
            text=render_to_string(f"accounts/mail/{template}.txt", context),
            html=render_to_string(f"accounts/mail/{template}.html", context),
            user_id=None if discard else user.pk,
        )
        if not allowed:
            return False
        outbox.queue(**mail, discard=discard)  # type: ignore[arg-type]
    return not discard


def user_zone(*, user_id: int) -> ZoneInfo:
    name = Account.objects.filter(user_id=user_id).values_list("time_zone", flat=True).first()
    try:
        return ZoneInfo(name or "UTC")
    except (ValueError, KeyError):
        return ZoneInfo("UTC")


def digest_due(*, mode: str, now: datetime, zone: ZoneInfo) -> datetime:
    """When the next digest of this mode goes out: the next full hour, or the next morning
    (``DIGEST_DAILY_HOUR`` in the player's time zone)."""
    if mode == EmailMode.HOURLY:
        return now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    local = now.astimezone(zone)
    morning = datetime.combine(local.date(), time(settings.DIGEST_DAILY_HOUR), tzinfo=zone)
    if morning <= local:
        morning = datetime.combine(
            local.date() + timedelta(days=1), time(settings.DIGEST_DAILY_HOUR), tzinfo=zone
        )
    return morning.astimezone(ZoneInfo("UTC"))


@dataclass(frozen=True)
class Recipient:
    """Whom :func:`notify` writes to, read in one query (:func:`recipient`): the active ``user``
    with their account and their player (``select_related``: the live push that follows the
    insert reads neither again), and their saved e-mail choice for ``kind`` (None: the kind's
    default)."""

    user: Any
    kind: str
    chosen: str | None


def recipient(*, user_id: int, kind: str) -> Recipient | None:
    """The active user ``user_id`` as :func:`notify` needs them for ``kind`` (one query), or None
    when there is no such active user."""
    choice = NotificationSetting.objects.filter(user=OuterRef("pk"), kind=kind).values("email")[:1]
    found = list(
        get_user_model()
        .objects.select_related("account", "player")
        .filter(pk=user_id, is_active=True)
        .annotate(email_choice=Subquery(choice))[:1]
    )
    return Recipient(user=found[0], kind=kind, chosen=found[0].email_choice) if found else None


def notify(
    *,
    user_id: int,
    kind: str,
    key: str,
    params: dict[str, Any],
    url: str = "",
    to: Recipient | None = None,
) -> Notification | None:
    """The notification ``key`` for ``user_id`` (None if it was made before, or the account
    cannot receive any). It runs after a move's commit, so it is kept short: one read of the
    recipient (``to``, when the caller read it already with :func:`recipient`: none), and the
    inserts."""
    if to is None:
        to = recipient(user_id=user_id, kind=kind)
        if to is None:
            return None
    assert to.user.pk == user_id and to.kind == kind, "the recipient read for another notification"
    user = to.user
    account = account_of_user(user=user)
    mode = to.chosen or (kinds.KINDS[kind].email if kind in kinds.KINDS else EmailMode.OFF)
    address = verified_address(user=user, account=account)
    n = Notification(user=user, kind=kind, key=key, params=params, url=url)
    if mode != EmailMode.OFF and address:
        if mode == EmailMode.IMMEDIATE:
            n.mail = Notification.Mail.QUEUED
        else:
            n.mail = Notification.Mail.DIGEST
            n.digest_due = digest_due(mode=mode, now=timezone.now(), zone=account_zone(account=account))
    try:
        with transaction.atomic():
            n.save(force_insert=True)
            if n.mail == Notification.Mail.QUEUED:
                with recipient_locale(user=user):
                    subject, text, html = render_one(notification=n)
                    outbox.queue(
                        key=f"n:{n.pk}",
                        to=address,
                        subject=subject,
                        text=text,
                        html=html,
                        headers=list_unsubscribe(user_id=user.pk, kind=n.kind),
                        user_id=user.pk,
                        fresh=True,
                    )
    except IntegrityError:
        return None  # made before: the event was delivered twice
    return n


def account_zone(*, account: Account | None) -> ZoneInfo:
    """The account's time zone (UTC when it has none, or an unknown one)."""
    try:
        return ZoneInfo(account.time_zone) if account is not None and account.time_zone else ZoneInfo("UTC")
    except (ValueError, KeyError):
        return ZoneInfo("UTC")


def list_unsubscribe(*, user_id: int, kind: str) -> dict[str, str]:
    """RFC 2369 and RFC 8058 headers: mail clients offer a one-click unsubscribe."""
    return {
        "List-Unsubscribe": f"<{unsubscribe_url(user_id=user_id, kind=kind)}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def extras(*, notifications: list[Notification]) -> dict[int, dict[str, Any]]:
    """What is read at display time rather than stored: a finished game's rating change (rated
    later, by a worker)."""
    wanted = {
        (n.params.get("table"), n.params.get("player")): n.pk
        for n in notifications
        if n.kind == "game_over" and n.params.get("rated")
    }
    out: dict[int, dict[str, Any]] = {}
    if not wanted:
        return out
    tables = {t for t, _ in wanted}
    for rc in RatingChange.objects.filter(table_id__in=tables).only(
        "table_id", "player_id", "mu_before", "mu_after"
    ):
        pk = wanted.get((rc.table_id, rc.player_id))
        if pk is not None:
            after = display.rating(rc.mu_after)
            change = display.signed(display.change(rc.mu_before, rc.mu_after))
            out[pk] = {"rating": f"{display.rating(rc.mu_before)} → {after} ({change})"}
    return out


def render_one(*, notification: Notification) -> tuple[str, str, str]:
    """Subject, plain text and HTML of the mail for one notification, in the active language
    and time zone (:func:`notify` makes them the recipient's: :func:`recipient_locale`)."""
    n = notification
    title = kinds.title(n.kind, n.params)
    detail = kinds.detail(n.kind, n.params, extras(notifications=[n]).get(n.pk))
    context = {
        "title": title,
        "detail": detail,
        "link": site_url(n.url) if n.url else "",
        "unsubscribe": unsubscribe_url(user_id=n.user_id, kind=n.kind),
        "kind_label": kinds.KINDS[n.kind].label if n.kind in kinds.KINDS else n.kind,
        "settings_link": site_url(reverse("settings-notifications")),
    }
    text = render_to_string("accounts/mail/notification.txt", context)
    html = render_to_string("accounts/mail/notification.html", context)
    return title, text, html


def send_digests(*, now: datetime | None = None, limit: int = 500) -> int:
    """Send each player's due digest: their waiting notifications in one mail. The notifications
    are marked in the transaction that queues the mail, so none is in two digests."""
    now = now or timezone.now()
    User = get_user_model()
    user_ids = list(
        Notification.objects.filter(mail=Notification.Mail.DIGEST, digest_due__lte=now)
        .values_list("user_id", flat=True)
        .distinct()[:limit]
    )
    sent = 0
    for user_id in user_ids:
        with transaction.atomic():
            due = list(
                Notification.objects.select_for_update(skip_locked=True)
                .filter(user_id=user_id, mail=Notification.Mail.DIGEST, digest_due__lte=now)
                .order_by("id")
            )
            if not due:
                continue
            Notification.objects.filter(pk__in=[n.pk for n in due]).update(mail=Notification.Mail.HANDED)
            user = User.objects.select_related("account").get(pk=user_id)
            address = verified_address(user=user, account=account_of_user(user=user))
            if not address:
                continue
            with recipient_locale(user=user):
                subject, text, html = render_digest(user_id=user_id, due=due)
                outbox.queue(
                    key=f"digest:{user_id}:{due[0].pk}:{due[-1].pk}",
                    to=address,
                    subject=subject,
                    text=text,
                    html=html,
                    headers=list_unsubscribe(user_id=user_id, kind=ALL_KINDS),
                    user_id=user_id,
                )
            sent += 1
    return sent


def render_digest(*, user_id: int, due: list[Notification]) -> tuple[str, str, str]:
    """Subject, plain text and HTML of one digest, in the active language and time zone
    (:func:`send_digests` makes them the recipient's: :func:`recipient_locale`)."""
    more = extras(notifications=due)
    items = [
        {
            "title": kinds.title(n.kind, n.params),
            "detail": kinds.detail(n.kind, n.params, more.get(n.pk)),
            "link": site_url(n.url) if n.url else "",
        }
        for n in due
    ]
    kinds_in = sorted({n.kind for n in due})
    context = {
        "items": items,
        "unsubscribe_all": unsubscribe_url(user_id=user_id, kind=ALL_KINDS),
        "unsubscribes": [
            {"label": kinds.KINDS[k].label, "link": unsubscribe_url(user_id=user_id, kind=k)}
            for k in kinds_in
            if k in kinds.KINDS
        ],
        "settings_link": site_url(reverse("settings-notifications")),
    }
    subject = ngettext("%(n)d update from %(site)s", "%(n)d updates from %(site)s", len(due)) % {
        "n": len(due),
        "site": settings.SITE_NAME,
    }
    text = render_to_string("accounts/mail/digest.txt", context)
    html = render_to_string("accounts/mail/digest.html", context)
    return subject, text, html


def unsubscribe(*, user_id: int, kind: str) -> list[str]:
    """Turn e-mail off for one kind (or every kind, ``*``); return the kinds turned off."""
    names = list(kinds.KINDS) if kind == ALL_KINDS else [kind]
    for name in names:
        set_email_mode(user_id=user_id, kind=name, mode=EmailMode.OFF)
    # Waiting digest entries of those kinds stay in the inbox but leave the digest.
    Notification.objects.filter(user_id=user_id, kind__in=names, mail=Notification.Mail.DIGEST).update(
        mail=Notification.Mail.NONE, digest_due=None
    )
    return names


def unread_count(*, user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def mark_read_at(*, user_id: int, url: str) -> int:
    """Opening a page settles its notifications: mark those linking to ``url`` read."""
    return Notification.objects.filter(user_id=user_id, url=url, read_at__isnull=True).update(
        read_at=timezone.now()
    )


def mark_read(*, user_id: int, ids: list[int] | None = None) -> int:
    """Mark the given notifications (all, without ``ids``) of this user read; return how many."""
    rows = Notification.objects.filter(user_id=user_id, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    return rows.update(read_at=timezone.now())
