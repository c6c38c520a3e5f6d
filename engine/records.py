"""Game records: a plain-text format that replays deterministically.

A record is header lines ``Key: value``, a blank line, then one action per
line: a numbered move (``12. g9-e7(*)``), or a service event that is not a
ply (``resign 2``, ``timeout 3``). ``#`` starts a comment. Example::

    Game: pacru
    Edition: 302
    Players: 2
    PlyLimit: 1000
    Seat1: alice
    Seat2: bob
    Result: 1=1 2=2
    Winner: 1
    End: target

    1. e1-e2(e2)
    2. a7-b7
    resign 2

``Game`` and ``Players`` are required; ``Edition`` (Pacru) and ``PlyLimit``
default as in :func:`engine.new_game`; ``Position`` holds a RULES §9 JSON
document when the game did not start from the standard position. ``Result``
(seat=rank), ``Winner`` and ``End`` are written on export and checked on import.
Any other header (``Seat1``, ``Date``, ``Event`` …) is kept as it is.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from .errors import IllegalMove, InvalidPosition
from .state import State
from .variants import load, new_game

# ASCII digits only, and few: ``\d`` and ``int()`` also read other scripts' digits, and ``int()``
# refuses more than 4,300 of them with a ValueError.
_NUMBERED = re.compile(r"^([0-9]{1,9})\s*\.\s*(.+)$")
_HEADER_NUMBER = re.compile(r"[0-9]{1,9}")
_EVENT = re.compile(r"^(resign|timeout)\s+([1-4])$", re.IGNORECASE)
_CHECKED = ("Result", "Winner", "End")


class RecordError(InvalidPosition):
    """A record that cannot be read or does not replay (names the line or ply)."""


@dataclass
class Record:
    """A game: how it starts, and every action in order."""

    game: str
    players: int
    edition: str = "302"
    ply_limit: int = 1000
    start: dict[str, object] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)

    def initial_state(self) -> State:
        if self.start is not None:
            return load(self.start)
        options: dict[str, object] = {"ply_limit": self.ply_limit}
        if self.game == "pacru":
            options["edition"] = self.edition
        return new_game(self.game, self.players, **options)

    def replay(self) -> State:
        """The final state; :class:`RecordError` names the ply, move and reason of a bad one."""
        return replay(self)

    def to_text(self) -> str:
        return export_record(self)


def replay(record: Record | str) -> State:
    """Replay a record (or its text) and return the final state."""
    if isinstance(record, str):
        record = parse_record(record)
    try:
        state = record.initial_state()
    except InvalidPosition as exc:
        raise RecordError(f"the start of the record is not a valid game: {exc}") from None
    for action in record.actions:
        event = _EVENT.match(action)
        try:
            if event:
                state = state.eliminate(int(event.group(2)), event.group(1).lower())
            else:
                state = state.play(action)
        except IllegalMove as exc:
            where = f"after ply {state.ply}" if event else f"ply {state.ply + 1}"
            raise RecordError(f"{where}: {action}: {exc}") from None
    _check_result(record, state)
    return state


def result_headers(state: State) -> dict[str, str]:
    """``Result``, ``Winner`` and ``End`` headers for a finished game (empty if not over)."""
    if not state.is_over:
        return {}
    ranks = state.ranking()
    return {
        "Result": " ".join(f"{s}={ranks[s]}" for s in sorted(ranks)),
        "Winner": str(state.winner) if state.winner is not None else "none",
        "End": state.end_reason or "",
    }


def _check_result(record: Record, state: State) -> None:
    expected = result_headers(state)
    for key in _CHECKED:
        if key in record.headers:
            if key not in expected:
                raise RecordError(f"the record gives {key}: {record.headers[key]} but the game is not over")
            if " ".join(record.headers[key].split()) != expected[key]:
                raise RecordError(
                    f"the record gives {key}: {record.headers[key]} but the replay gives {expected[key]}"
                )


def export_record(record: Record, final: State | None = None) -> str:
    """The record as text, with result headers computed by replaying it."""
    state = (
        final
        if final is not None
        else replay(
            Record(
                record.game,
                record.players,
                record.edition,
                record.ply_limit,
                record.start,
                {},
                record.actions,
            )
        )
    )
    lines = [f"Game: {record.game}"]
    if record.game == "pacru":
        lines.append(f"Edition: {record.edition}")
    lines += [f"Players: {record.players}", f"PlyLimit: {record.ply_limit}"]
    if record.start is not None:
        lines.append("Position: " + json.dumps(record.start, separators=(",", ":")))
    for key, value in record.headers.items():
        if key not in _CHECKED:
            lines.append(f"{key}: {value}")
    lines += [f"{k}: {v}" for k, v in result_headers(state).items()]
    lines.append("")
    ply = record.start.get("ply", 0) if record.start else 0
    assert isinstance(ply, int)
    for action in record.actions:
        if _EVENT.match(action):
            lines.append(action)
        else:
            ply += 1
            lines.append(f"{ply}. {action}")
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> Record:
    """Read a record's text; :class:`RecordError` names the line of a malformed one."""
    headers: dict[str, str] = {}
    actions: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].split("#", 1)[0].strip() if not lines[i].startswith("Position:") else lines[i]
        i += 1
        if not line:
            if headers:
                break
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip().isidentifier():
            i -= 1
            break
        headers[key.strip()] = value.strip()
    expected_ply: int | None = None
    for number, raw in enumerate(lines[i:], start=i + 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if _EVENT.match(line):
            actions.append(" ".join(line.lower().split()))
            continue
        m = _NUMBERED.match(line)
        if m:
            ply, move = int(m.group(1)), m.group(2).strip()
            if expected_ply is not None and ply != expected_ply:
                raise RecordError(f"line {number}: move number {ply}, expected {expected_ply}")
            expected_ply = ply + 1
        else:
            move = line
            if expected_ply is not None:
                expected_ply += 1
        actions.append(move)
    for key in ("Game", "Players"):
        if key not in headers:
            raise RecordError(f"the record has no {key}: header")
    numbers = {key: headers.pop(key, default) for key, default in (("Players", ""), ("PlyLimit", "1000"))}
    for key, value in numbers.items():
        if not _HEADER_NUMBER.fullmatch(value):
            raise RecordError(f"a numeric header is not a number: {key}: {value[:20]!r}")
    players, ply_limit = int(numbers["Players"]), int(numbers["PlyLimit"])
    start = None
    if "Position" in headers:
        try:
            start = json.loads(headers.pop("Position"))
        except json.JSONDecodeError as exc:
            raise RecordError(f"the Position header is not JSON: {exc}") from None
    return Record(
        game=headers.pop("Game").lower(),
        players=players,
        edition=headers.pop("Edition", "302"),
        ply_limit=ply_limit,
        start=start,
        headers=headers,
        actions=actions,
    )
