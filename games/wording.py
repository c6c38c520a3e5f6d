"""Results in words, as people write them: the winner first, places spelt out, how it ended.

"1st Alice (14 markers) · 2nd Bob: resigned" rather than the seats in order with a rank in
brackets. Read by the event, ladder, lobby and table pages (and anything else that shows a
finished table); built on :func:`games.selectors.game_results`, so no-shows are told apart
from timeouts the same way tournaments count them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .models import Player
from .results import Ending, GameResult
from .selectors import game_results

#: How one seat's game ended, after the player's name ("" when it played to the end).
SEAT_ENDINGS = {
    Ending.FINISHED: "",
    Ending.RESIGNED: "resigned",
    Ending.TIMEOUT: "lost on time",
    Ending.NO_SHOW: "no-show (never moved)",
    Ending.BLOCKED: "blocked (could not move)",
    Ending.CAPTURED: "lost the last chevron",
}

#: How the table ended.
TABLE_ENDINGS = {
    "target": "reached the marker target",
    "last-standing": "last player left",
    "ply-limit": "move limit reached: placed by markers",
    "no-progress": "no progress for too long: placed by markers",
    "no-moves": "nobody could move: placed by markers",
    "no-gain": "nobody could gain a marker: placed by markers",
    "end-trigger": "the final turns were played: placed by markers",
    "aborted": "aborted: nobody moved",
    "adjudicated": "result set by the organisers",
}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st, 22nd."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def names_list(names: list[str]) -> str:
    """ "Bob", "Bob and Carol", "Bob, Carol and Dave"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True)
class Place:
    place: int
    word: str  # "1st", "=2nd" for a shared place
    player_id: int
    name: str
    markers: int
    ending: str  # "" or "resigned", "no-show (never moved)", …

    def __str__(self) -> str:
        how = f": {self.ending}" if self.ending else ""
        return f"{self.word} {self.name} ({self.markers} marker{'s' if self.markers != 1 else ''}){how}"


@dataclass(frozen=True)
class ResultText:
    places: tuple[Place, ...]  # best first
    headline: str  # "Alice won", "Alice and Bob shared 1st place"
    ending: str  # "Bob resigned", "reached the marker target", …

    def __str__(self) -> str:
        return f"{self.headline} ({self.ending}): " + " · ".join(str(p) for p in self.places)


def describe(result: GameResult, names: dict[int, str]) -> ResultText:
    ranks = [s.rank for s in result.seats]
    places = []
    for s in sorted(result.seats, key=lambda s: (s.rank, s.seat)):
        shared = ranks.count(s.rank) > 1
        places.append(
            Place(
                place=s.rank,
                word=("=" if shared else "") + ordinal(s.rank),
                player_id=s.player_id,
                name=names.get(s.player_id, f"player {s.player_id}"),
                markers=s.markers,
                ending=SEAT_ENDINGS[s.ending],
            )
        )
    winners = [p for p in places if p.place == 1]
    if len(winners) == 1:
        headline = f"{winners[0].name} won"
    else:
        headline = " and ".join(p.name for p in winners) + " shared 1st place"
    out = [p for p in places if p.ending]
    if result.end_reason == "last-standing" and out:
        # The others left the game: say how, the no-show first (it decides what a round counts).
        ending = "; ".join(f"{p.name}: {p.ending}" for p in out)
    else:
        ending = TABLE_ENDINGS.get(result.end_reason, result.end_reason or "finished")
    return ResultText(places=tuple(places), headline=headline, ending=ending)


def describe_tables(table_ids: Iterable[int], names: dict[int, str] | None = None) -> dict[int, ResultText]:
    """Table id → its result in words, for those tables that are finished (four queries at most,
    or three when ``names`` — player id → display name — covers every player)."""
    results = game_results(table_ids)
    names = dict(names or {})
    missing = {s.player_id for r in results.values() for s in r.seats} - names.keys()
    if missing:
        names.update(Player.objects.filter(pk__in=missing).values_list("pk", "display_name"))
    return {table_id: describe(r, names) for table_id, r in results.items()}
