"""Tournament standings: points per finishing place, tiebreaks and places (pure Python, no Django).

Points
------

Each table ranks its players (1 is best; equal ranks are ties). A table's places
are worth points by the event's *scale*, best place first, one value per seat:

* two seats: 1 for a win, 0 for a loss; a shared first place is a draw, and
  both get ½ (the rule below);
* three seats: 2, 1, 0;
* four seats: 3, 2, 1, 0.

An event may set its own scale (``scale``, one value per seat, best first).

**Full tables** (as many players as the event has seats) pay the scale as it
is. **Smaller tables** (a three- or two-player table in a four-seat event, a
two-player table in a three-seat event: rounds whose player count does not
divide) pay the *same* scale, read at evenly spaced places and put on the same
footing, so that no table size is worth more than another. For a scale
``S[0] .. S[s-1]`` (``s`` the event's seats) and a table of ``k < s`` players:

1. place ``j`` (0-based, ``0 .. k-1``) reads the scale at position
   ``x = j * (s - 1) / (k - 1)``, interpolating linearly between the two
   neighbouring values: ``v[j] = S[i] + (x - i) * (S[i + 1] - S[i])`` with
   ``i = floor(x)``. The winner gets ``S[0]``, the last ``S[s-1]``, the others
   what their relative place is worth;
2. then every ``v[j]`` is multiplied by ``mean(S) / mean(v)``, so that the
   table's average points per player equal the full table's, ``mean(S)``
   (``v`` is left as it is when ``mean(v)`` is 0; if ``mean(S)`` is not 0 then,
   which needs negative values in the scale, ``mean(S) - mean(v)`` is added
   instead).

So **every table pays on average ``mean(S)`` points per player**, whatever its
size, and a player seated at small tables is neither helped nor hurt on
average. With the default four-seat scale 3, 2, 1, 0 (average 1.5), a
three-player table pays 3, 1.5, 0 and a two-player table 3, 0; with the
default three-seat scale a two-player table pays 2, 0. Linear scales (all the
defaults) need no correction in step 2. A custom ``10, 6, 3, 0`` (average
4.75) gives a three-player table ``10, 4.5, 0`` scaled by ``4.75 / (14.5 / 3)``:
9.828, 4.422, 0; and a two-player table ``10, 0`` scaled by ``4.75 / 5``: 9.5, 0.

Players who share a rank share the places they cover: they each get the average
of those places' points. At a four-player table ranked 1, 2, 2, 4, the two
players tied for second cover places 2 and 3 and get (2 + 1) / 2 = 1.5 each.
Ranks are read in order only (players sorted by rank, equal ranks grouped), so
"1, 2, 2, 3" counts the same as "1, 2, 2, 4".

Byes come in two kinds (FIDE's distinction):

* a **pairing bye** (the odd player out of a Swiss or round robin round, given
  by the pairing itself) is worth ``bye_points``; by default the value of *the
  place just above the middle*: the smallest value of the scale that is at
  least the scale's average ``mean(S)`` (:func:`bye_value`). At two seats that
  is always the win (1 with the default scale; ``S[0]`` with any scale), the
  usual Swiss convention as the bye goes to the bottom of the ranking; at three
  seats the second place (1 of 2, 1, 0), at four the second place (2 of
  3, 2, 1, 0). With three or four seats the pairing makes smaller tables
  rather than byes, so this value is rarely met there.
* a **requested bye** (one the organiser gives, at the player's request or
  not) pays what the event says (:func:`requested_bye_value`): zero, or "half",
  the scale's average ``mean(S)``, what a drawn game pays (½ at two seats, 1 at
  three, 1.5 at four; FIDE's ½-point bye). It is never worth more than an
  average table, so skipping a round never beats playing it. The callers
  (``tournaments.selectors.unplayed_rounds``) pass each bye with its value.

A bye is not a game: it adds to neither ``played`` nor ``wins``.

**Forfeits**: a player who never showed at their table (lost on time without
a move: ``TableResult.no_shows``) did not play it. They keep the points their
place paid (nothing, as the last), but the table is one of their unplayed
rounds, not a game: it adds to neither ``played`` nor their average place,
markers or opponents. When fewer than two players showed (at two seats: any
no-show), the table is a forfeit for everyone at it, and the winner's round
is unplayed too: they keep the win's points, but it counts in neither
``played`` nor ``wins``. When two or more showed (three or four seats), the
table is an ordinary game for those who did, the no-shows still counted among
their opponents (with their points as the tiebreaks count them, below).

**Unplayed rounds** (``unplayed``: a bye, a forfeit, or a round before a late
entry) are listed per player with the round's number and what it paid: a bye
its value, a forfeit the table's points, a round missed by a late entry zero
or "half" (the scale's average ``mean(S)``), as the organiser chose when
entering the player. They add their points, and for the player's own
tiebreaks each counts as a game against a *virtual opponent* (FIDE's rule for
unplayed games, put on this event's scale): for an unplayed round ``R`` of an
event of ``n`` rounds, the player, who had ``P`` points before round ``R``
and was paid ``f`` for it, met ``seats - 1`` virtual opponents who each end
with ``P + (seats * mean(S) - f) / (seats - 1) + mean(S) * (n - R)`` points:
they had the player's score before that round, took what the player did not
from an average table of that round, and drew (scored the average) every
later round. At two seats with the default scale that is FIDE's
``P + (1 - f) + 0.5 * (n - R)``. The result against them is a win when ``f``
is above the average, a draw when equal, a loss below. So a bye or a missed
round neither inflates nor empties a player's Buchholz. (Byes given only as a
count, ``byes``, add points and no virtual opponent.)

Tiebreaks
---------

Opponents' points are their final points in the event **with each of their
unplayed rounds counted as a draw** (``mean(S)``), whatever it paid: FIDE's
rule for the Buchholz of a player whose opponent had a bye, a forfeit or a
late entry (so meeting someone who was given a full-point bye, or who missed
rounds at zero, neither helps nor hurts). This counted score is used by every
tiebreak built on opponents' points (Buchholz, median Buchholz,
Sonneborn-Berger, opponents' points); the standings' points stay as scored.
An opponent who is no longer listed in ``players`` (withdrawn) still counts,
the same way. Virtual opponents (see unplayed rounds above) count with the
points their formula gives.

Two seats, in this order:

1. **Buchholz**: the sum of the points of every opponent met (once per game).
2. **Median Buchholz**: the same without the opponent with the most points and
   the one with the fewest (with fewer than three opponents, nothing is left
   out: the value is then the plain Buchholz).
3. **Sonneborn-Berger**: the sum of the points of the opponents beaten, plus
   half the points of those drawn with.
4. **Wins**: the games won outright, over the board (a forfeit win is not one).

Three or four seats, in this order:

1. **Opponents' points**: the sum of the points of everyone the player sat with,
   counted once per meeting (meeting someone twice counts their points twice).
2. **Markers**: the total of the player's markers on the board at the end of
   each of their tables.
3. **Average place**: the mean of the player's ranks over the tables they
   played; a player who has played no table gets the middle place,
   ``(seats + 1) / 2``. It is stored as it reads (1.0 is best) and is the one
   tiebreak where **lower is better**: the sort uses it ascending
   (:data:`LOWER_IS_BETTER`), all the others descending.

``wins`` counts tables the player won outright over the board (a shared first
place, a bye or a forfeit is not a win) in both cases.

Places
------

Rows are sorted by points, then by each tiebreak in turn. Players share a place
only when their points and every tiebreak are equal (compared to nine decimal
places, so that sums of fractions that differ only in floating-point rounding
count as equal); the next place skips accordingly (1, 1, 3). Among tied rows, the
order of ``players`` is kept.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

DEFAULT_SCALES: dict[int, tuple[float, ...]] = {2: (1.0, 0.0), 3: (2.0, 1.0, 0.0), 4: (3.0, 2.0, 1.0, 0.0)}
TIEBREAKS: dict[int, tuple[str, ...]] = {
    2: ("buchholz", "median_buchholz", "sonneborn_berger", "wins"),
    3: ("opponents_points", "markers", "average_place"),
    4: ("opponents_points", "markers", "average_place"),
}
LOWER_IS_BETTER = frozenset({"average_place"})
DIGITS = 9  # decimal places compared when deciding ties


@dataclass(frozen=True)
class TableResult:
    """How one table of a round ended."""

    round: int
    ranks: Mapping[
        int, int
    ]  # player id -> final rank at the table (1 best; shared ranks = ties, e.g. 1,2,2,4)
    markers: Mapping[int, int] = field(default_factory=dict)  # player id -> markers on the board at the end
    #: Players who never showed (lost on time without a move): the table is no game for them.
    no_shows: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Unplayed:
    """A round a player did not play: a bye, a forfeit, or a round before their late entry."""

    round: int
    points: float  # what the round paid: a bye's value, a forfeit's points, zero or half for a missed round


@dataclass(frozen=True)
class StandingRow:
    """One player's line in the standings."""

    player: int
    place: int
    points: float
    tiebreaks: dict[str, float]  # in the order they are applied (see the module docstring)
    played: int  # tables played (byes and forfeits not counted)
    wins: int  # tables won outright, over the board


