"""Backups with a tested restore (issue 30): a database with games, an event and ratings is backed
up with ``manage.py backup``, restored with ``manage.py restore`` into an empty database of its
own, and the restored one passes ``verify_games`` with the same rows in every model's table."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connection

from common.backups import BackupError, pg_tool, server_major
from games import services
from games.models import Move, Table
from ratings.models import Rating
from tournaments.competitions import services as events
from tournaments.models import RoundTable, Tournament

from ..games.conftest import Actor, as_organiser, every_seat_moves, play_random, started_table

ROOT = Path(__file__).resolve().parents[2]
transactional = pytest.mark.django_db(transaction=True)  # pg_dump reads only what is committed


def history(make_actor: Callable[..., Actor]) -> None:
    """Games with real moves (one finished and rated, after every seat moved; one in play), an
    event under way with its table's first moves, and the ratings of the finished game."""
    alice, bob, carol, dave = (make_actor(name) for name in ("alice", "bob", "carol", "dave"))
    rated = started_table([alice, bob], game="shacru")
    every_seat_moves(rated)
    services.game_resign(table_id=rated.pk, player=bob.player)
    playing = started_table([alice, bob, carol], game="pacru")
    play_random(playing, {s.number: s.player for s in playing.seats.all()}, plies=5)
    organiser = as_organiser(dave.player)
    league = events.league_create(organiser=organiser, name="Backup Club")
    event = events.tournament_create(
        organiser=organiser, league=league, name="Restore Open", game="pacru", seats=2, rounds=2
    )
    for actor in (alice, bob, carol, dave):
        events.register(tournament_id=event.pk, player=actor.player)
    events.start(tournament_id=event.pk, by=organiser)
    paired = Table.objects.filter(round_table__round__tournament=event).first()
    play_random(paired, {s.number: s.player for s in paired.seats.all()}, plies=3)
    # what the comparison below must cover, so that it means something
    assert Table.objects.filter(status=Table.Status.FINISHED, rated=True).count() == 1
    assert Rating.objects.filter(game="shacru").count() == 2
    assert Move.objects.count() >= 2 + 5 + 3
    assert Tournament.objects.get().status == Tournament.Status.RUNNING and RoundTable.objects.count() == 2


def model_tables() -> list[str]:
    return sorted(
        {
            m._meta.db_table
            for m in apps.get_models(include_auto_created=True)
            if m._meta.managed and not m._meta.proxy
        }
    )


def counts_here() -> dict[str, int]:
    with connection.cursor() as cursor:
        result = {}
        for table in model_tables():
            cursor.execute(f'SELECT COUNT(*) FROM "{table}"')
            result[table] = cursor.fetchone()[0]
    return result


