"""Benchmark: what notifications cost a move, and how the outbox drains (not a test; prints figures).

In process (Django's test client: the whole request path) on a PostgreSQL database of its own
(``pacru_mailbench``), 2-player Pacru tables on a correspondence clock, where every move makes
a "your turn" notification for the next player:

* moves whose players have no address (a notification, no mail), whose players have confirmed
  addresses and a mail server that is up, and the same with the mail server down: the move's
  latency must not depend on the mail server (mail is sent by workers, never in the request);
* the outbox drained over SMTP to a local aiosmtpd server (mails/s), and the same backlog with
  the server down (each attempt refused at once, the row rescheduled), then delivered when the
  server is back.

    .venv/bin/python bench/mail_moves.py
    .venv/bin/python bench/mail_moves.py --tables 200 --plies 10
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def summary(ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[max(0, int(len(ms) * 0.99) - 1)]
    return f"{len(ms):>5} moves  p50 {statistics.median(ms):6.2f} ms  p99 {p99:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--plies", type=int, default=8)
    args = parser.parse_args()

    from bench.load_moves import setup_database

    db_url = setup_database(args.database, "pacru_mailbench")
    os.environ.update(DATABASE_URL=db_url, DJANGO_SETTINGS_MODULE="config.settings", THROTTLE_OFF="1")
    os.environ.pop("REDIS_URL", None)
    import subprocess

    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    import django

    django.setup()
    from django.conf import settings
    from django.test.utils import setup_test_environment
    from django.utils import timezone
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from accounts import outbox
    from accounts.models import Account, OutgoingMail
    from engine.playout import random_step
    from games import services
    from games.models import Player
    from tests.accounts.smtp import SmtpServer

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["*"]
    smtp = SmtpServer()
    smtp.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", smtp.port, 5
    settings.MAIL_RETRY_SECONDS = 0

    def group(name: str, with_mail: bool) -> list[dict[str, Any]]:
        out = []
        for i in range(args.tables):
            pair = [
                services.player_register(username=f"{name}{i}{s}", password="bench-password-1") for s in "ab"
            ]
            for p in pair:
                if with_mail:
                    p.user.email = f"{p.user.username}@example.org"
                    p.user.save(update_fields=["email"])
                    confirmed = {"email_verified_at": timezone.now()}
                    Account.objects.update_or_create(user=p.user, defaults=confirmed)
            table = services.table_create(
                creator=pair[0], game="pacru", players=2, time_control={"kind": "correspondence", "days": 3}
            )
            services.seat_join(table_id=table.pk, player=pair[1])
            clients = {}
            for n, p in enumerate(pair, start=1):
                c = APIClient()
                c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=p.user).key}")
                clients[n] = c
            out.append({"table": table.pk, "clients": clients})
        return out

    def play(tables: list[dict[str, Any]]) -> list[float]:
        rng = random.Random(7)
        ms = []
        for _ in range(args.plies):
            for t in tables:
                from games.models import Table

                table = Table.objects.get(pk=t["table"])
                state = services.current_state(table)
                _, text = random_step(state, rng, reorient_rate=0)
                start = time.perf_counter()
                r = t["clients"][state.to_move].post(
                    f"/api/v1/tables/{table.pk}/moves/", {"ply": table.ply, "move": text}, format="json"
                )
                ms.append((time.perf_counter() - start) * 1000)
                assert r.status_code == 201, r.content
        return ms

    print(f"{args.tables} correspondence tables per case, {args.plies} plies each, moves through the API")
    quiet = group("quiet", with_mail=False)
    up = group("up", with_mail=True)
    down = group("down", with_mail=True)
    OutgoingMail.objects.all().delete()  # the tables' first turns
    print(f"  no address (inbox only)     {summary(play(quiet))}")
    print(f"  mail, server up             {summary(play(up))}")
    queued = OutgoingMail.objects.count()
    smtp.stop()
    print(f"  mail, server down           {summary(play(down))}")
    total = OutgoingMail.objects.count()
    print(f"  mails queued by the moves: {total} (one per move of the players with an address)")
    tried = outbox.send_due()
    waiting = OutgoingMail.objects.filter(status="pending").count()
    print(f"  server down: a sweep's first attempt is refused ({tried}); {waiting} mails wait, none lost")
    smtp.start()
    OutgoingMail.objects.update(next_try_at=timezone.now())
    start = time.perf_counter()
    sent = 0
    while True:
        n = outbox.send_due(limit=500).get("sent", 0)
        if not n:
            break
        sent += n
    took = time.perf_counter() - start
    dupes = len(smtp.messages) - len({m["Message-ID"] for m in smtp.messages})
    print(
        f"  server back: {sent} mails delivered in {took:.2f} s ({sent / took:,.0f} mails/s over one "
        f"SMTP connection per batch), {len(smtp.messages)} received, {dupes} duplicates "
        f"(queued before the outage: {queued})"
    )
    smtp.stop()
    assert Player.objects.exists()


if __name__ == "__main__":
    main()
