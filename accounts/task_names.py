"""The names of accounts' Celery tasks (registered in ``accounts.tasks``; sent by the outbox and
the beat schedule)."""

SEND_MAIL = "accounts.tasks.send_mail"
MAIL_SWEEP = "accounts.tasks.mail_sweep"
NOTIFY_SWEEP = "accounts.tasks.notify_sweep"
RETENTION_SWEEP = "accounts.tasks.retention_sweep"
