"""FIDE's tie-break rules for unplayed rounds and forfeits, and the standings' column headings.

* Buchholz (and every tie-break built on opponents' points) counts each of an opponent's
  unplayed rounds (a bye, a forfeit, a round before a late entry) as a draw, whatever it paid.
* A forfeit (a no-show: lost on time without a move) is no game played: for both players the
  round is unplayed (the points stand; the tie-breaks meet a virtual opponent); it adds to
  neither ``played`` nor ``wins``.
* The standings page names every column once, each with a title that says what it counts.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from games import services as games
from games.models import Table
from tournaments.competitions import selectors
from tournaments.models import League, Round
from tournaments.standings import TableResult, Unplayed, standings

from ..games.conftest import Actor
from .test_bye_value_rule import club, event, play_round, start  # noqa: F401 (club: a fixture)
from .test_formats_flow import current_tables

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------------------- through the services
def test_buchholz_counts_an_opponents_bye_as_a_draw(
    club: tuple[Actor, League],  # noqa: F811
    make_actor: Callable[..., Actor],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # A Swiss of three at two seats over three rounds: each round one game and one pairing bye (a
    # win, 1 point), one each; for an opponent's Buchholz that bye counts ½, not 1.
    org = club[0]
    t, _ = event(club, make_actor, 3, seats=2, rounds=3)
    start(t, org, django_capture_on_commit_callbacks)
    for _ in range(t.rounds):
        play_round(t, org, django_capture_on_commit_callbacks)
    assert t.status == "finished"
    rows = {row.player: row for row in selectors.current_standings(t)}
    points = {p: row.points for p, row in rows.items()}
    byes = {p: rnd.number for rnd in Round.objects.filter(tournament=t) for p in rnd.byes}
    assert sorted(byes) == sorted(rows), "one pairing bye each"
    met = {p: [] for p in rows}
    for table in Table.objects.filter(round_table__round__tournament=t):
        seated = list(table.seats.values_list("player_id", flat=True))
        for p in seated:
            met[p].extend(q for q in seated if q != p)
    for p, row in rows.items():
        before = points_after(t, byes[p] - 1).get(p, 0.0)
        virtual = before + (1 - 1) + 0.5 * (t.rounds - byes[p])  # FIDE's virtual opponent for the bye
        assert row.played == 2 and len(met[p]) == 2
        # Each opponent's points with their bye (1) counted as a draw (½).
        assert row.tiebreaks["buchholz"] == sum(points[q] - 1 + 0.5 for q in met[p]) + virtual


def points_after(t: Any, number: int) -> dict[int, float]:
    if number < 1:
        return {}
    return {row.player: row.points for row in selectors.current_standings(t, after_round=number)}


def test_a_no_show_is_no_game_played_for_either_player(
    club: tuple[Actor, League],  # noqa: F811
    make_actor: Callable[..., Actor],
    django_capture_on_commit_callbacks: Any,
) -> None:
    org = club[0]
    clock = {"kind": "fischer", "base": 60, "increment": 0}
    t, people = event(club, make_actor, 2, seats=2, rounds=2, time_control=clock)
    start(t, org, django_capture_on_commit_callbacks)
    (table,) = current_tables(t)
    absent = table.seats.get(number=1).player  # seat 1 moves first: the clock runs out without a move
    present = next(p.player for p in people if p.player != absent)
    late = table.deadline + timedelta(seconds=settings.CLOCK_GRACE_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert games.clock_timeout_apply(table_id=table.pk, now=late) == "timeout"
    rows = {row.player: row for row in selectors.current_standings(t, after_round=1)}
    won, lost = rows[present.pk], rows[absent.pk]
    assert (won.points, lost.points) == (1.0, 0.0), "the forfeit's points stand"
    assert (won.played, won.wins, lost.played) == (0, 0, 0), "a forfeit is no game played"
    # Both rounds are unplayed: a virtual opponent each, 0 + (1 - f) + 0.5 * (2 - 1).
    assert won.tiebreaks["buchholz"] == 0.5 and won.tiebreaks["sonneborn_berger"] == 0.5
    assert lost.tiebreaks["buchholz"] == 1.5 and lost.tiebreaks["sonneborn_berger"] == 0.0
    assert won.tiebreaks["wins"] == 0.0


def standings_head(t: Any) -> str:
    html = Client().get(f"/tournaments/{t.pk}/").content.decode()
    return html.split('id="standings"', 1)[1].split("</thead>", 1)[0]


def test_the_standings_columns_are_named_once_each_with_a_title(
    club: tuple[Actor, League],  # noqa: F811
    make_actor: Callable[..., Actor],
    django_capture_on_commit_callbacks: Any,
) -> None:
    org = club[0]
    t, _ = event(club, make_actor, 4, seats=2, rounds=2)
    start(t, org, django_capture_on_commit_callbacks)
    play_round(t, org, django_capture_on_commit_callbacks)
    head = standings_head(t)
    assert head.count(">Wins<") == 1, "the tie-break 'wins' and the wins column were the same count"
    assert "Buchholz: sum of the opponents&#x27; points, an opponent&#x27;s unplayed rounds" in head
    assert "counted as draws" in head
    assert 'title="Wins: games won outright, over the board' in head
    assert 'title="tables played (byes and forfeits not counted)">Played<' in head
    assert 'title="points scored' in head
    wide, _ = event(club, make_actor, 3, prefix="w", seats=3, rounds=1)
    start(wide, org, django_capture_on_commit_callbacks)
    play_round(wide, org, django_capture_on_commit_callbacks)
    head = standings_head(wide)
    assert head.count(">Wins<") == 1
    assert 'title="tables won outright, over the board' in head
    assert "Opponents&#x27; points: sum of the points of everyone met at a table, their unplayed" in head


# ------------------------------------------------------------------------------- the rules themselves
def test_an_opponents_missed_rounds_count_as_draws_whatever_they_paid() -> None:
    # Player 9 entered late at zero (missed rounds 1 and 2), then lost to player 1 in round 3.
    results = [TableResult(1, {1: 1, 2: 2}), TableResult(2, {2: 1, 1: 2}), TableResult(3, {1: 1, 9: 2})]
    unplayed = {9: [Unplayed(1, 0.0), Unplayed(2, 0.0)]}
    rows = {r.player: r for r in standings([1, 2, 9], results, 2, unplayed=unplayed, rounds=3)}
    assert rows[9].points == 0.0
    # Player 1 met 2 (1 point) twice and 9, whose two zero rounds count ½ each: 0 + 0.5 + 0.5.
    assert rows[1].tiebreaks["buchholz"] == 1 + 1 + 1.0
    assert rows[1].tiebreaks["sonneborn_berger"] == 1 + 1.0, "beat 2 once and 9"


def test_a_four_seat_no_show_is_unplayed_for_them_only() -> None:
    # Player 4 never showed at a full four-seat table: last (0 points), no game for them;
    # the three others played on, and 4's round counts as a draw (1.5) in their opponents' points.
    results = [
        TableResult(1, {1: 1, 2: 2, 3: 3, 4: 4}, markers={1: 5, 2: 4, 3: 3, 4: 9}, no_shows=frozenset({4}))
    ]
    rows = {r.player: r for r in standings([1, 2, 3, 4], results, 4, rounds=1)}
    assert [rows[p].points for p in (1, 2, 3, 4)] == [3.0, 2.0, 1.0, 0.0]
    assert [rows[p].played for p in (1, 2, 3, 4)] == [1, 1, 1, 0]
    assert rows[4].tiebreaks["markers"] == 0, "markers kept by never moving do not count"
    assert rows[4].tiebreaks["average_place"] == 2.5, "no table played: the middle place"
    assert rows[1].tiebreaks["opponents_points"] == 2 + 1 + 1.5
    # 4's three virtual opponents: 0 + (4 * 1.5 - 0) / 3 + 1.5 * 0 = 2 each.
    assert rows[4].tiebreaks["opponents_points"] == 6.0
