"""Team match scoring and team standings (pure Python, no Django).

A team match sets 2 to 4 teams (its *sides*) against each other over ``boards``
boards; each board is one table of the event's ``seats`` seats with one player
of each team. The points per place at a table come from
:func:`tournaments.standings.place_points` (the event's ``points_scale``, or the
default: 1 / 0 at two seats, a shared first place being a draw worth ½ each;
2, 1, 0 at three; 3, 2, 1, 0 at four).

Board points
------------

:func:`board_points`: the teams whose player played the board are ranked at its
table (1 best, equal ranks for ties) and earn the table's place points for the
players present, ``place_points(seats, ranks, scale)``; so when fewer players than
the event's seats are present (a 3–4 seat board with a player missing) the
present ones are paid as a smaller table is (``table_scale``: 3, 1.5, 0 for three
of four seats with the default scale).
A team whose player is *missing* (no player in its line-up for that board, or a
no-show counted as a forfeit) earns 0. With fewer than two players present there
is no game: a lone present player earns the scale's first value (the full
table's winner's points: 1 at two seats, 2 at three, 3 at four by default), and
with nobody present every team earns 0.

Match result
------------

A side's *game points* are the sum of its board points in the match.
:func:`match_result` ranks the sides by game points, most first; sides with
equal game points (compared to nine decimal places) share a place, and the next
place skips (1, 1, 3). Match points come by place from the event's
``match_points`` scale (one value per seat, best first) or
:data:`DEFAULT_MATCH_POINTS` (2, 0 at two seats; 2, 1, 0 at three; 3, 2, 1, 0 at
four). Sides sharing a place each get the average of the places they cover: at
two seats a drawn match (equal game points) pays 1 each by default; at four
seats, places 1, 2, 2, 4 pay 3, 1.5, 1.5, 0. A match of fewer sides than the
event's seats (three teams in a four-seat event, when the team count does not
divide) is paid as the standings pay a smaller table: the scale read at evenly
spaced places and kept at the same average (``tournaments.standings.table_scale``:
3, 1.5, 0 for three sides of four seats).

Byes
----

:func:`bye_points`: a team sitting a round out (the pairing's bye, at two seats
with an odd number of teams) scores a won match's match points (the match scale's
first value) and the game points of a drawn match: ``boards`` times the board
scale's average at a full table (two seats, default scale: ``boards * 0.5``).

Standings
---------

:func:`team_standings` totals each team's match points and game points over its
matches and byes, then orders the teams by:

1. match points, most first;
2. the event's chosen tiebreak, then the other tiebreaks in the fixed order
   ``game_points``, ``direct``, ``buchholz``, ``sonneborn_berger``
   (:data:`TIEBREAKS`), each higher first:

   * ``game_points``: the team's total game points (byes included);
   * ``direct`` (direct encounter): the match points the team scored in the
     matches it played against the teams level with it on match points (only
     those teams of ``teams`` with the same total; a team nobody is level with
     scores 0). At two seats these are the matches between two of those teams;
     at three or four seats, the matches in which at least one other of those
     teams took part, with the match points the team earned in them;
   * ``buchholz``: the sum over the team's matches of the final match points of
     every other team of that match; each bye adds the team's own final match
     points;
   * ``sonneborn_berger``: the sum over the team's matches of, for every other
     team of that match, that team's final match points times the match points
     the team earned in the match (byes add nothing);

3. then the seed, lower first (teams without a seed after the seeded ones);
4. then the team id, lower first.

The seed and the id always settle the order, so places are the positions
1, 2, 3, ... (never shared). Values are compared to nine decimal places.
A team's ``played`` counts its matches (not its byes); ``won`` the matches it
finished first alone, ``drawn`` those where it shared first place, ``lost`` the
others (at two seats: won, drawn and lost as usual). Teams met in the records
but not listed in ``teams`` (withdrawn teams) still count as opponents with
their match points, but get no row.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.standings import DIGITS, place_points, table_scale

DEFAULT_MATCH_POINTS: dict[int, tuple[float, ...]] = {
    2: (2.0, 0.0),
    3: (2.0, 1.0, 0.0),
    4: (3.0, 2.0, 1.0, 0.0),
}
#: The tiebreaks after match points, in their fixed order (the chosen one goes first).
TIEBREAKS: tuple[str, ...] = ("game_points", "direct", "buchholz", "sonneborn_berger")


@dataclass(frozen=True)
class MatchRecord:
    """One played match: each side's game points and match points (team id -> value)."""

    round: int
    game_points: Mapping[int, float]
    match_points: Mapping[int, float]


