"""Outside bot accounts (``live.bot_api``): a fresh account becomes one with
``POST /api/v1/account/bot/``, staff mark accounts in the admin; such a bot plays unrated tables
only (like the house bots), the service never moves for it, and it cannot take a house bot's name.
Runs on SQLite as on PostgreSQL: no server, the API through DRF's test client."""

from __future__ import annotations

import importlib.util
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import engine
from common.errors import InvalidInput
from games import botplay, services
from games.housebots import house_bot
from games.models import Player, Table
from tests.games.conftest import Actor, as_organiser
from tournaments import ladders
from tournaments.competitions import services as events
from tournaments.models import LadderMember, Registration

URL = "/api/v1/account/bot/"


def _reload(actor: Actor) -> Player:
    return Player.objects.get(pk=actor.player.pk)


def test_a_fresh_account_becomes_an_outside_bot_and_asking_again_changes_nothing(alice: Actor) -> None:
    r = alice.post(URL)
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["id"] == alice.player.pk and body["is_bot"] is True and body["tables_played"] == 0
    player = _reload(alice)
    assert player.is_bot and player.bot_level == "" and player.is_outside_bot and not player.is_house_bot
    again = alice.post(URL)
    assert again.status_code == 200 and again.json()["is_bot"] is True
    assert Player.objects.filter(is_bot=True).count() == 1


def test_an_account_that_has_played_is_refused_with_the_reason(alice: Actor, bob: Actor) -> None:
    table = services.table_create(creator=bob.player, game="shacru", players=2, rated=False)
    services.seat_join(table_id=table.pk, player=alice.player)
    r = alice.post(URL)
    assert r.status_code == 409
    body = r.json()
    assert body["code"] == "account_not_fresh"
    assert "sat at 1 table" in body["detail"] and "make a new account" in body["detail"]
    assert body["reasons"] == ["it has sat at 1 table"]
    # bob opened the table and sat at it: both are named.
    assert bob.post(URL).json()["reasons"] == ["it has sat at 1 table", "it has opened 1 table"]
    assert not Player.objects.filter(is_bot=True).exists()


def test_an_event_entrant_a_ladder_member_and_an_organiser_stay_people(
    make_actor: Callable[..., Actor],
) -> None:
    org = make_actor("org")
    league = events.league_create(organiser=as_organiser(org.player), name="Club")
    cup = events.tournament_create(
        organiser=org.player, league=league, name="Cup", game="shacru", seats=2, open_registration=True
    )
    entrant, climber = make_actor("entrant"), make_actor("climber")
    events.register(tournament_id=cup.pk, player=entrant.player)
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="shacru")
    ladders.ladder_join(ladder=ladder, player=climber.player)
    expected = {
        entrant: "it has registered for an event",
        climber: "it has joined a ladder",
        org: "it is a staff or organiser account (bots cannot organise)",
    }
    for actor, reason in expected.items():
        r = actor.post(URL)
        assert r.status_code == 409 and r.json()["reasons"] == [reason], r.content
    assert not Player.objects.filter(is_bot=True).exists()


def test_anonymous_is_401_and_a_guest_is_told_to_make_an_account(db: None) -> None:
    r = APIClient().post(URL, {}, format="json")
    assert r.status_code == 401
    guest = services.guest_create()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=guest.user).key}")
    r = client.post(URL, {}, format="json")
    assert r.status_code == 403 and "create an account" in r.json()["detail"]
    guest.refresh_from_db()
    assert not guest.is_bot


def test_an_outside_bot_plays_casual_tables_and_the_service_never_moves_for_it(alice: Actor) -> None:
    assert alice.post(URL).status_code == 200
    r = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": False})
    assert r.status_code == 201, r.content
    table_id = r.json()["id"]
    assert alice.post(f"/api/v1/tables/{table_id}/invite-bot/", {"level": "random"}).status_code == 200
    table = Table.objects.get(pk=table_id)
    assert table.status == Table.Status.ACTIVE and table.to_move == 1
    # Seat 1 is alice's bot account: only the house bot's seat is the service's to play.
    assert table.bot_seats == [2]
    assert botplay.bot_turn(table_id=table_id) == "not-a-bot"
    assert botplay.run_bot_turns() == 0
    detail = alice.get(f"/api/v1/tables/{table_id}/").json()
    move = detail["base_moves"][0]
    effects = detail["choices"][move]["effects"]
    notation = f"{move}({effects[0]})" if effects else move
    played = alice.post(f"/api/v1/tables/{table_id}/moves/", {"ply": 0, "move": notation})
    assert played.status_code == 201, played.content
    # Now the house bot is on turn, and the service plays it.
    assert botplay.run_bot_turns() == 1
    table.refresh_from_db()
    assert table.ply == 2 and table.to_move == 1


def test_an_outside_bot_plays_no_rated_game_event_or_ladder(
    alice: Actor, bob: Actor, make_actor: Callable[..., Actor]
) -> None:
    assert alice.post(URL).status_code == 200
    rated = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": True})
    assert rated.status_code == 403 and "unrated tables only" in rated.json()["detail"]
    theirs = services.table_create(creator=bob.player, game="pacru", players=2, rated=True)
    joined = alice.post(f"/api/v1/tables/{theirs.pk}/join/")
    assert joined.status_code == 403 and "unrated tables only" in joined.json()["detail"]
    assert list(Table.objects.get(pk=theirs.pk).seats.values_list("player_id", flat=True)) == [bob.player.pk]
    # The house bots' rule is unchanged: they are not entered into rated tables by players either.
    casual = services.table_create(creator=bob.player, game="pacru", players=2, rated=False)
    assert alice.post(f"/api/v1/tables/{casual.pk}/join/").status_code == 200
    org = make_actor("org")
    league = events.league_create(organiser=as_organiser(org.player), name="Club")
    cup = events.tournament_create(
        organiser=org.player, league=league, name="Cup", game="pacru", seats=2, open_registration=True
    )
    entered = alice.post(f"/api/v1/tournaments/{cup.pk}/register/")
    assert entered.status_code == 403 and "unrated tables only" in entered.json()["detail"]
    ladder = ladders.ladder_create(organiser=org.player, league=league, game="pacru")
    climbed = alice.post(f"/api/v1/ladders/{ladder.pk}/join/")
    assert climbed.status_code == 403 and "unrated tables only" in climbed.json()["detail"]
    assert not Registration.objects.filter(player=alice.player).exists()
    assert not LadderMember.objects.filter(player=alice.player).exists()


