"""Seasons with divisions over two seasons: placement by rating, tables from the division events,
promotion and relegation, newcomers at the bottom and by rating, withdrawals, prizes; the
sweep's start (registration closes an hour before the first round) and close."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import translation

from accounts import kinds
from accounts.models import Notification
from tournaments.calendar import tick
from tournaments.models import AuditEntry, Registration, Season, SeasonEntry, Tournament
from tournaments.seasons import selectors, services, sweep

from ..games.conftest import Actor
from .seasons_helpers import club, layout, play_season, rated, settings

pytestmark = pytest.mark.django_db


def test_three_divisions_over_two_seasons(
    make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org, league = club(make_actor)
    # p0 is rated highest (2000), p11 lowest (1450): the first season places by rating.
    p = [rated(make_actor, f"p{i}", 2000 - 50 * i) for i in range(12)]
    season = services.season_create(
        league=league,
        by=org.player,
        name="Autumn",
        kind="divisions",
        division_size=4,
        promote=1,
        relegate=1,
        prizes=[
            {"label": "Champion", "places": [1, 1]},
            {"label": "Best rated 1500 or less", "places": [1, 2], "rating_max": 1500},
        ],
        **settings(),
    )
    for player in reversed(p):  # registration order does not matter: ratings do
        services.season_register(season_id=season.pk, player=player)
    with django_capture_on_commit_callbacks(execute=True):
        services.season_start(season_id=season.pk, by=org.player)
    ids = [x.pk for x in p]
    assert layout(season) == [
        (1, "", sorted(ids[0:4])),
        (2, "", sorted(ids[4:8])),
        (3, "", sorted(ids[8:12])),
    ]
    events = list(Tournament.objects.filter(season=season).order_by("pk"))
    assert [t.status for t in events] == ["running"] * 3
    assert all(t.round_start == "times" and t.round_times == settings()["round_times"] for t in events)
    started = Notification.objects.filter(kind="season", user=p[5].user).get()
    assert (started.params["division"], started.params["level"]) == ("", 2)  # named in the reader's words
    assert kinds.title("season", started.params) == "Autumn has started: you play in Division 2"
    with translation.override("ru"):
        assert "Дивизион 2" in kinds.title("season", started.params)

    # In every division the lowest rated wins every game: places reverse the ratings.
    strength = {x.pk: -i for i, x in enumerate(p)}
    live = selectors.season_table(season)
    assert [r.movement for r in live[1].rows] == ["up", "stay", "stay", "down"]  # provisional, round 1 paired
    play_season(season, strength, org.player)
    with django_capture_on_commit_callbacks(execute=True):
        nxt = services.season_close(season_id=season.pk, by=org.player)
    season.refresh_from_db()
    assert season.status == "finished" and nxt.previous_id == season.pk and nxt.round_times == []
    assert services.season_close(season_id=season.pk, by=org.player).pk == nxt.pk  # closing again: the same

    table = selectors.season_table(season)
    assert [(r.name, r.place, r.points, r.games, r.movement) for r in table[0].rows] == [
        ("P3", 1, 3.0, 3, "stay"),
        ("P2", 2, 2.0, 3, "stay"),
        ("P1", 3, 1.0, 3, "stay"),
        ("P0", 4, 0.0, 3, "down"),
    ]
    assert [(r.name, r.movement) for r in table[1].rows] == [
        ("P7", "up"),
        ("P6", "stay"),
        ("P5", "stay"),
        ("P4", "down"),
    ]
    assert [(r.name, r.movement) for r in table[2].rows] == [
        ("P11", "up"),
        ("P10", "stay"),
        ("P9", "stay"),
        ("P8", "stay"),  # the bottom relegates nobody
    ]
    told = Notification.objects.get(kind="season", user=p[7].user, params__state="finished")
    assert told.params["movement"] == "up" and told.params["to_level"] == 1
    assert "you go up to division 1" in kinds.title("season", told.params)
    prizes = selectors.prize_winners(season)
    assert [x.name for x in prizes[0].players] == ["P3"]
    assert [(x.name, x.rating) for x in prizes[1].players] == [("P11", 1450), ("P10", 1500)]
    arrived = dict(SeasonEntry.objects.filter(season=nxt).values_list("player_id", "arrived"))
    assert arrived == {
        **{x.pk: "stay" for x in p},
        p[7].pk: "up",
        p[11].pk: "up",
        p[0].pk: "down",
        p[4].pk: "down",
    }

    # Season 2: P5 withdraws before the start; two newcomers come in at the bottom.
    services.season_withdraw(season_id=nxt.pk, player=p[5])
    n1, n2 = rated(make_actor, "n1", 2500), rated(make_actor, "n2", 1000)
    for newcomer in (n1, n2):
        services.season_register(season_id=nxt.pk, player=newcomer)
    services.season_update(season_id=nxt.pk, by=org.player, round_times=settings()["round_times"])
    services.season_start(season_id=nxt.pk, by=org.player)
    # Arrival order: level 1 P3 P2 P1 (stayed) P7 (up); level 2 P0 (down) P6 P11 (up); level 3 P4
    # (down) P10 P9 P8, then the newcomers. Levels of 4 from the top: level 2 lost P5 and is
    # filled from below (P4); the 5 left make the bottom division.
    by = {x.pk: x for x in [*p, n1, n2]}
    assert layout(nxt) == [
        (1, "", sorted([p[3].pk, p[2].pk, p[1].pk, p[7].pk])),
        (2, "", sorted([p[0].pk, p[6].pk, p[11].pk, p[4].pk])),
        (3, "", sorted([p[10].pk, p[9].pk, p[8].pk, n1.pk, n2.pk])),
    ]
    assert by  # every id is a player of the test

    # Season 2 by rating: the highest rated wins every game.
    play_season(
        nxt,
        {x.pk: -r for x, r in ((x, 2000 - 50 * i) for i, x in enumerate(p))} | {n1.pk: -2500, n2.pk: -1000},
        org.player,
    )
    third = services.season_close(season_id=nxt.pk, by=org.player, name="Spring")
    assert third.name == "Spring"
    final = selectors.season_table(nxt)
    assert [(r.name, r.movement) for r in final[0].rows] == [
        ("P1", "stay"),
        ("P2", "stay"),
        ("P3", "stay"),
        ("P7", "down"),
    ]
    assert [(r.name, r.movement) for r in final[1].rows] == [
        ("P0", "up"),
        ("P4", "stay"),
        ("P6", "stay"),
        ("P11", "down"),
    ]
    assert [(r.name, r.place) for r in final[2].rows] == [
        ("N1", 1),
        ("P8", 2),
        ("P9", 3),
        ("P10", 4),
        ("N2", 5),
    ]
    assert final[2].rows[0].movement == "up" and final[2].rows[-1].movement == "stay"
    assert not SeasonEntry.objects.filter(season=third, player=p[5]).exists()  # withdrew: not carried on
    archive = selectors.league_seasons(league)
    assert [(s.name, s.status, s.winner) for s in archive] == [
        ("Spring", "registration", ""),
        ("Autumn (next)", "finished", "P1"),
        ("Autumn", "finished", "P3"),
    ]


def test_newcomers_by_rating_and_a_withdrawal_during_the_season(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    p = [rated(make_actor, f"q{i}", 1800 - 100 * i) for i in range(6)]  # 1800 ... 1300
    season = services.season_create(
        league=league,
        by=org.player,
        name="S1",
        kind="divisions",
        division_size=3,
        promote=1,
        relegate=1,
        newcomers="rating",
        **settings(),
    )
    for player in p:
        services.season_register(season_id=season.pk, player=player)
    services.season_start(season_id=season.pk, by=org.player)
    assert layout(season) == [(1, "", sorted(x.pk for x in p[:3])), (2, "", sorted(x.pk for x in p[3:]))]
    services.season_withdraw(season_id=season.pk, player=p[1])  # leaves during the season
    assert Registration.objects.get(player=p[1], tournament__season=season).status == "withdrawn"
    play_season(season, {x.pk: i for i, x in enumerate(p)}, org.player)
    assert sweep.sweep(now=datetime.now(UTC)) == {"closed": 1}  # the sweep closes it
    assert sweep.sweep(now=datetime.now(UTC)) == {}  # once
    season.refresh_from_db()
    nxt = Season.objects.get(previous=season)
    moves = dict(SeasonEntry.objects.filter(season=season).values_list("player_id", "movement"))
    assert moves == {
        p[0].pk: "stay",
        p[2].pk: "stay",
        p[1].pk: "down",
        p[3].pk: "up",
        p[4].pk: "stay",
        p[5].pk: "stay",
    }
    assert not SeasonEntry.objects.filter(season=nxt, player=p[1]).exists()
    # Newcomers by rating: level 1 arrivals average (1800+1600+1500)/3 = 1633, level 2 (1400+1300)/2 = 1350.
    strong, middle, weak = (
        rated(make_actor, "strong", 1700),
        rated(make_actor, "middle", 1400),
        rated(make_actor, "weak", 1200),
    )
    for player in (weak, middle, strong):
        services.season_register(season_id=nxt.pk, player=player)
    services.season_update(season_id=nxt.pk, by=org.player, round_times=settings()["round_times"])
    services.season_start(season_id=nxt.pk, by=org.player)
    # Ordered: level 1 P0 P2 (stay) P3 (up), strong; level 2 P4 P5, middle; then weak (below every
    # level's average). Levels of 3 from the top; the 5 left make the bottom (one division:
    # two groups would have fewer than 3 each).
    assert layout(nxt) == [
        (1, "", sorted([p[0].pk, p[2].pk, p[3].pk])),
        (2, "", sorted([strong.pk, p[4].pk, p[5].pk, middle.pk, weak.pk])),
    ]


def test_a_bottom_level_too_large_splits_into_groups(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    p = [rated(make_actor, f"g{i}", 2000 - 10 * i) for i in range(11)]
    season = services.season_create(
        league=league,
        by=org.player,
        name="Big",
        kind="divisions",
        division_size=4,
        promote=1,
        relegate=1,
        **settings(),
    )
    for player in p:
        services.season_register(season_id=season.pk, player=player)
    services.season_start(season_id=season.pk, by=org.player)
    ids = [x.pk for x in p]
    # 4 at the top; 7 left (more than 4 + 2): groups A and B dealt in a snake.
    assert layout(season) == [
        (1, "", sorted(ids[:4])),
        (2, "A", sorted([ids[4], ids[7], ids[8]])),
        (2, "B", sorted([ids[5], ids[6], ids[9], ids[10]])),
    ]
    assert [t.name for t in Tournament.objects.filter(season=season).order_by("pk")] == [
        f"{season.name}: Division 1",
        f"{season.name}: Division 2 A",
        f"{season.name}: Division 2 B",
    ]


def test_the_sweep_starts_a_season_an_hour_before_its_first_round(make_actor: Callable[..., Actor]) -> None:
    org, league = club(make_actor)
    now = datetime.now(UTC).replace(microsecond=0)
    first = now + timedelta(hours=3)
    times = [(first + timedelta(days=7 * i)).isoformat() for i in range(3)]
    season = services.season_create(
        league=league,
        by=org.player,
        name="Weekly",
        kind="divisions",
        division_size=4,
        promote=1,
        round_deadline_minutes=60 * 24 * 6,
        **settings(round_times=times),
    )
    for i in range(4):
        services.season_register(season_id=season.pk, player=rated(make_actor, f"w{i}", 1500))
    assert sweep.sweep(now=first - timedelta(hours=1, minutes=1)) == {}
    assert sweep.sweep(now=first - timedelta(hours=1)) == {"started": 1}
    assert sweep.sweep(now=first) == {}
    (t,) = Tournament.objects.filter(season=season)
    assert t.status == "registration" and t.starts_at == first  # the calendar starts it at round 1
    assert t.round_deadline_minutes == 60 * 24 * 6 and Registration.objects.filter(tournament=t).count() == 4
    assert [r.number for r in selectors.schedule(season)] == [1, 2, 3]
    assert selectors.schedule(season)[0].deadline == first + timedelta(days=6)
    tick.tick(now=first)  # the calendar's own sweep starts the division at its first round time
    t.refresh_from_db()
    assert t.status == "running" and t.current_round == 1


def test_the_sweep_starts_at_once_a_season_whose_first_round_has_passed(
    make_actor: Callable[..., Actor],
) -> None:
    org, league = club(make_actor)
    season = services.season_create(
        league=league, by=org.player, name="Late", kind="divisions", division_size=4, promote=1, **settings()
    )
    for i in range(3):
        services.season_register(season_id=season.pk, player=rated(make_actor, f"l{i}", 1500))
    assert sweep.sweep(now=datetime.now(UTC)) == {"started": 1}
    (t,) = Tournament.objects.filter(season=season)
    assert t.status == "running" and t.current_round == 1
    assert AuditEntry.objects.filter(tournament=t, action="auto_start", by=None).exists()
    assert sweep.sweep(now=datetime.now(UTC)) == {}
