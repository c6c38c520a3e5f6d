"""Pairing: table sizes, Swiss rounds, round robin, knockout and seat order (plain data, no database)."""

from __future__ import annotations

import math
import random
import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    Entrant,
    Round,
    assign_seats,
    knockout_advancers,
    knockout_round,
    round_robin,
    swiss_round,
    table_sizes,
)

# ----------------------------------------------------------------- helpers


def seated(rnd: Round) -> list[int]:
    return sorted([p for t in rnd.tables for p in t.players] + list(rnd.byes))


def min_rematches(players: list[int], met: set[frozenset[int]]) -> int:
    """The fewest rematches any pairing of ``players`` (an even count, at most ~16) can have: exact DP."""
    n = len(players)

    @cache
    def best(mask: int) -> int:
        if mask == 0:
            return 0
        a = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << a)
        out = n
        for b in range(a + 1, n):
            if rest >> b & 1:
                out = min(out, (frozenset((players[a], players[b])) in met) + best(rest & ~(1 << b)))
        return out

    return best((1 << n) - 1)


class Event:
    """A Swiss event played with random results: the state :func:`swiss_round` is called with."""

    def __init__(self, n: int, seats: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.n, self.seats = n, seats
        self.rating = {p: self.rng.uniform(1000, 2000) for p in range(n)}
        self.score: defaultdict[int, float] = defaultdict(float)
        self.met: dict[int, Counter[int]] = {p: Counter() for p in range(n)}
        self.hist: dict[int, list[int]] = {p: [] for p in range(n)}
        self.byes: Counter[int] = Counter()

    def entrants(self) -> list[Entrant]:
        return [
            Entrant(p, self.score[p], self.rating[p], dict(self.met[p]), tuple(self.hist[p]), self.byes[p])
            for p in range(self.n)
        ]

    def pairs_met(self) -> set[frozenset[int]]:
        return {frozenset((p, q)) for p in self.met for q in self.met[p]}

    def play(self, rnd: Round) -> None:
        assert seated(rnd) == list(range(self.n)), "everyone seated exactly once"
        for b in rnd.byes:
            self.byes[b] += 1
            self.score[b] += 1
        for t in rnd.tables:
            for seat, p in enumerate(t.players, start=1):
                self.hist[p].append(seat)
                self.met[p].update(q for q in t.players if q != p)
            if len(t.players) == 2 and self.rng.random() < 0.15:
                self.score[t.players[0]] += 0.5
                self.score[t.players[1]] += 0.5
                continue
            order = list(t.players)
            self.rng.shuffle(order)
            for place, p in enumerate(order):
                self.score[p] += len(order) - 1 - place


def rematches(rnd: Round, met: set[frozenset[int]]) -> int:
    return sum(1 for t in rnd.tables for pair in combinations(t.players, 2) if frozenset(pair) in met)


# ------------------------------------------------------------- table sizes


@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 40), seats=st.integers(2, 4))
def test_table_sizes_are_valid_for_every_count(players: int, seats: int) -> None:
    sizes, byes = table_sizes(players, seats)
    assert sum(sizes) + byes == players
    assert all(2 <= s <= seats for s in sizes)
    assert sizes == sorted(sizes, reverse=True) and sizes[0] - sizes[-1] <= 1
    if seats == 2:
        assert byes == players % 2
    else:
        assert byes == 0 and len(sizes) == math.ceil(players / seats), "the fewest tables"


@pytest.mark.parametrize(
    "players, seats, expected",
    [
        (10, 4, ([4, 3, 3], 0)),
        (5, 4, ([3, 2], 0)),
        (7, 3, ([3, 2, 2], 0)),
        (9, 3, ([3, 3, 3], 0)),
        (2, 4, ([2], 0)),
        (7, 2, ([2, 2, 2], 1)),
    ],
)
def test_table_sizes_examples(players: int, seats: int, expected: tuple[list[int], int]) -> None:
    assert table_sizes(players, seats) == expected


@pytest.mark.parametrize("players, seats", [(1, 2), (0, 4), (8, 5), (8, 1)])
def test_table_sizes_refuses_impossible_rounds(players: int, seats: int) -> None:
    with pytest.raises(ValueError):
        table_sizes(players, seats)


# -------------------------------------------------------------------- Swiss