def test_an_outside_bot_cannot_take_a_house_bot_name_but_house_bots_keep_theirs(alice: Actor) -> None:
    assert alice.post(URL).status_code == 200
    player = _reload(alice)
    with pytest.raises(InvalidInput, match="reserved for the house bots"):
        services.player_rename(player=player, display_name="Random Bot 4")
    assert services.player_rename(player=player, display_name="Alice's Randobot").display_name == (
        "Alice's Randobot"
    )
    bot = house_bot("greedy")
    assert services.player_rename(player=bot, display_name="Greedy Bot").display_name == "Greedy Bot"


def test_staff_mark_outside_bots_in_the_admin_and_guests_and_house_bots_are_left_alone(
    alice: Actor, bob: Actor
) -> None:
    boss = get_user_model().objects.create_superuser("boss", email="boss@example.org", password="x-9-long-pw")
    client = Client()
    client.force_login(boss)
    table = services.table_create(creator=bob.player, game="shacru", players=2, rated=False)
    guest, greedy = services.guest_create(), house_bot("greedy")
    chosen = [alice.player.pk, bob.player.pk, guest.pk, greedy.pk]
    r = client.post(
        "/admin/games/player/",
        {"action": "mark_outside_bot", "_selected_action": [str(pk) for pk in chosen]},
        follow=True,
    )
    assert r.status_code == 200
    assert "2 account(s) marked as outside bots; 2 left as they were" in r.content.decode()
    rows = dict(Player.objects.filter(pk__in=chosen).values_list("pk", "bot_level"))
    bots = set(Player.objects.filter(pk__in=chosen, is_bot=True).values_list("pk", flat=True))
    # Staff may mark an account that has played (bob opened a table); the player may not.
    assert bots == {alice.player.pk, bob.player.pk, greedy.pk}
    assert rows[alice.player.pk] == rows[bob.player.pk] == "" and rows[greedy.pk] == "greedy"
    assert _reload(bob).is_outside_bot and table.seats.count() == 1


def _example_bot() -> ModuleType:
    """``examples/random_bot.py`` (a script, not a package) loaded as a module."""
    path = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"
    spec = importlib.util.spec_from_file_location("random_bot", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game,players", [("pacru", 2), ("pacru", 4), ("shacru", 3), ("azacru", 2)])
def test_the_example_bots_moves_are_legal_in_every_game(
    game: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The example bot builds its moves from what the API serves (``turn_options``: the table
    detail's base_moves, choices and reorient); the engine must accept every one of them."""
    bot = _example_bot()
    monkeypatch.setattr(bot, "REORIENT_CHANCE", 0.3)  # reorientations often, where affordable
    rng = random.Random(11)
    seen: set[str] = set()
    for _ in range(3):
        state = engine.new_game(game, players, ply_limit=150)
        while not state.is_over:
            options = json.loads(json.dumps(state.turn_options()))  # as the API serves them
            move = bot.choose_move({**options, "game": game}, rng)
            state = state.play(move)  # raises engine.IllegalMove on a wrong notation
            base, _, tokens = move.partition("(")
            seen.add("reorient" if re.fullmatch(r"[a-z]\d+[<>]{1,2}", base) else "move")
            if tokens:
                seen.add("choices")
    expected = {"move", "choices", "reorient"} if game == "pacru" else {"move"}
    assert expected <= seen


def test_a_player_challenges_an_outside_bot_to_a_table(alice: Actor, bob: Actor, carol: Actor) -> None:
    """Inviting an outside bot by its player id seats it at once; the table starts when full and
    the bot's program plays it (the service does not)."""
    assert bob.post(URL).status_code == 200
    table = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": False}).json()
    r = alice.post(f"/api/v1/tables/{table['id']}/invite-bot/", {"player": bob.player.pk})
    assert r.status_code == 200, r.content
    started = Table.objects.get(pk=table["id"])
    assert started.status == Table.Status.ACTIVE and started.bot_seats == []
    # Only a bot account, only unrated tables, only by the table's people, and one kind at a time.
    other = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": False}).json()
    assert (
        alice.post(f"/api/v1/tables/{other['id']}/invite-bot/", {"player": carol.player.pk}).status_code
        == 400
    )
    assert (
        carol.post(f"/api/v1/tables/{other['id']}/invite-bot/", {"player": bob.player.pk}).status_code == 403
    )
    both = alice.post(
        f"/api/v1/tables/{other['id']}/invite-bot/", {"player": bob.player.pk, "level": "random"}
    )
    assert both.status_code == 400
    rated = alice.post("/api/v1/tables/", {"game": "pacru", "players": 2, "rated": True}).json()
    assert (
        alice.post(f"/api/v1/tables/{rated['id']}/invite-bot/", {"player": bob.player.pk}).status_code == 409
    )
    assert Table.objects.get(pk=other["id"]).seats.count() == 1
