"""An SMTP email backend that can stop a Celery worker at a chosen point of sending, for the
fault tests (tests/accounts/test_mail_worker_pg.py): no hook in production code is needed.

* ``PAUSE_BEFORE_SEND_FILE``: touch that file, then sleep before talking to the SMTP server;
* ``PAUSE_AFTER_SEND_FILE``: send (the server has accepted the mail), touch that file, then sleep,
  before the outbox can mark the mail sent.

The test waits for the file and kills the worker (SIGKILL) while it sleeps. Without either
variable the backend is Django's SMTP backend unchanged.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.core.mail.backends.smtp import EmailBackend

PAUSE_SECONDS = 60.0


def _pause(variable: str) -> None:
    path = os.environ.get(variable)
    if path:
        Path(path).touch()
        time.sleep(PAUSE_SECONDS)


class PausingSMTPBackend(EmailBackend):
    def send_messages(self, email_messages: Sequence[Any]) -> int:
        _pause("PAUSE_BEFORE_SEND_FILE")
        sent = super().send_messages(email_messages)
        _pause("PAUSE_AFTER_SEND_FILE")
        return int(sent)
