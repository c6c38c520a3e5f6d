"""Challenges to a table (``community.challenges``) and the blocks at the table
(``games.services.tables.seat_join``): every refusal, the seat kept for the player challenged,
declining and withdrawing (the other player told), acceptance told, blocked players kept apart
at open tables but seated by events, the API and account deletion."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts import kinds
from accounts import services as accounts
from accounts.models import Notification
from common.errors import Conflict, Forbidden, InvalidInput, NotFound
from community import challenges
from community.events import TableChallenge, table_challenge
from community.models import Report
from games import blocks
from games import services as games
from games.housebots import house_bot
from games.models import Seat, Table
from tests.games.conftest import Actor

pytestmark = pytest.mark.django_db(transaction=True)

CORRESPONDENCE = {"kind": "correspondence", "days": 3}


@pytest.fixture
def heard() -> Any:
    """Every ``table_challenge`` sent (after commit), in order."""
    got: list[TableChallenge] = []

    def listen(*, challenge: TableChallenge, **_: Any) -> None:
        got.append(challenge)

    table_challenge.connect(listen)
    yield got
    table_challenge.disconnect(listen)


def _seated(table: Table) -> list[int]:
    return sorted(Seat.objects.filter(table=table).values_list("player_id", flat=True))


def _notes(actor: Actor) -> list[Notification]:
    return list(Notification.objects.filter(user=actor.player.user, kind="table_challenge").order_by("id"))


# ---------------------------------------------------------------- the challenge
def test_a_challenge_opens_a_table_seats_the_challenger_and_tells_the_player(
    alice: Actor, bob: Actor, heard: list[TableChallenge]
) -> None:
    table = challenges.challenge(
        by=alice.player, to_id=bob.player.pk, game="pacru", players=2, time_control=CORRESPONDENCE
    )
    assert table.status == Table.Status.OPEN and table.invited_id == bob.player.pk
    assert _seated(table) == [alice.player.pk] and not table.rated
    assert [(c.status, c.by.id, c.to.id) for c in heard] == [("sent", alice.player.pk, bob.player.pk)]
    (note,) = _notes(bob)
    assert note.url == f"/tables/{table.pk}/"
    assert (
        kinds.title(note.kind, note.params)
        == "Alice challenges you to a game of Pacru (2 players, 3 days/move)"
    )
    assert "Take your seat" in kinds.detail(note.kind, note.params)
    assert _notes(alice) == []
    assert kinds.KINDS["table_challenge"].email == "immediate"


def test_every_refusal_says_why_and_opens_no_table(make_actor: Callable[..., Actor], alice: Actor) -> None:
    bob = make_actor("bob")
    guest = games.guest_create()
    bot = house_bot("random")
    cases = [
        (dict(by=alice.player, to_id=alice.player.pk), InvalidInput, "yourself"),
        (dict(by=alice.player, to_id=987654), NotFound, "no player"),
        (dict(by=alice.player, to_id=bot.pk), InvalidInput, "bot"),
        (dict(by=alice.player, to_id=guest.pk), InvalidInput, "guest"),
        (dict(by=guest, to_id=alice.player.pk), Forbidden, "guest"),
    ]
    for kw, error, words in cases:
        with pytest.raises(error, match=words):
            challenges.challenge(**kw, game="pacru")
    with pytest.raises(InvalidInput):
        challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru", players=5)
    with pytest.raises(InvalidInput):
        challenges.challenge(by=alice.player, to_id=bob.player.pk, game="chess")
    with pytest.raises(InvalidInput):
        challenges.challenge(
            by=alice.player, to_id=bob.player.pk, game="pacru", time_control={"kind": "sundial"}
        )
    assert Table.objects.count() == 0


def test_a_blocked_pair_can_never_be_challenged_either_way(alice: Actor, bob: Actor) -> None:
    blocks.block(player=alice.player, other_id=bob.player.pk)
    # The player blocked is not told why; the one who blocked is told what to do.
    with pytest.raises(Forbidden) as refused:
        challenges.challenge(by=bob.player, to_id=alice.player.pk, game="pacru")
    assert str(refused.value) == "Alice does not take challenges from you"
    with pytest.raises(Forbidden, match="you blocked Bob"):
        challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru")
    assert challenges.refusal(by=bob.player, to=alice.player) == "Alice does not take challenges from you"
    assert Table.objects.count() == 0
    blocks.unblock(player=alice.player, other_id=bob.player.pk)
    assert challenges.refusal(by=bob.player, to=alice.player) is None
    assert (
        challenges.challenge(by=bob.player, to_id=alice.player.pk, game="pacru").invited_id == alice.player.pk
    )


def test_one_open_challenge_to_the_same_player_and_a_limit_on_all(
    make_actor: Callable[..., Actor], alice: Actor, bob: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru")
    with pytest.raises(Conflict, match=f"table {first.pk} waits"):
        challenges.challenge(by=alice.player, to_id=bob.player.pk, game="shacru")
    monkeypatch.setattr(challenges, "CHALLENGES_OPEN_MAX", 2)
    challenges.challenge(by=alice.player, to_id=make_actor("cid").player.pk, game="pacru")
    with pytest.raises(Conflict, match="withdraw one first"):
        challenges.challenge(by=alice.player, to_id=make_actor("dee").player.pk, game="pacru")
    assert Table.objects.count() == 2


# ---------------------------------------------------------------- the kept seat
def test_the_invited_players_seat_is_kept_until_they_take_it(
    make_actor: Callable[..., Actor], alice: Actor, bob: Actor, heard: list[TableChallenge]
) -> None:
    carol, dave = make_actor("carol"), make_actor("dave")
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru", players=3)
    games.seat_join(table_id=table.pk, player=carol.player)  # another free seat: fine
    with pytest.raises(Conflict, match="kept for the player who was challenged"):
        games.seat_join(table_id=table.pk, player=dave.player)
    with pytest.raises(Conflict, match="kept"):
        games.bot_invite(table_id=table.pk, player=alice.player, level="random")
    assert _seated(table) == sorted([alice.player.pk, carol.player.pk])
    games.seat_join(table_id=table.pk, player=bob.player)
    table.refresh_from_db()
    assert table.status == Table.Status.ACTIVE and table.invited_id == bob.player.pk
    assert [c.status for c in heard] == ["sent", "accepted"]
    assert heard[-1].by.id == bob.player.pk and heard[-1].to.id == alice.player.pk
    (note,) = _notes(alice)
    assert kinds.title(note.kind, note.params) == "Bob accepted your challenge to a game of Pacru"


def test_a_two_seat_challenge_keeps_its_one_free_seat(alice: Actor, bob: Actor, carol: Actor) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="shacru")
    with pytest.raises(Conflict):
        games.seat_join(table_id=table.pk, player=carol.player)
    games.seat_join(table_id=table.pk, player=bob.player)
    assert Table.objects.get(pk=table.pk).status == Table.Status.ACTIVE


# ---------------------------------------------------------------- decline, withdraw
def test_declining_aborts_the_table_and_tells_the_challenger(
    alice: Actor, bob: Actor, carol: Actor, heard: list[TableChallenge]
) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru")
    with pytest.raises(Forbidden, match="only the player challenged"):
        challenges.decline(table_id=table.pk, player=carol.player)
    with pytest.raises(Forbidden):
        challenges.decline(table_id=table.pk, player=alice.player)
    declined = challenges.decline(table_id=table.pk, player=bob.player)
    assert declined.status == Table.Status.ABORTED
    assert [(c.status, c.by.id, c.to.id) for c in heard][-1] == ("declined", bob.player.pk, alice.player.pk)
    (note,) = _notes(alice)
    assert kinds.title(note.kind, note.params) == "Bob declined your challenge to a game of Pacru"
    with pytest.raises(Conflict, match="the challenge is over"):
        challenges.decline(table_id=table.pk, player=bob.player)
    with pytest.raises(NotFound):
        challenges.decline(table_id=987654, player=bob.player)


def test_declining_when_others_sat_down_frees_the_seat(
    alice: Actor, bob: Actor, carol: Actor, make_actor: Callable[..., Actor]
) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru", players=3)
    games.seat_join(table_id=table.pk, player=carol.player)
    challenges.decline(table_id=table.pk, player=bob.player)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN and table.invited_id is None
    games.seat_join(table_id=table.pk, player=make_actor("dave").player)
    assert Table.objects.get(pk=table.pk).status == Table.Status.ACTIVE


def test_no_decline_after_taking_the_seat_nor_for_an_unchallenged_table(alice: Actor, bob: Actor) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru", players=3)
    games.seat_join(table_id=table.pk, player=bob.player)
    with pytest.raises(Conflict, match="leave it instead"):
        challenges.decline(table_id=table.pk, player=bob.player)
    plain = games.table_create(creator=alice.player, game="pacru", players=2, rated=False)
    with pytest.raises(Conflict, match="nobody is challenged"):
        challenges.decline(table_id=plain.pk, player=bob.player)


def test_withdrawing_aborts_and_tells_the_player_challenged(
    alice: Actor, bob: Actor, heard: list[TableChallenge]
) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru")
    with pytest.raises(Forbidden, match="only the challenger"):
        challenges.withdraw(table_id=table.pk, player=bob.player)
    challenges.withdraw(table_id=table.pk, player=alice.player)
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED and _seated(table) == []
    assert heard[-1].status == "withdrawn" and heard[-1].to.id == bob.player.pk
    titles = [kinds.title(n.kind, n.params) for n in _notes(bob)]
    assert titles[-1] == "Alice withdrew their challenge to a game of Pacru"


# ---------------------------------------------------------------- blocks at the table
def test_a_blocked_player_cannot_join_an_open_table_either_way(
    alice: Actor, bob: Actor, carol: Actor
) -> None:
    table = games.table_create(creator=alice.player, game="pacru", players=3, rated=False)
    blocks.block(player=alice.player, other_id=bob.player.pk)
    with pytest.raises(Forbidden) as refused:
        games.seat_join(table_id=table.pk, player=bob.player)
    # The words do not say who blocked whom.
    assert str(refused.value).startswith(f"you cannot join table {table.pk}")
    assert "block" not in str(refused.value)
    other = games.table_create(creator=bob.player, game="pacru", players=2, rated=False)
    with pytest.raises(Forbidden, match="you cannot join"):
        games.seat_join(table_id=other.pk, player=alice.player)  # the one who blocked, too
    games.seat_join(table_id=table.pk, player=carol.player)
    assert _seated(table) == sorted([alice.player.pk, carol.player.pk])


def test_a_block_made_after_the_challenge_keeps_them_apart(alice: Actor, bob: Actor) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru")
    blocks.block(player=bob.player, other_id=alice.player.pk)
    with pytest.raises(Forbidden, match="you cannot join"):
        games.seat_join(table_id=table.pk, player=bob.player)
    assert _seated(table) == [alice.player.pk]


def test_events_still_seat_a_blocked_pair(alice: Actor, bob: Actor) -> None:
    blocks.block(player=alice.player, other_id=bob.player.pk)
    table = games.table_create(creator=alice.player, game="pacru", players=2, rated=False, join=False)
    games.seat_join(table_id=table.pk, player=alice.player, seat=1, event=True)
    games.seat_join(table_id=table.pk, player=bob.player, seat=2, event=True)
    assert Table.objects.get(pk=table.pk).status == Table.Status.ACTIVE


# ---------------------------------------------------------------- API
def test_the_api_challenges_and_declines(alice: Actor, bob: Actor) -> None:
    made = alice.post(
        f"/api/v1/players/{bob.player.pk}/challenge/",
        {"game": "pacru", "players": 2, "time_control": CORRESPONDENCE, "rated": False},
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["status"] == "open" and [s["player"]["id"] for s in body["seats"]] == [alice.player.pk]
    assert body["time_control_text"] == "3 days/move"
    table_id = body["id"]
    assert alice.post(f"/api/v1/tables/{table_id}/decline/").status_code == 403
    declined = bob.post(f"/api/v1/tables/{table_id}/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "aborted"
    assert bob.post(f"/api/v1/tables/{table_id}/decline/").status_code == 409


def test_the_api_refusals(alice: Actor, bob: Actor) -> None:
    url = f"/api/v1/players/{bob.player.pk}/challenge/"
    assert alice.post(url, {"game": "go"}).status_code == 400
    assert alice.post(url, {"game": "pacru", "players": 7}).status_code == 400
    assert alice.post(f"/api/v1/players/{alice.player.pk}/challenge/", {"game": "pacru"}).status_code == 400
    assert alice.post("/api/v1/players/987654/challenge/", {"game": "pacru"}).status_code == 404
    blocks.block(player=bob.player, other_id=alice.player.pk)
    refused = alice.post(url, {"game": "pacru"})
    assert refused.status_code == 403 and refused.json()["detail"] == "Bob does not take challenges from you"
    from rest_framework.test import APIClient

    assert APIClient().post(url, {"game": "pacru"}, format="json").status_code == 401
    assert Table.objects.count() == 0


# ---------------------------------------------------------------- deletion
def test_deleting_the_player_challenged_aborts_the_challenge(alice: Actor, bob: Actor) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru")
    accounts.delete_account(user=bob.player.user, password="correct-horse-9")
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED


def test_deleting_the_challenger_aborts_their_table(alice: Actor, bob: Actor) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru")
    accounts.delete_account(user=alice.player.user, password="correct-horse-9")
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED
    assert challenges.waiting_for(player=bob.player) == []


# ---------------------------------------------------------------- pages
def _page(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def test_the_player_page_challenges_with_a_small_form(alice: Actor, bob: Actor) -> None:
    page = _page(alice)
    body = page.get(f"/players/{bob.player.pk}/").content.decode()
    assert 'id="challenge-form"' in body and f'action="/players/{bob.player.pk}/challenge/"' in body
    sent = page.post(
        f"/players/{bob.player.pk}/challenge/",
        {"game": "shacru", "players": "3", "time_control": "correspondence"},
    )
    table = Table.objects.get()
    assert sent.status_code == 302 and sent["Location"] == f"/tables/{table.pk}/"
    assert (table.game, table.players, table.rated, table.invited_id) == ("shacru", 3, False, bob.player.pk)
    assert table.time_control["kind"] == "correspondence"
    mine = page.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="withdraw"' in mine and "You challenged <strong>Bob</strong>" in mine
    odd = page.post(f"/players/{bob.player.pk}/challenge/", {"game": "shacru", "time_control": "sundial"})
    assert odd["Location"] == f"/players/{bob.player.pk}/#challenge"
    assert Table.objects.count() == 1


def test_the_invited_player_takes_the_seat_or_declines_on_the_pages(alice: Actor, bob: Actor) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru")
    page = _page(bob)
    home = page.get("/").content.decode()
    assert 'id="table-challenges"' in home and f'action="/tables/{table.pk}/decline/"' in home
    body = page.get(f"/tables/{table.pk}/").content.decode()
    assert "<strong>Alice</strong> challenges you" in body and 'id="take-seat"' in body
    assert 'id="join"' not in body  # one join button: "Take your seat"
    page.post(f"/tables/{table.pk}/decline/")
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED
    again = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru")
    page.post(f"/tables/{again.pk}/join/")
    assert Table.objects.get(pk=again.pk).status == Table.Status.ACTIVE
    assert 'id="table-challenge"' not in page.get(f"/tables/{again.pk}/").content.decode()


def test_a_spectator_sees_whom_the_seat_is_kept_for(alice: Actor, bob: Actor, carol: Actor) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru", players=3)
    body = _page(carol).get(f"/tables/{table.pk}/").content.decode()
    assert "Alice challenged Bob: one seat is kept for them." in body and 'id="join"' in body


def test_the_withdraw_button_aborts_the_challenge(alice: Actor, bob: Actor) -> None:
    table = challenges.challenge(by=alice.player, to_id=bob.player.pk, game="pacru")
    _page(bob).post(f"/tables/{table.pk}/withdraw/")  # not theirs to withdraw: refused
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN
    _page(alice).post(f"/tables/{table.pk}/withdraw/")
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED


def test_the_player_page_shows_why_a_challenge_cannot_be_made(alice: Actor, bob: Actor) -> None:
    blocks.block(player=alice.player, other_id=bob.player.pk)
    body = _page(bob).get(f"/players/{alice.player.pk}/").content.decode()
    assert 'id="challenge-refusal"' in body and "Alice does not take challenges from you." in body
    assert 'id="challenge-form"' not in body
    refused = _page(bob).post(
        f"/players/{alice.player.pk}/challenge/",
        {"game": "pacru", "players": "2", "time_control": "untimed"},
        follow=True,
    )
    assert "Alice does not take challenges from you" in refused.content.decode()
    assert Table.objects.count() == 0


def test_no_challenge_or_report_for_visitors_guests_or_on_your_own_page(alice: Actor, bob: Actor) -> None:
    assert 'id="challenge"' not in _page(alice).get(f"/players/{alice.player.pk}/").content.decode()
    assert 'id="player-actions"' not in Client().get(f"/players/{alice.player.pk}/").content.decode()
    guest = Client()
    guest.force_login(games.guest_create().user)
    body = guest.get(f"/players/{alice.player.pk}/").content.decode()
    assert 'id="challenge"' not in body and 'id="report"' not in body
    bot = house_bot("greedy")
    assert 'id="challenge"' not in _page(alice).get(f"/players/{bot.pk}/").content.decode()


def test_the_player_page_reports_a_player(alice: Actor, bob: Actor) -> None:
    page = _page(alice)
    assert 'id="report-form"' in page.get(f"/players/{bob.player.pk}/").content.decode()
    done = page.post(
        f"/players/{bob.player.pk}/report/", {"reason": "abuse", "details": "insults in chat"}, follow=True
    )
    assert "your report is with the moderators" in done.content.decode()
    (report,) = Report.objects.all()
    assert (report.player_id, report.reporter_id, report.reason, report.subject) == (
        bob.player.pk,
        alice.player.pk,
        "abuse",
        "player",
    )
    bad = page.post(f"/players/{bob.player.pk}/report/", {"reason": "vibes"}, follow=True)
    assert "reason must be one of" in bad.content.decode()
    assert Report.objects.count() == 1
