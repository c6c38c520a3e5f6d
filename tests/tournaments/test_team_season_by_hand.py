"""A team season worked by hand: a team round robin of 6 teams x 4 boards over 5 rounds at two
seats, with an alternate playing (team B's captain puts its alternate on board 2 every round) and
one forfeit (team F leaves board 4 empty against A). Every board is played at a real table and
ended by a resignation, as the table below says; the standings the service computes must equal
the ones worked out by hand below (match points 2 / 1 / 0, board points 1 / 0, tiebreak game
points, then direct encounter, Buchholz, Sonneborn-Berger)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from tests.games.conftest import Actor
from tournaments.models import LineUp, TeamBoard, TeamEntry, TeamMatch, TeamMatchSide
from tournaments.teams import event_reads, lineups
from tournaments.teams import events as team_events

from .test_team_events import T0, Club, board, current_round, open_current, win_board

# Who won each board, board 1 first, for every pair of teams (each pair meets once). The board
# marked * is F's empty board 4 against A: A wins it without a game.
BOARDS = {
    ("A", "B"): "AABA",  # A 3 - 1 B
    ("A", "C"): "AAAA",  # A 4 - 0 C
    ("A", "D"): "ADAD",  # A 2 - 2 D (drawn match)
    ("A", "E"): "AAAE",  # A 3 - 1 E
    ("A", "F"): "AFAA",  # A 3 - 1 F (board 4*: F's empty board)
    ("B", "C"): "BBCC",  # B 2 - 2 C (drawn match)
    ("B", "D"): "BBBD",  # B 3 - 1 D
    ("B", "E"): "EEBE",  # B 1 - 3 E
    ("B", "F"): "BBBB",  # B 4 - 0 F
    ("C", "D"): "CDDD",  # C 1 - 3 D
    ("C", "E"): "CCCE",  # C 3 - 1 E
    ("C", "F"): "CFCF",  # C 2 - 2 F (drawn match)
    ("D", "E"): "DEDE",  # D 2 - 2 E (drawn match)
    ("D", "F"): "DDFD",  # D 3 - 1 F
    ("E", "F"): "EEEF",  # E 3 - 1 F
}
FORFEIT = ("F", "A", 4)  # F leaves board 4 empty in its match against A

# By hand, per team: its matches (game points for-against -> match points)
#   A: B 3-1 W2, C 4-0 W2, D 2-2 D1, E 3-1 W2, F 3-1 W2 -> mp 9, gp 15, won 4 drawn 1 lost 0
#   B: A 1-3 L0, C 2-2 D1, D 3-1 W2, E 1-3 L0, F 4-0 W2 -> mp 5, gp 11, won 2 drawn 1 lost 2
#   C: A 0-4 L0, B 2-2 D1, D 1-3 L0, E 3-1 W2, F 2-2 D1 -> mp 4, gp  8, won 1 drawn 2 lost 2
#   D: A 2-2 D1, B 1-3 L0, C 3-1 W2, E 2-2 D1, F 3-1 W2 -> mp 6, gp 11, won 2 drawn 2 lost 1
#   E: A 1-3 L0, B 3-1 W2, C 1-3 L0, D 2-2 D1, F 3-1 W2 -> mp 5, gp 10, won 2 drawn 1 lost 2
#   F: A 1-3 L0, B 0-4 L0, C 2-2 D1, D 1-3 L0, E 1-3 L0 -> mp 1, gp  5, won 0 drawn 1 lost 4
# (30 match points in 15 matches, 60 game points on 60 boards.)
# Order: A 9; D 6; B and E 5 each: game points B 11 > E 10, so B third (direct encounter
# would have put E first: E beat B); C 4; F 1.
# Tiebreaks:
#   direct: only B and E are level (5): B scored 0 against E, E scored 2 against B; others 0.
#   Buchholz (everyone met everyone: 30 minus own): A 21, B 25, C 26, D 24, E 25, F 29.
#   Sonneborn-Berger (opponent's final mp x own mp in that match):
#     A: B 5x2 + C 4x2 + D 6x1 + E 5x2 + F 1x2 = 36
#     B: A 9x0 + C 4x1 + D 6x2 + E 5x0 + F 1x2 = 18
#     C: A 9x0 + B 5x1 + D 6x0 + E 5x2 + F 1x1 = 16
#     D: A 9x1 + B 5x0 + C 4x2 + E 5x1 + F 1x2 = 24
#     E: A 9x0 + B 5x2 + C 4x0 + D 6x1 + F 1x2 = 18
#     F: A 9x0 + B 5x0 + C 4x1 + D 6x0 + E 5x0 = 4
EXPECTED = [
    # team, place, match points, game points, won, drawn, lost, direct, buchholz, sonneborn-berger
    ("A", 1, 9.0, 15.0, 4, 1, 0, 0.0, 21.0, 36.0),
    ("D", 2, 6.0, 11.0, 2, 2, 1, 0.0, 24.0, 24.0),
    ("B", 3, 5.0, 11.0, 2, 1, 2, 0.0, 25.0, 18.0),
    ("E", 4, 5.0, 10.0, 2, 1, 2, 2.0, 25.0, 18.0),
    ("C", 5, 4.0, 8.0, 1, 2, 2, 0.0, 26.0, 16.0),
    ("F", 6, 1.0, 5.0, 0, 1, 4, 0.0, 29.0, 4.0),
]


def test_a_season_of_six_teams_worked_by_hand(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    club = Club(make_actor, "hs")
    made = {letter: club.team(letter, 4, alternates=1 if letter == "B" else 0) for letter in "ABCDEF"}
    letter_of = {team.pk: letter for letter, (team, _people) in made.items()}
    times = [(T0 + timedelta(days=d)).isoformat() for d in range(5)]
    event = club.event(name="Hand season", boards=4, round_times=times)
    club.enter(event, [made[letter][0] for letter in "ABCDEF"])
    team_events.team_event_start(event_id=event.pk, by=club.org.player, now=T0 - timedelta(days=1))
    event.refresh_from_db()
    assert event.rounds == 5

    for number in range(1, 6):
        rnd = current_round(event)
        assert rnd.number == number and rnd.byes == []
        matches = list(TeamMatch.objects.filter(round=rnd).order_by("number"))
        assert len(matches) == 3
        for match in matches:
            teams = [letter_of[t] for t in match.sides.order_by("order").values_list("team_id", flat=True)]
            for letter in teams:
                team, people = made[letter]
                chosen: list[int | None] = [p.pk for p in people[:4]]
                if letter == "B":  # the alternate plays board 2
                    chosen[1] = people[4].pk
                if letter == FORFEIT[0] and FORFEIT[1] in teams:
                    chosen[FORFEIT[2] - 1] = None
                if letter in ("B", FORFEIT[0]):
                    lineups.lineup_submit(
                        round_id=rnd.pk,
                        team_id=team.pk,
                        by=team.captain,
                        players=chosen,
                        now=T0 - timedelta(days=1),
                    )
        rnd = open_current(event, django_capture_on_commit_callbacks)
        for match in matches:
            teams = [letter_of[t] for t in match.sides.order_by("order").values_list("team_id", flat=True)]
            results = BOARDS[tuple(sorted(teams))]  # type: ignore[index]
            for n, winner in enumerate(results, start=1):
                b = board(match, n)
                if b.table_id is None:  # the forfeit: counted when the round opened
                    assert sorted(teams) == ["A", "F"] and n == 4 and b.counted
                    assert b.points == {str(made["A"][0].pk): 1.0, str(made["F"][0].pk): 0.0}
                    continue
                win_board(b, made[winner][0].pk, django_capture_on_commit_callbacks)
        rnd.refresh_from_db()
        assert rnd.status == "finished"

    event.refresh_from_db()
    assert event.status == "finished"
    # the alternate played board 2 in all five of B's matches; one board in the season had no game
    alternate = made["B"][1][4].pk
    assert (
        TeamBoard.objects.filter(match__round__event=event, number=2, players__contains=[alternate]).count()
        == 5
    )
    assert TeamBoard.objects.filter(match__round__event=event, table__isnull=True).count() == 1
    # B's and F's captains set their line-ups every round; the other four teams played their defaults
    assert LineUp.objects.filter(round__event=event, submitted_by__isnull=True).count() == 5 * 4
    # every match's game points as the table says
    for side in TeamMatchSide.objects.filter(match__round__event=event).select_related("match"):
        others = TeamMatchSide.objects.filter(match=side.match).exclude(pk=side.pk).get()
        pair = tuple(sorted((letter_of[side.team_id], letter_of[others.team_id])))
        assert side.game_points == BOARDS[pair].count(letter_of[side.team_id])  # type: ignore[index]

    rows = event_reads.standings(event=event)
    got = [
        (
            letter_of[r.team],
            r.place,
            r.match_points,
            r.game_points,
            r.won,
            r.drawn,
            r.lost,
            r.tiebreaks["direct"],
            r.tiebreaks["buchholz"],
            r.tiebreaks["sonneborn_berger"],
        )
        for r in rows
    ]
    assert got == EXPECTED
    places = {
        letter_of[t]: p for t, p in TeamEntry.objects.filter(event=event).values_list("team_id", "place")
    }
    assert places == {row[0]: row[1] for row in EXPECTED}
