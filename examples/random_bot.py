#!/usr/bin/env python3
"""A bot that plays random legal moves over the HTTP API (Python standard library only).

It signs in with a token (``--token``, or ``--username``/``--password`` for
``POST /api/v1/auth/token/``), reads its events from ``GET /api/v1/stream/`` (newline-delimited
JSON), and for every table where it is on turn reads ``GET /api/v1/tables/<id>/`` and posts a
random legal move with the table's current ply to ``POST /api/v1/tables/<id>/moves/``.

The move is built from the table's ``base_moves`` and ``choices`` exactly as the game page does
(static/js/game.js): in Shacru and Azacru every listed move is complete (twists included, or
``pass``); in Pacru a base move such as ``a3-b4`` takes its choices in parentheses, first the
border field for the marker or the connection change ``*`` (one of ``effects``), then the field a
meeting changes (one of ``meetings[<effect>]``, the key ``"None"`` when there was no effect):
``a3-b4(b4)``, ``g9-e7(*)``, ``c2-d3(d3,f5)``. Now and then it reorients a chevron instead, when
``reorient`` offers it: ``e5<(a1,b2)`` names the markers paid, two per 45°.

The account must be an outside bot account (``POST /api/v1/account/bot/`` makes a fresh account
one): such accounts play unrated tables only. ``--open-table`` opens an unrated table and invites
a house bot to it; ``--games N`` stops after N finished games. A stale ply (409 ``stale_ply``)
is answered by reading the table again; a dropped stream is opened again.

    python examples/random_bot.py --server http://127.0.0.1:8000 --token KEY --open-table --games 1
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

#: How often a reorientation is tried when the table offers one (otherwise a move).
REORIENT_CHANCE = 0.1


def log(text: str) -> None:
    print(f"[random_bot {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


class Api:
    """JSON over HTTP with the account's token."""

    def __init__(self, server: str, token: str | None = None, timeout: float = 30.0) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.timeout = timeout

    def _request(self, method: str, path: str, body: Any = None) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.server + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Token {self.token}")
        return req

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """The status and the JSON answer (4xx answers too); waits out a 429 and tries again."""
        for _ in range(10):
            try:
                with urllib.request.urlopen(self._request(method, path, body), timeout=self.timeout) as r:
                    return r.status, _json(r.read())
            except urllib.error.HTTPError as exc:
                answer = _json(exc.read())
                if exc.code == 429:
                    wait = float(exc.headers.get("Retry-After") or 1)
                    log(f"throttled on {path}: waiting {wait:.0f} s")
                    time.sleep(min(wait, 60))
                    continue
                return exc.code, answer
        return 429, {"detail": "throttled too often", "code": "throttled"}

    def stream(self, path: str, read_timeout: float) -> Iterator[dict[str, Any]]:
        """The ndjson lines of a stream; ends (or raises) when the connection drops."""
        req = self._request("GET", path)
        req.add_header("Accept", "application/x-ndjson")
        with urllib.request.urlopen(req, timeout=read_timeout) as r:
            for raw in r:
                line = raw.strip()
                if line:
                    yield json.loads(line)


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return {"detail": raw.decode(errors="replace")[:200]}


def choose_move(table: dict[str, Any], rng: random.Random) -> str:
    """A random legal move for the side to move, in the published notation (as game.js builds
    it): a complete move (Shacru, Azacru, or ``pass``), a Pacru base move with its choices in
    parentheses, or a Pacru reorientation with the markers it pays."""
    reorient = table.get("reorient")
    if reorient and rng.random() < REORIENT_CHANCE:
        turn = rng.choice(reorient["turns"])
        paid = rng.sample(reorient["removable"], 2 * len(turn))
        return f"{rng.choice(reorient['cells'])}{turn}({','.join(sorted(paid))})"
    base = rng.choice(table["base_moves"])
    choice = (table.get("choices") or {}).get(base)
    if not choice:
        return str(base)  # complete as listed
    effects = choice.get("effects") or []
    effect = rng.choice(effects) if effects else None
    meetings = (choice.get("meetings") or {}).get("None" if effect is None else effect) or []
    meeting = rng.choice(meetings) if meetings else None
    tokens = [t for t in (effect, meeting) if t is not None]
    return f"{base}({','.join(tokens)})" if tokens else str(base)


