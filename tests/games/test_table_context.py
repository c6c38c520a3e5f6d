"""A table's page says where the game belongs (an event's round and board, a ladder challenge or
queue), and the no-show rule as it will really be applied; a finished no-show says "no-show"."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Move, Seat, Table
from games.services.timeouts import clock_timeout_apply
from games.services.transitions import grace
from tournaments import ladders
from tournaments.competitions import services as events
from tournaments.models import Challenge, League, Tournament
from web import my_reads

from .conftest import Actor, as_organiser, started_table

pytestmark = pytest.mark.django_db

BLITZ = {"kind": "fischer", "base": 180, "increment": 2}


def logged_in(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def page(table: Table, actor: Actor | None = None) -> str:
    client = logged_in(actor) if actor else Client()
    r = client.get(f"/tables/{table.pk}/")
    assert r.status_code == 200
    return r.content.decode()


def note(text: str) -> str:
    """The no-show note, tags stripped ("" when there is none)."""
    found = re.search(r'<p class="no-show-note"[^>]*>(.*?)</p>', text, re.S)
    return unescape(re.sub(r"<[^>]+>", "", found.group(1))) if found else ""


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Actor, League]:
    organiser = make_actor("organiser")
    as_organiser(organiser.player)
    return organiser, events.league_create(organiser=organiser.player, name="The Club", slug="club")


def event_table(club: tuple[Actor, League], *players: Actor, **options: Any) -> tuple[Tournament, Table]:
    organiser, league = club
    t = events.tournament_create(
        organiser=organiser.player,
        league=league,
        name="Autumn Swiss",
        game="pacru",
        seats=2,
        rounds=3,
        **options,
    )
    for p in players:
        events.register(tournament_id=t.pk, player=p.player)
    events.start(tournament_id=t.pk, by=organiser.player)
    return t, Table.objects.get(round_table__round__tournament=t)


def on_turn(table: Table, *actors: Actor) -> tuple[Actor, Actor]:
    """The actor on turn and the other one."""
    first = table.seats.get(number=table.to_move).player_id
    a, b = actors
    return (a, b) if a.player.pk == first else (b, a)


def test_an_event_table_links_its_event_round_and_board(
    club: tuple[Actor, League], alice: Actor, bob: Actor, django_assert_num_queries: Any
) -> None:
    t, table = event_table(club, alice, bob)
    html = page(table)
    assert f'Part of <a href="/tournaments/{t.pk}/">Autumn Swiss · round 1 · board 1</a>' in html
    with django_assert_num_queries(1):
        assert my_reads.table_belongs(table) is not None


def test_a_challenge_table_links_its_ladder(club: tuple[Actor, League], alice: Actor, bob: Actor) -> None:
    organiser, league = club
    ladder = ladders.ladder_create(
        organiser=organiser.player, league=league, game="pacru", name="Club ladder"
    )
    for p in (alice, bob):
        ladders.ladder_join(ladder=ladder, player=p.player)
    c = ladders.challenge_create(ladder=ladder, challenger=bob.player, challenged=alice.player)
    table = ladders.challenge_accept(challenge_id=c.pk, by=alice.player)
    assert Challenge.objects.get(pk=c.pk).table_id == table.pk
    assert f'Part of <a href="/ladders/{ladder.pk}/">Club ladder: challenge by Bob to Alice</a>' in page(
        table
    )


def test_a_queue_table_links_its_ladder(
    club: tuple[Actor, League], alice: Actor, bob: Actor, carol: Actor
) -> None:
    organiser, league = club
    ladder = ladders.ladder_create(
        organiser=organiser.player, league=league, game="azacru", seats=3, name="Trio"
    )
    for p in (alice, bob, carol):
        ladders.ladder_join(ladder=ladder, player=p.player)
        ladders.queue_join(ladder=ladder, player=p.player)
    (table,) = ladders.matchmake(ladder=ladder, now=timezone.now() + timedelta(hours=1))
    assert f'Part of <a href="/ladders/{ladder.pk}/">Trio: table from the matchmaking queue</a>' in page(
        table
    )
    # The same players at a table of the same kind outside the queue: no ladder claimed.
    other = started_table([alice, bob, carol], game="azacru")
    assert "Part of" not in page(other)
    casual = started_table([alice, bob], game="azacru")
    assert "Part of" not in page(casual)


def test_the_no_show_rule_of_an_event_table_is_said_to_each_reader(
    club: tuple[Actor, League], alice: Actor, bob: Actor, carol: Actor
) -> None:
    _, table = event_table(club, alice, bob, time_control=BLITZ)
    assert table.no_show == "timeout" and table.ply == 0 and table.deadline is not None
    mover, other = on_turn(table, alice, bob)
    at = table.deadline.strftime("%H:%M")
    html = page(table, mover)
    assert note(html) == f"If you do not move by {at} (UTC) you lose this game (no-show)."
    assert f'<time datetime="{table.deadline.isoformat()}">{at}</time>' in html
    name = mover.player.display_name
    assert (
        note(page(table, other)) == f"If {name} does not move by {at} (UTC) {name} loses this game (no-show)."
    )
    spectator = note(page(table, carol))
    assert (
        spectator
        == f"{name}'s first move is due by {at} (UTC); without it {name} is out of this game as a no-show."
    )
    assert note(page(table)) == spectator


def test_the_no_show_rule_of_a_casual_table_is_an_abort(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], time_control=BLITZ, rated=False)
    assert table.no_show == "abort" and table.deadline is not None
    at = table.deadline.strftime("%H:%M")
    assert note(page(table, alice)) == f"If you do not move by {at} (UTC) the table is aborted."
    assert note(page(table, bob)) == f"If Alice does not move by {at} (UTC) the table is aborted."
    assert "aborted" in note(page(table)) and "lose" not in note(page(table))


def test_no_note_once_moved_or_without_a_clock(alice: Actor, bob: Actor) -> None:
    untimed = started_table([alice, bob])
    assert untimed.deadline is None and note(page(untimed, alice)) == ""
    timed = started_table([alice, bob], time_control=BLITZ)
    state = services.current_state(timed)
    services.move_submit(table_id=timed.pk, player=alice.player, ply=0, move=state.legal_moves()[0])
    assert note(page(timed, bob)) == ""


def test_a_finished_no_show_says_no_show_not_a_timeout(
    club: tuple[Actor, League], alice: Actor, bob: Actor
) -> None:
    _, table = event_table(club, alice, bob, time_control=BLITZ)
    mover, other = on_turn(table, alice, bob)
    assert (
        clock_timeout_apply(table_id=table.pk, now=table.deadline + grace() + timedelta(seconds=1))
        == "timeout"
    )
    table.refresh_from_db()
    assert (
        table.status == Table.Status.FINISHED and not Move.objects.filter(table=table, kind="move").exists()
    )
    assert table.seats.get(player=mover.player).elimination_reason == Seat.Reason.TIMEOUT
    html = page(table, other)
    result = re.search(r'<p class="result-words">(.*?)</p>', html, re.S)
    assert result is not None
    said = re.sub(r"<[^>]+>", "", result.group(1))
    assert said.startswith(f"{other.player.display_name} won")
    assert f"{mover.player.display_name}: no-show (never moved)" in said
    assert "lost on time" not in html and "timeout" not in said
    noscript = html.split("<noscript>", 1)[1]
    assert "out: no-show (never moved)" in noscript and "lost on time" not in noscript
    # The script is told which seats were no-shows (static/js/game.js reads ``boot``).
    boot = re.search(r'<script id="boot" type="application/json">(.*?)</script>', html, re.S)
    assert boot is not None and '"noShow": "timeout"' in boot.group(1)
    seat = table.seats.get(player=mover.player).number
    assert f'"noShowSeats": [{seat}]' in boot.group(1)


def test_a_casual_table_nobody_started_says_it_was_aborted(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], time_control=BLITZ, rated=False)
    assert (
        clock_timeout_apply(table_id=table.pk, now=table.deadline + grace() + timedelta(seconds=1))
        == "aborted"
    )
    html = page(table, bob)
    assert "This table was aborted: nobody moved in time." in html
