"""Every after-commit event goes through one robust path: a receiver that raises is logged and
counted, the receivers after it still run, and the write that announced it keeps its 2xx answer.

These tests commit for real (``transaction=True``), so each event is announced inside the request,
as in production, and a failure would reach the answer if the path were not robust.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.dispatch import Signal
from django.test import Client
from django.urls import reverse

from accounts.models import Notification
from common import metrics
from games import events as game_events
from tournaments import events as event_events
from tournaments import ladders
from tournaments.competitions.services import league_create
from tournaments.models import LateEntryInvitation, Tournament

from ..tournaments.test_formats_flow import make_event
from .conftest import Actor, as_organiser

EVENTS: list[Signal] = [
    game_events.game_finished,
    game_events.table_changed,
    game_events.turn_started,
    event_events.challenge_changed,
    event_events.round_paired,
    event_events.event_changed,
    event_events.entered,
    event_events.late_entry_invited,
    event_events.late_entry_answered,
    event_events.queue_changed,
    event_events.queue_table_formed,
    event_events.result_recorded,
]


def failures(event: str) -> float:
    """How many receiver failures the metric counted for ``event`` so far."""
    total = 0.0
    for metric in metrics.RECEIVER_FAILURES.collect():
        for sample in metric.samples:
            if sample.name.endswith("_total") and sample.labels.get("event") == event:
                total += sample.value
    return total


@pytest.fixture
def broken() -> Iterator[Counter[str]]:
    """A raising receiver on every event, and after it a receiver that counts what still ran."""
    heard: Counter[str] = Counter()

    def explode(sender: Any, **kwargs: Any) -> None:
        raise RuntimeError("a listener that fails")

    def listen(signal: Signal) -> Callable[..., None]:
        def record(sender: Any, **kwargs: Any) -> None:
            heard[signal.name] += 1  # type: ignore[attr-defined]

        return record

    recorders = [listen(s) for s in EVENTS]
    for signal, record in zip(EVENTS, recorders, strict=True):
        signal.connect(explode, weak=False, dispatch_uid=f"test.explode.{signal.name}")  # type: ignore[attr-defined]
        signal.connect(record, weak=False, dispatch_uid=f"test.record.{signal.name}")  # type: ignore[attr-defined]
    try:
        yield heard
    finally:
        for signal in EVENTS:
            signal.disconnect(dispatch_uid=f"test.explode.{signal.name}")  # type: ignore[attr-defined]
            signal.disconnect(dispatch_uid=f"test.record.{signal.name}")  # type: ignore[attr-defined]


@pytest.mark.django_db(transaction=True)
def test_a_failing_receiver_fails_no_write_and_stops_no_other_receiver(
    make_actor: Callable[..., Actor], broken: Counter[str]
) -> None:
    before = {s.name: failures(s.name) for s in EVENTS}  # type: ignore[attr-defined]

    # Ladder: a challenge made and accepted, a move, a resignation.
    boss, ann, ben = make_actor("evboss"), make_actor("evann"), make_actor("evben")
    league = league_create(organiser=as_organiser(boss.player), name="Event Club")
    ladder = ladders.ladder_create(organiser=boss.player, league=league, game="pacru", seats=2)
    for member in (ann, ben):
        ladders.ladder_join(ladder=ladder, player=member.player)
    made = ben.post(f"/api/v1/ladders/{ladder.pk}/challenge/", {"player": ann.player.pk})
    assert made.status_code == 201, made.json()
    accepted = ann.post(f"/api/v1/challenges/{made.json()['id']}/accept/")
    assert accepted.status_code == 200, accepted.json()
    table = accepted.json()["table"]
    detail = ann.get(f"/api/v1/tables/{table}/").json()
    on_turn = detail["seats"][detail["to_move"] - 1]["player"]["id"]
    first = next(a for a in (ann, ben) if a.player.pk == on_turn)
    other = ben if first is ann else ann
    moved = first.post(f"/api/v1/tables/{table}/moves/", {"ply": 0, "move": "a3-b4(b4)"})
    assert moved.status_code == 201, moved.json()
    resigned = other.post(f"/api/v1/tables/{table}/resign/")
    assert resigned.status_code == 200 and resigned.json()["status"] == "finished"
    # The real receivers ran too: the seat on turn was told (turn_started → accounts).
    assert Notification.objects.filter(user=other.player.user).exists()

    # A 3-seat ladder's queue: three join (through the API), and matchmaking seats them.
    trio = [make_actor(f"evq{i}") for i in range(3)]
    queue_ladder = ladders.ladder_create(organiser=boss.player, league=league, game="azacru", seats=3)
    queue_ladder.queue_wait_seconds = 0
    queue_ladder.save()
    for member in trio:
        ladders.ladder_join(ladder=queue_ladder, player=member.player)
        queued = member.post(f"/api/v1/ladders/{queue_ladder.pk}/queue/")
        assert queued.status_code == 200, queued.json()
    (formed,) = ladders.matchmake(ladder=queue_ladder)
    assert formed.seats.count() == 3

    # An event: an organiser's registration, the start, a late entry invited and answered.
    org, t, _ = make_event(make_actor, 3, seats=2, format="swiss", rounds=3)
    extra, late = make_actor("evextra"), make_actor("evlate")
    browser = Client()
    browser.force_login(org.player.user)
    url = reverse("organiser-event-action", args=[t.pk, "register"])
    registered = browser.post(url, {"player": extra.player.pk}, follow=True)
    assert registered.status_code == 200
    assert f"{extra.player.display_name} registered" in registered.content.decode(), [
        m.message for m in registered.context["messages"]
    ]
    started = org.post(f"/api/v1/tournaments/{t.pk}/start/")
    assert started.status_code == 200, started.json()
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING
    invited = org.post(f"/api/v1/tournaments/{t.pk}/late-entry/", {"player": late.player.pk})
    assert invited.status_code == 201, invited.json()
    answered = late.post(f"/api/v1/late-entry-invitations/{invited.json()['id']}/decline/")
    assert answered.status_code == 200
    assert LateEntryInvitation.objects.get(pk=invited.json()["id"]).status == "declined"

    for signal in EVENTS:
        name = signal.name  # type: ignore[attr-defined]
        assert broken[name] >= 1, f"the receiver after the failing one ran for {name}"
        assert failures(name) - before[name] == broken[name], f"each failure of {name} is counted"