class Bot:
    def __init__(self, api: Api, args: argparse.Namespace) -> None:
        self.api, self.args = api, args
        self.rng = random.Random(args.seed)
        #: Tables of ours not over yet: table id → our seat.
        self.mine: dict[int, int] = {}
        self.finished: list[int] = []
        self.accepted = 0
        self.refused: list[dict[str, Any]] = []

    # ----------------------------------------------------------- the games
    def done(self) -> bool:
        return self.args.games is not None and len(self.finished) >= self.args.games

    def ended(self, table_id: int, status: str) -> None:
        self.mine.pop(table_id, None)
        if status == "finished" and table_id not in self.finished:
            self.finished.append(table_id)
            log(f"table {table_id} finished ({len(self.finished)} game(s) so far)")
        elif status == "aborted":
            log(f"table {table_id} was aborted")

    def check_ended(self, table_id: int) -> None:
        status, table = self.api.call("GET", f"/api/v1/tables/{table_id}/")
        self.ended(table_id, table["status"] if status == 200 else "gone")

    def open_table(self) -> None:
        """Open an unrated table and invite a house bot (when asked to and none is going on)."""
        if not self.args.open_table or self.mine or self.done():
            return
        body: dict[str, Any] = {"game": self.args.game, "players": 2, "rated": False}
        if self.args.ply_limit:
            body["ply_limit"] = self.args.ply_limit
        status, table = self.api.call("POST", "/api/v1/tables/", body)
        if status != 201:
            raise SystemExit(f"could not open a table ({status}): {table}")
        me = table["created_by"]["id"]
        seat = next(s["number"] for s in table["seats"] if s["player"]["id"] == me)
        self.mine[table["id"]] = seat
        status, answer = self.api.call(
            "POST", f"/api/v1/tables/{table['id']}/invite-bot/", {"level": self.args.level}
        )
        if status != 200:
            raise SystemExit(f"could not invite a {self.args.level} bot ({status}): {answer}")
        log(f"opened table {table['id']} ({self.args.game}) against a {self.args.level} bot, seat {seat}")
        self.play(table["id"], seat)

    def play(self, table_id: int, seat: int) -> None:
        """Move at ``table_id`` for as long as it is our turn there."""
        self.mine.setdefault(table_id, seat)
        for _ in range(1000):
            status, table = self.api.call("GET", f"/api/v1/tables/{table_id}/")
            if status != 200:
                log(f"table {table_id}: cannot read it ({status}): {table}")
                return
            if table["status"] in ("finished", "aborted"):
                return self.ended(table_id, table["status"])
            if table["status"] != "active" or table["to_move"] != seat or not table["base_moves"]:
                return
            move = choose_move(table, self.rng)
            status, answer = self.api.call(
                "POST", f"/api/v1/tables/{table_id}/moves/", {"ply": table["ply"], "move": move}
            )
            if status in (200, 201):
                self.accepted += 1
                if self.args.verbose:
                    log(f"table {table_id}: ply {table['ply'] + 1}: {answer['move']['notation']}")
                after = answer["table"]
                if after["status"] != "active":
                    return self.ended(table_id, after["status"])
                if after["to_move"] != seat:
                    return
                continue  # our turn again (the others were blocked): read the table again
            if status == 409 and (answer or {}).get("code") == "stale_ply":
                log(f"table {table_id}: stale ply {table['ply']} (now {answer.get('ply')}): reading again")
                continue
            self.refused.append({"table": table_id, "ply": table["ply"], "move": move, "status": status})
            log(f"table {table_id}: {move} refused ({status}): {answer}")
            if len(self.refused) > 20:
                raise SystemExit("too many refused moves: giving up")
        log(f"table {table_id}: still our turn after 1000 tries; leaving it for now")

    # ----------------------------------------------------------- the stream
    def handle(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "state":
            # A table that ended while the stream was away is missing from the state: count it.
            listed = {t["id"]: t["seat"] for t in event["tables"]}
            for table_id in set(self.mine) - set(listed):
                self.check_ended(table_id)
            self.mine = listed
            for t in event["tables"]:
                if t["your_turn"]:
                    self.play(t["id"], t["seat"])
            self.open_table()
        elif kind in ("gameStart", "yourTurn"):
            t = event["table"]
            self.mine.setdefault(t["id"], t["seat"])
            if t["your_turn"]:
                self.play(t["id"], t["seat"])
        elif kind == "gameFinish":
            self.check_ended(event["table"]["id"])
            self.open_table()
        elif kind == "ping":
            # A safety net: a turn whose event went missing is found within a keep-alive.
            for table_id, seat in list(self.mine.items()):
                self.play(table_id, seat)
            self.open_table()

    def run(self) -> None:
        backoff = 0.5
        while not self.done():
            try:
                for event in self.api.stream("/api/v1/stream/", self.args.stream_timeout):
                    backoff = 0.5
                    self.handle(event)
                    if self.done():
                        return
                log("the stream ended: connecting again")
            except urllib.error.HTTPError as exc:
                if exc.code in (401, 403):
                    raise SystemExit(f"the stream refused the token ({exc.code})") from None
                log(f"the stream answered {exc.code}: connecting again in {backoff:.1f} s")
            except (OSError, ValueError) as exc:  # URLError, timeouts, resets, a torn line
                log(f"the stream dropped ({exc!r}): connecting again in {backoff:.1f} s")
            time.sleep(backoff)
            backoff = min(backoff * 2, 10.0)


def get_token(api: Api, username: str, password: str) -> str:
    status, answer = api.call("POST", "/api/v1/auth/token/", {"username": username, "password": password})
    if status != 200:
        raise SystemExit(f"sign-in failed ({status}): {answer}")
    return str(answer["token"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play random legal moves through the HTTP API.")
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the service's address")
    parser.add_argument("--token", help="the bot account's API token")
    parser.add_argument("--username", help="sign in with a username and password instead of a token")
    parser.add_argument("--password")
    parser.add_argument("--open-table", action="store_true", help="open an unrated table against a house bot")
    parser.add_argument("--game", default="pacru", help="the game of the tables it opens (default pacru)")
    parser.add_argument("--level", default="random", help="the house bot to invite (random, greedy, search)")
    parser.add_argument("--ply-limit", type=int, help="the ply limit of the tables it opens")
    parser.add_argument("--games", type=int, help="stop after this many finished games")
    parser.add_argument("--seed", type=int, help="random seed (repeatable choices)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every move it plays")
    parser.add_argument(
        "--stream-timeout", type=float, default=60.0, help="seconds of silence before reconnecting"
    )
    args = parser.parse_args(argv)
    api = Api(args.server)
    if args.token:
        api.token = args.token
    elif args.username and args.password:
        api.token = get_token(api, args.username, args.password)
    else:
        parser.error("give --token, or --username and --password")
    bot = Bot(api, args)
    try:
        bot.run()
    except KeyboardInterrupt:
        log("stopped")
    summary = {"finished": bot.finished, "moves_accepted": bot.accepted, "moves_refused": bot.refused}
    print(json.dumps(summary), flush=True)
    return 0 if bot.done() or args.games is None else 1


if __name__ == "__main__":
    sys.exit(main())