@dataclass(frozen=True)
class TeamRow:
    """One team's line in the team standings."""

    team: int
    place: int
    match_points: float
    game_points: float
    tiebreaks: dict[str, float]  # in the order they are applied (the chosen one first)
    played: int  # matches played (byes not counted)
    won: int  # matches finished first alone
    drawn: int  # matches finished sharing first place
    lost: int  # the other matches


def _seats(seats: int) -> int:
    if seats not in DEFAULT_MATCH_POINTS:
        raise ValueError(f"a team match has 2, 3 or 4 teams per board, not {seats}")
    return seats


def _board_scale(seats: int, scale: Sequence[float] | None) -> tuple[float, ...]:
    """The full table's place points (validated), best first."""
    return table_scale(_seats(seats), seats, scale)


def _match_scale(seats: int, match_scale: Sequence[float] | None) -> tuple[float, ...]:
    """The match points per place (validated), best first."""
    _seats(seats)
    if not match_scale:  # None, or an empty list left in an event's settings
        return DEFAULT_MATCH_POINTS[seats]
    if len(match_scale) != seats:
        raise ValueError(
            f"match points for {seats} teams per match need {seats} values, best place first, "
            f"not {len(match_scale)}"
        )
    return tuple(float(v) for v in match_scale)


def _places(values: Mapping[int, float]) -> dict[int, int]:
    """Competition places by value, highest first: equal values share a place (1, 1, 3)."""
    rounded = {k: round(float(v), DIGITS) for k, v in values.items()}
    return {k: 1 + sum(1 for other in rounded.values() if other > v) for k, v in rounded.items()}


def board_points(
    *,
    seats: int,
    teams: Sequence[int],
    ranks: Mapping[int, int],
    scale: Sequence[float] | None = None,
) -> dict[int, float]:
    """Each team's points on one board (rules in the module docstring).

    ``teams``: the board's team ids; ``ranks``: team id -> rank at the table for the teams whose
    player played (1 best, equal ranks for ties); teams absent from ``ranks`` were missing.

    >>> board_points(seats=2, teams=[1, 2], ranks={1: 1, 2: 1})
    {1: 0.5, 2: 0.5}
    >>> board_points(seats=4, teams=[1, 2, 3, 4], ranks={1: 2, 3: 1})
    {1: 0.0, 2: 0.0, 3: 3.0, 4: 0.0}
    """
    full = _board_scale(seats, scale)
    if len(set(teams)) != len(teams):
        raise ValueError("a team appears twice on one board")
    if not 2 <= len(teams) <= seats:
        raise ValueError(f"a board of a {seats}-seat event seats 2 to {seats} teams, not {len(teams)}")
    unknown = set(ranks) - set(teams)
    if unknown:
        raise ValueError(f"ranks name teams that are not on this board: {sorted(unknown)}")
    if any(not isinstance(r, int) or r < 1 for r in ranks.values()):
        raise ValueError("ranks at a table are whole numbers from 1 (best)")
    out = {team: 0.0 for team in teams}
    if len(ranks) == 1:  # no game: the lone present player wins by forfeit
        out[next(iter(ranks))] = full[0]
    elif len(ranks) >= 2:
        out.update(place_points(seats, ranks, full))
    return out


def match_result(
    *,
    seats: int,
    game_points: Mapping[int, float],
    scale: Sequence[float] | None = None,
) -> dict[int, tuple[int, float]]:
    """Team id -> (place, match points) of one match, from the sides' game points.

    ``scale`` is the event's match points per place (None: :data:`DEFAULT_MATCH_POINTS`).

    >>> match_result(seats=2, game_points={1: 2.5, 2: 1.5})
    {1: (1, 2.0), 2: (2, 0.0)}
    >>> match_result(seats=2, game_points={1: 2.0, 2: 2.0})
    {1: (1, 1.0), 2: (1, 1.0)}
    """
    full = _match_scale(seats, scale)
    if not 2 <= len(game_points) <= seats:
        raise ValueError(f"a match of a {seats}-seat event has 2 to {seats} teams, not {len(game_points)}")
    places = _places(game_points)
    points = place_points(seats, places, full)
    return {team: (places[team], points[team]) for team in game_points}


