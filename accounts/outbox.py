"""The mail outbox: queue a mail as a row, send it from a task, exactly once where SMTP allows.

A mail is an :class:`~accounts.models.OutgoingMail` row, written in the transaction that decided
to send it (a unique ``key`` per notification or digest). Sending it:

1. *claim*: one UPDATE takes the row if it is pending, due and not held by another sender,
   holding it for ``MAIL_CLAIM_SECONDS``; a second delivery of the same task finds it taken or
   sent and does nothing;
2. *send* over the configured backend (SMTP in production);
3. *mark* it sent at once, in one UPDATE.

A sender that dies before 3 leaves the row pending and claimed; once the claim runs out the mail
sweep sends it again. If it died *after the SMTP server accepted the mail* and before the mark (a
window of one UPDATE), that resend is a duplicate which nothing on this side can prevent: SMTP
has no way to ask whether a message was delivered. Both copies carry the same ``Message-ID``, so
mail clients that deduplicate show one. A refused or failed send is retried with a growing delay
(``MAIL_RETRY_SECONDS`` doubling up to an hour) until ``MAIL_MAX_ATTEMPTS``.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime, timedelta
from email.utils import make_msgid
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone, translation

from common import tasks as task_sender
from common.retention import delete_in_batches

from .models import OutgoingMail
from .task_names import SEND_MAIL

log = logging.getLogger(__name__)


def queue(
    *,
    key: str,
    to: str,
    subject: str,
    text: str,
    html: str = "",
    headers: dict[str, str] | None = None,
    user_id: int | None = None,
    fresh: bool = False,
    language: str = "",
    discard: bool = False,
) -> OutgoingMail | None:
    """Put a mail in the outbox (inside the caller's transaction) and send it after commit.
    Returns None when a mail with this ``key`` was queued before: nothing is queued twice.
    ``fresh``: the caller knows the key is new (it was made from a row inserted in the same
    transaction), so the insert needs no savepoint of its own. ``language``: the one the mail is
    written in (default: the active one), sent as its ``Content-Language``. ``discard``: write the
    row and roll it back at once (the same work as queueing, nothing kept or sent)."""
    headers = {
        "Content-Language": language or translation.get_language() or settings.LANGUAGE_CODE,
        **(headers or {}),
    }
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2].strip("> ") or "localhost"
    mail = OutgoingMail(
        key=key,
        user_id=user_id,
        to=to,
        subject=subject[:200],
        text=text,
        html=html,
        headers=headers,
        message_id=make_msgid(idstring=key.replace(":", "."), domain=domain),
        next_try_at=timezone.now(),
    )
    if discard:
        with contextlib.suppress(_Discarded), transaction.atomic():
            mail.save(force_insert=True)
            raise _Discarded
        return None
    try:
        if fresh:
            mail.save(force_insert=True)
        else:
            with transaction.atomic():
                mail.save(force_insert=True)
    except IntegrityError:
        if fresh:
            raise
        return None
    transaction.on_commit(lambda: dispatch(mail.pk))
    return mail


class _Discarded(Exception):
    """Rolls back the savepoint of a discarded mail."""


def _eager() -> bool:
    """Whether Celery runs tasks in this process (no broker), as ``common.tasks`` decides it."""
    return bool(current_app.conf.task_always_eager)


def dispatch(mail_id: int) -> None:
    """Hand a queued mail to a worker. Without a broker (the local profile) tasks would run in
    the request, so the mail is left to the in-process sweeper (``manage.py clock_sweeper``):
    a slow mail server never delays a page or a move."""
    if _eager() and not settings.MAIL_SEND_IN_REQUEST:
        return
    task_sender.send(SEND_MAIL, (mail_id,))


def _claim(mail_id: int, now: datetime) -> datetime | None:
    """Take the mail for this sender (pending, due, not held); the claim counts as an attempt, so
    a sender that dies every time still reaches ``MAIL_MAX_ATTEMPTS``. Returns the claim's end,
    which the sender's later updates match on: a sender whose claim ran out and was taken over
    changes nothing."""
    hold = now + timedelta(seconds=settings.MAIL_CLAIM_SECONDS)
    taken = (
        OutgoingMail.objects.filter(pk=mail_id, status=OutgoingMail.Status.PENDING, next_try_at__lte=now)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .update(claimed_until=hold, attempts=F("attempts") + 1)
    )
    return hold if taken else None


def message(mail: OutgoingMail, connection: Any = None) -> EmailMultiAlternatives:
    headers = {"Message-ID": mail.message_id, **mail.headers}
    msg = EmailMultiAlternatives(
        subject=mail.subject,
        body=mail.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.to],
        headers=headers,
        connection=connection,
    )
    if mail.html:
        msg.attach_alternative(mail.html, "text/html")
    return msg


def retry_delay(attempts: int) -> float:
    return float(min(3600.0, settings.MAIL_RETRY_SECONDS * 2 ** max(0, attempts - 1)))


def send(mail_id: int, connection: Any = None) -> str:
    """Claim, send and mark one mail; say what happened ("sent", "retry", "failed", "not due")."""
    now = timezone.now()
    hold = _claim(mail_id, now)
    if hold is None:
        return "not due"
    mine = OutgoingMail.objects.filter(pk=mail_id, claimed_until=hold)
    mail = OutgoingMail.objects.get(pk=mail_id)
    if mail.attempts > settings.MAIL_MAX_ATTEMPTS:
        mine.update(status=OutgoingMail.Status.FAILED, claimed_until=None)
        log.error("mail %s to %s given up after %s attempts", mail.key, mail.to, mail.attempts - 1)
        return "failed"
    try:
        message(mail, connection).send()
    except Exception as exc:  # smtplib, socket and backend errors: all mean "not sent"
        gave_up = mail.attempts >= settings.MAIL_MAX_ATTEMPTS
        delay = retry_delay(mail.attempts)
        mine.update(
            claimed_until=None,
            next_try_at=now + timedelta(seconds=delay),
            status=OutgoingMail.Status.FAILED if gave_up else OutgoingMail.Status.PENDING,
            last_error=f"{type(exc).__name__}: {exc}"[:300],
        )
        log.warning(
            "mail %s to %s not sent (attempt %s, %s): %s",
            mail.key,
            mail.to,
            mail.attempts,
            "giving up" if gave_up else f"again in {delay:g} s",
            exc,
        )
        if not gave_up and not _eager():
            task_sender.send(SEND_MAIL, (mail_id,), countdown=delay)
        return "failed" if gave_up else "retry"
    # The step that cannot be made atomic with the SMTP exchange: see the module's docstring.
    mine.update(status=OutgoingMail.Status.SENT, sent_at=timezone.now(), claimed_until=None, last_error="")
    return "sent"


def send_due(limit: int = 200) -> dict[str, int]:
    """The mail sweep: send every pending mail that is due and not held (new ones whose task was
    lost, retries, and those whose sender died). One SMTP connection for the batch."""
    now = timezone.now()
    due = list(
        OutgoingMail.objects.filter(status=OutgoingMail.Status.PENDING, next_try_at__lte=now)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .order_by("next_try_at")
        .values_list("pk", flat=True)[:limit]
    )
    counts: dict[str, int] = {}
    if not due:
        return counts
    connection = get_connection(fail_silently=False)
    try:
        for mail_id in due:
            outcome = send(mail_id, connection)
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome in ("retry", "failed"):
                break  # the server is refusing: the rest wait for their next turn
    finally:
        with contextlib.suppress(Exception):  # a connection that never opened
            connection.close()
    return counts


def forget_sent(days: float, now: datetime | None = None) -> int:
    """Delete sent, cancelled and given-up mails older than ``days`` (their bodies hold reset
    links), a batch at a time; pending ones are kept whatever their age."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    done = [OutgoingMail.Status.SENT, OutgoingMail.Status.CANCELLED, OutgoingMail.Status.FAILED]
    return delete_in_batches(OutgoingMail.objects.filter(status__in=done, created_at__lt=cutoff))
