"""A guest who walks away from a game against the house bots: after ABANDONED_GUEST_TABLE_HOURS
without a move the periodic task ends the table (aborted, not rated), once, under its row lock;
the lobby no longer lists it among the games in play and its page says what happened. A table
with a registered player, or a guest table moved in recently, is left alone."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from config.celery import app
from games import services, tasks
from games.models import Player, Table
from games.services import abandoned

from .conftest import Actor

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def bot_table(player: Player, idle_hours: float) -> Table:
    """An active casual table of ``player`` against a house bot, last moved ``idle_hours`` ago."""
    table = services.table_create(creator=player, game="pacru", players=2, rated=False, bot="random")
    since = timezone.now() - timedelta(hours=idle_hours)
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.ACTIVE, turn_started_at=since, started_at=since, created_at=since
    )
    return Table.objects.get(pk=table.pk)


def live_games(html: str) -> str:
    """The lobby's "Live games" section."""
    return html.split('id="live-h"', 1)[1].split("</section>", 1)[0]


def test_an_abandoned_guest_table_is_ended_once_and_says_so(alice: Actor) -> None:
    assert settings.ABANDONED_GUEST_TABLE_HOURS == 24
    guest = services.guest_create()
    stale = bot_table(guest, idle_hours=25)
    recent = bot_table(services.guest_create(), idle_hours=23)
    registered = bot_table(alice.player, idle_hours=25 * 7)
    lobby = Client().get("/?fragment=lobby").content.decode()
    assert f"/tables/{stale.pk}/" in live_games(lobby)

    assert tasks.end_abandoned_guest_tables() == 1
    assert tasks.end_abandoned_guest_tables() == 0  # idempotent: nothing left to end

    stale.refresh_from_db()
    assert stale.status == Table.Status.ABORTED and stale.end_reason == "abandoned"
    assert not stale.rated and stale.finished_at is not None
    assert stale.to_move is None and stale.deadline is None
    for other in (recent, registered):
        other.refresh_from_db()
        assert other.status == Table.Status.ACTIVE and other.end_reason == ""

    lobby = Client().get("/?fragment=lobby").content.decode()
    assert f"/tables/{stale.pk}/" not in live_games(lobby)
    assert f"/tables/{registered.pk}/" in live_games(lobby)

    guest_page = Client()
    guest_page.force_login(guest.user)
    html = guest_page.get(f"/tables/{stale.pk}/").content.decode()
    words = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))
    assert "This table was aborted: abandoned, no move for 24 hours; not rated." in words
    assert 'id="rematch"' in html  # the guest may start again


def test_a_move_made_meanwhile_keeps_the_table() -> None:
    """The table is checked again once locked: a move between the listing and the lock wins."""
    table = bot_table(services.guest_create(), idle_hours=30)
    now = timezone.now()
    assert list(abandoned.abandoned_guest_tables(now=now).values_list("pk", flat=True)) == [table.pk]
    Table.objects.filter(pk=table.pk).update(turn_started_at=now)  # the guest came back and moved
    assert abandoned._end_one(table.pk, now, None) is False
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE


def test_the_task_runs_from_the_beat_schedule_and_the_local_sweeper() -> None:
    entry = next(
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"].endswith("abandoned_guest_tables")
    )
    assert entry["task"] in app.tasks and entry["schedule"] <= 3600
    assert "games.services.abandoned.local_end_abandoned" in settings.LOCAL_SWEEPS
