"""Mail sent by a real Celery worker (real Redis broker, real aiosmtpd SMTP server, PostgreSQL),
and the outbox's one documented fault: a worker killed between the SMTP server accepting a mail
and the row being marked sent (``accounts.outbox``).

The worker is paused at an exact point of sending by a test email backend
(``tests.accounts.pausing_backend``: it touches a file, then sleeps), and killed with SIGKILL
while it sleeps. A new worker without the pause then runs the mail sweep once the claim
(``MAIL_CLAIM_SECONDS``, 2 s here) has run out.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from accounts.models import OutgoingMail
from common import tasks
from games.models import Table
from tests.celery_worker import Celery, conf_get, conf_set, running_celery

from ..games.conftest import Actor, started_table
from ..games.test_clock_worker_pg import wait_for
from .conftest import verified
from .smtp import SmtpServer, text_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CORRESPONDENCE = {"kind": "correspondence", "days": 3}
CLAIM_SECONDS = 2.0


@pytest.fixture(autouse=True)
def _no_backoff_left_over() -> Iterator[None]:
    tasks._down_until = 0.0
    yield
    tasks._down_until = 0.0


@contextmanager
def mail_worker(settings: Any, smtp: SmtpServer, **env: str) -> Iterator[Celery]:
    """A Celery worker (not started yet) that takes this process's mail tasks and sends over SMTP
    to ``smtp``. Every worker process left is killed at the end (a paused one would hold a
    graceful shutdown for a minute)."""
    with running_celery(settings) as c:
        c.env.update(
            {
                "MAIL_QUEUE": c.queue,  # the worker's own sends (retries) go to its queue too
                "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": "127.0.0.1",
                "EMAIL_PORT": str(smtp.port),
                "EMAIL_TIMEOUT": "5",
                "SITE_URL": settings.SITE_URL,
                **env,
            }
        )
        routes = dict(conf_get("task_routes")["task_routes"] or {})
        conf_set(task_routes={**routes, "accounts.tasks.*": {"queue": c.queue}})
        # outbox.dispatch reads Django's setting (not the Celery app's): tasks go to the broker.
        settings.CELERY_TASK_ALWAYS_EAGER = False
        try:
            yield c
        finally:
            for name in list(c.procs):
                c.kill(name)


def move(actor: Actor, table: Table, text: str) -> None:
    table.refresh_from_db()
    answer = actor.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": table.ply, "move": text})
    assert answer.status_code == 201, answer.json()


def your_turn(smtp: SmtpServer, address: str) -> list[Any]:
    return [m for m in smtp.to(address) if "Your turn" in str(m["Subject"])]


def table_waiting_for_alices_move(alice: Actor, bob: Actor) -> Table:
    """A correspondence table where Alice is on turn. Both addresses are verified only after it
    started, so the first "your turn" (Alice's, at the start) makes no mail: Alice's move will
    make exactly one, to Bob."""
    table = started_table([alice, bob], time_control=CORRESPONDENCE)
    verified(alice, "alice@example.org"), verified(bob, "bob@example.org")
    assert not OutgoingMail.objects.exists()
    return table


def test_a_correspondence_move_through_the_api_is_mailed_once_by_the_worker(
    settings: Any, smtp: SmtpServer, alice: Actor, bob: Actor
) -> None:
    table = table_waiting_for_alices_move(alice, bob)
    with mail_worker(settings, smtp) as c:
        c.start()
        c.wait_ready()
        move(alice, table, "e1-e2")
        mail = OutgoingMail.objects.get()
        assert mail.to == "bob@example.org" and mail.status == OutgoingMail.Status.PENDING
        # Nothing in this process sends mail: only the worker can deliver it.
        wait_for(lambda: len(smtp.messages) >= 1, timeout=20)
        wait_for(lambda: OutgoingMail.objects.get().status == OutgoingMail.Status.SENT, timeout=10)
        time.sleep(1.0)  # a duplicate would have arrived by now
        assert c.alive("worker")
    [sent] = smtp.messages
    assert your_turn(smtp, "bob@example.org") == [sent] and smtp.to("alice@example.org") == []
    assert "Alice" in str(sent["Subject"]) and f"/tables/{table.pk}/" in text_of(sent)
    assert sent["Message-ID"] == mail.message_id
    mail.refresh_from_db()
    assert (mail.status, mail.attempts, mail.claimed_until, mail.last_error) == ("sent", 1, None, "")


def kill_while_sending_then_recover(
    settings: Any,
    smtp: SmtpServer,
    alice: Actor,
    bob: Actor,
    tmp_path: Path,
    pause: str,
    accepted_before_kill: int,
) -> OutgoingMail:
    """Make Bob's "your turn" mail, let a worker that pauses at ``pause`` (an environment
    variable of the pausing backend) take it, SIGKILL the worker there, check the row is left
    pending and claimed (and the SMTP server holding ``accepted_before_kill`` copies), then
    start a worker without the pause and let it run the mail sweep once the claim has run out.
    Return the row, once it is marked sent."""
    table = table_waiting_for_alices_move(alice, bob)
    paused = tmp_path / "paused"
    with mail_worker(
        settings,
        smtp,
        EMAIL_BACKEND="tests.accounts.pausing_backend.PausingSMTPBackend",
        MAIL_CLAIM_SECONDS=str(CLAIM_SECONDS),
        **{pause: str(paused)},
    ) as c:
        c.start()
        c.wait_ready()
        move(alice, table, "e1-e2")
        wait_for(paused.exists, timeout=20)
        c.kill("worker")  # SIGKILL, worker and pool child alike: no chance to mark or release
        mail = OutgoingMail.objects.get()
        assert mail.to == "bob@example.org"
        # The claim counted as an attempt (a sender that always dies still reaches the limit).
        assert mail.status == OutgoingMail.Status.PENDING and mail.sent_at is None and mail.attempts == 1
        assert mail.claimed_until is not None, "the dead worker's claim is still on the row"
        assert len(smtp.messages) == accepted_before_kill

        del c.env[pause]
        c.start("worker")
        c.wait_ready()
        assert mail.claimed_until is not None
        time.sleep(max(0.0, mail.claimed_until.timestamp() - time.time()) + 0.2)
        assert len(smtp.messages) == accepted_before_kill, "nothing resends before the sweep"
        assert tasks.send("accounts.tasks.mail_sweep")
        wait_for(lambda: OutgoingMail.objects.get().status == OutgoingMail.Status.SENT, timeout=15)
        time.sleep(1.0)  # anything more would have arrived by now
        assert c.alive("worker")
    mail.refresh_from_db()
    assert mail.attempts == 2 and mail.claimed_until is None and mail.sent_at is not None
    return mail


def test_a_worker_killed_after_the_smtp_server_accepted_the_mail_makes_a_duplicate(
    settings: Any, smtp: SmtpServer, alice: Actor, bob: Actor, tmp_path: Path
) -> None:
    mail = kill_while_sending_then_recover(settings, smtp, alice, bob, tmp_path, "PAUSE_AFTER_SEND_FILE", 1)
    # The documented duplicate (accounts/outbox.py): the server took the mail, the sender died
    # before marking it sent, and SMTP has no way to ask whether a message was delivered, so the
    # sweep sends it again. Both copies carry the row's Message-ID: clients that deduplicate by
    # it show one mail.
    copies = smtp.messages
    assert len(copies) == 2
    assert your_turn(smtp, "bob@example.org") == copies
    assert [m["Message-ID"] for m in copies] == [mail.message_id, mail.message_id]
    assert copies[0]["Subject"] == copies[1]["Subject"] and text_of(copies[0]) == text_of(copies[1])
    assert mail.status == OutgoingMail.Status.SENT


def test_a_worker_killed_before_sending_leaves_one_mail_after_recovery(
    settings: Any, smtp: SmtpServer, alice: Actor, bob: Actor, tmp_path: Path
) -> None:
    mail = kill_while_sending_then_recover(settings, smtp, alice, bob, tmp_path, "PAUSE_BEFORE_SEND_FILE", 0)
    [sent] = smtp.messages
    assert your_turn(smtp, "bob@example.org") == [sent]
    assert sent["Message-ID"] == mail.message_id
    assert mail.status == OutgoingMail.Status.SENT
