"""Celery tasks of notifications: sending one mail, and the sweeps (``accounts.sweeps``)."""

from __future__ import annotations

from celery import shared_task

from . import outbox, sweeps, task_names


@shared_task(name=task_names.SEND_MAIL, acks_late=True)
def send_mail(mail_id: int) -> str:
    """Send one queued mail: a redelivered task finds it sent (or held) and does nothing."""
    return outbox.send(mail_id)


@shared_task(name=task_names.MAIL_SWEEP)
def mail_sweep() -> dict[str, int]:
    return sweeps.mail_sweep()


@shared_task(name=task_names.NOTIFY_SWEEP)
def notify_sweep() -> dict[str, int]:
    return sweeps.notify_sweep()


@shared_task(name=task_names.RETENTION_SWEEP)
def retention_sweep() -> dict[str, int]:
    """Daily: old mails, notifications and sessions deleted (``accounts.sweeps.retention_sweep``)."""
    return sweeps.retention_sweep()
