"""Celery tasks of notifications: sending one mail, and the sweeps (``accounts.sweeps``)."""

from __future__ import annotations

from celery import shared_task

from . import outbox, sweeps


@shared_task(name="accounts.tasks.send_mail", acks_late=True)
def send_mail(mail_id: int) -> str:
    """Send one queued mail: a redelivered task finds it sent (or held) and does nothing."""
    return outbox.send(mail_id)


@shared_task(name="accounts.tasks.mail_sweep")
def mail_sweep() -> dict[str, int]:
    return sweeps.mail_sweep()


@shared_task(name="accounts.tasks.notify_sweep")
def notify_sweep() -> dict[str, int]:
    return sweeps.notify_sweep()


@shared_task(name="accounts.tasks.retention_sweep")
def retention_sweep() -> dict[str, int]:
    """Daily: old mails, notifications and sessions deleted (``accounts.sweeps.retention_sweep``)."""
    return sweeps.retention_sweep()
