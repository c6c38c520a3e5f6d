"""Rating farms (issue 29, finding 3): a game that ends before every seat has moved is aborted and
rated for nobody, and the same two accounts play at most ``RATED_GAMES_SAME_PLAYERS_PER_DAY`` rated
games a day. Organised events keep their scoring and are exempt from the pair limit."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from engine.playout import random_step
from games import services
from games.models import Player, Seat, Table
from games.results import GameResult
from ratings.models import Rating, RatingChange
from ratings.services import rate_pending
from tests.games.conftest import Actor, ladder_for
from tournaments import ladders
from tournaments.models import Challenge, LadderMember


@pytest.fixture(autouse=True)
def _limits(settings: Any) -> None:
    settings.RATED_GAMES_SAME_PLAYERS_PER_DAY = 5
    # No throttle between the requests of a farm (the API's write throttles are not under test).
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}


def _move(table: Table, player: Player) -> Table:
    """``player`` (on turn) plays a legal move through the service."""
    state = services.current_state(table)
    _, text = random_step(state, random.Random(table.ply))
    return services.move_submit(table_id=table.pk, player=player, ply=table.ply, move=text).table


def _leaderboard(actor: Actor, game: str = "shacru") -> list[Any]:
    body = actor.get(f"/api/v1/ratings/{game}/").json()
    return body["results"] if isinstance(body, dict) else body


def test_twenty_resigns_at_ply_0_leave_the_ratings_and_the_leaderboard_untouched(
    alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    for i in range(20):
        with django_capture_on_commit_callbacks(execute=True):  # game_finished → the rating task
            r = alice.post("/api/v1/tables/", {"game": "shacru", "players": 2, "rated": True})
            assert r.status_code == 201, r.content
            table_id = r.json()["id"]
            assert bob.post(f"/api/v1/tables/{table_id}/join/").status_code == 200
            loser = bob if i % 2 else alice
            assert loser.post(f"/api/v1/tables/{table_id}/resign/").status_code == 200
        shown = alice.get(f"/api/v1/tables/{table_id}/").json()
        assert shown["status"] == "finished" and shown["rated"] is False
        assert shown["result"]["aborted"] is True
    rate_pending()
    assert Rating.objects.count() == 0 and RatingChange.objects.count() == 0
    assert _leaderboard(alice) == []
    # The game page and the player's history say why.
    page = alice.client.get(f"/tables/{table_id}/").content.decode()
    assert "aborted before every player had moved: not rated" in page and "Not rated (aborted)" in page
    history = alice.client.get(f"/players/{bob.player.pk}/").content.decode()
    assert "aborted: not rated" in history


def test_a_game_where_every_seat_moved_once_then_one_resigned_is_rated(
    alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table = services.table_create(creator=alice.player, game="shacru", players=2, rated=True)
        services.seat_join(table_id=table.pk, player=bob.player)
        table.refresh_from_db()
        table = _move(table, alice.player)
        table = _move(table, bob.player)
        services.game_resign(table_id=table.pk, player=alice.player)
    table.refresh_from_db()
    assert table.rated is True and "aborted" not in table.result
    rate_pending()
    assert {r.player_id for r in Rating.objects.filter(game="shacru")} == {alice.player.pk, bob.player.pk}
    assert len(_leaderboard(alice)) == 2


@pytest.mark.parametrize("seats", [3, 4])
def test_at_three_or_four_seats_a_seat_that_never_moved_aborts_the_rating(
    make_actor: Callable[..., Actor], seats: int, django_capture_on_commit_callbacks: Any
) -> None:
    people = [make_actor(f"p{i}").player for i in range(seats)]
    sent: list[GameResult] = []

    def on_finish(sender: Any, result: GameResult, **kw: Any) -> None:
        sent.append(result)

    from games.events import game_finished

    game_finished.connect(on_finish)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            table = services.table_create(creator=people[0], game="azacru", players=seats, rated=True)
            for p in people[1:]:
                services.seat_join(table_id=table.pk, player=p)
            table.refresh_from_db()
            for p in people[:-1]:  # everyone moves once but the last seat, which resigns unmoved
                table = _move(table, p)
            services.game_resign(table_id=table.pk, player=people[-1])
            for p in people[:-2]:  # the others play on, then resign, until one is left
                services.game_resign(table_id=table.pk, player=p)
    finally:
        game_finished.disconnect(on_finish)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.rated is False and table.result["aborted"]
    assert len(sent) == 1 and sent[0].aborted and not sent[0].rated
    assert GameResult.from_dict(sent[0].to_dict()) == sent[0]
    rate_pending()
    assert not Rating.objects.exists()


def _rated_game(a: Player, b: Player) -> Table:
    """A rated 2-player game in which both moved, then ``a`` resigned: it counts and is rated."""
    table = services.table_create(creator=a, game="shacru", players=2, rated=True)
    services.seat_join(table_id=table.pk, player=b)
    table.refresh_from_db()
    table = _move(table, a)
    table = _move(table, b)
    return services.game_resign(table_id=table.pk, player=a)


def test_the_sixth_rated_game_between_the_same_players_in_a_day_is_refused(alice: Actor, bob: Actor) -> None:
    for _ in range(5):
        _rated_game(alice.player, bob.player)
    r = alice.post("/api/v1/tables/", {"game": "shacru", "players": 2, "rated": True})
    table_id = r.json()["id"]
    refused = bob.post(f"/api/v1/tables/{table_id}/join/")
    assert refused.status_code == 409, refused.content
    body = refused.json()
    assert body["code"] == "rated_pair_limit" and body["limit"] == 5 and body["player"] == alice.player.pk
    assert "you have played 5 rated games with Alice in the last 24 hours" in body["detail"]
    assert "unrated" in body["detail"]
    assert list(Seat.objects.filter(table_id=table_id).values_list("player_id", flat=True)) == [
        alice.player.pk
    ]
    assert Table.objects.get(pk=table_id).status == Table.Status.OPEN
    # Unrated, they play on.
    casual = alice.post("/api/v1/tables/", {"game": "shacru", "players": 2, "rated": False}).json()["id"]
    assert bob.post(f"/api/v1/tables/{casual}/join/").status_code == 200
    # A day later the first games no longer count.
    Table.objects.filter(rated=True, status=Table.Status.FINISHED).update(
        started_at=timezone.now() - timedelta(hours=25)
    )
    assert bob.post(f"/api/v1/tables/{table_id}/join/").status_code == 200


def test_a_third_player_is_told_which_two_are_over_the_limit(
    alice: Actor, bob: Actor, carol: Actor, settings: Any
) -> None:
    settings.RATED_GAMES_SAME_PLAYERS_PER_DAY = 1
    _rated_game(alice.player, bob.player)
    table = services.table_create(creator=carol.player, game="azacru", players=3, rated=True)
    services.seat_join(table_id=table.pk, player=alice.player)
    refused = bob.post(f"/api/v1/tables/{table.pk}/join/")
    assert refused.status_code == 409 and "with Alice" in refused.json()["detail"]
    # Staying under the limit elsewhere: the seats they already hold stay as they were.
    assert Seat.objects.filter(table=table).count() == 2


def test_aborted_games_do_not_count_towards_the_limit(alice: Actor, bob: Actor, settings: Any) -> None:
    settings.RATED_GAMES_SAME_PLAYERS_PER_DAY = 1
    for _ in range(3):
        table = services.table_create(creator=alice.player, game="shacru", players=2, rated=True)
        services.seat_join(table_id=table.pk, player=bob.player)
        services.game_resign(table_id=table.pk, player=bob.player)
    table = services.table_create(creator=alice.player, game="shacru", players=2, rated=True)
    services.seat_join(table_id=table.pk, player=bob.player)  # not refused


def test_ladder_games_are_exempt_and_keep_their_scoring_when_aborted(
    alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    ladder = ladder_for(alice, bob)  # alice 1st, bob 2nd
    for _ in range(5):
        _rated_game(alice.player, bob.player)
    rate_pending()
    # Over the pair limit, the organised challenge still gets its rated table.
    c = ladders.challenge_create(ladder=ladder, challenger=bob.player, challenged=alice.player)
    with django_capture_on_commit_callbacks(execute=True):
        table = ladders.challenge_accept(challenge_id=c.pk, by=alice.player)
        assert table.status == Table.Status.ACTIVE and table.rated
        before = dict(Rating.objects.values_list("player_id", "mu"))
        changes = RatingChange.objects.count()
        # The challenged player resigns before moving: the ladder scores it, the ratings do not.
        services.game_resign(table_id=table.pk, player=alice.player)
    c.refresh_from_db()
    assert c.outcome == Challenge.Outcome.CHALLENGER
    assert LadderMember.objects.get(ladder=ladder, player=bob.player).position == 1
    rate_pending()
    table.refresh_from_db()
    assert table.rated is False and table.result["aborted"] is True
    assert dict(Rating.objects.values_list("player_id", "mu")) == before
    assert RatingChange.objects.count() == changes


def test_the_leaderboard_states_both_rules(db: None, client: Any, settings: Any) -> None:
    html = client.get("/ratings/shacru/").content.decode()
    assert "ended before every player had made a move" in html and "rated for nobody" in html
    assert "at most 5 rated games with each other in any 24 hours" in html
    settings.RATED_GAMES_SAME_PLAYERS_PER_DAY = 0  # no limit: nothing said of one
    assert "in any 24 hours" not in client.get("/ratings/shacru/").content.decode()
