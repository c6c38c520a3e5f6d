"""Round robin and knockout through the services; no-shows; the organiser dashboard."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings

from games import services as games
from games.models import Table
from tournaments.competitions import selectors, services
from tournaments.models import Registration, Round, Tournament

from ..games.conftest import Actor, as_organiser, every_seat_moves


def finish_by_resignations(table_id: int, order: list[int]) -> None:
    """End a table by having its seats resign in ``order`` (the last one left wins). At a rated
    table every seat moves once first: else the game is aborted and rated for nobody."""
    table = Table.objects.get(pk=table_id)
    seats = dict(table.seats.values_list("number", "player"))
    if table.rated:
        every_seat_moves(table)
    from games.models import Player

    for number in order[:-1]:
        games.game_resign(table_id=table_id, player=Player.objects.get(pk=seats[number]))


def current_tables(t: Tournament) -> list[Table]:
    rnd = Round.objects.get(tournament=t, number=t.current_round)
    return [rt.table for rt in rnd.tables.order_by("number")]


def make_event(
    make_actor: Callable[..., Actor], n: int, **settings_: Any
) -> tuple[Actor, Tournament, list[Actor]]:
    org = make_actor("orgx")
    league = services.league_create(organiser=as_organiser(org.player), name="Formats Club")
    t = services.tournament_create(
        organiser=org.player, league=league, name="Event", game="shacru", **settings_
    )
    people = [make_actor(f"f{i}") for i in range(n)]
    for p in people:
        services.register(tournament_id=t.pk, player=p.player)
    return org, t, people


def test_a_round_robin_is_played_to_the_end(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t, _ = make_event(make_actor, 4, seats=2, format="round_robin")
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    assert t.rounds == 3 and len(t.schedule) == 3
    for _ in range(3):
        for table in current_tables(t):
            with django_capture_on_commit_callbacks(execute=True):
                finish_by_resignations(table.pk, [2, 1])
        t.refresh_from_db()
    assert t.status == "finished"
    met = {
        frozenset(tb.seats.values_list("player_id", flat=True))
        for tb in Table.objects.filter(round_table__round__tournament=t)
    }
    assert len(met) == 6, "every pair met once"
    rows = selectors.current_standings(t)
    assert sum(r.points for r in rows) == 6 and all(r.played == 3 for r in rows)


def test_a_knockout_advances_the_best_to_a_final_table(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t, _ = make_event(make_actor, 8, seats=4, format="knockout", advance=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    t.refresh_from_db()
    first = current_tables(t)
    assert [tb.players for tb in first] == [4, 4]
    winners = []
    for table in first:
        seats = dict(table.seats.values_list("number", "player_id"))
        winners += [seats[4], seats[3]]  # resign 1, then 2: seats 4 and 3 stay longest
        with django_capture_on_commit_callbacks(execute=True):
            finish_by_resignations(table.pk, [1, 2, 3, 4])
    t.refresh_from_db()
    assert t.current_round == 2
    final = current_tables(t)
    assert len(final) == 1 and sorted(final[0].seats.values_list("player_id", flat=True)) == sorted(winners)
    with django_capture_on_commit_callbacks(execute=True):
        finish_by_resignations(final[0].pk, [1, 2, 3, 4])
    t.refresh_from_db()
    assert t.status == "finished"


def test_no_shows_lose_the_table_and_two_withdraw_the_player(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, t, people = make_event(
        make_actor, 2, seats=2, rounds=3, time_control={"kind": "fischer", "base": 60, "increment": 0}
    )
    absent, present = people[0].player, people[1].player
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    for number in (1, 2):
        t.refresh_from_db()
        (table,) = current_tables(t)
        assert table.no_show == "timeout"
        if table.seats.get(number=1).player_id == present.pk:
            move = games.current_state(table).legal_moves()[0]
            games.move_submit(table_id=table.pk, player=present, ply=0, move=move, now=table.started_at)
            table.refresh_from_db()
        late = table.deadline + timedelta(seconds=settings.CLOCK_GRACE_SECONDS + 1)
        with django_capture_on_commit_callbacks(execute=True):
            assert games.clock_timeout_apply(table_id=table.pk, now=late) == "timeout"
        table.refresh_from_db()
        assert table.status == "finished", "the round is not stalled: the absent player is out"
        assert table.seats.get(player=absent).elimination_reason == "timeout"
        assert Registration.objects.get(tournament=t, player=absent).no_shows == number
    assert Registration.objects.get(tournament=t, player=absent).status == "withdrawn"
    t.refresh_from_db()
    assert t.status == "finished", "one player left after the withdrawal"


def test_the_organiser_dashboard_creates_and_starts_events(make_actor: Callable[..., Actor]) -> None:
    org = make_actor("dash")
    league = services.league_create(organiser=as_organiser(org.player), name="Dash Club")
    org.client.force_login(org.player.user)
    page = org.client.get("/organiser/")
    assert page.status_code == 200 and "Create an event" in page.content.decode()
    r = org.client.post(
        "/organiser/",
        {"league": league.pk, "name": "Spring", "game": "pacru", "seats": 3, "format": "swiss", "rounds": 3,
         "advance": 1, "base_minutes": 5, "increment": 3, "rated": "on"},
        format="multipart",
    )  # fmt: skip
    assert r.status_code == 302
    t = Tournament.objects.get(name="Spring")
    assert t.time_control == {"kind": "fischer", "base": 300.0, "increment": 3.0}
    for i in range(3):
        services.register(tournament_id=t.pk, player=make_actor(f"d{i}").player)
    r = org.client.post(f"/organiser/{t.pk}/start/", format="multipart")
    t.refresh_from_db()
    assert r.status_code == 302 and t.status == "running" and t.current_round == 1
    assert "round 1" in org.client.get("/organiser/").content.decode()
    outsider = make_actor("nosy")
    outsider.client.force_login(outsider.player.user)
    outsider.client.post(f"/organiser/{t.pk}/next-round/", format="multipart")
    assert Tournament.objects.get(pk=t.pk).current_round == 1
    assert org.client.get(f"/leagues/{league.slug}/").status_code == 200
    # Withdrawing someone who is not a player id is a clear 404, never a server error.
    for bad in ("abc", "", "9999999"):
        r = org.client.post(f"/organiser/{t.pk}/withdraw/", {"player": bad}, format="multipart")
        assert r.status_code == 404, bad


def test_a_swiss_at_four_seats_rotates_the_small_tables(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    """10 players at 4 seats make tables of 4, 3 and 3: the service tells the pairing who sat at
    small tables, so nobody is kept at them round after round."""
    org, t, _ = make_event(make_actor, 10, seats=4, format="swiss", rounds=5)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org.player)
    small: dict[int, int] = {}
    for _ in range(5):
        t.refresh_from_db()
        tables = current_tables(t)
        largest = max(tb.players for tb in tables)
        for tb in tables:
            if tb.players < largest:
                for pid in tb.seats.values_list("player_id", flat=True):
                    small[pid] = small.get(pid, 0) + 1
        with django_capture_on_commit_callbacks(execute=True):
            for tb in tables:
                finish_by_resignations(tb.pk, list(range(tb.players, 0, -1)))
    t.refresh_from_db()
    assert t.status == "finished"
    counts = [small.get(r.player_id, 0) for r in Registration.objects.filter(tournament=t)]
    assert max(counts) - min(counts) <= 1, counts
    assert selectors.history(t).small_tables == {p: n for p, n in small.items() if n}