@settings(max_examples=120, deadline=None)
@given(
    n=st.integers(2, 40),
    seats=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    density=st.floats(0, 1),
)
def test_swiss_seats_everyone_exactly_once_at_valid_tables(
    n: int, seats: int, seed: int, density: float
) -> None:
    rng = random.Random(seed)
    met: dict[int, dict[int, int]] = {p: {} for p in range(n)}
    for a, b in combinations(range(n), 2):
        if rng.random() < density:
            met[a][b] = met[b][a] = rng.randint(1, 3)
    entrants = [
        Entrant(p, rng.choice([0, 0.5, 1, 2]), rng.random(), met[p], byes=rng.randint(0, 1)) for p in range(n)
    ]
    rnd = swiss_round(entrants, seats)
    assert seated(rnd) == list(range(n))
    sizes, byes = table_sizes(n, seats)
    assert sorted((len(t.players) for t in rnd.tables), reverse=True) == sizes
    assert len(rnd.byes) == byes


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
def test_two_seat_swiss_rematches_only_when_unavoidable(n: int) -> None:
    # Play on past the point where rematches become forced, and compare every round with the exact
    # minimum over all pairings (of the players left once the bye is out).
    for seed in range(3):
        event = Event(n, 2, seed)
        for _ in range(n + 2):
            rnd = swiss_round(event.entrants(), 2)
            met = event.pairs_met()
            playing = [p for p in range(n) if p not in rnd.byes]
            assert rematches(rnd, met) == min_rematches(playing, met)
            event.play(rnd)


@pytest.mark.parametrize("n, rounds", [(16, 7), (25, 9), (40, 9), (101, 9), (400, 8)])
def test_two_seat_swiss_never_rematches_while_avoidable(n: int, rounds: int) -> None:
    # After r rounds each of the m = n - n % 2 players in a round has met at most r of the m - 1 others,
    # so the "not met yet" graph has minimum degree >= m - 1 - r >= m / 2 here: by Dirac's theorem it has a
    # Hamiltonian cycle, hence a perfect matching. A rematch is always avoidable, so there must be none.
    m = n - n % 2
    assert m - 1 - (rounds - 1) >= m / 2
    event = Event(n, 2, seed=n)
    for _ in range(rounds):
        rnd = swiss_round(event.entrants(), 2)
        assert rematches(rnd, event.pairs_met()) == 0
        event.play(rnd)


def test_forced_rematches_go_to_pairs_that_met_least() -> None:
    # Four players who all met once, except 0-1 and 2-3 twice: the one pairing with two single repeats
    # is 0-2 / 1-3 or 0-3 / 1-2 (never 0-1 / 2-3).
    twice = {frozenset((0, 1)), frozenset((2, 3))}
    met = {p: {q: 2 if frozenset((p, q)) in twice else 1 for q in range(4) if q != p} for p in range(4)}
    rnd = swiss_round([Entrant(p, rating=-p, meetings=met[p]) for p in range(4)], 2)
    assert {frozenset(t.players) for t in rnd.tables}.isdisjoint(twice)


def test_byes_rotate_to_the_lowest_ranked_without_one() -> None:
    byes: list[int] = []
    for _ in range(7):
        entrants = [Entrant(p, score=0, rating=-p, byes=byes.count(p)) for p in range(7)]
        byes.extend(swiss_round(entrants, 2).byes)
    assert byes == [6, 5, 4, 3, 2, 1, 0], "one each, from the bottom of the ranking up"
    # Ranking is by score first: player 0 (best rating) is last on points and has no bye yet.
    entrants = [Entrant(0, score=0, rating=99), Entrant(1, score=1), Entrant(2, score=2, byes=1)]
    assert swiss_round(entrants, 2).byes == (0,)
    entrants = [Entrant(0, score=0, byes=1), Entrant(1, score=1), Entrant(2, score=2)]
    assert swiss_round(entrants, 2).byes == (1,), "nobody gets a second bye while someone has none"


@pytest.mark.parametrize("n", [5, 9, 15])
def test_byes_rotate_over_a_whole_event(n: int) -> None:
    event = Event(n, 2, seed=3)
    for _ in range(2 * n):
        event.play(swiss_round(event.entrants(), 2))
    assert set(event.byes.values()) == {2}, "everyone sat out exactly twice in 2n rounds"


def test_swiss_pairs_the_top_half_of_a_score_group_with_the_bottom_half() -> None:
    entrants = [Entrant(p, score=0, rating=100 - p) for p in range(8)]
    tables = {t.players for t in swiss_round(entrants, 2).tables}
    assert {frozenset(t) for t in tables} == {frozenset(p) for p in [(0, 4), (1, 5), (2, 6), (3, 7)]}


