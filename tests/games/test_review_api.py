"""GET /api/v1/tables/<id>/review/: every action of a table with its effects in words; and a
refused move's reason that does not repeat the move (the page shows it next to the move)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Move, Table

from .conftest import Actor, play_random, started_table

pytestmark = pytest.mark.django_db


def review_url(table: Table) -> str:
    return f"/api/v1/tables/{table.pk}/review/"


def test_each_move_comes_with_its_effects_in_words(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob])
    for ply, (actor, move) in enumerate([(alice, "a3-b4(c5)"), (bob, "a7-b7"), (alice, "e1-e2")]):
        assert actor.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": ply, "move": move}).status_code == 201
    body = bob.get(review_url(table)).json()
    assert body == {
        "moves": [
            {
                "seq": 0,
                "ply": 1,
                "seat": 1,
                "kind": "move",
                "notation": "a3-b4(c5)",
                "effects": [
                    "a3-b4: moves 1 field NE, crossing into borderland b5",
                    "borderland change in b5: marker on c5",
                ],
            },
            {
                "seq": 1,
                "ply": 2,
                "seat": 2,
                "kind": "move",
                "notation": "a7-b7",
                "effects": ["a7-b7: moves 1 field E"],
            },
            {
                "seq": 2,
                "ply": 3,
                "seat": 1,
                "kind": "move",
                "notation": "e1-e2",
                "effects": ["e1-e2: moves 1 field N"],
            },
        ]
    }


def test_a_finished_game_reviews_every_action_with_the_players_names(
    alice: Actor, bob: Actor, carol: Actor
) -> None:
    players = {1: alice.player, 2: bob.player, 3: carol.player}
    table = play_random(started_table([alice, bob, carol]), players, plies=6)
    services.game_resign(table_id=table.pk, player=bob.player)
    services.game_resign(table_id=table.pk, player=carol.player)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    moves = list(Move.objects.filter(table=table).order_by("seq"))
    body = APIClient().get(review_url(table)).json()  # anyone may read it, as the table itself
    assert [(m["seq"], m["kind"], m["notation"]) for m in body["moves"]] == [
        (m.seq, m.kind, m.notation) for m in moves
    ]
    for entry in body["moves"][:6]:
        assert entry["effects"] and entry["effects"][0].startswith(entry["notation"][:2]), entry
    assert body["moves"][-2]["effects"] == ["Bob resigns and is out; the markers stay on the board"]
    assert body["moves"][-1]["effects"] == [
        "Carol resigns and is out; the markers stay on the board",
        "only Alice is left in: the game ends, Alice wins",
    ]


def test_a_table_that_has_not_started_has_nothing_to_review(alice: Actor) -> None:
    table = services.table_create(creator=alice.player, game="shacru", players=2)
    assert alice.get(review_url(table)).json() == {"moves": []}


def test_a_missing_table_is_a_404(alice: Actor) -> None:
    r = alice.get("/api/v1/tables/987654/review/")
    assert r.status_code == 404 and r.json() == {"detail": "there is no table 987654", "code": "not_found"}


def test_the_review_is_read_only(alice: Actor) -> None:
    table = started_table([alice, Actor("dora")])
    assert alice.post(review_url(table)).status_code == 405
    assert APIClient().post(review_url(table)).status_code in (401, 403)


# ------------------------------------------------------------------ refusals said once
@pytest.mark.parametrize(
    "move, reason",
    [
        ("e9-e5", "the chevron on e9 belongs to seat 2, and seat 1 is on turn"),
        ("e5-e6", "there is no chevron on e5"),
        ("e1-e5", "the chevron on e1 has power 1"),
        ("a3-b4", "the move crosses into borderland b5: choose a neutral field"),
    ],
)
def test_a_refused_move_gives_its_reason_without_repeating_the_move(
    alice: Actor, bob: Actor, move: str, reason: str
) -> None:
    table = started_table([alice, bob])
    r = alice.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": 0, "move": move})
    assert r.status_code == 400 and r.json()["code"] == "illegal_move"
    detail = r.json()["detail"]
    assert detail.startswith(reason) and not detail.startswith(move), detail
    # What the game page shows: the move it sent, then the reason, once.
    assert f"{move}: {detail}".count(move) == 1