def _scale(seats: int, scale: Sequence[float] | None) -> tuple[float, ...]:
    if seats not in DEFAULT_SCALES:
        raise ValueError(f"tables have 2, 3 or 4 seats, not {seats}")
    if not scale:  # None, or an empty list left in an event's settings
        return DEFAULT_SCALES[seats]
    if len(scale) != seats:
        raise ValueError(f"a points scale for {seats} seats needs {seats} values, best place first")
    return tuple(float(v) for v in scale)


def table_scale(seats: int, size: int, scale: Sequence[float] | None = None) -> tuple[float, ...]:
    """Points per place (best first) at a table of ``size`` players in an event of ``seats`` seats.

    The full scale at a full table; at a smaller table, the scale read at evenly spaced places and
    rescaled to the same average (rules in the module docstring).

    >>> table_scale(4, 3)
    (3.0, 1.5, 0.0)
    >>> table_scale(4, 2, [10, 6, 3, 0])
    (9.5, 0.0)
    """
    full = _scale(seats, scale)
    if size < 2 or size > seats:
        raise ValueError(f"a table of this event has 2 to {seats} players, not {size}")
    if size == seats:
        return full
    values = []
    for j in range(size):
        x = j * (seats - 1) / (size - 1)
        i = min(int(x), seats - 2)
        values.append(full[i] + (x - i) * (full[i + 1] - full[i]))
    target, mean = sum(full) / seats, sum(values) / size
    if mean != 0:
        return tuple(v * target / mean for v in values)
    return tuple(v + target for v in values)


