"""Importing finished records (staff) and verify_games."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from engine.playout import random_game
from engine.records import Record
from games.models import Move, Table

from .conftest import Actor, play_random, started_table


def finished_record_text(
    game: str = "pacru", players: int = 2, names: tuple[str, ...] = ("alice", "bob")
) -> str:
    _, moves = random_game(game, players, seed=3)
    headers = {f"Seat{i + 1}": name for i, name in enumerate(names)}
    return Record(game, players, headers=headers, actions=moves).to_text()


def strip_result(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not line.startswith(("Result:", "Winner:", "End:")))


def test_staff_imports_a_finished_record(make_actor, alice: Actor, bob: Actor) -> None:  # type: ignore[no-untyped-def]
    staff = make_actor("organiser", staff=True)
    text = finished_record_text()
    r = staff.post("/api/v1/tables/import/", {"record": text})
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["status"] == "finished" and [s["player"]["username"] for s in body["seats"]] == [
        "alice",
        "bob",
    ]
    exported = staff.get(f"/api/v1/tables/{body['id']}/record/").content.decode()
    assert exported.split("\n\n", 1)[1] == text.split("\n\n", 1)[1]
    call_command("verify_games")


def test_only_staff_may_import(alice: Actor, bob: Actor) -> None:
    r = alice.post("/api/v1/tables/import/", {"record": finished_record_text()})
    assert r.status_code == 403
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda t: t.replace("Seat2: bob", "Seat2: nobody"), "no player with the username"),
        (lambda t: t.replace("\n3. ", "\n3. a1-a9 #"), "does not replay"),
        (lambda t: strip_result(t.split("\n4. ")[0]), "not over"),
    ],
)
def test_bad_imports_are_refused(make_actor, alice: Actor, bob: Actor, mutate, words: str) -> None:  # type: ignore[no-untyped-def]
    staff = make_actor("organiser", staff=True)
    r = staff.post("/api/v1/tables/import/", {"record": mutate(finished_record_text())})
    assert r.status_code == 400 and words in r.json()["detail"], r.json()
    assert not Table.objects.exists()


def test_verify_games_passes_on_honest_tables_and_finds_tampering(
    alice: Actor, bob: Actor, carol: Actor
) -> None:
    honest = started_table([alice, bob], "pacru")
    play_random(honest, {1: alice.player, 2: bob.player}, plies=10)
    tampered = started_table([bob, carol], "azacru")
    play_random(tampered, {1: bob.player, 2: carol.player}, plies=6)
    call_command("verify_games")

    tampered.refresh_from_db()
    position = dict(tampered.position)
    position["tiles"] = (
        "1" + position["tiles"][1:] if position["tiles"][0] != "1" else "-" + position["tiles"][1:]
    )
    Table.objects.filter(pk=tampered.pk).update(position=position)
    with pytest.raises(CommandError, match="2 tables checked, 1 with mismatches"):
        call_command("verify_games")

    Table.objects.filter(pk=tampered.pk).update(position=tampered.position)
    Move.objects.filter(table=honest, seq=3).update(notation="a1-a9")
    with pytest.raises(CommandError, match="1 with mismatches"):
        call_command("verify_games")
