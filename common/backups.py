"""Backups of the whole database and their restore (``manage.py backup`` / ``manage.py restore``).

PostgreSQL is dumped with ``pg_dump --format=custom`` (one consistent snapshot, restorable table by
table with ``pg_restore``); the embedded SQLite file with SQLite's online backup API (a consistent
copy while the service writes). A backup is written under a hidden temporary name and renamed when
complete, so a file named ``pacru-<UTC time>.<dump|sqlite3>`` is never half written; the oldest
are pruned so that ``keep`` remain. A restore goes into an empty database only (``force`` overrides)
and reports the rows of every model's table, which the tests compare with the original's.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from django.apps import apps
from django.db import connection

#: A finished backup: anything else in the folder (the temporary files included) is never pruned.
NAME = re.compile(r"^pacru-\d{8}T\d{6}Z\.(dump|sqlite3)$")
SUFFIX = {"postgresql": ".dump", "sqlite": ".sqlite3"}
#: ``DATABASES`` OPTIONS that pg_dump/pg_restore take from the environment (libpq's variables).
LIBPQ_OPTIONS = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "passfile": "PGPASSFILE",
    "service": "PGSERVICE",
}


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


def backup(directory: Path, keep: int = 14) -> Path:
    """Write a backup of the default database into ``directory`` and prune the oldest; return its path."""
    if keep < 1:
        raise BackupError("--keep must be at least 1")
    kind = _vendor()
    directory.mkdir(parents=True, exist_ok=True)
    final = directory / f"pacru-{datetime.now(UTC):%Y%m%dT%H%M%SZ}{SUFFIX[kind]}"
    if final.exists():
        raise BackupError(f"{final} exists already (one backup a second at most)")
    partial = directory / f".{final.name}.partial"
    try:
        _pg_dump(partial) if kind == "postgresql" else _sqlite_copy(partial)
        _fsync(partial)
        os.replace(partial, final)
        _fsync(directory)
    finally:
        partial.unlink(missing_ok=True)
    prune(directory, keep)
    return final


def prune(directory: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest finished backups (their names sort by time)."""
    done = sorted(p for p in directory.iterdir() if NAME.match(p.name))
    old = done[: max(len(done) - keep, 0)]
    for path in old:
        path.unlink()
    return old


def restore(path: Path, force: bool = False) -> dict[str, int]:
    """Restore a backup into the default database, which must be empty unless ``force``; return the
    row counts of every model's table afterwards."""
    kind = _vendor()
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    if path.suffix != SUFFIX[kind]:
        made_by = {".dump": "PostgreSQL", ".sqlite3": "SQLite"}.get(path.suffix, "an unknown database")
        raise BackupError(
            f"{path.name} is a backup of {made_by}, but DATABASE_URL names a {kind} database: "
            f"restore {SUFFIX[kind]} files into it"
        )
    tables = connection.introspection.table_names()
    if tables and not force:
        raise BackupError(
            f"the database {connection.settings_dict['NAME']} is not empty ({len(tables)} tables): "
            "restore into a new, empty database, or pass --force to replace what the backup contains"
        )
    if kind == "postgresql":
        _pg_restore(path, clean=bool(tables))
    else:
        _sqlite_restore(path)
    return row_counts()


def row_counts() -> dict[str, int]:
    """Rows in every table of an installed model (many-to-many tables included) that exists."""
    existing = set(connection.introspection.table_names())
    tables = sorted(
        {
            m._meta.db_table
            for m in apps.get_models(include_auto_created=True)
            if m._meta.managed and not m._meta.proxy
        }
        & existing
    )
    counts = {}
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def _vendor() -> str:
    if connection.vendor not in SUFFIX:
        raise BackupError(f"backups of {connection.vendor} databases are not supported")
    return connection.vendor