def bye_points(
    *,
    seats: int,
    boards: int,
    scale: Sequence[float] | None = None,
    match_scale: Sequence[float] | None = None,
) -> tuple[float, float]:
    """(match points, game points) of a bye: a won match's match points, a drawn match's game points.

    >>> bye_points(seats=2, boards=4)
    (2.0, 2.0)
    """
    if boards < 1:
        raise ValueError(f"a team match has at least one board, not {boards}")
    full = _board_scale(seats, scale)
    return _match_scale(seats, match_scale)[0], boards * sum(full) / seats


def team_standings(
    *,
    teams: Sequence[int],
    matches: Sequence[MatchRecord],
    byes: Mapping[int, Sequence[int]] | None = None,
    seats: int,
    boards: int,
    tiebreak: str = "game_points",
    seeds: Mapping[int, int] | None = None,
    scale: Sequence[float] | None = None,
    match_scale: Sequence[float] | None = None,
) -> list[TeamRow]:
    """The team standings, best first (rules in the module docstring).

    ``byes``: team id -> the round numbers in which it had a bye; ``seeds``: team id -> seed;
    ``scale``: the board points scale; ``match_scale``: the match points per place.
    """
    if tiebreak not in TIEBREAKS:
        raise ValueError(f"a team tiebreak is one of {', '.join(TIEBREAKS)}, not {tiebreak!r}")
    if len(set(teams)) != len(teams):
        raise ValueError("a team appears twice in the standings")
    bye_mp, bye_gp = bye_points(seats=seats, boards=boards, scale=scale, match_scale=match_scale)
    for m in matches:
        if set(m.game_points) != set(m.match_points):
            raise ValueError(f"a match of round {m.round} lists different teams for game and match points")
        if not 2 <= len(m.game_points) <= seats:
            raise ValueError(f"a match of round {m.round} has {len(m.game_points)} teams, not 2 to {seats}")
    bye_count = {team: len(rounds) for team, rounds in (byes or {}).items()}

    mp: dict[int, float] = defaultdict(float)
    gp: dict[int, float] = defaultdict(float)
    for team, count in bye_count.items():
        mp[team] += bye_mp * count
        gp[team] += bye_gp * count
    for m in matches:
        for team in m.game_points:
            mp[team] += float(m.match_points[team])
            gp[team] += float(m.game_points[team])

    level: dict[float, set[int]] = defaultdict(set)  # match points -> the listed teams on them
    for team in teams:
        level[round(mp[team], DIGITS)].add(team)

    tb: dict[int, dict[str, float]] = {}
    results: dict[int, list[int]] = {team: [0, 0, 0, 0] for team in teams}  # played, won, drawn, lost
    for team in teams:
        group = level[round(mp[team], DIGITS)] - {team}
        direct = buchholz = sb = 0.0
        buchholz += mp[team] * bye_count.get(team, 0)
        for m in matches:
            if team not in m.game_points:
                continue
            own = float(m.match_points[team])
            others = [t for t in m.game_points if t != team]
            buchholz += sum(mp[t] for t in others)
            sb += sum(mp[t] * own for t in others)
            if group.intersection(others):
                direct += own
            places = _places(m.game_points)
            firsts = sum(1 for p in places.values() if p == 1)
            outcome = 1 if places[team] == 1 and firsts == 1 else 2 if places[team] == 1 else 3
            results[team][0] += 1
            results[team][outcome] += 1
        tb[team] = {
            "game_points": gp[team],
            "direct": direct,
            "buchholz": buchholz,
            "sonneborn_berger": sb,
        }

    applied = (tiebreak, *(name for name in TIEBREAKS if name != tiebreak))
    seeds = seeds or {}

    def key(team: int) -> tuple[float, ...]:
        seed = seeds.get(team)
        return (
            -round(mp[team], DIGITS),
            *(-round(tb[team][name], DIGITS) for name in applied),
            0 if seed is not None else 1,
            seed if seed is not None else 0,
            team,
        )

    rows = []
    for place, team in enumerate(sorted(teams, key=key), start=1):
        played, won, drawn, lost = results[team]
        rows.append(
            TeamRow(
                team=team,
                place=place,
                match_points=mp[team],
                game_points=gp[team],
                tiebreaks={name: tb[team][name] for name in applied},
                played=played,
                won=won,
                drawn=drawn,
                lost=lost,
            )
        )
    return rows
