"""The first-game walkthrough: /learn/ explains, Start opens a casual untimed Pacru table against
the random bot with the newcomer in seat 1, and the table page shows the coach with ?coach=1."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Table

from .conftest import Actor

pytestmark = pytest.mark.django_db


def logged_in(actor: Actor) -> Client:
    client = Client()
    client.force_login(actor.player.user)
    return client


def test_the_learn_page_explains_and_offers_a_start_button(db: None) -> None:
    page = Client().get("/learn/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Your first game of Pacru" in html
    assert 'id="learn-start"' in html and 'method="post"' in html and "csrfmiddlewaretoken" in html
    assert 'href="/rules/pacru/"' in html


def test_start_opens_an_untimed_casual_pacru_table_against_the_random_bot(alice: Actor) -> None:
    client = logged_in(alice)
    r = client.post("/learn/")
    table = Table.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/tables/{table.pk}/?coach=1"
    assert table.game == "pacru" and table.players == 2 and not table.rated
    assert table.time_control == {"kind": "untimed"} and table.status == "active"
    seats = list(table.seats.order_by("number").select_related("player"))
    assert seats[0].player == alice.player and seats[1].player.is_bot
    assert seats[1].player.display_name.startswith("Random")
    assert table.bot_seats == [2] and table.to_move == 1


def test_the_table_page_carries_the_coach_only_with_coach_1_and_a_seat(alice: Actor, bob: Actor) -> None:
    client = logged_in(alice)
    table_url = client.post("/learn/")["Location"]
    html = client.get(table_url).content.decode()
    assert 'id="coach"' in html
    plain = client.get(table_url.split("?")[0]).content.decode()
    assert "coach.js" not in plain
    # A spectator at someone's walkthrough gets no coach.
    assert "coach.js" not in logged_in(bob).get(table_url).content.decode()


def test_a_visitor_gets_a_guest_account_when_guests_may_play(db: None, settings: Any) -> None:
    settings.GUEST_PLAY = True
    client = Client()
    r = client.post("/learn/")
    table = Table.objects.get()
    assert r["Location"] == f"/tables/{table.pk}/?coach=1"
    guest = table.seats.get(number=1).player.user
    assert guest.username.startswith("guest-") and not guest.has_usable_password()
    assert '"mySeat": 1' in client.get(r["Location"]).content.decode()


def test_a_visitor_is_sent_to_log_in_when_guests_may_not_play(db: None, settings: Any) -> None:
    settings.GUEST_PLAY = False
    r = Client().post("/learn/")
    assert r.status_code == 302 and r["Location"] == "/accounts/login/?next=/learn/"
    assert not Table.objects.exists()
    assert "log in first" in Client().get("/learn/").content.decode()


def test_start_needs_csrf(alice: Actor) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.player.user)
    assert client.post("/learn/").status_code == 403
    assert not Table.objects.exists()
