"""The events' typed payloads carry what their listeners need: names, the accounts to tell (none
for bots and guests), the tables and byes of a round, the final places of an event, where a
finished table's result was recorded. The listeners read none of the announcer's tables (the
architecture test checks their imports); these tests check what the payloads say."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.dispatch import Signal

from games import events as game_events
from games import services as games
from games.events import PlayerRef, TurnStarted
from games.housebots import house_bot
from tournaments import events, ladders
from tournaments.competitions import services
from tournaments.models import Round

from ..games.conftest import Actor, every_seat_moves, ladder_for
from .test_formats_flow import current_tables, finish_by_resignations, make_event


@pytest.fixture
def heard() -> Iterator[Callable[[Signal], list[dict[str, Any]]]]:
    """``heard(event)``: the payloads ``event`` was sent with, from now on."""
    seen: dict[str, list[dict[str, Any]]] = {}
    hooked: list[Signal] = []

    def listen(signal: Signal) -> list[dict[str, Any]]:
        name = signal.name  # type: ignore[attr-defined]
        if name not in seen:
            seen[name] = []

            def record(sender: Any, **kwargs: Any) -> None:
                kwargs.pop("signal", None)
                seen[name].append(kwargs)

            signal.connect(record, weak=False, dispatch_uid=f"test.payloads.{name}")
            hooked.append(signal)
        return seen[name]

    yield listen
    for signal in hooked:
        signal.disconnect(dispatch_uid=f"test.payloads.{signal.name}")  # type: ignore[attr-defined]


def ref(actor: Actor) -> PlayerRef:
    return PlayerRef(id=actor.player.pk, name=actor.player.display_name, user_id=actor.player.user_id)


def test_an_event_announces_its_rounds_places_and_recorded_results(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any, heard: Any
) -> None:
    org, t, people = make_event(make_actor, 3, seats=2, format="swiss", rounds=2)
    started, paired, changed, recorded = (
        heard(events.event_changed),
        heard(events.round_paired),
        heard(events.event_changed),
        heard(events.result_recorded),
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    (news,) = [e["event"] for e in started]
    assert (news.tournament_id, news.event, news.state, news.places) == (t.pk, "Event", "started", {})
    assert set(news.entrants) == {ref(p) for p in people}

    (first,) = [e["paired"] for e in paired]
    rnd = Round.objects.get(tournament=t, number=1)
    t.refresh_from_db()
    assert (first.round_id, first.tournament_id, first.number) == (rnd.pk, t.pk, 1)
    (table,) = current_tables(t)
    assert [pt.table_id for pt in first.tables] == [table.pk]
    seated = {s.player_id: s.number for s in table.seats.all()}
    assert [p.id for p in first.tables[0].players] == sorted(seated, key=seated.__getitem__)
    assert [b.id for b in first.byes] == list(rnd.byes) and len(first.byes) == 1, "3 players: one has the bye"

    for _ in range(2):
        for table in current_tables(t):
            with django_capture_on_commit_callbacks(execute=True):
                finish_by_resignations(table.pk, [2, 1])
        t.refresh_from_db()
    assert t.status == "finished"
    assert [r["recorded"].tournament_id for r in recorded] == [t.pk] * 2
    assert all(r["recorded"].ladder_id is None for r in recorded)
    finished = [e["event"] for e in changed if e["event"].state == "finished"]
    (done,) = finished
    assert sorted(done.places) == sorted(p.player.pk for p in people)
    assert min(done.places.values()) == 1 and max(done.places.values()) <= 3


def test_a_challenge_announces_its_players_and_its_recorded_result(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any, heard: Any
) -> None:
    ann, ben = make_actor("pann"), make_actor("pben")
    ladder = ladder_for(ann, ben)
    changed, recorded, finished = (
        heard(events.challenge_changed),
        heard(events.result_recorded),
        heard(game_events.game_finished),
    )
    with django_capture_on_commit_callbacks(execute=True):
        c = ladders.challenge_create(ladder=ladder, challenger=ben.player, challenged=ann.player)
    with django_capture_on_commit_callbacks(execute=True):
        table = ladders.challenge_accept(challenge_id=c.pk, by=ann.player)
    made, accepted = (e["challenge"] for e in changed)
    assert (made.id, made.status, made.ladder, made.position) == (c.pk, "pending", "Club ladder", True)
    assert (made.challenger, made.challenged) == (ref(ben), ref(ann))
    assert (accepted.status, accepted.table_id) == ("accepted", table.pk)

    every_seat_moves(table)
    with django_capture_on_commit_callbacks(execute=True):
        games.game_resign(table_id=table.pk, player=ann.player)
    (over,) = finished
    assert over["result"].table_id == table.pk
    assert {n: p.id for n, p in over["players"].items()} == {1: ben.player.pk, 2: ann.player.pk}
    (done,) = [r["recorded"] for r in recorded]
    assert (done.table_id, done.ladder_id, done.tournament_id) == (table.pk, ladder.pk, None)


def test_a_turn_and_a_bot_in_the_payloads(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any, heard: Any
) -> None:
    alice = make_actor("palice")
    turns = heard(game_events.turn_started)
    table = games.table_create(
        creator=alice.player,
        game="azacru",
        players=2,
        rated=False,
        time_control={"kind": "correspondence", "days": 2},
    )
    with django_capture_on_commit_callbacks(execute=True):
        games.bot_invite(table_id=table.pk, player=alice.player, level="random")
    table.refresh_from_db()
    bot = house_bot("random")
    assert table.status == "active" and table.to_move == table.seats.get(player=alice.player).number == 1
    (turn,) = [e["turn"] for e in turns]
    assert turn == TurnStarted(
        table_id=table.pk,
        game="azacru",
        ply=0,
        seat=table.to_move,
        clock="correspondence",
        deadline=table.deadline,
    )
    assert turn.deadline is not None
    assert PlayerRef.of(bot).user_id is None and PlayerRef.of(alice.player).user_id == alice.player.user_id