def test_swiss_floats_the_odd_player_down_to_the_next_group() -> None:
    # Scores 2, 2, 2 | 1, 1, 1, 1, 1 (ranked by rating within each group). The top group is odd:
    # 0 meets 1, the last of the group (2) floats down and meets the top of the next group (3);
    # the remaining four of that group pair top half against bottom half: 4-6, 5-7.
    entrants = [Entrant(p, score=2 if p < 3 else 1, rating=100 - p) for p in range(8)]
    tables = {frozenset(t.players) for t in swiss_round(entrants, 2).tables}
    assert tables == {frozenset(p) for p in [(0, 1), (2, 3), (4, 6), (5, 7)]}


def test_swiss_floats_a_blocked_player_instead_of_a_rematch() -> None:
    # 0 and 1 lead alone on 2 points but have met: each meets the top of the next group instead.
    entrants = [
        Entrant(0, score=2, rating=10, meetings={1: 1}),
        Entrant(1, score=2, rating=9, meetings={0: 1}),
        *[Entrant(p, score=1, rating=8 - p) for p in range(2, 6)],
    ]
    tables = {frozenset(t.players) for t in swiss_round(entrants, 2).tables}
    assert frozenset((0, 1)) not in tables
    assert frozenset((0, 2)) in tables and frozenset((1, 3)) in tables


def test_first_move_follows_fide_colour_allocation() -> None:
    a = Entrant(1, score=1, seat_history=(1, 2))
    b = Entrant(2, score=0, seat_history=(1, 1))
    assert swiss_round([a, b], 2).tables[0].players == (1, 2), "2 moved first twice running: absolute"
    a = Entrant(1, score=1, seat_history=(1, 2))
    b = Entrant(2, score=0, seat_history=(2, 1))
    assert swiss_round([a, b], 2).tables[0].players == (1, 2), "both alternate: both preferences granted"
    a = Entrant(1, score=1, seat_history=(2, 1))
    b = Entrant(2, score=0, seat_history=(2, 1))
    assert swiss_round([a, b], 2).tables[0].players == (2, 1), "same wish, same past: the higher-ranked's"


def test_swiss_first_moves_stay_balanced_over_an_event() -> None:
    event = Event(20, 2, seed=5)
    for _ in range(8):
        event.play(swiss_round(event.entrants(), 2))
    assert all(3 <= h.count(1) <= 5 for h in event.hist.values())


def test_swiss_survives_trivial_entries() -> None:
    assert swiss_round([], 2) == Round(())
    assert swiss_round([Entrant(5)], 4) == Round((), (5,))
    with pytest.raises(ValueError):
        swiss_round([Entrant(1), Entrant(1)], 2)
    with pytest.raises(ValueError):
        swiss_round([Entrant(1), Entrant(2)], 5)


def test_multi_seat_swiss_puts_similar_scores_together() -> None:
    entrants = [Entrant(p, score=[9, 9, 9, 9, 5, 5, 5, 5, 1, 1][p], rating=-p) for p in range(10)]
    rnd = swiss_round(entrants, 4)
    assert [sorted(t.players) for t in rnd.tables] == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]


@pytest.mark.parametrize("n, seats", [(6, 3), (9, 3), (10, 4), (13, 3), (9, 4), (17, 4)])
def test_multi_seat_swiss_spreads_meetings(n: int, seats: int) -> None:
    event = Event(n, seats, seed=n)
    for _ in range(3):
        rnd = swiss_round(event.entrants(), seats)
        assert sorted((len(t.players) for t in rnd.tables), reverse=True) == table_sizes(n, seats)[0]
        event.play(rnd)
    assert max(c for m in event.met.values() for c in m.values()) <= 2


@pytest.mark.parametrize("n, seats", [(60, 3), (61, 4), (200, 4)])
def test_multi_seat_swiss_avoids_repeats_when_there_is_room(n: int, seats: int) -> None:
    event = Event(n, seats, seed=1)
    for _ in range(5):
        rnd = swiss_round(event.entrants(), seats)
        assert rematches(rnd, event.pairs_met()) == 0
        event.play(rnd)
    for h in event.hist.values():  # seats are shared out: no seat used more than twice as often as another
        uses = [h.count(s) for s in range(1, seats + 1)]
        assert max(uses) - min(uses) <= 2, h