def _fsync(path: Path) -> None:
    """Make the data (a file's, or a folder's entry) durable before it counts as a backup."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- SQLite -------------------------------------------------------------------------------------


def _sqlite_copy(target: Path) -> None:
    """Copy the live database with the online backup API: in one step, so under one read lock and
    consistent, while other processes go on writing (they wait for the lock, as for any reader)."""
    if connection.in_atomic_block:  # its own open write transaction would make the copy wait for ever
        raise BackupError("a backup cannot run inside a transaction")
    connection.ensure_connection()
    copy = sqlite3.connect(target)
    try:
        connection.connection.backup(copy)
    finally:
        copy.close()


def _sqlite_restore(path: Path) -> None:
    source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        try:
            check = source.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as e:
            raise BackupError(f"{path.name} is not a readable SQLite database: {e}") from e
        if check != "ok":
            raise BackupError(f"{path.name} is damaged (SQLite quick_check: {check})")
        connection.ensure_connection()
        source.backup(connection.connection)
    finally:
        source.close()
        connection.close()


# --- PostgreSQL ---------------------------------------------------------------------------------


def _libpq_env() -> dict[str, str]:
    """The connection of DATABASE_URL for pg_dump/pg_restore, in libpq's environment variables: the
    password stays out of the process list."""
    db = connection.settings_dict
    env = {**os.environ}
    for key, var in [("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD")]:
        if db.get(key):
            env[var] = str(db[key])
    for key, var in LIBPQ_OPTIONS.items():
        if db.get("OPTIONS", {}).get(key):
            env[var] = str(db["OPTIONS"][key])
    return env


def server_major() -> int:
    connection.ensure_connection()
    return connection.pg_version // 10000


def pg_tool(name: str, major: int) -> str:
    """``pg_dump`` or ``pg_restore`` of the server's major version: an older one refuses the
    server, a newer one writes archives the server's own tools may not read. Looked for in
    $PG_BINDIR, the distributions' versioned folders, then on PATH."""
    candidates = [
        os.path.join(os.environ.get("PG_BINDIR", ""), name) if os.environ.get("PG_BINDIR") else "",
        f"/usr/lib/postgresql/{major}/bin/{name}",  # Debian, Ubuntu
        f"/usr/pgsql-{major}/bin/{name}",  # RHEL, Fedora (PGDG)
        f"/usr/local/opt/postgresql@{major}/bin/{name}",  # Homebrew
        shutil.which(name) or "",
    ]
    found = []
    for path in dict.fromkeys(c for c in candidates if c and os.access(c, os.X_OK)):
        version = _tool_major(path)
        if version == major:
            return path
        found.append(f"{path} ({version or 'unknown version'})")
    seen = f"; found only {', '.join(found)}" if found else ""
    raise BackupError(
        f"{name} of PostgreSQL {major} (the server's version) was not found{seen}. Install the client "
        f"tools of PostgreSQL {major} (Debian/Ubuntu: postgresql-client-{major}) or set PG_BINDIR "
        "to the folder holding them"
    )


def _tool_major(path: str) -> int | None:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"\(PostgreSQL\) (\d+)", out)
    return int(match.group(1)) if match else None


def _run(args: list[str]) -> None:
    done = subprocess.run(args, env=_libpq_env(), capture_output=True, text=True)
    if done.returncode:
        raise BackupError(f"{Path(args[0]).name} failed (exit {done.returncode}): {done.stderr.strip()}")


def _pg_dump(target: Path) -> None:
    """One snapshot of the whole database (pg_dump reads in a single repeatable-read transaction)."""
    tool = pg_tool("pg_dump", server_major())
    _run([tool, "--format=custom", "--no-password", f"--file={target}", connection.settings_dict["NAME"]])


def _pg_restore(path: Path, clean: bool) -> None:
    """All or nothing (one transaction, stop at the first error); objects owned by whoever restores
    (the backup's roles need not exist here), no GRANTs (likewise). ``clean`` drops the backup's
    objects first (--force into a database that has them)."""
    tool = pg_tool("pg_restore", server_major())
    args = [tool, "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", "--no-password"]
    if clean:
        args += ["--clean", "--if-exists"]
    _run([*args, f"--dbname={connection.settings_dict['NAME']}", str(path)])