def bye_value(seats: int, scale: Sequence[float] | None = None) -> float:
    """A pairing bye's points: the smallest value of the scale at least equal to its average.

    >>> bye_value(2), bye_value(3), bye_value(4), bye_value(4, [10, 6, 3, 0])
    (1.0, 1.0, 2.0, 6.0)
    """
    full = _scale(seats, scale)
    mean = sum(full) / seats
    return min(v for v in full if round(v - mean, DIGITS) >= 0)


REQUESTED_BYES = ("zero", "half")  # what a bye the organiser gives may pay


def requested_bye_value(seats: int, scale: Sequence[float] | None, rule: str) -> float:
    """A requested bye's points (one the organiser gives): ``rule`` "zero", or "half": the scale's
    average, what a drawn game pays (½ at two seats, 1 at three, 1.5 at four).

    >>> requested_bye_value(2, None, "half"), requested_bye_value(4, None, "half")
    (0.5, 1.5)
    >>> requested_bye_value(4, None, "zero")
    0.0
    """
    if rule not in REQUESTED_BYES:
        raise ValueError(f"a requested bye pays zero or half, not {rule!r}")
    full = _scale(seats, scale)
    return sum(full) / seats if rule == "half" else 0.0


def place_points(
    seats: int, ranks: Mapping[int, int], scale: Sequence[float] | None = None
) -> dict[int, float]:
    """Points of each player at one table; ``seats`` is the event's table size, ``scale`` its own scale.

    >>> place_points(4, {10: 1, 11: 2, 12: 2, 13: 4})
    {10: 3.0, 11: 1.5, 12: 1.5, 13: 0.0}
    >>> place_points(4, {10: 1, 11: 2, 12: 3})
    {10: 3.0, 11: 1.5, 12: 0.0}
    """
    points = table_scale(seats, len(ranks), scale)
    ordered = sorted(ranks.values())
    out: dict[int, float] = {}
    for player, rank in ranks.items():
        first = ordered.index(rank)  # places covered: first .. first + sharing - 1 (0-based)
        covered = points[first : first + ordered.count(rank)]
        out[player] = sum(covered) / len(covered)
    return out


