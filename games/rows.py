"""Plain SQL for the three statements of every move submission.

Submitting a move is the service's hot path (hundreds per second). Building
these statements through the ORM cost more CPU than everything else in the
request together, so they are written once here, from the models' own
metadata (table and column names, each field's own value preparation), and
work on PostgreSQL and SQLite alike. Everything else uses the ORM.

On PostgreSQL a move is two statements inside its transaction: the locked read,
and the insert of the move with the update of its table in one statement (a
data-modifying ``WITH``). Both run as prepared statements with their values
bound by the server (``DB_PREPARED_MOVES``, on by default): PostgreSQL parses
and plans each once per connection, and the client sends the values as they
are instead of quoting them into the text. (Django's own queries keep
client-side binding.) While Django logs queries (``DEBUG``, a test's
``CaptureQueriesContext``) they go through Django's cursor instead, so they are
seen and counted; the SQL is the same.
"""

from __future__ import annotations

import functools
import json
from datetime import UTC
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import JSONField, Model
from django.utils.dateparse import parse_datetime

from .models import Move, Seat, Table

_qn = connection.ops.quote_name

#: Table fields a move submission reads, in model order (as ``Model.from_db`` wants them);
#: the rest stay deferred on the instance.
_READ = {
    "bot_seats",
    "no_show",
    "time_control",
    "clocks",
    "turn_started_at",
    "deadline",
    "started_at",
    "id",
    "game",
    "edition",
    "players",
    "ply_limit",
    "status",
    "ply",
    "to_move",
    "actions",
    "position",
    "result",
}
_LOCK_FIELDS = [f.attname for f in Table._meta.concrete_fields if f.attname in _READ]
#: The same, public: what a move or a timeout needs loaded.
MOVE_FIELDS = list(_LOCK_FIELDS)
_JSON_FIELDS = {"position", "result", "time_control", "clocks", "bot_seats"}
_TIME_FIELDS = {"turn_started_at", "deadline", "started_at"}


def _from_db(name: str, value: Any) -> Any:
    """What the ORM's converters would make of a raw column value."""
    if value is None:
        return None
    if name in _JSON_FIELDS and isinstance(value, str):
        return json.loads(value)
    if name in _TIME_FIELDS:  # SQLite gives naive UTC datetimes (or text)
        parsed = parse_datetime(value) if isinstance(value, str) else value
        if parsed is not None and parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        return parsed
    return value


def _column(model: type[Model], name: str) -> str:
    return _qn(model._meta.get_field(name).column)  # type: ignore[union-attr]


@functools.cache
def _lock_sql(vendor: str) -> str:
    """The locked read's SQL for the database ``vendor`` (built once per process)."""
    table, seat = Table._meta.db_table, Seat._meta.db_table
    columns = ", ".join(f"t.{_column(Table, f)}" for f in _LOCK_FIELDS)
    sql = (
        f"SELECT {columns}, (SELECT s.{_column(Seat, 'number')} FROM {_qn(seat)} s "
        f"WHERE s.{_column(Seat, 'table')} = t.{_column(Table, 'id')} AND s.{_column(Seat, 'player')} = %s) "
        f"FROM {_qn(table)} t WHERE t.{_column(Table, 'id')} = %s"
    )
    if connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF t"
    # SQLite has no row locks; its transactions take the write lock when they begin
    # (transaction_mode IMMEDIATE in settings), which serialises move submissions.
    return sql


def _prepared() -> bool:
    return connection.vendor == "postgresql" and settings.DB_PREPARED_MOVES and not connection.queries_logged


def _fetch_one(sql: str, params: list[Any], *, returns: bool = True) -> Any:
    """Run one of the move's statements and return its first row (None when ``returns`` is
    false: the statement gives no rows)."""
    if _prepared():
        import psycopg  # only with PostgreSQL

        connection.ensure_connection()
        # psycopg's plain cursor binds on the server (Django's own binds on the client).
        with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as raw:
            raw.execute(sql, params, prepare=True)
            return raw.fetchone() if returns else None
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() if returns else None


