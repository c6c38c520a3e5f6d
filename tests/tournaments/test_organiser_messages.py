"""What the organiser is told and asked (issue 31, item 10): entering a round's last result says
that the next round was paired or the event finished; pairing a round again needs a confirmation
and never throws a result away; a 3-player round robin says who sits out each round."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from common.errors import Conflict
from games.models import Player, Table
from tournaments.competitions import services
from tournaments.models import League, Round, Tournament
from tournaments.organising import actions

from ..games.conftest import Actor, as_organiser
from .test_formats_flow import current_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(make_actor: Callable[..., Actor]) -> Actor:
    actor = make_actor("msgorg")
    as_organiser(actor.player)
    return actor


@pytest.fixture
def league(org: Actor) -> League:
    return services.league_create(organiser=org.player, name="Message Club")


def client_for(actor: Actor | None) -> Client:
    c = Client()
    if actor is not None:
        c.force_login(actor.player.user)
    return c


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def started(
    org: Actor,
    league: League,
    make_actor: Callable[..., Actor],
    capture: Any,
    names: list[str],
    **settings: Any,
) -> tuple[Tournament, list[Actor]]:
    settings.setdefault("seats", 2)
    settings.setdefault("rated", False)
    t = services.tournament_create(
        organiser=org.player, league=league, name="Night", game="shacru", **settings
    )
    people = [make_actor(n) for n in names]
    for p in people:
        services.register(tournament_id=t.pk, player=p.player)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    return t, people


def seat_one_wins(t: Tournament, table: Table, org: Actor, capture: Any) -> str:
    with capture(execute=True):
        change = actions.enter_result(
            tournament_id=t.pk, table_id=table.pk, ranks={1: 1, 2: 2}, reason="reported", by=org.player
        )
    return change.message


# ------------------------------------------------------------------ a: the last result of a round


def test_the_last_result_of_a_round_says_the_next_round_is_paired_then_the_event_finished(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, _ = started(org, league, make_actor, capture, ["ann", "ben", "cat", "dan"], rounds=2)
    first, last = current_tables(t)
    message = seat_one_wins(t, first, org, capture)
    assert message.endswith("(reason: reported)"), "one table of two: nothing more happened"
    message = seat_one_wins(t, last, org, capture)
    assert message.endswith("(reason: reported) Round 1 is complete; round 2 has been paired.")
    t.refresh_from_db()
    assert t.current_round == 2 and Round.objects.get(tournament=t, number=2).tables.count() == 2
    first, last = current_tables(t)
    seat_one_wins(t, first, org, capture)
    c = client_for(org)
    with capture(execute=True):
        r = c.post(
            f"/organiser/events/{t.pk}/result/",
            {"table": last.pk, "rank_1": 1, "rank_2": 2, "reason": "reported"},
            follow=True,
        )
    (message,) = messages_of(r)
    assert message.endswith("(reason: reported) Round 2 is complete; the event is finished.")
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED


def test_a_paused_event_says_the_next_round_waits_for_resume(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, _ = started(org, league, make_actor, capture, ["ann", "ben"], rounds=2)
    services.pause(tournament_id=t.pk, by=org.player)
    (table,) = current_tables(t)
    message = seat_one_wins(t, table, org, capture)
    assert message.endswith(
        "Round 1 is complete; the event is paused, so round 2 is paired when you resume it."
    )
    assert Tournament.objects.get(pk=t.pk).current_round == 1


# ------------------------------------------------------------------ b: pairing a round again


def test_pairing_a_round_again_needs_the_confirmation_box(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, _ = started(org, league, make_actor, capture, ["ann", "ben", "cat", "dan"], rounds=2)
    c = client_for(org)
    html = c.get(f"/organiser/events/{t.pk}/").content.decode()
    form = html.split('id="repair-form"', 1)[1].split("</form>", 1)[0]
    assert 'type="checkbox" name="confirm" value="yes" required' in form and 'id="repair-round"' in form
    before = sorted(tb.pk for tb in current_tables(t))
    r = c.post(f"/organiser/events/{t.pk}/repair/", follow=True)
    assert messages_of(r) == [
        "round 1 was not paired again: tick the box to confirm that its tables are deleted and everyone is "
        "paired afresh"
    ]
    assert sorted(tb.pk for tb in current_tables(t)) == before, "nothing deleted"
    with capture(execute=True):
        r = c.post(f"/organiser/events/{t.pk}/repair/", {"confirm": "yes"}, follow=True)
    assert messages_of(r)[0].startswith("Round 1 paired again: 2 tables")
    assert not set(before) & {tb.pk for tb in current_tables(t)}


def test_a_round_with_a_result_entered_is_not_paired_again(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, _ = started(org, league, make_actor, capture, ["ann", "ben", "cat", "dan"], rounds=2)
    first, second = current_tables(t)
    seat_one_wins(t, second, org, capture)  # entered without a move played
    assert not Table.objects.get(pk=second.pk).actions
    refusal = (
        "round 1 cannot be paired again: board 2 already has a result, and pairing again would throw it "
        "away. To change a result, correct it under Results; the round's other tables play on."
    )
    with pytest.raises(Conflict) as raised:
        services.repair_round(tournament_id=t.pk, by=org.player)
    assert str(raised.value.detail) == refusal
    c = client_for(org)
    r = c.post(f"/organiser/events/{t.pk}/repair/", {"confirm": "yes"}, follow=True)
    assert messages_of(r) == [refusal]
    assert Table.objects.get(pk=second.pk).seats.get(number=1).rank == 1, "the result is kept"
    assert sorted(tb.pk for tb in current_tables(t)) == sorted([first.pk, second.pk])
    html = c.get(f"/organiser/events/{t.pk}/").content.decode()
    assert (
        'id="repair-form"' not in html
        and "Round 1 cannot be paired again: board 2 already has a result" in html
    )


# ------------------------------------------------------------------ c: who sits out


def test_a_three_player_round_robin_shows_who_sits_out_each_round(
    org: Actor, league: League, make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    t, people = started(org, league, make_actor, capture, ["ann", "ben", "cat"], format="round_robin")
    assert t.rounds == 3
    by_id = {p.player.pk: p for p in people}
    everyone = set(by_id)
    out_of: dict[int, str] = {}
    for number in (1, 2, 3):
        t.refresh_from_db()
        assert t.current_round == number
        (table,) = current_tables(t)
        seated = set(table.seats.values_list("player_id", flat=True))
        (out,) = everyone - seated
        out_of[number] = Player.objects.get(pk=out).display_name
        public = client_for(None).get(f"/tournaments/{t.pk}/").content.decode()
        rnd = public.split(f'id="round-{number}"', 1)[1].split("</details>", 1)[0]
        assert f'<p class="byes">Bye: {out_of[number]}</p>' in rnd
        own = client_for(by_id[out]).get(f"/tournaments/{t.pk}/").content.decode()
        box = own.split('class="your-game"', 1)[1].split("</div>", 1)[0]
        assert f"You sit out round {number}: the round robin's schedule has no table for you" in box
        managed = client_for(org).get(f"/organiser/events/{t.pk}/").content.decode()
        results = managed.split('id="results"', 1)[1]
        assert results.split("</h3>", 1)[1].lstrip().startswith(f'<p class="byes">Bye: {out_of[number]}</p>')
        seat_one_wins(t, table, org, capture)
    assert sorted(out_of.values()) == sorted(p.player.display_name for p in people), "each sits out once"
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    public = client_for(None).get(f"/tournaments/{t.pk}/").content.decode()
    for number, name in out_of.items():
        rnd = public.split(f'id="round-{number}"', 1)[1].split("</details>", 1)[0]
        assert f"Bye: {name}" in rnd
