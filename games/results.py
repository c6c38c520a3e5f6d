"""The result of a finished table: the contract between games and the apps that listen.

``games.events.game_finished`` carries a :class:`GameResult`; ratings and tournaments read
ranks, markers and how each seat ended from it (or from ``games.selectors.game_results``)
and never from games' tables. A rated table that ended before every seat had made a move is
*aborted* (``aborted``, and ``rated`` false): it is rated for nobody, while an event still scores
its result (a no-show's forfeit counts in the tournament, not in the ratings). A result is plain
data and travels as JSON (:meth:`GameResult.to_dict` / :meth:`GameResult.from_dict`), e.g. in a
Celery task.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any


class Ending(StrEnum):
    """How a seat's game ended."""

    FINISHED = "finished"  # played to the end of the game
    RESIGNED = "resigned"
    TIMEOUT = "timeout"  # lost on time after moving at least once
    NO_SHOW = "no_show"  # lost on time without ever moving at this table
    BLOCKED = "blocked"  # could not move (the rules put the seat out)
    CAPTURED = "captured"  # lost its last chevron


@dataclass(frozen=True)
class SeatResult:
    seat: int
    player_id: int
    rank: int  # 1 = first; equal ranks are ties
    markers: int
    ending: Ending


@dataclass(frozen=True)
class GameResult:
    table_id: int
    game: str
    players: int
    rated: bool
    finished_at: datetime
    end_reason: str
    winner_seat: int | None
    seats: tuple[SeatResult, ...]  # in seat order
    #: A rated table that ended before every seat had moved: rated for nobody (``rated`` is false).
    aborted: bool = False

    def ranks(self) -> dict[int, int]:
        """Player id → rank."""
        return {s.player_id: s.rank for s in self.seats}

    def markers(self) -> dict[int, int]:
        """Player id → markers at the end."""
        return {s.player_id: s.markers for s in self.seats}

    def no_shows(self) -> list[int]:
        """The players who never moved and lost on time."""
        return [s.player_id for s in self.seats if s.ending == Ending.NO_SHOW]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["finished_at"] = self.finished_at.isoformat()
        out["seats"] = [{**asdict(s), "ending": s.ending.value} for s in self.seats]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        seats = tuple(
            SeatResult(
                seat=s["seat"],
                player_id=s["player_id"],
                rank=s["rank"],
                markers=s["markers"],
                ending=Ending(s["ending"]),
            )
            for s in data["seats"]
        )
        return cls(
            table_id=data["table_id"],
            game=data["game"],
            players=data["players"],
            rated=data["rated"],
            finished_at=datetime.fromisoformat(data["finished_at"]),
            end_reason=data["end_reason"],
            winner_seat=data["winner_seat"],
            seats=seats,
            aborted=bool(data.get("aborted", False)),
        )


def seat_ending(reason: str, moved: bool) -> Ending:
    """How a seat ended, from its elimination reason ('' if it played on) and whether it moved."""
    if not reason:
        return Ending.FINISHED
    if reason == "timeout" and not moved:
        return Ending.NO_SHOW
    return Ending(reason)
