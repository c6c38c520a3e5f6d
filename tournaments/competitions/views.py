"""What the event page is made of: the views of seats, tables, rounds, the roster, the standings and
the viewer's part, with the small formatting helpers they share, and who sits a round out.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.wording import ResultText
from ratings.models import Rating

from .. import crosstable
from ..models import Registration, Round, Tournament

#: How each tiebreak is headed, and what it means (the column's ``title``).
TIEBREAK_HELP = {
    "buchholz": gettext_lazy(
        "Buchholz: sum of the opponents' points, an opponent's unplayed rounds (byes, forfeits, rounds "
        "before a late entry) counted as draws; each of your own unplayed rounds counts as a game "
        "against a virtual opponent"
    ),
    "median_buchholz": gettext_lazy(
        "Median Buchholz: the Buchholz without the opponent with the most points and the one with the fewest"
    ),
    "sonneborn_berger": gettext_lazy(
        "Sonneborn-Berger: points of the opponents beaten, plus half the points of those drawn with "
        "(their unplayed rounds counted as draws)"
    ),
    "wins": gettext_lazy(
        "Wins: games won outright, over the board (a draw, a bye or a forfeit is not a win)"
    ),
    "opponents_points": gettext_lazy(
        "Opponents' points: sum of the points of everyone met at a table, their unplayed rounds "
        "(byes, forfeits, rounds before a late entry) counted as draws"
    ),
    "markers": gettext_lazy("markers won over all tables"),
    "average_place": gettext_lazy("average place at the tables played (lower is better)"),
    "exit_place": gettext_lazy(
        "place at the table where the player went out (the final's place for finalists)"
    ),
    "seed": gettext_lazy("seed at the start (1 is the top seed)"),
    "losses": gettext_lazy("tables lost (two put a player out)"),
    "eliminated_in": gettext_lazy("the round of the second loss"),
}


def _when(dt: Any) -> str:
    """A moment in the reader's time zone and language ("Jan. 5, 2025, 2 p.m.")."""
    return date_format(timezone.localtime(dt), "DATETIME_FORMAT")


def _num(v: float) -> str:
    """2.0 -> "2", 2.5 -> "2.5", 2.333 -> "2.33" (with the language's decimal separator)."""
    v = round(v, 2)
    return number_format(int(v) if v == int(v) else v)


def _points(v: float) -> str:
    """ "no points" (zero), "1 point", "0.5 points"."""
    if not v:
        return _("no points")
    return ngettext("%(n)s point", "%(n)s points", int(v) if v == int(v) else 2) % {"n": _num(v)}


@dataclass
class SeatView:
    player: int
    name: str
    note: str = ""  # "1st", "=2nd" once finished
    ending: str = ""  # "resigned", ...
    markers: int | None = None
    advanced: bool = False
    mine: bool = False


@dataclass
class TableView:
    number: int
    table_id: int
    label: str  # the bracket of a double elimination ("Losers bracket round 2"), or ""
    seats: list[SeatView]
    status: str  # "playing, ply 23", "waiting for the players", "finished", "aborted: no result"
    finished: bool
    result: ResultText | None
    mine: bool = False
    ply: int = 0
    #: The table's status (``games.Table.Status``: "open", "active", "finished", "aborted").
    state: str = ""
    #: A double elimination's bracket key (``double_elim.WINNERS``, ...), or "".
    bracket: str = ""
    #: The places as shown after the headline: (word, name, markers, how it ended, first), the
    #: ending left out when the headline's ending already says it ("Bob: resigned").
    places: list[tuple[str, str, int, str, bool]] = field(default_factory=list)


@dataclass
class RoundView:
    number: int
    status: str
    current: bool
    tables: list[TableView]
    byes: list[str]
    standings: list[Any]
    title: str = ""
    final: bool = False  # a knockout's final round


@dataclass
class RosterRow:
    name: str
    player: int
    rating: Rating | None
    status: str
    seed: int | None
    notes: list[str]
    withdrawn: bool


@dataclass
class StandingView:
    place: int
    player: int
    name: str
    points: str
    played: int
    wins: int
    tiebreaks: list[tuple[str, str]]  # (key, shown value)
    mine: bool = False


@dataclass
class YourPart:
    """The viewer's box: where they stand, what they may do, and the rules in words."""

    anonymous: bool
    registration: Registration | None = None
    status: str = ""  # "registered", "checked in", "withdrawn" ("" when not entered), in words
    #: The registration's status (``Registration.Status``: "registered", "checked_in", "withdrawn"; "").
    state: str = ""
    rules: list[str] = field(default_factory=list)
    can_register: bool = False
    register_label: str = ""  # "Register", "Register again"
    cannot: str = ""  # why the viewer cannot register
    can_withdraw: bool = False
    withdraw_warning: str = ""
    can_check_in: bool = False
    final_place: str = ""
    #: An organiser's invitation to enter this running event late, waiting for the viewer's answer.
    invitation: Any = None
    invitation_words: str = ""


@dataclass
class YourGame:
    round: int
    table_id: int | None  # None: a bye
    opponents: str
    started: bool
    ply: int = 0
    sits_out: bool = False  # a round robin's round without a table for you (it scores nothing)


@dataclass
class EventPage:
    t: Tournament
    format_words: str
    status_words: str
    announcements: list[Any]
    you: YourPart
    your_game: YourGame | None
    roster: list[RosterRow]
    rounds: list[RoundView]
    standings: list[StandingView]
    tiebreaks: list[tuple[str, str, str]]  # (key, header, explanation)
    points_header: str
    winners: list[str]
    podium: list[tuple[str, str]]  # ("1st", name)
    crosstable: crosstable.Crosstable | None
    bracket: str  # SVG markup ("" when the format has none or nothing is paired)
    registered: int
    bye_rule: str = ""  # what byes pay, in words ("" for the brackets, whose byes score no points)
    #: Show the "Wins" column: not when another column holds the same count (the 2-seat tiebreak
    #: "wins", a double elimination's points), so that no two columns repeat one number.
    wins_column: bool = True
    points_help: str = ""  # the points column's title

    @property
    def has_seeds(self) -> bool:
        return any(row.seed is not None for row in self.roster)


def sitting_out(t: Tournament, rnd: Round, seated: Collection[int], gone: Collection[int] = ()) -> list[int]:
    """The players a round robin's schedule leaves without a table in ``rnd`` (an odd count at 2
    seats: whoever meets the dummy), in schedule order. Such a round has no bye stored (it pays
    nothing, as everyone sits out once), so without this the page never says who sits out.
    ``seated``: who has a table in the round; ``gone``: withdrawn players, not shown."""
    if t.format != Tournament.Format.ROUND_ROBIN or not t.schedule or rnd.number > len(t.schedule):
        return []
    everyone = dict.fromkeys(p for schedule_round in t.schedule for table in schedule_round for p in table)
    scheduled = {p for table in t.schedule[rnd.number - 1] for p in table}
    skip = scheduled | set(seated) | set(rnd.byes) | set(gone)
    return [p for p in everyone if p not in skip]
