"""Tables an event or a ladder pairs: no rematch there (the page links back to the event or the
ladder, and the server refuses one), and "My tables" tags each with its event round or ladder, so
two "Pacru vs Carol" tell apart. An aborted table is said in one word, "aborted", throughout."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape

import pytest
from django.test import Client

from common.errors import Forbidden
from games import services
from games.models import Table
from tournaments import ladders
from tournaments.competitions import services as events
from tournaments.models import League, Tournament

from .conftest import Actor, as_organiser, started_table

pytestmark = pytest.mark.django_db


def logged_in(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Actor, League]:
    organiser = make_actor("organiser")
    as_organiser(organiser.player)
    return organiser, events.league_create(organiser=organiser.player, name="The Club", slug="club")


def event_table(club: tuple[Actor, League], *players: Actor) -> tuple[Tournament, Table]:
    organiser, league = club
    t = events.tournament_create(
        organiser=organiser.player, league=league, name="Autumn Swiss", game="pacru", seats=2, rounds=3
    )
    for p in players:
        events.register(tournament_id=t.pk, player=p.player)
    events.start(tournament_id=t.pk, by=organiser.player)
    return t, Table.objects.get(round_table__round__tournament=t)


def ladder_table(club: tuple[Actor, League], challenger: Actor, challenged: Actor) -> tuple[int, Table]:
    organiser, league = club
    ladder = ladders.ladder_create(
        organiser=organiser.player, league=league, game="pacru", name="Club ladder"
    )
    for p in (challenged, challenger):  # the challenger joins below, and challenges up
        ladders.ladder_join(ladder=ladder, player=p.player)
    c = ladders.challenge_create(ladder=ladder, challenger=challenger.player, challenged=challenged.player)
    return ladder.pk, ladders.challenge_accept(challenge_id=c.pk, by=challenged.player)


def resign_all_but_one(table: Table, *actors: Actor) -> None:
    seated = {s.player_id for s in table.seats.all()}
    for a in [a for a in actors if a.player.pk in seated][1:]:
        services.game_resign(table_id=table.pk, player=a.player)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


def test_an_event_table_offers_the_way_back_to_the_event_not_a_rematch(
    club: tuple[Actor, League], alice: Actor, bob: Actor
) -> None:
    casual = started_table([alice, bob], rated=False)
    resign_all_but_one(casual, alice, bob)
    html = logged_in(alice).get(f"/tables/{casual.pk}/").content.decode()
    assert 'id="rematch"' in html and 'id="back-to"' not in html  # a casual table has one

    t, table = event_table(club, alice, bob)
    resign_all_but_one(table, alice, bob)
    html = logged_in(alice).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="rematch' not in html
    back = re.search(r'<a class="button primary" id="back-to" href="([^"]+)"[^>]*>([^<]+)</a>', html)
    assert back is not None and back.groups() == (f"/tournaments/{t.pk}/", "Back to the event")

    # The server refuses one too, with the reason, and makes no table.
    with pytest.raises(Forbidden, match="played for an event or a ladder"):
        services.table_rematch(table_id=table.pk, player=alice.player)
    r = logged_in(alice).post(f"/tables/{table.pk}/rematch/", follow=True)
    assert "there is no rematch; go back to the event or the ladder" in text_of(r.content.decode())
    assert not Table.objects.filter(rematch_of=table).exists()


def test_a_ladder_table_offers_the_way_back_to_the_ladder_not_a_rematch(
    club: tuple[Actor, League], alice: Actor, bob: Actor
) -> None:
    ladder_id, table = ladder_table(club, bob, alice)
    resign_all_but_one(table, alice, bob)
    html = logged_in(bob).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="rematch' not in html
    assert f'id="back-to" href="/ladders/{ladder_id}/"' in html and ">Back to the ladder</a>" in html
    count = Table.objects.count()
    r = logged_in(bob).post(f"/tables/{table.pk}/rematch/")
    assert r.status_code == 302 and r["Location"] == f"/tables/{table.pk}/"
    assert Table.objects.count() == count


def test_my_tables_tags_each_table_with_its_event_round_or_ladder(
    club: tuple[Actor, League], alice: Actor, bob: Actor
) -> None:
    t, in_event = event_table(club, alice, bob)
    ladder_id, in_ladder = ladder_table(club, bob, alice)
    casual = started_table([alice, bob], rated=False)
    html = logged_in(alice).get("/?fragment=lobby&part=mine").content.decode()
    mine = html.split('class="mine"', 1)[1].split("</ul>", 1)[0]
    items = {
        int(m.group(1)): text_of(m.group(2))
        for m in re.finditer(r'<li[^>]*>\s*<a href="/tables/(\d+)/">(.*?)</li>', mine, re.S)
    }
    assert set(items) == {in_event.pk, in_ladder.pk, casual.pk}
    assert f'href="/tournaments/{t.pk}/"' in mine and f'href="/ladders/{ladder_id}/"' in mine
    assert "Autumn Swiss, round 1" in items[in_event.pk]
    assert "Club ladder" in items[in_ladder.pk] and "Autumn Swiss" not in items[in_ladder.pk]
    assert "Autumn Swiss" not in items[casual.pk] and "Club ladder" not in items[casual.pk]


def test_an_aborted_table_is_aborted_in_every_words_of_its_page(alice: Actor, bob: Actor) -> None:
    table = services.table_create(creator=alice.player, game="pacru", players=2, rated=False)
    services.seat_leave(table_id=table.pk, player=alice.player)
    html = Client().get(f"/tables/{table.pk}/").content.decode()
    words = text_of(html)
    assert "This table was aborted before it started." in words
    assert "Status: aborted before it started" in words
    assert "called off" not in words.lower()
    # The first-move note of the page's script says "aborted" too, as the server's note does.
    with open("static/js/game.js", encoding="utf-8") as f:
        assert "called off" not in f.read()