def standings(
    players: Sequence[int],
    results: Sequence[TableResult],
    seats: int,
    byes: Mapping[int, int] | None = None,
    scale: Sequence[float] | None = None,
    bye_points: float | None = None,
    unplayed: Mapping[int, Sequence[Unplayed]] | None = None,
    rounds: int | None = None,
) -> list[StandingRow]:
    """The standings of ``players`` after ``results`` (rules in the module docstring), best first.

    ``byes`` maps a player to the number of byes they had (points only); ``unplayed`` lists each
    player's unplayed rounds (points, and a virtual opponent each for the tiebreaks); ``rounds`` is
    the event's number of rounds (by default the last round seen). A table's no-shows (and a
    player left alone by them: a forfeit) are moved to the unplayed rounds.
    """
    full = _scale(seats, scale)  # validates the seats and the scale, even with no table to score
    average = sum(full) / seats
    if bye_points is None:
        bye_points = bye_value(seats, scale)
    played_results, unplayed = _split_forfeits(results, unplayed or {}, seats, scale)
    tally = _Tally()
    tally.add_byes(byes or {}, bye_points)
    for res in played_results:
        tally.add_table(res, seats, scale)
    virtual = _virtual_opponents(played_results, unplayed, seats, scale, average, rounds)
    for player, missed in unplayed.items():
        tally.points[player] += sum(u.points for u in missed)
    counted = _counted_points(tally.points, unplayed, average)
    rows = [(p, tally.points[p], _tiebreaks(p, tally, counted, virtual, seats)) for p in players]
    return _ranked(rows, tally, seats)


@dataclass
class _Tally:
    """What each player has scored so far: points, and what the tiebreaks count."""

    points: dict[int, float] = field(default_factory=lambda: defaultdict(float))
    wins: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    played: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    markers: dict[int, float] = field(default_factory=lambda: defaultdict(float))
    places: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    #: Per player, each opponent met: (opponent, 1 beat / ½ tied / 0 lost).
    games: dict[int, list[tuple[int, float]]] = field(default_factory=lambda: defaultdict(list))

    def add_byes(self, byes: Mapping[int, int], bye_points: float) -> None:
        for player, count in byes.items():
            self.points[player] += bye_points * count

    def add_table(self, res: TableResult, seats: int, scale: Sequence[float] | None) -> None:
        """Score one played table (its no-shows are not counted here: they are unplayed rounds)."""
        scored = place_points(seats, res.ranks, scale)
        present = {p: rank for p, rank in res.ranks.items() if p not in res.no_shows}
        best = min(present.values())
        outright = list(present.values()).count(best) == 1
        for p, rank in present.items():
            self.points[p] += scored[p]
            self.played[p] += 1
            self.places[p].append(rank)
            self.markers[p] += res.markers.get(p, 0)
            if rank == best and outright:
                self.wins[p] += 1
            for q, other in res.ranks.items():
                if q != p:
                    self.games[p].append((q, 1.0 if rank < other else 0.5 if rank == other else 0.0))


def _counted_points(
    points: Mapping[int, float], unplayed: Mapping[int, Sequence[Unplayed]], average: float
) -> dict[int, float]:
    """An opponent's points as the tiebreaks count them: each of their unplayed rounds as a draw."""
    return {p: pts + sum(average - u.points for u in unplayed.get(p, ())) for p, pts in list(points.items())}


def _tiebreaks(
    p: int,
    tally: _Tally,
    counted: Mapping[int, float],
    virtual: Mapping[int, list[tuple[float, float]]],
    seats: int,
) -> dict[str, float]:
    """Player ``p``'s tiebreak values (the ones for two seats, or those for three and four)."""
    met = [(counted.get(q, 0.0), result) for q, result in tally.games[p]] + virtual.get(p, [])
    opponents = [pts for pts, _ in met]
    if seats == 2:
        trimmed = sorted(opponents)[1:-1] if len(opponents) >= 3 else opponents
        return {
            "buchholz": sum(opponents),
            "median_buchholz": sum(trimmed),
            "sonneborn_berger": sum(pts * result for pts, result in met),
            "wins": float(tally.wins[p]),
        }
    places = tally.places[p]
    return {
        "opponents_points": sum(opponents),
        "markers": tally.markers[p],
        "average_place": sum(places) / len(places) if places else (seats + 1) / 2,
    }


