"""Team pairing: team Swiss rounds, team round-robin schedules and seat order on boards (pure, no Django).

A team match is paired exactly as a table of the individual events is, with teams in place of
players; the rules are those of :mod:`tournaments.pairing`.

* :func:`swiss_matches`: one team Swiss round, :func:`tournaments.pairing.swiss_round` over the
  teams as :class:`~tournaments.pairing.Entrant` values: ``id`` the team id, ``score`` its match
  points, ``rating`` its average rating (orders teams level on match points), ``meetings`` the
  times it met each other team, ``seat_history`` its side orders in its earlier matches (1 = side 1),
  ``byes`` its byes so far. So no two teams meet again while a pairing avoiding it exists; at two
  seats the bye goes to the lowest-ranked team among those with the fewest byes (when the others
  then pair without a rematch), and which team is side 1 follows the seat rules of FIDE's Dutch
  system, as for players at individual events (side orders balance and alternate; unless a clash
  of absolute preferences cannot be avoided without a rematch, no team is side 1, or side 2, three
  matches running). At three or four seats the teams are grouped into matches of 2–4 (no byes),
  side orders rotated as the seats of a table are.
* :func:`schedule`: the whole round robin, :func:`tournaments.pairing.round_robin` over the team
  ids (two seats: every pair of teams meets once, side 1 alternating; an odd count gives each team
  one bye, the team missing from that round's matches). Each round is a list of matches, each match
  the list of its team ids in side order.
* :func:`board_order`: the team ids in seat order on one board. Two sides: side 1 takes seat 1
  (moves first) on odd boards, side 2 on even boards. Three or four sides: board ``b`` seats the
  sides rotated by ``b - 1`` (board 1: 1, 2, 3; board 2: 2, 3, 1; board 3: 3, 1, 2; ...), so every
  team moves first on as many boards as any other, give or take one.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing import Entrant, Round, round_robin, swiss_round


def _seats(seats: int) -> int:
    if seats not in (2, 3, 4):
        raise ValueError(f"a team match has 2, 3 or 4 teams per board, not {seats}")
    return seats


def swiss_matches(*, teams: Sequence[Entrant], seats: int) -> Round:
    """One team Swiss round: ``Round.tables`` are the matches (team ids in side order, side 1
    first), ``Round.byes`` the team sitting out (two seats, odd count)."""
    return swiss_round(list(teams), _seats(seats))


def schedule(*, teams: Sequence[int], seats: int, rounds: int | None = None) -> list[list[list[int]]]:
    """The round-robin schedule: per round, the matches as lists of team ids in side order.

    ``rounds`` (None or 0: the default, a single round robin) asks for fewer rounds, or more
    (going round again with the sides swapped at two seats). At two seats with an odd count of
    teams, the team missing from a round's matches has that round's bye.
    """
    _seats(seats)
    if len(teams) < 2:
        raise ValueError(f"a team round robin needs at least two teams, not {len(teams)}")
    plan = round_robin(list(teams), seats, rounds or None)
    return [[list(table.players) for table in rnd.tables] for rnd in plan]


def board_order(*, sides: Sequence[int], board: int) -> list[int]:
    """The team ids in seat order on board ``board`` (1-based); ``sides`` in side order (side 1 first).

    >>> board_order(sides=[7, 8], board=2)
    [8, 7]
    >>> board_order(sides=[7, 8, 9], board=3)
    [9, 7, 8]
    """
    if not 2 <= len(sides) <= 4:
        raise ValueError(f"a team match has 2 to 4 sides, not {len(sides)}")
    if len(set(sides)) != len(sides):
        raise ValueError("a team appears twice in one match")
    if board < 1:
        raise ValueError(f"boards are numbered from 1, not {board}")
    shift = (board - 1) % len(sides)
    return list(sides[shift:]) + list(sides[:shift])