def manage(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py`` in a process of its own, on another database."""
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_PROFILE": "local", "LOG_LEVEL": "WARNING"}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def restore_and_compare(
    backup: Path, database_url: str, count_restored: Callable[[], dict[str, int]]
) -> None:
    expected = counts_here()
    restored = manage(database_url, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    assert f"{sum(expected.values())} rows" in restored.stdout
    checked = manage(database_url, "verify_games")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    started = Table.objects.exclude(position=None).count()
    assert f"{started} tables checked, 0 with mismatches" in checked.stdout
    assert count_restored() == expected
    # a second restore finds tables there: refused, and nothing changes
    again = manage(database_url, "restore", str(backup))
    assert again.returncode == 1 and "is not empty" in again.stderr and "--force" in again.stderr
    assert count_restored() == expected


@pytest.fixture
def empty_postgres() -> Iterator[str]:
    """A new, empty database beside the test database, dropped afterwards."""
    db = connection.settings_dict
    host, port, user = db["HOST"] or "127.0.0.1", db["PORT"] or 5432, db["USER"]
    name = f"restore_{uuid.uuid4().hex[:12]}"
    password = db["PASSWORD"] or None
    admin = psycopg.connect(host=host, port=port, user=user, password=password, dbname="postgres")
    admin.autocommit = True
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgres://{user}:{db['PASSWORD'] or ''}@{host}:{port}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.mark.postgres
@transactional
def test_a_postgres_backup_restores_into_an_empty_database_with_every_row(
    make_actor: Callable[..., Actor], tmp_path: Path, empty_postgres: str
) -> None:
    history(make_actor)
    call_command("backup", str(tmp_path))
    (backup,) = tmp_path.iterdir()
    assert backup.name.startswith("pacru-") and backup.suffix == ".dump"

    def count_restored() -> dict[str, int]:
        with psycopg.connect(empty_postgres) as db:
            return {t: db.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in model_tables()}

    restore_and_compare(backup, empty_postgres, count_restored)


@transactional
def test_a_sqlite_backup_restores_into_an_empty_database_with_every_row(
    make_actor: Callable[..., Actor], tmp_path: Path
) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite variant: run with DATABASE_URL=sqlite:///…")
    history(make_actor)
    call_command("backup", str(tmp_path / "backups"))
    (backup,) = (tmp_path / "backups").iterdir()
    assert backup.name.startswith("pacru-") and backup.suffix == ".sqlite3"
    target = tmp_path / "restored.sqlite3"

    def count_restored() -> dict[str, int]:
        db = sqlite3.connect(target)
        try:
            return {t: db.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in model_tables()}
        finally:
            db.close()

    restore_and_compare(backup, f"sqlite:///{target}", count_restored)


@transactional
def test_old_backups_are_pruned_to_keep_and_nothing_else_is_touched(tmp_path: Path) -> None:
    suffix = ".dump" if connection.vendor == "postgresql" else ".sqlite3"
    old = [tmp_path / f"pacru-2025010{day}T030000Z{suffix}" for day in range(1, 6)]
    others = [tmp_path / "notes.txt", tmp_path / ".pacru-20250101T030000Z.dump.partial"]
    for path in old + others:
        path.write_bytes(b"x")
    call_command("backup", str(tmp_path), keep=3)
    kept = sorted(p.name for p in tmp_path.glob("pacru-*"))
    assert kept[:2] == [old[3].name, old[4].name] and len(kept) == 3 and kept[2] > old[4].name
    assert all(p.exists() for p in others)
    with pytest.raises(CommandError, match="--keep must be at least 1"):
        call_command("backup", str(tmp_path), keep=0)


@pytest.mark.django_db
def test_a_restore_refuses_a_backup_of_the_other_database_or_a_missing_file(tmp_path: Path) -> None:
    other = tmp_path / ("pacru-20250101T030000Z.sqlite3" if connection.vendor == "postgresql" else "x.dump")
    other.write_bytes(b"x")
    with pytest.raises(CommandError, match="is a backup of"):
        call_command("restore", str(other), force=True)
    with pytest.raises(CommandError, match="no such file"):
        call_command("restore", str(tmp_path / "gone.dump"))


@pytest.mark.django_db
def test_a_missing_pg_dump_of_the_servers_version_is_named() -> None:
    with pytest.raises(BackupError, match=r"pg_dump of PostgreSQL 99 .*not found.*postgresql-client-99"):
        pg_tool("pg_dump", 99)


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_failed_dump_leaves_no_backup_and_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pg_dump that dies half-way (here: a stand-in of the server's version that writes half a
    file and fails) leaves nothing that looks like a backup, and prunes nothing."""
    tools = tmp_path / "bin"
    tools.mkdir()
    fake = tools / "pg_dump"
    fake.write_text(
        "#!/bin/sh\n"
        f'[ "$1" = --version ] && {{ echo "pg_dump (PostgreSQL) {server_major()}.0"; exit 0; }}\n'
        'for a; do case "$a" in --file=*) echo half > "${a#--file=}";; esac; done\n'
        "echo 'connection lost' >&2; exit 1\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PG_BINDIR", str(tools))
    backups = tmp_path / "backups"
    backups.mkdir()
    earlier = backups / "pacru-20250101T030000Z.dump"
    earlier.write_bytes(b"x")
    with pytest.raises(CommandError, match=r"pg_dump failed.*connection lost"):
        call_command("backup", str(backups), keep=1)
    assert [p.name for p in backups.iterdir()] == [earlier.name]
