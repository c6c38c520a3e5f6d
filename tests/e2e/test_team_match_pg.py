"""A team match in the browser (issue 38): a captain sets her team's line-up on its page (with an
alternate), the round opens, she plays her board by clicking it while the team match's page, open
in another tab, follows the score live; the other board ends and the page shows the final score
and the match points. Then the team's page shows the result. At desktop and phone sizes.

Her opponents are scripted here (moves and resignations through the same services as the API);
the round opens as the calendar's tick opens it (``tournaments.teams.rounds.sweep`` with a time
after the round's start). A finished board is counted by the ``table_finished`` task, which the
test server runs at once (Celery eager, no broker): nothing counts a board by hand here.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games import services as games
from games.models import Move, Table
from tests.games.conftest import Actor, as_organiser, every_seat_moves
from tournaments.competitions import services as clubs
from tournaments.models import LineUp, Team, TeamBoard, TeamEvent, TeamMatch, TeamMatchSide, TeamRound
from tournaments.teams import events, rounds, services

from .conftest import Browsers, for_docs, shoot

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


def squad(league: Any, name: str, people: list[Actor], alternates: list[Actor] = ()) -> Team:
    """A club team: the first person creates it (its captain), the others are invited and accept."""
    captain = people[0].player
    team = services.team_create(by=captain, name=name, league=league)
    for actor in people[1:]:
        invitation = services.invite(team_id=team.pk, by=captain, player_id=actor.player.pk)
        services.answer(invitation_id=invitation.pk, by=actor.player, accept=True)
    if alternates:
        services.set_board_order(
            team_id=team.pk, by=captain, order=[], alternates=[a.player.pk for a in alternates]
        )
    return team


def started_event(
    org: Actor, rooks: list[Actor], knights: list[Actor]
) -> tuple[TeamEvent, TeamRound, TeamMatch]:
    """A club, two teams of three (the last of the Rooks an alternate) and a team round robin over
    two boards, started: round 1 paired, its line-ups open until its start."""
    as_organiser(org.player)
    league = clubs.league_create(organiser=org.player, name="Castle Club", slug="castle-club")
    for actor in [*rooks, *knights]:
        clubs.league_join(league=league, player=actor.player)
    teams = [squad(league, "Rooks", rooks, alternates=rooks[2:]), squad(league, "Knights", knights)]
    event = events.team_event_create(
        league=league,
        by=org.player,
        name="Castle Cup",
        game="pacru",
        boards=2,
        rated=False,
        time_control={"kind": "fischer", "base": 300, "increment": 2},
        round_gap_minutes=30,
    )
    for team in teams:
        events.team_event_enter(event_id=event.pk, team_id=team.pk, by=org.player)
    events.team_event_start(event_id=event.pk, by=org.player)
    event.refresh_from_db()
    rnd = TeamRound.objects.get(event=event, number=1)
    return event, rnd, TeamMatch.objects.get(round=rnd)


def side_order(match: TeamMatch, team_name: str) -> int:
    return TeamMatchSide.objects.get(match=match, team__name=team_name).order


def board_table(match: TeamMatch, number: int) -> Table:
    board = TeamBoard.objects.get(match=match, number=number)
    assert board.table_id is not None, f"board {number} has no table"
    return Table.objects.get(pk=board.table_id)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_captain_sets_the_lineup_and_the_match_page_follows_the_boards_live(
    size: str, people: Browsers, live_server: Any, artifacts: Path, make_actor: Any
) -> None:
    org = make_actor("organiser")
    anna, ben, cara = make_actor("anna"), make_actor("ben"), make_actor("cara")
    dave, eve = make_actor("dave"), make_actor("eve")
    event, rnd, match = started_event(org, [anna, ben, cara], [dave, eve])
    base = live_server.url
    rooks = Team.objects.get(name="Rooks")
    lineup_url = f"{base}/team-rounds/{rnd.pk}/lineup/{rooks.slug}/"
    match_url = f"{base}/team-matches/{match.pk}/"

    # The captain of the Rooks opens the round's line-up from the event's page.
    page = people.open("anna", **SIZES[size])
    page.goto(f"{base}/team-events/{event.pk}/")
    page.locator(f'a[href="/team-rounds/{rnd.pk}/lineup/{rooks.slug}/"]').first.click()
    expect(page).to_have_url(lineup_url)
    expect(page.locator("h1")).to_contain_text("Line-up of Rooks, round 1")
    expect(page.locator("#lineup-against")).to_contain_text("Knights")
    expect(page.locator("#lineup-who")).to_contain_text("No line-up set yet")
    # The board order is offered: Anna on board 1, Ben on board 2, Cara listed as an alternate.
    expect(page.locator("#board1")).to_have_value(str(anna.player.pk))
    expect(page.locator("#board2")).to_have_value(str(ben.player.pk))
    expect(page.locator(f'#board2 option[value="{cara.player.pk}"]')).to_contain_text("alternate")
    # She puts the alternate on board 2 instead of Ben, and saves.
    page.select_option("#board2", str(cara.player.pk))
    page.locator("#lineup-save").click()
    expect(page).to_have_url(lineup_url)
    expect(page.locator(".messages")).to_contain_text("Line-up of Rooks for round 1 saved")
    expect(page.locator("#lineup-who")).to_contain_text("Set by Anna")
    expect(page.locator("#board1")).to_have_value(str(anna.player.pk))
    expect(page.locator("#board2")).to_have_value(str(cara.player.pk))
    lineup = LineUp.objects.get(round=rnd, team=rooks)
    assert lineup.players == [anna.player.pk, cara.player.pk]
    assert lineup.submitted_by_id == anna.player.pk
    shot = shoot(page, artifacts, "team-lineup", size)
    if size == "desktop":
        for_docs(shot, "team-lineup.png")

    # The match's page, open in another tab of hers before the round starts: 0 – 0, boards waiting.
    tab = page.context.new_page()
    tab.on("pageerror", lambda exc: people.errors.append(f"anna's match tab: {exc}"))
    tab.goto(match_url)
    rook, knight = side_order(match, "Rooks"), side_order(match, "Knights")
    rook_score, knight_score = tab.locator(f"#score-{rook}"), tab.locator(f"#score-{knight}")
    expect(rook_score).to_have_text("0")
    expect(knight_score).to_have_text("0")
    expect(tab.locator("#board-1")).to_contain_text("waiting for the round's start")
    tab.evaluate("window.__stayed = true")

    # The round's start: the calendar's tick opens its boards (the Knights' default line-up).
    assert rounds.sweep(now=rnd.starts_at + timedelta(seconds=1)) == 1
    rnd.refresh_from_db()
    assert rnd.status == TeamRound.Status.PLAYING
    first, second = board_table(match, 1), board_table(match, 2)
    assert set(first.seats.values_list("player_id", flat=True)) == {anna.player.pk, dave.player.pk}
    assert set(second.seats.values_list("player_id", flat=True)) == {cara.player.pk, eve.player.pk}
    board1 = tab.locator("#board-1")
    expect(board1).to_contain_text("playing", timeout=15_000)
    expect(board1).to_contain_text("Anna")
    expect(tab.locator("#board-2")).to_contain_text("Cara")
    expect(tab.locator("#match-state")).to_contain_text("0 boards of 2 finished")

    # Anna goes to her board from the match's page and plays it by clicking.
    page.goto(match_url)
    page.locator("#board-1 a.watch").click()
    expect(page).to_have_url(f"{base}/tables/{first.pk}/")
    mine = first.seats.get(player=anna.player).number
    if mine == 2:  # Dave sits in seat 1: he moves first
        games.move_submit(table_id=first.pk, player=dave.player, ply=0, move="e1-e2")
        origin, target = "e9", "e8"
    else:
        origin, target = "e1", "e2"
    expect(page.locator("#status")).to_contain_text("Your turn")
    page.locator(f'#board [data-cell="{origin}"]').click()
    page.locator(f'#board [data-cell="{target}"]').click()
    page.locator("#confirm").click()
    expect(page.locator("#movelist")).to_contain_text(f"{origin}-{target}")
    assert Move.objects.filter(table=first, seat=mine, kind=Move.Kind.MOVE).exists()
    # Dave resigns: Anna has won board 1, and the match's tab counts it without a reload.
    games.game_resign(table_id=first.pk, player=dave.player)
    expect(page.locator("#result")).to_contain_text("Anna wins")
    expect(rook_score).to_have_text("1", timeout=15_000)
    expect(knight_score).to_have_text("0")
    expect(tab.locator("#match-state")).to_contain_text("1 board of 2 finished")
    expect(board1).to_contain_text("finished")
    expect(tab.locator("#board-2")).to_contain_text("playing")
    assert tab.evaluate("window.__stayed") is True, "the match page reloaded instead of updating"
    shot = shoot(tab, artifacts, "team-match", size)
    if size == "desktop":
        for_docs(shot, "team-match.png")

    # Board 2: both play a move, then the Rooks' alternate resigns. The match is drawn, 1 – 1.
    every_seat_moves(second)
    games.game_resign(table_id=second.pk, player=cara.player)
    expect(knight_score).to_have_text("1", timeout=15_000)
    expect(rook_score).to_have_text("1")
    state = tab.locator("#match-state")
    expect(state).to_contain_text("The match is drawn.")
    expect(tab.locator("#match-score .score-mp")).to_have_text(["1 match point", "1 match point"])
    expect(tab.locator("#board-2 .seat-points")).to_have_count(2)
    assert tab.evaluate("window.__stayed") is True, "the match page reloaded instead of updating"
    match.refresh_from_db()
    assert match.status == TeamMatch.Status.FINISHED
    sides = {s.team.name: (s.game_points, s.match_points) for s in match.sides.select_related("team")}
    assert sides == {"Rooks": (1.0, 1.0), "Knights": (1.0, 1.0)}
    shoot(tab, artifacts, "team-match-final", size)

    # The team's page: its players in board order and the match among its results.
    page.goto(f"{base}/teams/{rooks.slug}/")
    expect(page.locator("h1")).to_have_text("Rooks")
    results = page.locator("table.team-results")
    expect(results).to_contain_text("Castle Cup")
    expect(results).to_contain_text("Knights")
    expect(results.locator("td.points")).to_have_text("1 – 1")
    shot = shoot(page, artifacts, "team-page", size)
    if size == "desktop":
        for_docs(shot, "team-page.png")
    results.locator("td.points a").click()  # the result leads to the match's page
    expect(page).to_have_url(match_url)
    expect(page.locator("#match-state")).to_contain_text("The match is drawn.")