def _ranked(rows: list[tuple[int, float, dict[str, float]]], tally: _Tally, seats: int) -> list[StandingRow]:
    """The rows sorted by points then tiebreaks, with places (equal keys share a place)."""

    def key(row: tuple[int, float, dict[str, float]]) -> tuple[float, ...]:
        return _rank_key(row, seats)

    rows = sorted(rows, key=key)  # stable: ties keep the order of ``players``
    out: list[StandingRow] = []
    for i, (p, pts, tb) in enumerate(rows):
        place = out[-1].place if i and key(rows[i - 1]) == key(rows[i]) else i + 1
        out.append(StandingRow(p, place, pts, tb, tally.played[p], tally.wins[p]))
    return out


def _rank_key(row: tuple[int, float, dict[str, float]], seats: int) -> tuple[float, ...]:
    """Sort key: more points first, then each tiebreak of the event's size in turn."""
    _, pts, tb = row
    return (
        -round(pts, DIGITS),
        *(round(tb[k], DIGITS) if k in LOWER_IS_BETTER else -round(tb[k], DIGITS) for k in TIEBREAKS[seats]),
    )


def _split_forfeits(
    results: Sequence[TableResult],
    unplayed: Mapping[int, Sequence[Unplayed]],
    seats: int,
    scale: Sequence[float] | None,
) -> tuple[list[TableResult], dict[int, list[Unplayed]]]:
    """The tables played, and every player's unplayed rounds with the forfeits added: a no-show's
    round, and the round of whoever was left alone at a table (fewer than two players showed),
    each paid what the table's result gave them."""
    out = {p: list(missed) for p, missed in unplayed.items()}
    played: list[TableResult] = []
    for res in results:
        if not res.no_shows:
            played.append(res)
            continue
        scored = place_points(seats, res.ranks, scale)
        present = [p for p in res.ranks if p not in res.no_shows]
        forfeited = list(res.ranks) if len(present) < 2 else [p for p in res.ranks if p in res.no_shows]
        for p in forfeited:
            out.setdefault(p, []).append(Unplayed(res.round, scored[p]))
        if len(present) >= 2:
            played.append(res)
    return played, out


def _virtual_opponents(
    results: Sequence[TableResult],
    unplayed: Mapping[int, Sequence[Unplayed]],
    seats: int,
    scale: Sequence[float] | None,
    average: float,
    rounds: int | None,
) -> dict[int, list[tuple[float, float]]]:
    """Per player, ``(final points, result)`` of the virtual opponents of their unplayed rounds
    (rules in the module docstring): ``seats - 1`` of them per round."""
    # A player may be listed with no unplayed round at all (a late entry seen as the standings
    # stood before any round, or after the round they missed was paired again): nothing to add.
    unplayed = {p: missed for p, missed in unplayed.items() if missed}
    if not unplayed:
        return {}
    seen = [r.round for r in results] + [u.round for missed in unplayed.values() for u in missed]
    total = max(rounds or 0, *seen)
    by_round: dict[int, dict[int, float]] = defaultdict(dict)  # player -> round -> points of that round
    for res in results:
        for p, pts in place_points(seats, res.ranks, scale).items():
            if p not in res.no_shows:  # a no-show's round is among their unplayed rounds
                by_round[p][res.round] = by_round[p].get(res.round, 0.0) + pts
    for p, missed in unplayed.items():
        for u in missed:
            by_round[p][u.round] = by_round[p].get(u.round, 0.0) + u.points
    out: dict[int, list[tuple[float, float]]] = {}
    for p, missed in unplayed.items():
        for u in missed:
            before = sum(pts for r, pts in by_round[p].items() if r < u.round)
            final = before + (seats * average - u.points) / (seats - 1) + average * (total - u.round)
            diff = round(u.points - average, DIGITS)
            result = 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
            out.setdefault(p, []).extend([(final, result)] * (seats - 1))
    return out
