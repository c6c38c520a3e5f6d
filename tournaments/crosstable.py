"""A round robin's crosstable (pure Python, its words translated): who did what against whom.

Two seats: a player × player grid, each cell the result of their meeting(s) from the row
player's side ("1" won, "0" lost, "½" shared, "…" being played). Three or four seats: pairs do
not fit a grid, so each player has a row with, per round, their place at their table ("1st",
"=2nd"), "bye", or "playing".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.wording import names_list


@dataclass(frozen=True)
class Played:
    """One table of the event: its round, players (seat order) and places (None while played)."""

    round: int
    table_id: int
    players: tuple[int, ...]
    places: Mapping[int, int] | None  # player -> place (1 best)
    words: Mapping[int, str] = field(default_factory=dict)  # player -> "1st", "=2nd"


@dataclass(frozen=True)
class Cell:
    text: str  # "1", "0", "½", "…", "1st", "bye", "" (none)
    title: str = ""  # the meeting in words
    table_id: int | None = None
    kind: str = ""  # "win", "loss", "draw", "playing", "bye", "self"


@dataclass(frozen=True)
class Row:
    player: int
    name: str
    cells: tuple[Cell, ...]
    total: str = ""


@dataclass(frozen=True)
class Crosstable:
    grid: bool  # True: player × player; False: player × round
    headers: tuple[str, ...]  # column headings (player initials/names or "R1"...)
    header_titles: tuple[str, ...]
    rows: tuple[Row, ...]

    @property
    def columns(self) -> list[tuple[str, str]]:
        return list(zip(self.headers, self.header_titles, strict=True))


def _mark(mine: int, theirs: int) -> tuple[str, str]:
    if mine < theirs:
        return "1", "win"
    if mine > theirs:
        return "0", "loss"
    return "½", "draw"


def build(
    players: Sequence[tuple[int, str]],
    tables: Sequence[Played],
    byes: Mapping[int, Sequence[int]],
    seats: int,
    rounds: int,
    totals: Mapping[int, str] | None = None,
) -> Crosstable:
    """The crosstable of ``players`` (id, name; in standings order) from the event's ``tables``
    and ``byes`` (round -> players)."""
    names = dict(players)
    totals = totals or {}
    if seats == 2:
        return _grid(players, tables, names, totals)
    return _by_round(players, tables, byes, names, rounds, totals)


def _grid(
    players: Sequence[tuple[int, str]],
    tables: Sequence[Played],
    names: Mapping[int, str],
    totals: Mapping[int, str],
) -> Crosstable:
    met: dict[tuple[int, int], list[Cell]] = {}
    for t in tables:
        if len(t.players) != 2:
            continue
        a, b = t.players
        for me, them in ((a, b), (b, a)):
            who = {"round": t.round, "player": names.get(me, "?"), "opponent": names.get(them, "?")}
            if t.places is None:
                cell = Cell(
                    "…",
                    _("Round %(round)s: %(player)s against %(opponent)s: being played") % who,
                    t.table_id,
                    "playing",
                )
            else:
                text, kind = _mark(t.places.get(me, 0), t.places.get(them, 0))
                if kind == "win":
                    title = _("Round %(round)s: %(player)s against %(opponent)s: %(player)s won")
                elif kind == "loss":
                    title = _("Round %(round)s: %(player)s against %(opponent)s: %(player)s lost")
                else:
                    title = _("Round %(round)s: %(player)s against %(opponent)s: %(player)s shared the win")
                cell = Cell(text, title % who, t.table_id, kind)
            met.setdefault((me, them), []).append(cell)
    rows = []
    for p, name in players:
        cells = []
        for q, _name in players:
            if p == q:
                cells.append(Cell("", "", None, "self"))
                continue
            found = met.get((p, q), [])
            if not found:
                cells.append(
                    Cell(
                        "",
                        _("%(player)s and %(opponent)s have not met")
                        % {"player": name, "opponent": names.get(q, "?")},
                    )
                )
            elif len(found) == 1:
                cells.append(found[0])
            else:  # a double round robin: both results in one cell
                cells.append(
                    Cell(
                        " ".join(c.text for c in found),
                        "; ".join(c.title for c in found),
                        found[-1].table_id,
                        found[-1].kind,
                    )
                )
        rows.append(Row(p, name, tuple(cells), totals.get(p, "")))
    return Crosstable(
        grid=True,
        headers=tuple(str(i) for i in range(1, len(players) + 1)),
        header_titles=tuple(name for _, name in players),
        rows=tuple(rows),
    )


def _by_round(
    players: Sequence[tuple[int, str]],
    tables: Sequence[Played],
    byes: Mapping[int, Sequence[int]],
    names: Mapping[int, str],
    rounds: int,
    totals: Mapping[int, str],
) -> Crosstable:
    seen: dict[tuple[int, int], Cell] = {}
    last = max([rounds, *(t.round for t in tables), *byes.keys()], default=0)
    for t in tables:
        for p in t.players:
            where = {"round": t.round, "others": names_list([names.get(q, "?") for q in t.players if q != p])}
            if t.places is None:
                seen[(t.round, p)] = Cell(
                    "…", _("Round %(round)s, with %(others)s: being played") % where, t.table_id, "playing"
                )
            else:
                word = t.words.get(p) or str(t.places.get(p, ""))
                kind = "win" if t.places.get(p) == 1 else "loss"
                title = _("Round %(round)s, with %(others)s: %(place)s") % {**where, "place": word}
                seen[(t.round, p)] = Cell(word, title, t.table_id, kind)
    for number, ids in byes.items():
        for p in ids:
            seen[(number, p)] = Cell(
                pgettext("crosstable", "bye"), _("Round %(round)s: a bye") % {"round": number}, None, "bye"
            )
    rows = []
    for p, name in players:
        cells = tuple(seen.get((r, p), Cell("", "")) for r in range(1, last + 1))
        rows.append(Row(p, name, cells, totals.get(p, "")))
    return Crosstable(
        grid=False,
        headers=tuple(
            pgettext("crosstable column: round N", "R%(n)s") % {"n": r} for r in range(1, last + 1)
        ),
        header_titles=tuple(
            pgettext("crosstable column", "Round %(n)s") % {"n": r} for r in range(1, last + 1)
        ),
        rows=tuple(rows),
    )
