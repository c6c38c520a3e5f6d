"""The database gone, for one block: the default connection replaced by one to where no database
answers (a port where nothing listens on PostgreSQL, a path that cannot be opened on SQLite).

The test's own connection (and its transaction) is left as it was and put back on exit; the code
under test really connects and really fails, as it would with the database server down."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connections

from .redis_server import free_port


@contextmanager
def database_down(alias: str = "default") -> Iterator[None]:
    original = connections[alias]
    settings = dict(original.settings_dict)
    if original.vendor == "sqlite":
        settings["NAME"] = "/nonexistent-pacru-dir/unreadable.sqlite3"
    else:
        settings.update(HOST="127.0.0.1", PORT=str(free_port()), OPTIONS={"connect_timeout": 2})
    dead = type(original)(settings, alias)
    connections[alias] = dead
    try:
        yield
    finally:
        connections[alias] = original
        dead.close()
