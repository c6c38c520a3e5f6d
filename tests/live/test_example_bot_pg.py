"""The example bot (``examples/random_bot.py``) plays a whole game against a house bot on a real
server: uvicorn without Redis (its hub polls) and ``manage.py clock_sweeper --bots`` playing the
house bot, both subprocesses on the PostgreSQL test database, as ``scripts/run`` runs them.

The bot account is made over HTTP (register, then ``POST /api/v1/account/bot/``); the bot, a
separate process using only the standard library, opens an unrated Pacru table with a short ply
limit, invites a random house bot and plays until the game is finished. The game's record must
replay in the engine, and every move of the bot's seat must be one the bot saw accepted.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.records import parse_record, replay
from games.models import Move, Table

from .conftest import Uvicorn

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "examples" / "random_bot.py"
PLY_LIMIT = 60
#: One game at an unrated Pacru table it opens, against a random house bot.
ONE_GAME = ("--open-table", "--games", "1", "--ply-limit", str(PLY_LIMIT))


class Service:
    """The web server (:class:`tests.live.conftest.Uvicorn`, here without Redis: its hub polls)
    and the clock sweeper with ``--bots`` playing the house bots, as ``scripts/run`` runs them."""

    def __init__(self) -> None:
        self.web = Uvicorn(REDIS_URL="", LIVE_POLL_SECONDS="0.1")
        self.url = self.web.url
        self.port = self.web.port
        self.sweeper: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.web.log.open("ab") as out:
            self.sweeper = subprocess.Popen(
                [sys.executable, "manage.py", "clock_sweeper", "--bots", "--interval", "0.1"],
                cwd=ROOT,
                env=self.web.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.web.start()

    def stop(self) -> None:
        self.web.stop()
        if self.sweeper is not None:
            os.killpg(self.sweeper.pid, signal.SIGKILL)
            self.sweeper.wait(timeout=10)
            self.sweeper = None

    def output(self) -> str:
        return self.web.output()

    def call(self, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        try:
            conn.request(method, path, None if body is None else json.dumps(body), headers)
            resp = conn.getresponse()
            raw = resp.read()
            json_body = "json" in resp.getheader("Content-Type", "")
            return resp.status, json.loads(raw) if json_body else raw.decode()
        finally:
            conn.close()


@pytest.fixture
def service(transactional_db: None) -> Iterator[Service]:
    """Stopped before the test database is flushed (it depends on ``transactional_db``)."""
    svc = Service()
    svc.start()
    try:
        yield svc
    finally:
        svc.stop()
        svc.web.log.unlink(missing_ok=True)


def _bot_account(service: Service, username: str) -> str:
    status, body = service.call(
        "POST", "/api/v1/auth/register/", {"username": username, "password": "correct-horse-9"}
    )
    assert status == 201, body
    token = body["token"]
    status, body = service.call("POST", "/api/v1/account/bot/", {}, token=token)
    assert status == 200 and body["is_bot"] is True, body
    return str(token)


def _run_bot(service: Service, token: str, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(BOT), "--server", service.url, "--token", token, *extra],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if not k.startswith("DJANGO")},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(bot: subprocess.Popen[str], service: Service, timeout: float = 120) -> tuple[dict[str, Any], str]:
    """The bot's summary (its last line of output) and its log."""
    try:
        out, err = bot.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        bot.kill()
        out, err = bot.communicate()
        raise AssertionError(f"the bot did not finish:\n{err[-3000:]}\nserver:\n{service.output()}") from None
    assert bot.returncode == 0, f"bot exit {bot.returncode}:\n{err[-3000:]}\nserver:\n{service.output()}"
    summary: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return summary, err


def _check_game(service: Service, table_id: int, username: str) -> tuple[int, int]:
    """The table is finished and unrated, its record replays in the engine to the stored result;
    returns the bot's seat and how many moves that seat made."""
    status, table = service.call("GET", f"/api/v1/tables/{table_id}/")
    assert status == 200 and table["status"] == "finished", table
    assert table["rated"] is False and table["ply_limit"] == PLY_LIMIT
    seats = {s["number"]: s["player"] for s in table["seats"]}
    mine = next(n for n, p in seats.items() if p["username"] == username)
    other = seats[3 - mine]
    assert seats[mine]["is_bot"] and other["is_bot"] and other["username"].startswith("random-bot")
    status, text = service.call("GET", f"/api/v1/tables/{table_id}/record/")
    assert status == 200
    record = parse_record(text)
    final = replay(record)
    assert final.is_over and final.ply == table["ply"] <= PLY_LIMIT
    assert record.actions == table["moves"] and len(record.actions) == table["ply"]
    assert record.headers["Result"] and record.headers["End"] == table["result"]["end"]
    cli = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-"], input=text, capture_output=True, text=True, cwd=ROOT
    )
    assert cli.returncode == 0, cli.stderr
    row = Table.objects.get(pk=table_id)
    assert row.status == Table.Status.FINISHED and row.bot_seats == [3 - mine]
    actions = Move.objects.filter(table_id=table_id)
    assert set(actions.values_list("kind", flat=True)) == {"move"}, "no resignation, no timeout"
    return mine, actions.filter(seat=mine).count()


def test_the_example_bot_plays_a_whole_game_against_a_house_bot(service: Service) -> None:
    token = _bot_account(service, "randobot")
    bot = _run_bot(service, token, *ONE_GAME, "--seed", "7")
    summary, log = _finish(bot, service)
    assert summary["moves_refused"] == [], summary
    [table_id] = summary["finished"]
    assert f"opened table {table_id} (pacru) against a random bot" in log
    assert "dropped" not in log and "refused" not in log, log
    _, bot_moves = _check_game(service, table_id, "randobot")
    assert bot_moves == summary["moves_accepted"] > 0, summary


def test_the_example_bot_reconnects_after_the_server_restarts(service: Service) -> None:
    token = _bot_account(service, "stubborn")
    bot = _run_bot(service, token, *ONE_GAME, "--seed", "3")
    end = time.monotonic() + 60
    while not Table.objects.filter(ply__gte=10).exists():
        assert time.monotonic() < end and bot.poll() is None, "the game did not get going"
        time.sleep(0.1)
    # A crash of the web server in mid-game: its streams and requests are cut without a word.
    service.web.kill()
    time.sleep(1.0)
    service.web.start()
    summary, log = _finish(bot, service)
    assert summary["moves_refused"] == [], summary
    assert "connecting again" in log, log  # it saw the stream (or a request) cut, and came back
    [table_id] = summary["finished"]
    assert Table.objects.get(pk=table_id).ply > 10
    _, bot_moves = _check_game(service, table_id, "stubborn")
    # A move whose answer the crash cut off still counts (the bot read the table again after).
    assert bot_moves >= summary["moves_accepted"] > 0, summary