def _value_of(field: Any) -> Any:
    """How the prepared statements take ``field``'s value (chosen once per field): what
    ``get_db_prep_save`` gives on PostgreSQL, without its generic steps: JSON wrapped as
    ``jsonb`` (no field here has its own encoder), anything else as it is (an aware datetime, an
    int, a string)."""
    from psycopg.types.json import Jsonb  # only with PostgreSQL

    if isinstance(field, JSONField):
        assert field.encoder is None, field
        return lambda value: None if value is None else Jsonb(value)
    return None


@functools.cache
def _preps(fields: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(_value_of(f) for f in fields)


def _params(instance: Model, fields: list[Any] | tuple[Any, ...]) -> list[Any]:
    """The values of ``fields`` of ``instance`` for a statement of this module."""
    if not _prepared():
        return [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    out = []
    for f, prep in zip(fields, _preps(tuple(fields)), strict=True):
        value = getattr(instance, f.attname)
        out.append(prep(value) if prep is not None else value)
    return out


def lock_table_for_player(table_id: int, player_id: int) -> tuple[Table | None, int | None]:
    """Lock the table row (inside the caller's transaction) and find the player's seat."""
    row = _fetch_one(_lock_sql(connection.vendor), [player_id, table_id])
    if row is None:
        return None, None
    values = [_from_db(name, v) for name, v in zip(_LOCK_FIELDS, row[:-1], strict=True)]
    return Table.from_db(connection.alias, _LOCK_FIELDS, values), row[-1]


_MOVE_FIELDS = [f for f in Move._meta.concrete_fields if not f.primary_key]


@functools.cache
def _insert_sql(vendor: str) -> str:
    columns = ", ".join(_qn(f.column) for f in _MOVE_FIELDS)
    marks = ", ".join(["%s"] * len(_MOVE_FIELDS))
    return (
        f"INSERT INTO {_qn(Move._meta.db_table)} ({columns}) VALUES ({marks}) RETURNING {_column(Move, 'id')}"
    )


def _move_params(move: Move) -> list[Any]:
    for f in _MOVE_FIELDS:
        if getattr(f, "auto_now_add", False):
            setattr(move, f.attname, f.pre_save(move, add=True))
    return _params(move, _MOVE_FIELDS)


def _inserted(move: Move, pk: int) -> Move:
    move.pk = pk
    move._state.adding = False
    move._state.db = connection.alias
    return move


def insert_move(move: Move) -> Move:
    """INSERT the move row and set its id."""
    row = _fetch_one(_insert_sql(connection.vendor), _move_params(move))
    return _inserted(move, row[0])


def insert_move_and_update(move: Move, table: Table, names: list[str]) -> Move:
    """INSERT the move row (setting its id) and UPDATE the named fields of its table's row: one
    statement on PostgreSQL, two elsewhere (SQLite has no ``INSERT`` inside ``WITH``)."""
    if connection.vendor != "postgresql":
        insert_move(move)
        update_fields(table, names)
        return move
    sql, fields = _insert_update_sql(tuple(names))
    params = _move_params(move) + _params(table, fields)
    params.append(table.pk)
    row = _fetch_one(sql, params)
    return _inserted(move, row[0])


@functools.lru_cache(maxsize=256)
def _insert_update_sql(names: tuple[str, ...]) -> tuple[str, list[Any]]:
    update, fields = _update_sql(Table, names, "postgresql")
    insert = _insert_sql("postgresql")
    return f"WITH inserted AS ({insert}) {update} RETURNING (SELECT id FROM inserted)", fields


def update_fields(instance: Model, names: list[str]) -> None:
    """UPDATE the named fields of ``instance``'s row."""
    sql, fields = _update_sql(type(instance), tuple(names), connection.vendor)
    params = _params(instance, fields)
    params.append(instance.pk)
    _fetch_one(sql, params, returns=False)


@functools.lru_cache(maxsize=256)
def _update_sql(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[str, list[Any]]:
    """The UPDATE of these fields of ``model``'s rows by id, and the fields (built once per set)."""
    opts = model._meta
    fields: list[Any] = [opts.get_field(name) for name in names]
    assignments = ", ".join(f"{_qn(f.column)} = %s" for f in fields)
    return f"UPDATE {_qn(opts.db_table)} SET {assignments} WHERE {_qn(opts.pk.column)} = %s", fields  # type: ignore[union-attr]
