"""The demo data ``scripts/run`` loads: events in every state and ladders, and every page of them
answers (as a visitor and as a demo player)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from games.models import Player
from tournaments.models import Challenge, Ladder, League, QueueEntry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_demo_has_events_in_every_state_and_every_page_of_them_answers() -> None:
    call_command("seed_demo", verbosity=0)
    states = dict(Tournament.objects.values_list("name", "status"))
    assert states == {
        "Demo Club Swiss": "registration",
        "Demo Club Round Robin": "running",
        "Demo Club Cup": "finished",
    }
    assert Challenge.objects.filter(status="pending", challenged__user__username="alice").exists()
    assert QueueEntry.objects.count() == 1

    visitor = Client()
    alice = Client()
    alice.force_login(Player.objects.get(user__username="alice").user)
    pages = ["/", "/tournaments/", "/ladders/", "/leagues/", "/ratings/pacru/", "/ratings/shacru/"]
    pages += [f"/tournaments/{pk}/" for pk in Tournament.objects.values_list("pk", flat=True)]
    pages += [f"/ladders/{pk}/" for pk in Ladder.objects.values_list("pk", flat=True)]
    pages += [f"/leagues/{slug}/" for slug in League.objects.values_list("slug", flat=True)]
    pages += [f"/players/{pk}/" for pk in Player.objects.filter(is_bot=False).values_list("pk", flat=True)]
    for client in (visitor, alice):
        for url in pages:
            assert client.get(url).status_code == 200, url
    # Running a second time changes nothing.
    call_command("seed_demo", verbosity=0)
    assert Tournament.objects.count() == 3