@pytest.mark.parametrize("seats", [2, 4])
def test_a_thousand_players_pair_quickly_after_several_rounds(seats: int) -> None:
    event = Event(1000, seats, seed=2)
    for _ in range(5):
        event.play(swiss_round(event.entrants(), seats))
    entrants = event.entrants()
    start = time.perf_counter()
    rnd = swiss_round(entrants, seats)
    # Speed is measured by bench/pairing.py (milliseconds); this bound only guards against a hang.
    assert time.perf_counter() - start < 60
    assert rematches(rnd, event.pairs_met()) == 0
    placed = [p for table in rnd.tables for p in table.players] + list(rnd.byes)
    assert sorted(placed) == sorted(e.id for e in entrants), "everyone placed exactly once"


# -------------------------------------------------------------- seat order


def test_assign_seats_balances_seats_over_rounds() -> None:
    for n, rounds in [(2, 6), (3, 6), (4, 8)]:
        seen: dict[int, list[int]] = {p: [] for p in range(n)}
        for _ in range(rounds):
            for seat, p in enumerate(assign_seats(list(range(n)), seen), start=1):
                seen[p].append(seat)
        per_seat = rounds // n
        assert all(Counter(h) == dict.fromkeys(range(1, n + 1), per_seat) for h in seen.values()), seen


def test_assign_seats_avoids_repeats_and_moving_last_again() -> None:
    # Player 1 moved first twice: seat 1 goes to someone else; 2 and 3 each sat in 2 and 3 once.
    assert assign_seats([1, 2, 3], {1: [1, 1], 2: [2, 3], 3: [3, 2]})[0] != 1
    # Player 9 sat in every seat once, but sat last once: the last seat costs them 2, others 1.
    assert assign_seats([6, 7, 8, 9], {9: [4, 1, 2, 3]})[3] != 9
    # Seat 3 of a four-player table is read as "last" at a three-player table.
    assert assign_seats([5, 6, 7], {5: [3]})[2] != 5
    # No history: the given order stands.
    assert assign_seats([4, 2, 3], {}) == (4, 2, 3)
    with pytest.raises(ValueError):
        assign_seats([1, 1], {})


# ------------------------------------------------------------- round robin


@pytest.mark.parametrize("n", range(2, 15))
def test_two_seat_round_robin_meets_every_pair_once(n: int) -> None:
    schedule = round_robin(list(range(100, 100 + n)), 2)
    ids = list(range(100, 100 + n))
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    pairs = Counter(frozenset(t.players) for r in schedule for t in r.tables)
    assert pairs == dict.fromkeys((frozenset(p) for p in combinations(ids, 2)), 1)
    for r in schedule:
        assert seated(r) == ids and len(r.byes) == n % 2
    assert Counter(b for r in schedule for b in r.byes) == (dict.fromkeys(ids, 1) if n % 2 else {})
    firsts = Counter(t.players[0] for r in schedule for t in r.tables)
    assert max(firsts.values()) - min(firsts.get(p, 0) for p in ids) <= 1, "seat 1 shared out fairly"
    for p in ids:  # and alternating: never three first moves (or second moves) in a row
        seats = [t.players.index(p) for r in schedule for t in r.tables if p in t.players]
        assert all(len(set(seats[i : i + 3])) == 2 for i in range(len(seats) - 2))


def test_two_seat_round_robin_can_go_round_twice_with_seats_swapped() -> None:
    schedule = round_robin([1, 2, 3, 4], 2, rounds=6)
    first, second = schedule[:3], schedule[3:]
    assert [[t.players[::-1] for t in r.tables] for r in first] == [
        [t.players for t in r.tables] for r in second
    ]
    assert len(round_robin([1, 2, 3, 4], 2, rounds=2)) == 2


@pytest.mark.parametrize("n, seats", [(3, 3), (5, 4), (6, 3), (7, 3), (8, 4), (10, 4), (13, 4), (20, 3)])
def test_multi_seat_round_robin_seats_everyone_every_round_and_spreads_meetings(n: int, seats: int) -> None:
    schedule = round_robin(list(range(n)), seats)
    assert len(schedule) == math.ceil((n - 1) / (seats - 1))
    met: Counter[frozenset[int]] = Counter()
    for r in schedule:
        assert seated(r) == list(range(n)) and r.byes == ()
        assert sorted((len(t.players) for t in r.tables), reverse=True) == table_sizes(n, seats)[0]
        met.update(frozenset(p) for t in r.tables for p in combinations(t.players, 2))
    assert max(met.values()) <= 2, "no pair meets a third time"
    # As even as possible: the pairs meeting twice are no more than the meetings beyond one per pair
    # force, plus a little slack for the heuristic.
    total = sum(met.values())
    pairs = n * (n - 1) // 2
    doubles = sum(1 for v in met.values() if v == 2)
    assert doubles <= max(0, total - pairs) + n // 2


