"""The pure placement helpers that player seasons and team seasons share (``seasons.placement``)."""

from __future__ import annotations

from tournaments.seasons import placement
from tournaments.seasons.placement import DOWN, NEW, STAY, UP, Arrival


def test_arrivals_place_returning_entries_by_their_movement_and_the_rest_as_newcomers() -> None:
    last = {1: (1, 4), 2: (2, 1), 3: (2, None), 4: (3, 2)}
    entries = [(1, 1700, DOWN), (2, 1600, UP), (3, 1500, STAY), (4, 1400, NEW), (5, 1650, NEW), (6, 1550, UP)]
    assert placement.arrivals(entries, last) == [
        Arrival(1, 1700, 0, level=2, from_level=1, last_place=4),
        Arrival(2, 1600, 1, level=1, from_level=2, last_place=1),
        Arrival(3, 1500, 2, level=2, from_level=2, last_place=0),
        Arrival(4, 1400, 3),  # played last season but arrives as a newcomer (re-registered)
        Arrival(5, 1650, 4),
        Arrival(6, 1550, 5),  # says it came up, but played no division last season
    ]


def test_promotion_from_the_top_level_stays_at_the_top() -> None:
    assert placement.arrivals([(7, 1500, UP)], {7: (1, 1)}) == [Arrival(7, 1500, 0, 1, 1, 1)]


def test_too_many_rounds_names_the_first_division_that_does_not_fit() -> None:
    levels = [[[1, 2, 3, 4]], [[5, 6, 7], [8, 9, 10, 11, 12]]]

    def rounds(group: list[int]) -> int:  # a round robin at 2 seats: n - 1 rounds (n even), n odd: n
        return len(group) - 1 if len(group) % 2 == 0 else len(group)

    assert placement.too_many_rounds(levels, times=5, rounds=rounds) is None
    assert placement.too_many_rounds(levels, times=0, rounds=rounds) is None  # no calendar: no check
    assert placement.too_many_rounds(levels, times=3, rounds=rounds) == (5, 2, 5)
    assert placement.too_many_rounds(levels, times=2, rounds=rounds) == (4, 1, 3)
