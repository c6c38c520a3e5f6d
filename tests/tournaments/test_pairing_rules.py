"""Pairing: table sizes, Swiss, round robin, knockout and seat balancing (no database)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    Entrant,
    assign_seats,
    knockout_advancers,
    knockout_round,
    round_robin,
    swiss_round,
    table_sizes,
)


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 40), seats=st.integers(2, 4))
def test_table_sizes_are_valid_for_every_count(players: int, seats: int) -> None:
    sizes, byes = table_sizes(players, seats)
    assert sum(sizes) + byes == players
    assert all(2 <= s <= seats for s in sizes)
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    assert byes == (players % 2 if seats == 2 else 0)


@pytest.mark.parametrize(
    "players, seats, expected", [(10, 4, [4, 3, 3]), (5, 4, [3, 2]), (7, 3, [3, 2, 2]), (9, 3, [3, 3, 3])]
)
def test_table_sizes_examples(players: int, seats: int, expected: list[int]) -> None:
    assert table_sizes(players, seats) == (expected, 0)


def test_table_sizes_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        table_sizes(1, 2)
    with pytest.raises(ValueError):
        table_sizes(8, 5)


def simulate_swiss(n: int, seats: int, rounds: int, seed: int = 1) -> list[list[tuple[int, ...]]]:
    """Play ``rounds`` Swiss rounds with random results; return the tables of each round."""
    rng = random.Random(seed)
    score: Counter[int] = Counter()
    meet: dict[int, Counter[int]] = {p: Counter() for p in range(n)}
    hist: dict[int, list[int]] = {p: [] for p in range(n)}
    byes: Counter[int] = Counter()
    out = []
    for _ in range(rounds):
        ents = [
            Entrant(p, score[p], rating=-p, meetings=dict(meet[p]), seat_history=tuple(hist[p]), byes=byes[p])
            for p in range(n)
        ]
        rnd = swiss_round(ents, seats)
        seated = [p for t in rnd.tables for p in t.players] + list(rnd.byes)
        assert sorted(seated) == list(range(n)), "everyone seated exactly once"
        for b in rnd.byes:
            byes[b] += 1
            score[b] += 1
        for t in rnd.tables:
            for i, p in enumerate(t.players):
                hist[p].append(i + 1)
                meet[p].update(q for q in t.players if q != p)
            order = list(t.players)
            rng.shuffle(order)
            for place, p in enumerate(order):
                score[p] += len(order) - 1 - place
        out.append([t.players for t in rnd.tables])
    return out


@pytest.mark.parametrize("n", [4, 7, 10, 16, 25])
def test_two_seat_swiss_has_no_rematches_when_avoidable(n: int) -> None:
    rounds = simulate_swiss(n, 2, rounds=min(n - 1, 5) if n % 2 == 0 else min(n - 2, 5))
    pairs = Counter(frozenset(t) for rnd in rounds for t in rnd)
    assert max(pairs.values()) == 1


def test_byes_rotate() -> None:
    byes = []
    for _ in range(5):
        ents = [Entrant(p, score=0, rating=-p, byes=byes.count(p)) for p in range(5)]
        byes.extend(swiss_round(ents, 2).byes)
    assert len(byes) == 5 and len(set(byes)) == 5


def test_swiss_pairs_within_score_groups() -> None:
    ents = [Entrant(p, score=2 if p < 4 else 0, rating=-p) for p in range(8)]
    rnd = swiss_round(ents, 2)
    for t in rnd.tables:
        assert (t.players[0] < 4) == (t.players[1] < 4)


@pytest.mark.parametrize("n, seats", [(6, 3), (10, 4), (13, 3), (9, 4)])
def test_multi_seat_swiss_spreads_meetings(n: int, seats: int) -> None:
    rounds = simulate_swiss(n, seats, rounds=3)
    for rnd in rounds:
        assert all(2 <= len(t) <= seats for t in rnd)
    pairs = Counter(frozenset(p) for rnd in rounds for t in rnd for p in combinations(t, 2))
    assert max(pairs.values()) <= 2


def test_seat_order_is_balanced_over_rounds() -> None:
    history: dict[int, list[int]] = {1: [1, 1], 2: [2, 3], 3: [3, 2]}
    order = assign_seats([1, 2, 3], history)
    assert order[0] != 1, "player 1 has moved first twice: someone else goes first"
    seen: dict[int, list[int]] = {p: [] for p in range(4)}
    for _ in range(8):
        for i, p in enumerate(assign_seats([0, 1, 2, 3], seen)):
            seen[p].append(i + 1)
    assert all(sorted(Counter(s).values()) == [2, 2, 2, 2] for s in seen.values())


@pytest.mark.parametrize("n", [4, 5, 8, 9])
def test_two_seat_round_robin_is_complete(n: int) -> None:
    schedule = round_robin(list(range(n)), 2)
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    pairs = Counter(frozenset(t.players) for r in schedule for t in r.tables)
    assert set(pairs) == {frozenset(p) for p in combinations(range(n), 2)} and set(pairs.values()) == {1}
    for r in schedule:
        assert sorted([p for t in r.tables for p in t.players] + list(r.byes)) == list(range(n))
    byes = Counter(b for r in schedule for b in r.byes)
    assert all(v == 1 for v in byes.values()) and len(byes) == (n % 2) * n
    firsts = Counter(t.players[0] for r in schedule for t in r.tables)
    assert max(firsts.values()) - min(firsts.values()) <= 2, "the first move is shared out fairly"


@pytest.mark.parametrize("n, seats", [(6, 3), (8, 4), (10, 4), (7, 3)])
def test_multi_seat_round_robin_seats_everyone_every_round(n: int, seats: int) -> None:
    schedule = round_robin(list(range(n)), seats)
    assert len(schedule) == -(-(n - 1) // (seats - 1))
    met: Counter[frozenset[int]] = Counter()
    for r in schedule:
        assert sorted(p for t in r.tables for p in t.players) == list(range(n))
        met.update(frozenset(p) for t in r.tables for p in combinations(t.players, 2))
    assert max(met.values()) - min(met.get(frozenset(p), 0) for p in combinations(range(n), 2)) <= 2


def test_knockout_seeds_in_snake_order_and_advances_the_best() -> None:
    ents = [Entrant(p, rating=100 - p) for p in range(8)]
    rnd = knockout_round(ents, 4)
    assert [t.players for t in rnd.tables] == [(0, 3, 4, 7), (1, 2, 5, 6)]
    advancing = knockout_advancers([{0: 2, 3: 1, 4: 3, 7: 4}, {1: 1, 2: 2, 5: 3, 6: 4}], advance=2)
    assert advancing == [3, 0, 1, 2]
    final = knockout_round([Entrant(p, rating=100 - p) for p in advancing], 4)
    assert len(final.tables) == 1 and sorted(final.tables[0].players) == [0, 1, 2, 3]
    odd = knockout_round([Entrant(p, rating=100 - p) for p in range(5)], 2)
    assert odd.byes == (0,) and len(odd.tables) == 2