@pytest.mark.parametrize("n, seats", [(9, 3), (16, 4)])
def test_multi_seat_round_robin_finds_the_perfect_schedule_when_one_exists(n: int, seats: int) -> None:
    # 9 players in threes over 4 rounds, 16 in fours over 5: everyone can meet everyone exactly once.
    schedule = round_robin(list(range(n)), seats)
    met = Counter(frozenset(p) for r in schedule for t in r.tables for p in combinations(t.players, 2))
    assert set(met.values()) == {1} and len(met) == n * (n - 1) // 2


def test_multi_seat_round_robin_is_deterministic_and_shares_seat_one() -> None:
    a = round_robin(list(range(12)), 4)
    assert a == round_robin(list(range(12)), 4)
    firsts = Counter(t.players[0] for r in a for t in r.tables)
    assert max(firsts.values()) <= 1, "12 players, 4 rounds of 3 tables: nobody moves first twice"
    assert len(round_robin(list(range(12)), 4, rounds=2)) == 2


def test_round_robin_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        round_robin([1], 2)
    with pytest.raises(ValueError):
        round_robin([1, 2, 2], 3)
    with pytest.raises(ValueError):
        round_robin([1, 2, 3], 5)


# ----------------------------------------------------------------- knockout


def test_knockout_seeds_in_snake_order() -> None:
    entrants = [Entrant(p, rating=100 - p) for p in range(8)]
    assert [t.players for t in knockout_round(entrants, 4).tables] == [(0, 3, 4, 7), (1, 2, 5, 6)]
    # 10 at 4 seats: tables of 4, 3, 3; seeds 0-2 forward, 3-5 back, 6-8 forward, 9 to the only room left.
    entrants = [Entrant(p, rating=100 - p) for p in range(10)]
    tables = [t.players for t in knockout_round(entrants, 4).tables]
    assert tables == [(0, 5, 6, 9), (1, 4, 7), (2, 3, 8)]
    pairs = [t.players for t in knockout_round([Entrant(p, rating=100 - p) for p in range(8)], 2).tables]
    assert pairs == [(0, 7), (1, 6), (2, 5), (3, 4)], "1 v 8, 2 v 7, ..."


def test_knockout_byes_go_to_the_best_seeds_and_seats_follow_history() -> None:
    odd = knockout_round([Entrant(p, rating=100 - p) for p in range(5)], 2)
    assert odd.byes == (0,) and [t.players for t in odd.tables] == [(1, 4), (2, 3)]
    rnd = knockout_round([Entrant(1, rating=9, seat_history=(1, 1)), Entrant(2, rating=1)], 2)
    assert rnd.tables[0].players == (2, 1), "the top seed moved first twice already"
    assert knockout_round([Entrant(3)], 2) == Round((), (3,))


def test_knockout_advancers_take_the_top_of_each_table() -> None:
    ranks = [{0: 2, 3: 1, 4: 3, 7: 4}, {1: 1, 2: 2, 5: 3, 6: 4}]
    assert knockout_advancers(ranks, advance=2) == [3, 0, 1, 2]
    assert knockout_advancers(ranks, advance=1) == [3, 1]
    # A tie across the cut: the mapping's order decides (8 is listed before 9).
    assert knockout_advancers([{8: 2, 9: 2, 10: 1, 11: 4}], advance=2) == [10, 8]
    assert knockout_advancers([{8: 1, 9: 2}], advance=3) == [8, 9], "a small table sends everyone"
    with pytest.raises(ValueError):
        knockout_advancers(ranks, advance=0)


def test_a_whole_knockout_ends_with_one_table() -> None:
    rng = random.Random(4)
    entrants = {p: Entrant(p, rating=rng.random()) for p in range(23)}
    alive, tables_per_round = list(entrants), []
    while True:
        rnd = knockout_round([entrants[p] for p in alive], 4)
        assert seated(rnd) == sorted(alive)
        tables_per_round.append(len(rnd.tables))
        if len(rnd.tables) == 1:
            break
        ranks: list[Mapping[int, int]] = []
        for t in rnd.tables:
            order = list(t.players)
            rng.shuffle(order)
            ranks.append({p: i for i, p in enumerate(order, start=1)})
        alive = knockout_advancers(ranks, advance=2) + list(rnd.byes)
    assert tables_per_round == [6, 3, 2, 1], "23 → 12 → 6 → 4 players"
