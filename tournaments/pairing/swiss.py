"""Swiss rounds for tables of 2, 3 or 4 players.

**Ranking.** Players are ranked by score (highest first), then rating (highest
first), then id (so the result never depends on the input order). A *score
group* is a run of players with the same score.

Two seats
---------

Seat 1 moves first: it plays the part of White in FIDE's Dutch system, whose
colour rules are followed here (C.04.1, C.04.3), seat 2 that of Black.

*Seat preferences.* From the seats a player took (byes left out; seats 3 and 4
ignored), ``d`` = games in seat 1 minus games in seat 2. The preference is
*absolute* for the other seat than the last two games when those were the same
seat, or for the less used seat when ``|d| > 1``; *strong* for the less used
seat when ``|d| == 1``; *mild* for the other seat than the last game when
``d == 0``; none before the first game. Two players *clash* when both have an
absolute preference for the same seat. (FIDE lets topscorers clash in the last
round; this pairing has no such exception.)

*Bye.* With an odd count, one player sits out, among those with the fewest byes
so far (so nobody gets a second bye while someone else has none), tried from the
bottom of the ranking up: the lowest one is taken when the others then pair with
neither a rematch nor a clash (the usual case, settled by pairing them).
Otherwise one maximum matching of everybody (Edmonds' blossom algorithm) is
grown once, and for each candidate one more augmenting search tells whether the
others still pair without a rematch or clash; failing that, without a rematch;
failing that, the candidate whose absence leaves the fewest rematches. So the
bye avoids a rematch whenever any fewest-byes player's bye can, even when only
the leader's can.

*Pairs.* Players are paired twice over if need be: first with rematches and
clashes both forbidden; if that leaves one, again with rematches alone
forbidden, and of the two the one with fewer rematches, then fewer clashes, is
kept. Each time, score groups are paired one after another from the top, as
*brackets* of the group plus the players floating down into it from above:

1. each player floating down, best first, meets the best-ranked player of the
   group allowed, one whose seat preference it does not share (both want the
   same seat) if there is one, and among those one who did not float up last
   round (``Entrant.floated``) if there is one;
2. if the other players are odd in number, one of them will float down: the
   lowest-ranked of the group who did not float down last round (or had a bye)
   is set aside;
3. the others split into a top half S1 and a bottom half S2 (the classic Swiss
   pattern: in a group of eight, 1 meets 5, 2 meets 6, ...): each player of S1,
   best first, meets the first player of S2 allowed whose seat preference it
   does not share, else the first allowed, else the first allowed of S1 below
   it;
4. if two or more are still unpaired, augmenting paths (Edmonds) within the
   bracket raise the number of pairs to the maximum (nearest in the ranking
   tried first), so the fewest possible float down;
5. those left unpaired float down into the next bracket.

Brackets can only get stuck at the bottom, where the last players have all met.
Then the last pairs made are undone, up to :data:`TAIL_UNDO` of them, and those
players plus the rest are paired again by an exact search (depth first, own
score group first from halfway down, then lower groups, remembering the sets of
players that cannot be paired), as long as that concerns at most
:data:`TAIL_LIMIT` players and :data:`TAIL_BUDGET` search steps in all.

*Repair.* If a forbidden pair is still left, a pass swaps partners between that
pair and the nearest pair (in the ranking) for which both new pairs are
allowed. If that is not enough either, a maximum matching over the allowed pairs
(Edmonds, grown from the pairs already made; neighbours tried nearest in the
ranking first) finds the largest number of allowed pairs that exists; only the
players it cannot match are paired otherwise, with those they met least often.
So a rematch happens only when no pairing of these players avoids it, and a
clash only when no rematch-free pairing avoids it; since a player whose
preference is absolute always gets it unless they clash, a player never clashed
ends with ``|d| <= 2`` and never takes one seat three games running.

No global weighted matching is solved, so pairing 1,000 players takes
milliseconds.

*First move.* In each pair, FIDE's colour allocation (C.04.3 E) decides who
takes seat 1: both preferences when they differ (or only one player has one);
else the stronger preference (absolute, strong, mild); between two absolute
ones, the player with the larger ``|d|``; else the players alternate from the
most recent game (counted back from each one's last game) in which they had
different seats; else the higher-ranked player's preference. With no
preference at all (round 1), the higher-ranked player takes seat 1 on the 1st,
3rd, 5th... table and seat 2 on the others. Tables are listed top board first.

Three or four seats
-------------------

Table sizes come from :func:`table_sizes` (no byes). When they differ (10
players at 4 seats: 4 + 3 + 3), the *small tables* (those smaller than the
largest) rotate: their ``m`` seats go to the players with the fewest small
tables so far (``Entrant.small_tables``). With ``v`` the ``m``-th smallest of
those counts, players below ``v`` must sit at a small table, players above ``v``
must not, and players on ``v`` are free (exactly as many of them as small seats
are left sit at one). So small-table counts never differ by more than one
between players who have played every round, and nobody sits at a second small
table while another player has had none. Who of the free players gets the small
seats follows the ranking, as below.

Tables are filled from the top of the ranking: a table starts with the
best-ranked player not yet seated; it is a small table if that player must sit
at one, or is free and every seat at the largest tables is taken or reserved.
Each further seat goes to the candidate, among the next :data:`WINDOW` unseated
players who may sit at a table of that size, who has met the players already at
the table the fewest times (counting every earlier meeting); on a tie, the
best-ranked. So tables hold players of similar score, small tables sit where
their players are in the ranking (at the bottom when nobody is bound: with every
``small_tables`` equal, as when a caller leaves it at 0, the largest tables are
the top ones), and repeated meetings are avoided where a nearby player can take
the seat. Then players are swapped between tables at most :data:`REACH` apart
(so still of similar score) whenever the swap lowers the sum, over both tables,
of the squared earlier-meeting counts of the pairs seated together (squared, so
that a pair meeting for the third time weighs more than two pairs meeting for
the second time); between tables of different sizes only two free players are
swapped. A table still holding a repeat after that looks further, to the
nearest table at any distance where a swap helps. Tables are listed in the order
they were started (the best-ranked player first). Finally each table's seat
order rotates first and last seats (:func:`_seat_rotation`): every order of its
players is scored on the seat counts it leads to, so that each player's
first-seat and last-seat counts stay within one of each other and every seat is
used about as often (``Entrant.last_seats`` tells the past last seats).

Small tables are not a handicap in the standings either: every table size pays
the same average points (:mod:`tournaments.standings`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .seats import assign_seats  # noqa: F401  (the docstring refers to it)
from .swiss_matching import _pair, _with_bye
from .swiss_rules import Preference, _seat_order, preference
from .swiss_tables import _tables
from .types import Entrant, Round, Table

__all__ = ["Preference", "preference", "rank", "swiss_round"]


def swiss_round(entrants: Sequence[Entrant], seats: int) -> Round:
    """Pair one Swiss round (rules in the module docstring).

    With fewer than two entrants there is nothing to pair: the lone entrant, if
    any, sits out.
    """
    if seats not in (2, 3, 4):
        raise ValueError(f"tables have 2, 3 or 4 seats, not {seats}")
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant appears twice")
    order = rank(entrants)
    if len(order) < 2:
        return Round((), tuple(ids))
    if seats == 2:
        return _two_seats(order)
    return _tables(order, seats)


def rank(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Score, then rating (both highest first), then id."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))


def _two_seats(order: list[Entrant]) -> Round:
    prefs = [preference(e.seat_history) for e in order]
    byes: tuple[int, ...] = ()
    if len(order) % 2 == 0:
        playing, pairs = order, _pair(order, prefs)
    else:
        bye, pairs = _with_bye(order, prefs)
        byes = (order[bye].id,)
        playing = order[:bye] + order[bye + 1 :]
    prefs = [preference(e.seat_history) for e in playing]
    tables = tuple(
        Table(_seat_order(playing[a], playing[b], prefs[a], prefs[b], board))
        for board, (a, b) in enumerate(sorted(pairs))
    )
    return Round(tables, byes)
