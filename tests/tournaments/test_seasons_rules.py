"""A points series with the best K results counting; rounds marked unavailable becoming requested
byes; who may do what, and the settings refused with their reasons; the seasons API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from common.errors import Conflict, Forbidden, InvalidInput
from games.models import Seat, Table
from tournaments.competitions import selectors as event_reads
from tournaments.competitions import services as events
from tournaments.models import Registration, Round, Season, SeasonEntry, Tournament
from tournaments.organising import actions
from tournaments.seasons import selectors, services

from ..games.conftest import Actor
from .seasons_helpers import PAST, club, play_event, rated, settings

pytestmark = pytest.mark.django_db


def test_a_points_series_counts_the_best_results(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    series = services.season_create(
        league=league, by=org.player, name="Grand Prix", kind="series", series_points=[10, 6, 3, 1], best_of=2
    )
    a, b, c, d = (rated(make_actor, name, 1500) for name in "abcd")
    services.season_start(season_id=series.pk, by=org.player)
    plays = [([a, b, c, d], [a, b, c, d]), ([a, b, c, d], [d, c, b, a]), ([b, c, d], [c, d, b])]
    for number, (entrants, order) in enumerate(plays, start=1):
        t = events.tournament_create(
            organiser=org.player,
            league=league,
            name=f"GP {number}",
            game="shacru",
            seats=2,
            format="round_robin",
            rated=False,
            season=series,
        )
        for player in entrants:
            events.register(tournament_id=t.pk, player=player)
        events.start(tournament_id=t.pk, by=org.player)
        if number == 3:
            with pytest.raises(Conflict, match="GP 3 is still running"):
                services.season_close(season_id=series.pk, by=org.player)
        play_event(t, {p.pk: i for i, p in enumerate(order)}, org.player)
    # Points by place: GP 1 a 10, b 6, c 3, d 1; GP 2 d 10, c 6, b 3, a 1; GP 3 c 10, d 6, b 3.
    # Best 2: c 10+6 = 16, d 10+6 = 16, a 10+1 = 11, b 6+3 = 9 (GP 2's 3 before GP 3's equal 3).
    table = selectors.series_table(series)
    assert [(r.name, r.total, r.place) for r in table] == [
        ("C", 16, 1),
        ("D", 16, 1),
        ("A", 11, 3),
        ("B", 9, 4),
    ]
    b_row = table[3]
    assert [(r.event, r.points, r.counted) for r in b_row.results] == [
        ("GP 1", 6, True),
        ("GP 2", 3, True),
        ("GP 3", 3, False),
    ]
    nxt = services.season_close(season_id=series.pk, by=org.player)
    places = dict(SeasonEntry.objects.filter(season=series).values_list("player__display_name", "place"))
    assert places == {"C": 1, "D": 1, "A": 3, "B": 4}
    assert nxt.kind == "series" and nxt.series_points == [10, 6, 3, 1] and nxt.best_of == 2
    assert selectors.league_seasons(league)[1].winner in ("C", "D")


def _play_round(t: Tournament, by: Any) -> None:
    rnd = Round.objects.get(tournament=t, number=t.current_round)
    for rt in rnd.tables.all():
        seats = list(
            Seat.objects.filter(table_id=rt.table_id).order_by("number").values_list("number", flat=True)
        )
        if Table.objects.get(pk=rt.table_id).status == Table.Status.ACTIVE:
            actions.enter_result(
                tournament_id=t.pk,
                table_id=rt.table_id,
                ranks={n: i for i, n in enumerate(seats, start=1)},
                reason="played",
                by=by,
            )


def test_unavailable_rounds_become_requested_byes(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    season = services.season_create(
        league=league,
        by=org.player,
        name="Byes",
        kind="divisions",
        division_size=4,
        promote=1,
        relegate=1,
        **settings(),
    )
    p = [rated(make_actor, f"b{i}", 1500 + i) for i in range(4)]
    for player in p:
        services.season_register(season_id=season.pk, player=player)
    with pytest.raises(InvalidInput, match="there is no round 9"):
        services.set_unavailable(season_id=season.pk, player=p[0], rounds=[2, 9])
    services.set_unavailable(season_id=season.pk, player=p[0], rounds=[2])
    services.season_start(season_id=season.pk, by=org.player)
    (t,) = Tournament.objects.filter(season=season)
    assert Registration.objects.get(tournament=t, player=p[0]).manual_byes == [2]
    _play_round(t, org.player)
    t.refresh_from_db()
    assert t.current_round == 2
    second = Round.objects.get(tournament=t, number=2)
    assert p[0].pk in second.byes
    assert not Seat.objects.filter(table__round_table__round=second, player=p[0]).exists()
    row = next(r for r in event_reads.current_standings(t) if r.player == p[0].pk)
    assert row.points in (0.5, 1.5)  # round 1's result and the requested bye's half point
    with pytest.raises(Conflict, match="round 2 is paired already"):
        services.set_unavailable(season_id=season.pk, player=p[0], rounds=[3])
    services.set_unavailable(season_id=season.pk, player=p[0], rounds=[2, 3])
    assert Registration.objects.get(tournament=t, player=p[0]).manual_byes == [2, 3]
    assert SeasonEntry.objects.get(season=season, player=p[0]).unavailable == [2, 3]


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ({"seats": 5}, "seats must be 2, 3 or 4"),
        ({"format": "knockout"}, "round robin or a Swiss"),
        ({"division_size": 2}, "at least 3 players"),
        ({"seats": 4, "division_size": 3}, "at least 4 players"),
        ({"promote": 2, "relegate": 2, "division_size": 4}, "promote \\+ relegate must be below"),
        ({"promote": -1}, "cannot be negative"),
        ({"round_times": ["2026-01-02T19:00:00Z", "2026-01-01T19:00:00Z"]}, "round 2 starts no later"),
        ({"round_times": ["next friday"]}, "is not a date and time"),
        ({"series_points": "10,6,3"}, "series_points is a list"),
        ({"best_of": 0}, "best_of counts at least 1"),
        ({"prizes": [{"label": "Top", "places": [3, 1]}]}, "prize 1: places is"),
        ({"prizes": [{"places": [1, 1]}]}, "prize 1 needs a label"),
        ({"game": ""}, "needs a game"),
        ({"colour": "red"}, "no setting colour"),
    ],
)
def test_settings_are_checked(make_actor: Callable[..., Actor], bad: dict[str, Any], reason: str) -> None:
    org, league = club(make_actor)
    with pytest.raises(InvalidInput, match=reason):
        services.season_create(
            league=league, by=org.player, name="Bad", kind="divisions", **{**settings(), **bad}
        )
    assert not Season.objects.exists()


def test_who_may_do_what(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    stranger = make_actor("stranger").player
    with pytest.raises(Forbidden):
        services.season_create(league=league, by=stranger, name="Mine", kind="divisions", **settings())
    season = services.season_create(
        league=league,
        by=org.player,
        name="Winter",
        kind="divisions",
        division_size=4,
        promote=1,
        relegate=1,
        **settings(round_times=PAST[:2]),
    )
    with pytest.raises(Forbidden):
        services.season_update(season_id=season.pk, by=stranger, division_size=6)
    with pytest.raises(Forbidden):
        services.season_start(season_id=season.pk, by=stranger)
    with pytest.raises(Conflict, match="is not registered for Winter"):
        services.season_withdraw(season_id=season.pk, player=stranger)
    with pytest.raises(Conflict, match="has not started"):
        services.season_close(season_id=season.pk, by=org.player)
    p = [rated(make_actor, f"w{i}", 1500) for i in range(4)]
    services.season_register(season_id=season.pk, player=p[0])
    with pytest.raises(Conflict, match="registered for Winter already"):
        services.season_register(season_id=season.pk, player=p[0])
    with pytest.raises(Conflict, match="at least two"):
        services.season_start(season_id=season.pk, by=org.player)
    for player in p[1:]:
        services.season_register(season_id=season.pk, player=player)
    with pytest.raises(Conflict, match="plays 3 rounds, but the calendar has 2"):
        services.season_start(season_id=season.pk, by=org.player)
    assert not Tournament.objects.filter(season=season).exists()  # nothing was made
    services.season_update(season_id=season.pk, by=org.player, round_times=PAST[:3])
    services.season_start(season_id=season.pk, by=org.player)
    with pytest.raises(Conflict, match="closed: the season is running"):
        services.season_register(season_id=season.pk, player=stranger)
    with pytest.raises(Conflict, match="only before it starts"):
        services.season_update(season_id=season.pk, by=org.player, division_size=6)
    with pytest.raises(Conflict, match="is still running"):
        services.season_close(season_id=season.pk, by=org.player)
    season.refresh_from_db()
    assert (
        season.status == "running"
        and not SeasonEntry.objects.filter(season=season, place__isnull=False).exists()
    )
    group = services.season_create(league=league, by=org.player, name="Events", kind="group")
    with pytest.raises(Conflict, match="only gathers events"):
        services.season_register(season_id=group.pk, player=p[0])


def test_the_seasons_api(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    body = {
        "name": "Api Season",
        "kind": "divisions",
        "division_size": 4,
        "promote": 1,
        "relegate": 1,
        **settings(),
    }
    stranger = make_actor("api-stranger")
    assert stranger.post(f"/api/v1/leagues/{league.slug}/seasons/", body).status_code == 403
    bad = org.post(f"/api/v1/leagues/{league.slug}/seasons/", {**body, "promote": 3})
    assert bad.status_code == 400 and "promote + relegate must be below" in bad.json()["detail"]
    made = org.post(f"/api/v1/leagues/{league.slug}/seasons/", body)
    assert made.status_code == 201, made.json()
    sid = made.json()["id"]
    assert made.json()["status"] == "registration" and len(made.json()["schedule"]) == 7
    changed = org.client.patch(f"/api/v1/seasons/{sid}/", {"division_size": 5}, format="json")
    assert changed.status_code == 200 and changed.json()["division_size"] == 5
    players = [make_actor(f"api{i}") for i in range(4)]
    for p in players:
        assert p.post(f"/api/v1/seasons/{sid}/register/").status_code == 200
    assert players[0].post(f"/api/v1/seasons/{sid}/register/").status_code == 409
    marked = players[0].post(f"/api/v1/seasons/{sid}/unavailable/", {"rounds": [3]})
    assert marked.status_code == 200
    mine = next(e for e in marked.json()["entries"] if e["player"] == players[0].player.pk)
    assert mine["unavailable"] == [3]
    assert players[0].post(f"/api/v1/seasons/{sid}/unavailable/", {"rounds": "3"}).status_code == 400
    assert players[1].post(f"/api/v1/seasons/{sid}/start/").status_code == 403
    started = org.post(f"/api/v1/seasons/{sid}/start/")
    assert started.status_code == 200 and started.json()["status"] == "running"
    (division,) = started.json()["table"]
    assert division["division"]["level"] == 1 and len(division["rows"]) == 4
    assert started.json()["divisions"][0]["tournament"] == division["division"]["tournament"] is not None
    assert org.post(f"/api/v1/seasons/{sid}/close/").status_code == 409
    assert players[1].post(f"/api/v1/seasons/{sid}/withdraw/").status_code == 200
    listed = make_actor("reader").get(f"/api/v1/leagues/{league.slug}/seasons/")
    assert [s["name"] for s in listed.json()] == ["Api Season"]
    assert org.get(f"/api/v1/seasons/{sid}/series/").json() == []
    assert org.get("/api/v1/seasons/999999/").status_code == 404
