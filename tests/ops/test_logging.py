"""Log lines: one JSON object per line in production, each carrying the request, task, table and
ply it belongs to; ``X-Request-ID`` kept when sane, else replaced, and echoed."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

import ratings.tasks
from common import logging as context
from common.logging import ContextFilter, JsonFormatter, QuietReadiness, TextFormatter, log_context
from games import health
from tests.games.conftest import Actor, started_table

from .dead_database import database_down
from .redis_server import free_port

HEX_ID = re.compile(r"[0-9a-f]{32}")
READY = "/api/v1/health/ready/"


@pytest.fixture
def lines() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger writing JSON lines to a string, through the context filter (as settings.LOGGING)."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tests.ops.json")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    yield logger, out
    logger.removeHandler(handler)


def test_json_lines_carry_the_context_that_is_set(lines: tuple[logging.Logger, io.StringIO]) -> None:
    logger, out = lines
    logger.info("outside")
    tokens = context.bind(request_id="req-1")
    try:
        with log_context(table_id=42, ply=7):
            logger.info("a move\non two lines: %s", "e1-e2", extra={"seat": 1})
        logger.warning("after the table")
    finally:
        context.unbind(tokens)
    try:
        raise ValueError("boom")
    except ValueError:
        logger.exception("failed")
    text = out.getvalue()
    records = [json.loads(line) for line in text.splitlines()]
    assert len(records) == 4 and text.endswith("\n")
    outside, move, after, failed = records
    assert outside["message"] == "outside" and outside["level"] == "INFO"
    assert outside["logger"] == "tests.ops.json" and "time" in outside
    assert not {"request_id", "table_id", "ply", "task_id", "context"} & outside.keys()
    assert move["message"] == "a move\non two lines: e1-e2" and move["seat"] == 1
    assert (move["request_id"], move["table_id"], move["ply"]) == ("req-1", 42, 7)
    assert after["request_id"] == "req-1" and "table_id" not in after and "ply" not in after
    assert failed["level"] == "ERROR" and "ValueError: boom" in failed["exc_info"]
    assert context.current() == {}


def test_the_text_format_adds_a_short_suffix_only_when_set() -> None:
    formatter = TextFormatter()

    def line(message: str) -> str:
        record = logging.LogRecord("x", logging.INFO, __file__, 1, message, None, None)
        ContextFilter().filter(record)
        return formatter.format(record)

    assert line("plain").endswith("INFO x: plain")
    with log_context(table_id=3, ply=9):
        assert line("a move").endswith("INFO x: a move [table=3 ply=9]")


def test_a_task_binds_its_name_id_and_table(db: None) -> None:
    captured: dict[str, Any] = {}
    original = ratings.tasks.services.rate_table

    def spy(*, table_id: int) -> int:
        captured.update(context.current())
        return original(table_id=table_id)

    ratings.tasks.services.rate_table = spy  # type: ignore[assignment]
    try:
        ratings.tasks.rate_table.apply(args=(987,), task_id="task-xyz")
    finally:
        ratings.tasks.services.rate_table = original  # type: ignore[assignment]
    assert captured == {"task": "ratings.tasks.rate_table", "task_id": "task-xyz", "table_id": 987}
    assert context.current() == {}  # reset after the task
    assert context.task_table_id("games.tasks.clock_check", (), {"table_id": 6}) == 6
    assert context.task_table_id("games.tasks.clock_sweep", (), {}) is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    "given, kept",
    [
        ("abc-123.DEF_456", True),
        ("x" * 64, True),
        ("x" * 65, False),
        ("evil\nINFO forged line", False),
        ("<script>alert(1)</script>", False),
        ("with space", False),
        ("", False),
    ],
)
def test_the_request_id_is_kept_when_sane_and_echoed(given: str, kept: bool) -> None:
    r = APIClient().get("/metrics", HTTP_X_REQUEST_ID=given)
    assert r.status_code == 200
    if kept:
        assert r["X-Request-ID"] == given
    else:
        assert HEX_ID.fullmatch(r["X-Request-ID"])
    assert context.current() == {}


@pytest.mark.django_db
def test_every_request_gets_its_own_id() -> None:
    client = APIClient()
    first, second = client.get("/metrics")["X-Request-ID"], client.get("/metrics")["X-Request-ID"]
    assert HEX_ID.fullmatch(first) and HEX_ID.fullmatch(second) and first != second


def test_a_move_logs_a_line_with_its_table_ply_and_request_at_debug(
    alice: Actor, bob: Actor, caplog: pytest.LogCaptureFixture
) -> None:
    table = started_table([alice, bob], "pacru")
    caplog.handler.addFilter(ContextFilter())
    with caplog.at_level(logging.DEBUG, logger="games.services"):
        ok = alice.post(
            f"/api/v1/tables/{table.pk}/moves/", {"ply": 0, "move": "e1-e2"}, HTTP_X_REQUEST_ID="r-1"
        )
        refused = bob.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": 1, "move": "a3-a4"})
    assert ok.status_code == 201 and refused.status_code == 400
    moves = [r for r in caplog.records if r.name == "games.services.moves"]
    assert len(moves) == 2
    accepted, illegal = moves
    assert (accepted.table_id, accepted.ply, accepted.request_id) == (table.pk, 0, "r-1")  # type: ignore[attr-defined]
    assert "e1-e2 accepted" in accepted.getMessage()
    assert (illegal.table_id, illegal.ply) == (table.pk, 1)  # type: ignore[attr-defined]
    assert illegal.request_id == refused["X-Request-ID"]  # type: ignore[attr-defined]
    assert "illegal_move" in illegal.getMessage()
    line = json.loads(JsonFormatter().format(accepted))
    assert line["table_id"] == table.pk and line["ply"] == 0 and line["request_id"] == "r-1"


def test_at_info_a_move_logs_nothing(alice: Actor, bob: Actor, caplog: pytest.LogCaptureFixture) -> None:
    """Production's level: a line per move would be gigabytes a day (docs/operators/operations.md,
    "Metrics and logs")."""
    table = started_table([alice, bob], "pacru")
    with caplog.at_level(logging.INFO, logger="games.services"):
        ok = alice.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": 0, "move": "e1-e2"})
        refused = bob.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": 1, "move": "a3-a4"})
    assert ok.status_code == 201 and refused.status_code == 400
    assert [r for r in caplog.records if r.name.startswith("games.services")] == []


@pytest.fixture
def readiness_lines(caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """This process's readiness state starts afresh ("ready"); the lines it and Django log."""
    monkeypatch.setattr(health, "STATE", health.StateLog())
    health.beat(health.CLOCK_SWEEP)
    with caplog.at_level(logging.INFO):

        def lines() -> list[logging.LogRecord]:
            names = ("games.health", "django.request")
            return [r for r in caplog.records if r.name in names and r.levelno >= logging.INFO]

        yield lines


