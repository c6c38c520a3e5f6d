"""Following players (``community.friends``), who is online (``community.presence`` and its
middleware), the friends list's reads, the API, account deletion; and the blocks' promise kept by
quick pairing and the ladder queue for blocks made through the API."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts import services as accounts
from common.errors import Forbidden, InvalidInput, NotFound
from community import friends, middleware, presence
from community.models import Follow
from games import services as games
from games.models import Seat, Table
from tests.games.conftest import Actor, as_organiser
from tests.tournaments.test_pools_wave import at, make_pool, seated_together, wait_in
from tournaments import ladders
from tournaments.competitions.services import league_create
from tournaments.pools import wave

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _nobody_seen() -> None:
    middleware.forget_all()


def _rows() -> list[tuple[int, int]]:
    return sorted(Follow.objects.values_list("player_id", "followed_id"))


# ---------------------------------------------------------------- service
def test_following_is_idempotent_one_way_and_silent(alice: Actor, bob: Actor) -> None:
    made, created = friends.follow(player=alice.player, other_id=bob.player.pk)
    assert created and made.followed_id == bob.player.pk
    again, created = friends.follow(player=alice.player, other_id=bob.player.pk)
    assert not created and again.pk == made.pk
    assert _rows() == [(alice.player.pk, bob.player.pk)]
    assert friends.is_following(alice.player, bob.player.pk)
    assert not friends.is_following(bob.player, alice.player.pk)
    assert not friends.is_following(None, bob.player.pk)
    assert friends.unfollow(player=alice.player, other_id=bob.player.pk) is True
    assert friends.unfollow(player=alice.player, other_id=bob.player.pk) is False
    assert _rows() == []


def test_refusals_yourself_unknown_and_guests(alice: Actor) -> None:
    guest = games.guest_create()
    with pytest.raises(InvalidInput, match="yourself"):
        friends.follow(player=alice.player, other_id=alice.player.pk)
    with pytest.raises(NotFound):
        friends.follow(player=alice.player, other_id=987654)
    with pytest.raises(InvalidInput, match="guest"):
        friends.follow(player=alice.player, other_id=guest.pk)
    with pytest.raises(Forbidden, match="guest accounts cannot follow"):
        friends.follow(player=guest, other_id=alice.player.pk)
    assert _rows() == []


def test_a_deleted_account_cannot_be_followed(alice: Actor, bob: Actor) -> None:
    accounts.delete_account(user=bob.player.user, password="correct-horse-9")
    with pytest.raises(NotFound):
        friends.follow(player=alice.player, other_id=bob.player.pk)


def test_deleting_an_account_removes_its_follows_both_ways(make_actor: Callable[..., Actor]) -> None:
    a, b, c = (make_actor(f"fr{i}").player for i in range(3))
    friends.follow(player=a, other_id=b.pk)
    friends.follow(player=c, other_id=a.pk)
    friends.follow(player=b, other_id=c.pk)
    accounts.delete_account(user=a.user, password="correct-horse-9")
    assert _rows() == [(b.pk, c.pk)]


# ---------------------------------------------------------------- presence and the list
def test_presence_is_seen_within_five_minutes(alice: Actor) -> None:
    uid = alice.player.user_id
    assert presence.online_ids([uid]) == set()
    presence.mark_seen(uid, now=1000.0)
    assert presence.online_ids([uid], now=1000.0 + presence.ONLINE_SECONDS) == {uid}
    assert presence.online_ids([uid], now=1001.0 + presence.ONLINE_SECONDS) == set()
    assert presence.online_ids([]) == set()


def test_the_middleware_writes_at_most_once_a_minute_and_reads_nothing(
    alice: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes: list[int] = []
    monkeypatch.setattr(presence, "mark_seen", lambda user_id, **_: writes.append(user_id))
    uid = alice.player.user_id
    middleware.seen(uid, now=10.0)
    middleware.seen(uid, now=40.0)
    middleware.seen(uid, now=69.9)
    assert writes == [uid]
    middleware.seen(uid, now=70.0)
    assert writes == [uid, uid]


def test_a_signed_in_request_marks_the_player_online_and_the_middleware_reads_nothing(
    alice: Actor, bob: Actor
) -> None:
    page = Client()
    page.force_login(bob.player.user)
    assert presence.online_ids([bob.player.user_id]) == set()
    page.get(f"/players/{alice.player.pk}/")
    assert presence.online_ids([bob.player.user_id]) == {bob.player.user_id}
    # An API request by token counts too (DRF sets the request's user in the view).
    alice.get("/api/v1/follows/")
    assert presence.online_ids([alice.player.user_id]) == {alice.player.user_id}
    middleware.forget_all()
    with CaptureQueriesContext(connection) as queries:
        middleware.seen(alice.player.user_id)
    assert queries.captured_queries == []


def test_friends_are_listed_online_first_with_the_game_they_play(make_actor: Callable[..., Actor]) -> None:
    me, zed, amy, bea = (make_actor(n).player for n in ("me", "zed", "amy", "bea"))
    for p in (zed, amy, bea):
        friends.follow(player=me, other_id=p.pk)
    presence.mark_seen(zed.user_id)
    table = games.table_create(creator=bea, game="shacru", players=2, rated=False)
    games.seat_join(table_id=table.pk, player=make_actor("opp").player)
    listed = friends.friends(player=me)
    assert [(f.name, f.online, f.playing) for f in listed] == [
        ("Zed", True, None),
        ("Bea", False, table.pk),
        ("Amy", False, None),
    ]
    assert friends.friends(player=zed) == []


def test_the_list_reads_a_fixed_number_of_queries(make_actor: Callable[..., Actor]) -> None:
    me = make_actor("many").player
    for i in range(6):
        friends.follow(player=me, other_id=make_actor(f"f{i}").player.pk)
    with CaptureQueriesContext(connection) as reads:
        assert len(friends.friends(player=me)) == 6
    assert len(reads.captured_queries) == 2


# ---------------------------------------------------------------- API
def test_the_api_follows_lists_and_unfollows(alice: Actor, bob: Actor) -> None:
    url = f"/api/v1/players/{bob.player.pk}/follow/"
    first = alice.post(url)
    assert first.status_code == 201, first.content
    assert first.json()["player"]["id"] == bob.player.pk
    assert alice.post(url).status_code == 200
    listed = alice.get("/api/v1/follows/").json()
    assert listed == [{"id": bob.player.pk, "name": "Bob", "online": False, "playing": None}]
    assert alice.client.delete(url).status_code == 204
    assert alice.client.delete(url).status_code == 204
    assert alice.get("/api/v1/follows/").json() == []


def test_the_api_refusals(alice: Actor) -> None:
    assert alice.post(f"/api/v1/players/{alice.player.pk}/follow/").status_code == 400
    assert alice.post("/api/v1/players/987654/follow/").status_code == 404
    assert APIClient().get("/api/v1/follows/").status_code == 401
    assert APIClient().post(f"/api/v1/players/{alice.player.pk}/follow/").status_code == 401
    assert _rows() == []


# ---------------------------------------------------------------- pages
def _signed_in(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def test_the_player_page_follows_and_unfollows(alice: Actor, bob: Actor) -> None:
    page = _signed_in(alice)
    body = page.get(f"/players/{bob.player.pk}/").content.decode()
    assert f'action="/players/{bob.player.pk}/follow/"' in body
    assert page.post(f"/players/{bob.player.pk}/follow/")["Location"] == f"/players/{bob.player.pk}/"
    assert _rows() == [(alice.player.pk, bob.player.pk)]
    assert (
        f'action="/players/{bob.player.pk}/unfollow/"'
        in page.get(f"/players/{bob.player.pk}/").content.decode()
    )
    page.post(f"/players/{bob.player.pk}/unfollow/")
    assert _rows() == []
    assert 'id="follow-player"' not in page.get(f"/players/{alice.player.pk}/").content.decode()
    assert 'id="follow-player"' not in Client().get(f"/players/{bob.player.pk}/").content.decode()


def test_my_page_lists_friends_with_watch_and_challenge(make_actor: Callable[..., Actor]) -> None:
    me, pal, opp = make_actor("me"), make_actor("pal"), make_actor("opp")
    friends.follow(player=me.player, other_id=pal.player.pk)
    table = games.table_create(creator=pal.player, game="shacru", players=2, rated=False)
    games.seat_join(table_id=table.pk, player=opp.player)
    presence.mark_seen(pal.player.user_id)
    body = _signed_in(me).get("/").content.decode()
    assert 'id="friends"' in body and "Pal" in body
    assert f'href="/tables/{table.pk}/"' in body  # watch
    assert f'href="/players/{pal.player.pk}/#challenge"' in body
    empty = _signed_in(opp).get("/").content.decode()
    assert "You follow nobody yet" in empty


# ---------------------------------------------------------------- blocks: quick pairing and the queue
def test_quick_pairing_never_seats_a_pair_blocked_through_the_api(make_actor: Callable[..., Actor]) -> None:
    pool = make_pool(players=2, rated=False)
    ann, ben, cat, dan = (make_actor(n) for n in ("qann", "qben", "qcat", "qdan"))
    assert ben.post(f"/api/v1/players/{ann.player.pk}/block/").status_code == 201
    assert cat.post(f"/api/v1/players/{dan.player.pk}/block/").status_code == 201
    wait_in(pool, [ann.player, ben.player, cat.player, dan.player], at(0))
    assert wave.sweep(now=at(10))["tables"] == 2
    pairs = [seated_together(t) for t in Table.objects.filter(pool_table__isnull=False)]
    assert {ann.player.pk, ben.player.pk} not in pairs and {cat.player.pk, dan.player.pk} not in pairs


def test_the_ladder_queue_never_seats_a_pair_blocked_through_the_api(
    make_actor: Callable[..., Actor],
) -> None:
    org = make_actor("qboss")
    league = league_create(organiser=as_organiser(org.player), name="Queue Friends Club")
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="pacru", seats=3)
    people = [make_actor(f"lq{i}") for i in range(4)]
    for p in people:
        ladders.ladder_join(ladder=ladder, player=p.player)
        ladders.queue_join(ladder=ladder, player=p.player)
    assert people[0].post(f"/api/v1/players/{people[1].player.pk}/block/").status_code == 201
    made = ladders.matchmake(ladder=ladder)
    assert len(made) == 1
    seated = set(Seat.objects.filter(table=made[0]).values_list("player_id", flat=True))
    assert not {people[0].player.pk, people[1].player.pk} <= seated and len(seated) == 3
