"""Archiving: a finished table's stored position can be dropped and nothing a reader sees changes."""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from games.models import Table
from games.verify import verify_table

from .conftest import Actor, play_random, started_table

pytestmark = pytest.mark.django_db


def readings(table_id: int, anon: Any) -> dict[str, Any]:
    """What readers see of the table, less what differs on every request (the server's clock,
    the CSRF token)."""
    page = Client().get(f"/tables/{table_id}/")
    assert page.status_code == 200
    detail = anon.get(f"/api/v1/tables/{table_id}/").json()
    detail.pop("server_time")
    return {
        "detail": detail,
        "positions": anon.get(f"/api/v1/tables/{table_id}/positions/").json(),
        "page": re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page.content.decode()),
    }


def test_a_finished_table_reads_the_same_after_its_position_is_archived(
    alice: Actor, bob: Actor, carol: Actor, anon: Any
) -> None:
    table = started_table([alice, bob, carol], "azacru")
    table = play_random(table, {1: alice.player, 2: bob.player, 3: carol.player}, None, seed=5)
    assert table.status == Table.Status.FINISHED
    live = started_table([bob, alice])
    before = readings(table.pk, anon)
    out = StringIO()
    call_command("archive_tables", "--days", "0", stdout=out)
    assert "1 table(s) archived" in out.getvalue()
    assert Table.objects.get(pk=table.pk).position is None
    assert Table.objects.get(pk=live.pk).position is not None, "tables in play are never archived"
    assert readings(table.pk, anon) == before
    assert verify_table(Table.objects.get(pk=table.pk)) == []
    out = StringIO()
    call_command("archive_tables", "--days", "0", stdout=out)
    assert "0 table(s) archived" in out.getvalue()


def test_only_tables_that_ended_before_the_cutoff_are_archived(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    table = play_random(table, {1: alice.player, 2: bob.player}, None, seed=3)
    out = StringIO()
    call_command("archive_tables", "--days", "30", "--dry-run", stdout=out)
    assert "0 table(s) would be archived" in out.getvalue()
    call_command("archive_tables", "--days", "30", stdout=StringIO())
    assert Table.objects.get(pk=table.pk).position is not None