@pytest.mark.django_db
def test_readiness_logs_a_change_of_state_once_not_every_probe(readiness_lines: Any, settings: Any) -> None:
    probe = APIClient()
    assert [probe.get(READY).status_code for _ in range(3)] == [200] * 3
    assert readiness_lines() == [], "ready from the start: nothing to say"
    good_redis = settings.REDIS_URL
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    assert {probe.get(READY).json()["status"] for _ in range(10)} == {"degraded"}
    (degraded,) = readiness_lines()
    assert degraded.levelno == logging.WARNING and "degraded" in degraded.getMessage()
    assert "redis" in degraded.getMessage() and degraded.degraded == ["redis"]  # type: ignore[attr-defined]
    settings.REDIS_URL = good_redis
    assert {probe.get(READY).json()["status"] for _ in range(10)} == {"ready"}
    degraded_again, recovered = readiness_lines()
    assert degraded_again is degraded and recovered.levelno == logging.INFO
    assert "recovered" in recovered.getMessage() and recovered.readiness == "ready"  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_readiness_503_logs_once_and_not_through_django_at_every_probe(readiness_lines: Any) -> None:
    with database_down():
        assert [APIClient().get(READY).status_code for _ in range(10)] == [503] * 10
    (unready,) = readiness_lines()
    assert unready.name == "games.health" and unready.levelno == logging.ERROR
    assert "unready" in unready.getMessage()
    assert APIClient().get(READY).status_code == 200
    again, recovered = readiness_lines()
    assert again is unready and recovered.getMessage() == "readiness: recovered (was unready)"


def test_the_quiet_filter_keeps_every_other_answer() -> None:
    """Only readiness's 503 is dropped from django.request: any other 5xx is still an ERROR."""

    class Match:
        def __init__(self, url_name: str) -> None:
            self.url_name = url_name

    class Request:
        def __init__(self, url_name: str) -> None:
            self.resolver_match = Match(url_name)

    def kept(status: int, url_name: str) -> bool:
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "x", None, None)
        record.status_code = status
        record.request = Request(url_name)
        return QuietReadiness().filter(record)

    assert not kept(503, "api-ready")
    assert kept(500, "api-ready") and kept(503, "api-table-moves") and kept(429, "api-ready")
    assert resolve(READY).url_name == QuietReadiness.URL_NAME


def test_the_request_id_is_reset_when_the_view_fails() -> None:
    from django.test import RequestFactory  # only this test calls the middleware by hand

    from config.middleware import RequestIdMiddleware

    seen: list[dict[str, Any]] = []

    def failing(request: Any) -> Any:
        seen.append(context.current())
        raise RuntimeError("the view failed")

    with pytest.raises(RuntimeError):
        RequestIdMiddleware(failing)(RequestFactory().get("/", HTTP_X_REQUEST_ID="req-9"))
    assert seen == [{"request_id": "req-9"}] and context.current() == {}


def test_djangos_answer_lines_take_the_id_from_their_request() -> None:
    """django.request logs a 4xx/5xx answer once the middleware has ended: the id comes from
    the request the record carries."""

    class Request:
        request_id = "req-7"

    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "Not Found", None, None)
    record.request = Request()
    ContextFilter().filter(record)
    assert record.request_id == "req-7" and record.context == " [req=req-7]"  # type: ignore[attr-defined]
