"""My page: the lobby of a logged-in player — my tables (my turn first), my events with the next
round in words, the challenges waiting for me, my ladders — in a fixed number of queries."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.formats import date_format

from games import services
from games.models import Table
from tournaments import ladders
from tournaments.competitions import services as events
from tournaments.competitions.selectors import tournament_standings
from tournaments.models import Challenge, Division, Ladder, League, Season, Tournament

from .conftest import Actor, as_organiser, play_random, started_table

pytestmark = pytest.mark.django_db

BLITZ = {"kind": "fischer", "base": 180, "increment": 2}


def logged_in(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def section(html: str, heading_id: str) -> str:
    """The body of the section labelled by ``heading_id``."""
    return html.split(f'id="{heading_id}"', 1)[1].split("</section>", 1)[0]


def my_table_links(html: str) -> list[int]:
    """The tables listed in play under "My tables", in order."""
    part = section(html, "mine-h").split("<h3>", 1)[0]
    return [int(n) for n in re.findall(r'<a href="/tables/(\d+)/">', part)]


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Actor, League]:
    organiser = make_actor("organiser")
    as_organiser(organiser.player)
    return organiser, events.league_create(organiser=organiser.player, name="The Club", slug="club")


def test_my_turn_tables_come_first_marked_with_the_time_left(alice: Actor, bob: Actor, carol: Actor) -> None:
    # Alice moves first at the first table; at the second Bob moved, so Alice is on turn there too;
    # at the third Carol created it and Alice joined second: Carol is on turn.
    first = started_table([alice, bob], time_control=BLITZ)
    second = play_random(
        started_table([bob, alice], game="shacru"), {1: bob.player, 2: alice.player}, plies=1
    )
    third = started_table([carol, alice], game="azacru")
    waiting = services.table_create(creator=alice.player, game="pacru", players=3)
    html = logged_in(alice).get("/").content.decode()
    listed = my_table_links(html)
    assert set(listed[:2]) == {first.pk, second.pk}, "my turn first"
    assert listed[2:] == [third.pk, waiting.pk], "then the others, then the open tables"
    mine = section(html, "mine-h")
    assert "2 your turn" in mine and mine.count('class="your-turn"') == 2
    turn_rows = re.findall(r'<li class="your-turn">(.*?)</li>', mine, re.S)
    blitz_row = next(r for r in turn_rows if f"/tables/{first.pk}/" in r)
    assert "your turn" in blitz_row and "vs Bob" in blitz_row and "3+2" in blitz_row
    assert re.search(r'<time datetime="[^"]+">\d+ min</time> left for the first move', blitz_row)
    assert "Carol to move" in mine and "waiting for players (1 of 3 seated)" in mine
    # The site bar counts the same tables.
    assert 'class="badge"' in html and "2 your turn" in html


def test_finished_tables_say_the_result_in_words(alice: Actor, bob: Actor, carol: Actor) -> None:
    won = started_table([alice, bob])
    services.game_resign(table_id=won.pk, player=bob.player)
    lost = started_table([carol, alice, bob])
    services.game_resign(table_id=lost.pk, player=bob.player)  # Bob out first: 3rd
    services.game_resign(table_id=lost.pk, player=alice.player)
    finished = section(logged_in(alice).get("/").content.decode(), "mine-h").split("<h3>", 1)[1]
    assert re.search(rf'/tables/{won.pk}/">Pacru vs Bob</a>\s*— <strong>You won</strong>', finished)
    assert "2nd of 3 — Carol won" in finished
    assert "Bob: resigned" in finished


def test_my_events_say_what_the_next_round_is(
    club: tuple[Actor, League], alice: Actor, bob: Actor, carol: Actor
) -> None:
    organiser, league = club

    def event(name: str, **options: object) -> Tournament:
        return events.tournament_create(
            organiser=organiser.player, league=league, name=name, game="pacru", seats=2, **options
        )

    upcoming = event("Winter Open")
    running = event("Autumn Swiss", rounds=3)
    for player in (alice.player, bob.player, carol.player):
        events.register(tournament_id=running.pk, player=player)
    events.register(tournament_id=upcoming.pk, player=alice.player)
    events.start(tournament_id=running.pk, by=organiser.player)
    running.refresh_from_db()
    byes = running.round_set.get(number=1).byes
    html = {a.player.pk: logged_in(a).get("/").content.decode() for a in (alice, bob, carol)}
    upcoming_text = "Winter Open</a>"
    assert upcoming_text in section(html[alice.player.pk], "events-h")
    assert "registration open, starts when the organiser starts it" in section(
        html[alice.player.pk], "events-h"
    )
    assert upcoming_text not in section(html[bob.player.pk], "events-h")
    paired = [a for a in (alice, bob, carol) if a.player.pk not in byes]
    left_out = [a for a in (alice, bob, carol) if a.player.pk in byes]
    assert len(paired) == 2 and len(left_out) == 1
    table = Table.objects.get(round_table__round__tournament=running)
    first = next(a for a in paired if table.seats.get(number=1).player_id == a.player.pk)
    other = next(a for a in paired if a is not first)
    mine = section(html[first.player.pk], "events-h")
    assert (
        f"round 1 of 3 running: your game vs {other.player.display_name} (board 1) is ready: your move"
        in mine
    )
    assert f'href="/tables/{table.pk}/">go to your game</a>' in mine
    assert f"your game vs {first.player.display_name} (board 1) is ready" in section(
        html[other.player.pk], "events-h"
    )
    bye = section(html[left_out[0].player.pk], "events-h")
    assert "round 1 of 3 running: you have a bye; waiting for round 1 to finish" in bye
    # The paired players finish their game: they wait for the round (the bye ends it here, so
    # round 2 is paired at once and they see it).
    services.game_resign(table_id=table.pk, player=other.player)
    from tournaments.finished import table_finished  # the task's body, run inline

    table_finished(table_id=table.pk)
    running.refresh_from_db()
    assert running.current_round == 2
    assert "round 2 of 3 running" in section(logged_in(first).get("/").content.decode(), "events-h")


def test_a_scheduled_event_says_when_it_starts_and_a_division_says_it_is_one(
    club: tuple[Actor, League], alice: Actor
) -> None:
    organiser, league = club
    starts = timezone.now() + timedelta(days=2)
    friday = events.tournament_create(
        organiser=organiser.player,
        league=league,
        name="Friday Swiss",
        game="pacru",
        seats=2,
        rounds=3,
        starts_at=starts,
        open_registration=True,
    )
    events.register(tournament_id=friday.pk, player=alice.player)
    when = date_format(timezone.localtime(starts), "DATETIME_FORMAT")
    mine = section(logged_in(alice).get("/").content.decode(), "events-h")
    assert f"registration open, starts at {when}" in mine
    assert "starts when the organiser starts it" not in mine
    # The same event as a season's division: its players were placed there, not registered.
    season = Season.objects.create(league=league, name="Autumn", kind=Season.Kind.DIVISIONS)
    Division.objects.create(season=season, level=1, tournament=friday)
    mine = section(logged_in(alice).get("/").content.decode(), "events-h")
    assert f"a division of the season: starts at {when}" in mine
    assert "registration open" not in mine


def test_a_finished_event_shows_my_final_place(club: tuple[Actor, League], alice: Actor, bob: Actor) -> None:
    organiser, league = club
    t = events.tournament_create(
        organiser=organiser.player, league=league, name="Spring Cup", game="pacru", seats=2, rounds=1
    )
    for player in (alice.player, bob.player):
        events.register(tournament_id=t.pk, player=player)
    events.start(tournament_id=t.pk, by=organiser.player)
    table = Table.objects.get(round_table__round__tournament=t)
    services.game_resign(table_id=table.pk, player=bob.player)
    from tournaments.finished import table_finished  # the task's body, run inline

    table_finished(table_id=table.pk)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert [(s.place, s.player) for s in tournament_standings(t)] == [
        (1, alice.player.pk),
        (2, bob.player.pk),
    ]
    assert "you finished <strong>1st of 2</strong>" in section(
        logged_in(alice).get("/").content.decode(), "events-h"
    )
    assert "you finished <strong>2nd of 2</strong>" in section(
        logged_in(bob).get("/").content.decode(), "events-h"
    )


def ladder_with(club: tuple[Actor, League], *players: Actor, name: str = "Club ladder") -> Ladder:
    organiser, league = club
    ladder = ladders.ladder_create(organiser=organiser.player, league=league, game="pacru", name=name)
    for p in players:
        ladders.ladder_join(ladder=ladder, player=p.player)
    return ladder


def challenge(ladder: Ladder, by: Actor, to: Actor) -> Challenge:
    return Challenge.objects.create(
        ladder=ladder,
        challenger=by.player,
        challenged=to.player,
        expires_at=timezone.now() + timedelta(days=2),
    )


def test_challenges_waiting_for_me_with_answers_and_my_ladder_places(
    club: tuple[Actor, League], alice: Actor, bob: Actor, carol: Actor
) -> None:
    ladder = ladder_with(club, alice, bob, carol)
    waiting = challenge(ladder, bob, alice)
    mine = challenge(ladder, alice, carol)
    html = logged_in(alice).get("/").content.decode()
    part = section(html, "challenges-h")
    assert "<strong>Bob</strong> challenges you on" in part and "Club ladder" in part
    assert f'action="/challenges/{waiting.pk}/accept/"' in part
    assert f'action="/challenges/{waiting.pk}/decline/"' in part
    assert (
        "You challenged <strong>Carol</strong>" in part and f'action="/challenges/{mine.pk}/cancel/"' in part
    )
    assert re.search(r"Club ladder</a> — 1st of 3", part), "unrated members by joining order: Alice first"
    assert "No challenges waiting" in section(logged_in(bob).get("/").content.decode(), "challenges-h")
    # The answer goes through the ladder's own action: accepting opens the table.
    client = logged_in(alice)
    r = client.post(f"/challenges/{waiting.pk}/accept/")
    waiting.refresh_from_db()
    assert (
        r.status_code == 302
        and waiting.table_id is not None
        and r["Location"] == f"/tables/{waiting.table_id}/"
    )


def test_anonymous_visitors_see_the_lobby(alice: Actor, bob: Actor) -> None:
    started_table([alice, bob])
    html = Client().get("/").content.decode()
    assert "<h1>Lobby</h1>" in html and "My tables" not in html and "My events" not in html


def test_my_page_reads_a_fixed_number_of_queries(
    club: tuple[Actor, League], alice: Actor, make_actor: Callable[..., Actor], settings: Any
) -> None:
    settings.RATED_GAMES_SAME_PLAYERS_PER_DAY = 0  # many rated tables with the same rivals
    organiser, league = club
    others = [make_actor(f"rival{i}") for i in range(8)]
    ladder = ladder_with(club, alice, *others[:2], name="First ladder")

    def grow(n: int, tag: str) -> None:
        """Add ``n`` of everything: tables in play and finished, events open, running and finished,
        challenges to and from Alice, ladders she is on."""
        for i in range(n):
            rival = others[i % len(others)]
            started_table([alice, rival])  # Alice's turn
            started_table([rival, alice])  # the rival's turn
            done = started_table([alice, rival], game="shacru")
            services.game_resign(table_id=done.pk, player=rival.player)
            services.table_create(creator=alice.player, game="azacru", players=3)
            t = events.tournament_create(
                organiser=organiser.player,
                league=league,
                name=f"Event {tag}{i}",
                game="pacru",
                seats=2,
                rounds=2,
            )
            events.register(tournament_id=t.pk, player=alice.player)
            events.register(tournament_id=t.pk, player=rival.player)
            if i % 3 == 1:
                events.start(tournament_id=t.pk, by=organiser.player)
            elif i % 3 == 2:
                Tournament.objects.filter(pk=t.pk).update(status="finished", finished_at=timezone.now())
            challenge(ladder, rival, alice)
            challenge(ladder, alice, rival)
            other_league = events.league_create(
                organiser=organiser.player, name=f"League {tag}{i}", slug=f"{tag}{i}"
            )
            extra = ladders.ladder_create(organiser=organiser.player, league=other_league, game="pacru")
            ladders.ladder_join(ladder=extra, player=alice.player)
            ladders.ladder_join(ladder=extra, player=rival.player)

    def count() -> int:
        client = logged_in(alice)
        client.get("/")  # sessions, caches
        with CaptureQueriesContext(connection) as queries:
            r = client.get("/")
        assert r.status_code == 200
        return len(queries)

    grow(6, "a")  # past the cap of finished events (3) already
    few = count()
    grow(6, "b")
    after = count()
    assert after == few
    html = logged_in(alice).get("/").content.decode()
    turns = section(html, "mine-h").count('class="your-turn"')
    assert turns >= 12 and f"{turns} your turn" in html
    assert section(html, "challenges-h").count("challenges you on") == 12
