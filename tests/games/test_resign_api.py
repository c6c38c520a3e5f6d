"""Resignation (RULES 6.5): out of the game, markers stay, the others play on."""

from __future__ import annotations

from .conftest import Actor, started_table


def test_resigning_a_two_player_game_gives_the_win_to_the_other(alice: Actor, bob: Actor) -> None:
    table = started_table([alice, bob], "pacru")
    alice.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": 0, "move": "a3-b4(b4)"})
    r = bob.post(f"/api/v1/tables/{table.pk}/resign/")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "finished" and body["winner_seat"] == 1 and body["end_reason"] == "last-standing"
    seats = {s["number"]: s for s in body["seats"]}
    assert seats[2]["state"] == "out" and seats[2]["elimination_reason"] == "resigned"
    assert seats[1]["rank"] == 1 and seats[2]["rank"] == 2
    record = alice.get(f"/api/v1/tables/{table.pk}/record/").content.decode()
    assert record.endswith("1. a3-b4(b4)\nresign 2\n")


def test_a_three_player_game_goes_on_after_a_resignation(alice: Actor, bob: Actor, carol: Actor) -> None:
    table = started_table([alice, bob, carol], "pacru")
    r = alice.post(f"/api/v1/tables/{table.pk}/resign/").json()
    assert r["status"] == "active" and r["to_move"] == 2 and r["ply"] == 0
    assert "g9" not in str(r["seats"])  # sanity: seats carry no board data
    detail = bob.get(f"/api/v1/tables/{table.pk}/").json()
    assert all(not c.endswith(":1:" + c.split(":")[2]) for c in detail["position"]["chevrons"])
    assert detail["position"]["eliminated"] == [1]
    assert bob.post(f"/api/v1/tables/{table.pk}/moves/", {"ply": 0, "move": "c9-c8"}).status_code == 201


def test_resign_refusals(alice: Actor, bob: Actor, carol: Actor) -> None:
    table = started_table([alice, bob, carol], "azacru")
    assert alice.post(f"/api/v1/tables/{table.pk}/resign/").status_code == 200
    again = alice.post(f"/api/v1/tables/{table.pk}/resign/")
    assert again.status_code == 409 and "already out" in again.json()["detail"]
    outsider = started_table([bob, carol], "pacru")
    assert alice.post(f"/api/v1/tables/{outsider.pk}/resign/").status_code == 403
