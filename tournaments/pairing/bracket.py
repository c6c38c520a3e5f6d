"""Single elimination on tables of 2, 3 or 4, planned up front (pure Python; Django only to
translate its refusals).

**The plan.** :func:`bracket` designs the whole event from the number of
entrants, the table size ``seats`` and ``advance`` (how many of each table go
through): for every round, its field (players in the round, byes included),
its byes and its table sizes. The last round is the **final**: one table of
2..``seats`` players whose ranking decides places 1..n.

* Every table before the final seats more than ``advance`` players
  (``advance + 1`` to ``seats``) and sends exactly ``advance`` on, so every
  round strictly reduces the field.
* **Byes only in round 1**, to the top seeds, and only as many as it takes for
  round 2's field to be a *full* bracket: a field that reduces, without byes, to
  a single final table (with 2 seats: a power of 2, as on Challonge). Nobody
  ever has two byes.
* Among the plans that do this: the fewest rounds, then the fewest byes, then
  the fewest tables, round by round (fuller tables).

Examples: 5 players at 2 seats → fields 5, 4, 2 (three byes, then 4 → 2);
4 players at 3 seats with 2 advancing → one bye and a table of 3, then a final
of 3; 8 at 4 seats with 2 advancing → 4 + 4, then a final of 4.

**What cannot be planned.** ``advance`` must be at least 1 and below ``seats``
(a table must send on fewer players than it seats). With 3 seats and 2
advancing, or 4 seats and 3 advancing, tables only ever lose one player and the
field stops shrinking to a single table after round 1: those settings bracket
at most ``seats + 1`` players (:func:`max_players`); every other setting
brackets any count from 2 up.

**Seeding.** Seeds are fixed at the start: rating (highest first), then id
(:func:`seed_order`). Each round, the field is dealt to the planned tables in
seed order, snake fashion (see :mod:`.knockout`), after the byes to the top
seeds.

**Ties at the cut.** At a table, players are ordered by rank (1 best), equal
ranks by seed (the better seed first); the first ``advance`` go through
(:func:`table_advancers`). The same rule picks the winner of a final with a
shared first place.

**Withdrawals.** A player who withdrew is left out of the next round, so a
field can be smaller than planned: the round keeps its planned number of tables
(fewer when there are not two players per table), sizes as even as possible and
none above the planned size; a player left without a table (the best seeds
first) is a walkover, listed as a bye. A table never sends on all
its players: at most ``size - 1`` of it advance. The field thus never exceeds
the plan, and the planned last round is still the final.

**Standings** (:func:`knockout_standings`): the champion first; then by how far
each player got (rounds survived, a bye counting as survived); at equal rounds
a player still in before one knocked out; then by the place at the table where
the player went out (the final's ranking for the finalists; a player who
withdrew between rounds, or never started, after those); then by seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import gettext, ngettext

from .knockout import deal_snake
from .seats import assign_seats
from .types import Entrant, Round, Table


class BracketError(ValueError):
    """A setting, or a number of entrants, that cannot produce one winner (the message says why)."""


@dataclass(frozen=True)
class BracketRound:
    """One planned round."""

    field: int  # players in the round, byes included
    byes: int  # players sitting the round out (round 1 only)
    tables: tuple[int, ...]  # table sizes, largest first


def setting_error(seats: int, advance: int) -> str | None:
    """Why a knockout on tables of ``seats`` with ``advance`` going through cannot work (None: it can)."""
    if seats not in (2, 3, 4):
        return gettext("tables have 2, 3 or 4 seats, not %(seats)s") % {"seats": seats}
    if not 1 <= advance < seats:
        words = {"seats": seats, "most": seats - 1, "advance": advance}
        if seats == 2:
            return (
                gettext(
                    "a knockout on %(seats)s-seat tables needs 1 player advancing from each table, "
                    "not %(advance)s: a table must send on fewer players than it seats"
                )
                % words
            )
        return (
            gettext(
                "a knockout on %(seats)s-seat tables needs 1 to %(most)s players advancing from each "
                "table, not %(advance)s: a table must send on fewer players than it seats"
            )
            % words
        )
    return None


def max_players(seats: int, advance: int) -> int | None:
    """The most entrants the setting can bracket (``None``: no limit). See the module docstring."""
    if advance == seats - 1 and seats > 2:
        return seats + 1
    return None


def _even(players: int, tables: int) -> tuple[int, ...]:
    base, extra = divmod(players, tables)
    return (base + 1,) * extra + (base,) * (tables - extra)


@lru_cache(maxsize=4096)
def _tail(field: int, seats: int, advance: int) -> tuple[tuple[int, ...], ...] | None:
    """Table sizes of each round from ``field`` players to the final, without byes (None: impossible)."""
    if field < 2:
        return None
    if field <= seats:
        return ((field,),)
    best: tuple[tuple[int, ...], ...] | None = None
    for tables in range(-(-field // seats), field // (advance + 1) + 1):
        rest = _tail(advance * tables, seats, advance)
        if rest is not None and (best is None or len(rest) + 1 < len(best)):
            best = (_even(field, tables), *rest)
    return best


def bracket(players: int, seats: int, advance: int) -> tuple[BracketRound, ...]:
    """The planned rounds of a knockout of ``players`` (see the module docstring).

    >>> [r.field for r in bracket(5, 2, 1)]
    [5, 4, 2]
    >>> bracket(4, 3, 2)[0]
    BracketRound(field=4, byes=1, tables=(3,))
    """
    error = setting_error(seats, advance)
    if error:
        raise BracketError(error)
    if players < 2:
        raise BracketError(gettext("a knockout needs at least two players, not %(n)s") % {"n": players})
    if players <= seats:
        return (BracketRound(players, 0, (players,)),)
    limit = max_players(seats, advance)
    best: tuple[tuple[int, int, int], int, tuple[tuple[int, ...], ...]] | None = None
    for second in range(2, players if limit is None or players <= limit else 2):
        tables = min(players - second, second // advance)
        if tables < 1 or tables * (seats - advance) < players - second:
            continue
        rest = _tail(second, seats, advance)
        if rest is None:
            continue
        byes = second - advance * tables
        key = (len(rest) + 1, byes, tables)
        if best is None or key < best[0]:
            best = (key, second, rest)
    if best is None:
        raise BracketError(
            ngettext(
                "%(n)d player cannot be bracketed on %(seats)d-seat tables with %(advance)d advancing "
                "(tables that only knock out one player never reduce the field to one final table): "
                "this setting takes 2 to %(limit)s players; with more, let fewer advance from each table",
                "%(n)d players cannot be bracketed on %(seats)d-seat tables with %(advance)d advancing "
                "(tables that only knock out one player never reduce the field to one final table): "
                "this setting takes 2 to %(limit)s players; with more, let fewer advance from each table",
                players,
            )
            % {"n": players, "seats": seats, "advance": advance, "limit": limit}
        )
    (_, byes, tables), field, rest = best
    planned = [BracketRound(players, byes, _even(players - byes, tables))]
    for sizes in rest:
        planned.append(BracketRound(field, 0, sizes))
        field = advance * len(sizes)
    return tuple(planned)


def bracket_fields(players: int, seats: int, advance: int) -> tuple[int, ...]:
    """The planned field of each round, the final's last.

    >>> bracket_fields(12, 4, 2)
    (12, 6, 4)
    """
    return tuple(r.field for r in bracket(players, seats, advance))


def seed_order(entrants: Sequence[Entrant]) -> list[int]:
    """Player ids by seed: rating (highest first), then id."""
    return [e.id for e in sorted(entrants, key=lambda e: (-e.rating, e.id))]


def bracket_round(
    field: Sequence[int], planned: BracketRound, seat_history: Mapping[int, Sequence[int]] | None = None
) -> Round:
    """The tables of a planned round for ``field`` (player ids, best seed first).

    ``field`` may be smaller than planned (withdrawals: see the module docstring), never larger.
    """
    if len(field) > planned.field:
        raise ValueError(f"{len(field)} players for a round planned for {planned.field}")
    byes = list(field[: planned.byes])
    playing = list(field[planned.byes :])
    count = min(len(planned.tables), len(playing) // 2)
    if count == 0:
        return Round((), tuple(byes + playing))
    # Fewer tables than planned hold at most their planned size: the best seeds left over walk over.
    extra = max(0, len(playing) - count * max(planned.tables))
    byes, playing = byes + playing[:extra], playing[extra:]
    sizes = _even(len(playing), count)
    history = seat_history or {}
    tables = tuple(Table(assign_seats(t, history)) for t in deal_snake(playing, list(sizes)))
    return Round(tables, tuple(byes))


def table_advancers(ranks: Mapping[int, int], advance: int, seed: Mapping[int, int]) -> list[int]:
    """Who goes through from one table: by rank, equal ranks by seed (``seed``: id → seed, 1 best);
    ``advance`` of them, and never the whole table.

    >>> table_advancers({5: 2, 6: 1, 7: 2}, 2, {5: 3, 6: 9, 7: 1})
    [6, 7]
    """
    ordered = table_order(ranks, seed)
    return ordered[: min(advance, len(ordered) - 1)] if len(ordered) > 1 else ordered


def table_order(ranks: Mapping[int, int], seed: Mapping[int, int]) -> list[int]:
    """The players of a table, best first: by rank, then by seed (players without a seed last, by id)."""
    return sorted(ranks, key=lambda p: (ranks[p], seed.get(p, len(seed) + 1), p))


@dataclass(frozen=True)
class TableRecord:
    """A table of a knockout round: its players and, once finished, their ranks."""

    players: tuple[int, ...]
    ranks: Mapping[int, int] | None = None  # None while it is played (or if it ended without a result)


@dataclass(frozen=True)
class RoundRecord:
    """What a knockout round was: its number, byes (and walkovers) and tables."""

    number: int
    byes: tuple[int, ...] = ()
    tables: tuple[TableRecord, ...] = ()


@dataclass(frozen=True)
class KnockoutRow:
    """One player's line in a knockout's standings."""

    player: int
    place: int  # 1.. with no shared place
    survived: int  # rounds survived (a bye counts; the champion survived the final too)
    played: int  # tables played
    wins: int  # tables finished first outright
    exit_place: int  # place at the table where the player went out (the final's for finalists); 0: still in
    seed: int  # 1 best; 0: not seeded (did not start)
    champion: bool
    out: bool  # knocked out (the champion and players still in are not)


def knockout_standings(
    players: Sequence[int],
    seeds: Sequence[int],
    rounds: Sequence[RoundRecord],
    advance: int,
    last_round: int,
) -> list[KnockoutRow]:
    """Standings of a knockout (see the module docstring); ``last_round`` is the final's number.

    >>> rows = knockout_standings([1, 2, 3], [1, 2, 3], [
    ...     RoundRecord(1, (1,), (TableRecord((2, 3), {2: 2, 3: 1}),)),
    ...     RoundRecord(2, (), (TableRecord((1, 3), {1: 2, 3: 1}),))], 1, 2)
    >>> [(r.player, r.survived, r.exit_place) for r in rows]
    [(3, 2, 1), (1, 1, 2), (2, 0, 2)]
    """
    seed = {p: i for i, p in enumerate(seeds, start=1)}
    seen = [p for rnd in rounds for p in (*rnd.byes, *(q for t in rnd.tables for q in t.players))]
    everyone = list(dict.fromkeys([*seeds, *players, *seen]))
    survived = dict.fromkeys(everyone, 0)
    played = dict.fromkeys(everyone, 0)
    wins = dict.fromkeys(everyone, 0)
    exit_place = dict.fromkeys(everyone, 0)
    out: set[int] = set()
    seen_in = dict.fromkeys(everyone, 0)  # the last round each player was in
    champion: int | None = None
    for rnd in rounds:
        final = rnd.number == last_round
        for p in rnd.byes:
            survived[p] += 1
            seen_in[p] = rnd.number
        if final and not rnd.tables and len(rnd.byes) == 1:
            champion = rnd.byes[0]
        for table in rnd.tables:
            if table.ranks is None:
                continue
            ranks = {p: r for p, r in table.ranks.items() if p in survived}
            firsts = [p for p, r in ranks.items() if r == 1]
            through = set(table_advancers(ranks, 1 if final else advance, seed))
            for p, r in ranks.items():
                played[p] += 1
                wins[p] += len(firsts) == 1 and r == 1
                if p in through:
                    survived[p] += 1
                    if final:
                        champion, exit_place[p] = p, 1
                else:
                    out.add(p)
                    exit_place[p] = r
        for table in rnd.tables:
            for p in table.players:
                seen_in[p] = max(seen_in.get(p, 0), rnd.number)
    latest = max((rnd.number for rnd in rounds), default=0)
    # Gone before the latest round (withdrawn, or never started): out, after those who played it out.
    gone = {p for p in everyone if seen_in[p] < latest and p not in out and p != champion}
    left = out | gone

    def key(p: int) -> tuple[bool, int, bool, int, int, int]:
        place_out = len(seed) + 1 if p in gone else exit_place[p]
        return (p != champion, -survived[p], p in left, place_out, seed.get(p, len(seed) + 1), p)

    order = sorted(everyone, key=key)
    return [
        KnockoutRow(
            player=p,
            place=place,
            survived=survived[p],
            played=played[p],
            wins=wins[p],
            exit_place=exit_place[p],
            seed=seed.get(p, 0),
            champion=p == champion,
            out=p in left,
        )
        for place, p in enumerate(order, start=1)
    ]
