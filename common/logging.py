"""Log lines that say which request, task and table they belong to.

The context lives in context variables: the request-id middleware (``config.middleware``) sets
``request_id``, the Celery signal handlers installed by :func:`install_celery_context` set
``task_id`` and ``task`` (and ``table_id`` for the tasks about one table), and
:func:`log_context` sets ``table_id`` and ``ply`` around the work on one table. The
:class:`ContextFilter` copies what is set onto every record: the JSON lines carry them as
fields, the plain-text lines as a short ``[req=… task=… table=… ply=…]`` suffix.

``settings.LOGGING`` picks :class:`JsonFormatter` in production (or with ``LOG_FORMAT=json``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Any

from celery import signals
from django.conf import settings
from django.utils.log import configure_logging
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter as _BaseJsonFormatter

#: The context a line can carry, in the order the plain-text suffix shows it (with its short name).
FIELDS = {"request_id": "req", "task": "task", "task_id": "task_id", "table_id": "table", "ply": "ply"}

_vars: dict[str, ContextVar[Any]] = {name: ContextVar(f"pacru_log_{name}", default=None) for name in FIELDS}

#: Tasks whose first argument is a table id: their lines carry ``table_id``. Each app declares
#: its own with :func:`table_task` (in its ``task_names``).
TABLE_TASKS: set[str] = set()


def table_task(name: str) -> str:
    """Declare that the task ``name`` takes a table id first (its log lines carry it); ``name``."""
    TABLE_TASKS.add(name)
    return name


def current() -> dict[str, Any]:
    """The context set now (names with no value left out)."""
    values = {name: var.get() for name, var in _vars.items()}
    return {name: value for name, value in values.items() if value is not None}


def bind(**values: Any) -> dict[str, Token[Any]]:
    """Set context values (``None`` clears one); give the tokens :func:`unbind` restores with."""
    unknown = set(values) - set(_vars)
    if unknown:
        raise TypeError(f"unknown log context: {', '.join(sorted(unknown))}")
    return {name: _vars[name].set(value) for name, value in values.items()}


def unbind(tokens: dict[str, Token[Any]]) -> None:
    """Restore the values :func:`bind` replaced (innermost first)."""
    for name, token in reversed(list(tokens.items())):
        try:
            _vars[name].reset(token)
        except ValueError:  # set in another context (a thread's copy): clear it instead
            _vars[name].set(None)


@contextmanager
def log_context(**values: Any) -> Iterator[None]:
    """Lines logged inside carry these values (``table_id=…``, ``ply=…``); restored on exit."""
    tokens = bind(**values)
    try:
        yield
    finally:
        unbind(tokens)


class ContextFilter(logging.Filter):
    """Copy the context onto every record (a value passed in ``extra=`` wins) and add
    ``record.context``: the plain-text suffix, empty when nothing is set."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            # Django logs a 4xx or 5xx answer (django.request) after the middleware has ended:
            # the id is then taken from the request the record carries.
            request_id = getattr(getattr(record, "request", None), "request_id", None)
            if request_id is not None:
                record.request_id = request_id
        parts = []
        for name, short in FIELDS.items():
            value = getattr(record, name, None)
            if value is None:
                value = _vars[name].get()
                if value is not None:
                    setattr(record, name, value)
            if value is not None:
                parts.append(f"{short}={value}")
        record.context = f" [{' '.join(parts)}]" if parts else ""
        return True


class QuietReadiness(logging.Filter):
    """Drop ``django.request``'s line for a readiness 503 (Django logs every 5xx answer at ERROR).

    A load balancer probes each second: with the database down every web process would log an
    ERROR a second for as long as the outage lasts. The readiness view logs the change of state
    once instead (``games.health.note_state``). Any other answer is kept."""

    #: The URL name of the readiness check (games/urls.py).
    URL_NAME = "api-ready"

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) != 503:
            return True
        match = getattr(getattr(record, "request", None), "resolver_match", None)
        return getattr(match, "url_name", None) != self.URL_NAME


class JsonFormatter(_BaseJsonFormatter):
    """One JSON object per line: ``time``, ``level``, ``logger``, ``message``, the context that is
    set, anything passed in ``extra=``, and ``exc_info`` for exceptions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("fmt", ["levelname", "name", "message"])
        kwargs.setdefault("rename_fields", {"levelname": "level", "name": "logger"})
        kwargs.setdefault("timestamp", "time")
        kwargs.setdefault("reserved_attrs", [*RESERVED_ATTRS, "context"])
        super().__init__(*args, **kwargs)


#: The plain-text format (local runs): the context suffix only when some is set.
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s%(context)s"


class TextFormatter(logging.Formatter):
    """The plain-text format, safe for records that did not pass the :class:`ContextFilter`."""

    def __init__(self, fmt: str | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(fmt or TEXT_FORMAT, *args, **kwargs)

    def format(self, record: logging.LogRecord) -> str:
        if not hasattr(record, "context"):
            ContextFilter().filter(record)
        return super().format(record)


def task_table_id(name: str, args: Any, kwargs: Any) -> Any:
    """The table a task is about (its first argument), for the tasks in :data:`TABLE_TASKS`."""
    if name not in TABLE_TASKS:
        return None
    if kwargs and "table_id" in kwargs:
        return kwargs["table_id"]
    return args[0] if args else None


_task_tokens: dict[str, dict[str, Token[Any]]] = {}


def _task_prerun(sender: Any = None, task_id: str | None = None, task: Any = None, **kw: Any) -> None:
    name = getattr(task or sender, "name", None) or "unknown"
    values: dict[str, Any] = {"task": name, "task_id": task_id}
    table_id = task_table_id(name, kw.get("args") or (), kw.get("kwargs") or {})
    if table_id is not None:
        values.update(table_id=table_id, ply=None)
    _task_tokens[task_id or ""] = bind(**values)


def _task_postrun(sender: Any = None, task_id: str | None = None, **kw: Any) -> None:
    tokens = _task_tokens.pop(task_id or "", None)
    if tokens is not None:
        unbind(tokens)


def _setup_logging(**kw: Any) -> None:
    """Celery leaves logging alone when this signal has a receiver: the worker logs through
    ``settings.LOGGING`` (the JSON lines in production), like the web processes."""
    configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)


def install_celery_context() -> None:
    """Connect the Celery signal handlers (from ``config.celery``; connecting twice is harmless)."""
    signals.task_prerun.connect(_task_prerun, weak=False, dispatch_uid="pacru.log.task_prerun")
    signals.task_postrun.connect(_task_postrun, weak=False, dispatch_uid="pacru.log.task_postrun")
    signals.setup_logging.connect(_setup_logging, weak=False, dispatch_uid="pacru.log.setup_logging")
