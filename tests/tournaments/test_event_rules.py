"""The event rules organisers set: capacity, rating bounds, the registration window, check-in by the
organiser, pause and resume, and seeds (a knockout's bracket follows them)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from common.errors import Conflict, Forbidden, InvalidInput
from games.models import Player, Table
from ratings.models import Rating
from tournaments import pairing
from tournaments.competitions import services
from tournaments.models import AuditEntry, League, Registration, Round, Tournament

from ..games.conftest import Actor, as_organiser
from .test_formats_flow import current_tables, finish_by_resignations

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Player, League]:
    org = as_organiser(make_actor("rules-org").player)
    return org, services.league_create(organiser=org, name="Rules Club")


def event(club: tuple[Player, League], **settings: Any) -> Tournament:
    org, league = club
    settings.setdefault("seats", 2)
    return services.tournament_create(organiser=org, league=league, name="Rules", game="shacru", **settings)


def people(make_actor: Callable[..., Actor], n: int, prefix: str = "p") -> list[Player]:
    return [make_actor(f"{prefix}{i}").player for i in range(n)]


def rate(player: Player, mu: float, game: str = "shacru") -> None:
    Rating.objects.update_or_create(
        player=player, game=game, defaults={"mu": mu, "sigma": 2.0, "conservative": mu - 6, "games": 10}
    )


# ------------------------------------------------------------------ capacity


def test_a_full_event_refuses_the_next_player_with_the_count(
    club: tuple[Player, League], make_actor: Callable[..., Actor]
) -> None:
    t = event(club, max_players=2)
    a, b, c = people(make_actor, 3)
    services.register(tournament_id=t.pk, player=a)
    services.register(tournament_id=t.pk, player=b)
    with pytest.raises(Conflict, match="the event is full: 2 of 2 places taken"):
        services.register(tournament_id=t.pk, player=c)
    # the organiser is bound by the capacity too
    with pytest.raises(Conflict, match="the event is full"):
        services.register(tournament_id=t.pk, player=c, by=club[0])
    # a withdrawal frees a place
    services.withdraw(tournament_id=t.pk, player=a, by=a)
    services.register(tournament_id=t.pk, player=c)
    assert Registration.objects.filter(tournament=t).exclude(status="withdrawn").count() == 2


def test_event_settings_are_validated(club: tuple[Player, League]) -> None:
    with pytest.raises(InvalidInput, match="at least 2 players"):
        event(club, max_players=1)
    with pytest.raises(InvalidInput, match=r"minimum rating \(1600\) is above the maximum \(1400\)"):
        event(club, rating_min=1600, rating_max=1400)
    now = timezone.now()
    with pytest.raises(InvalidInput, match="registration must open before it closes"):
        event(club, registration_opens=now, registration_closes=now - timedelta(hours=1))
    t = event(
        club, max_players=8, rating_min=1200, rating_max=1800, registration_closes=now + timedelta(days=1)
    )
    assert (t.max_players, t.rating_min, t.rating_max) == (8, 1200, 1800)


# ------------------------------------------------------------- rating bounds


def test_rating_bounds_use_the_displayed_rating_and_1500_for_the_unrated(
    club: tuple[Player, League], make_actor: Callable[..., Actor]
) -> None:
    t = event(club, rating_min=1400, rating_max=1700)
    low, high, mid, new = people(make_actor, 4)
    rate(low, 22.0)  # 1320
    rate(high, 30.0)  # 1800
    rate(mid, 26.0)  # 1560
    rate(new, 40.0, game="pacru")  # rated in another game only: 1500 here
    with pytest.raises(Forbidden, match="your Shacru rating is 1320, below this event's minimum of 1400"):
        services.register(tournament_id=t.pk, player=low)
    with pytest.raises(Forbidden, match="your Shacru rating is 1800, above this event's maximum of 1700"):
        services.register(tournament_id=t.pk, player=high)
    services.register(tournament_id=t.pk, player=mid)
    services.register(tournament_id=t.pk, player=new)
    above = event(club, rating_min=1501)
    with pytest.raises(Forbidden, match="1500, below this event's minimum of 1501"):
        services.register(tournament_id=above.pk, player=new)
    # the organiser may enter a player outside the bounds
    services.register(tournament_id=t.pk, player=low, by=club[0])
    assert Registration.objects.filter(tournament=t).count() == 3


# --------------------------------------------------------- registration window


def test_the_window_binds_players_but_not_the_organiser(
    club: tuple[Player, League], make_actor: Callable[..., Actor]
) -> None:
    later = timezone.now() + timedelta(days=1)
    t = event(club, registration_opens=later, registration_closes=later + timedelta(days=1))
    a, b = people(make_actor, 2)
    with pytest.raises(Conflict, match="registration is closed at this time"):
        services.register(tournament_id=t.pk, player=a)
    reg = services.register(tournament_id=t.pk, player=a, by=club[0])
    assert reg.status == "registered"
    assert AuditEntry.objects.get(tournament=t, action="register").detail["name"] == a.display_name
    past = event(club, registration_closes=timezone.now() - timedelta(minutes=1))
    with pytest.raises(Conflict, match="registration is closed"):
        services.register(tournament_id=past.pk, player=b)


def test_organiser_registration_and_check_in(
    club: tuple[Player, League], make_actor: Callable[..., Actor]
) -> None:
    t = event(club, check_in=True)
    a, b, outsider = people(make_actor, 3)
    assert services.register(tournament_id=t.pk, player=a, by=club[0]).status == "checked_in"
    services.register(tournament_id=t.pk, player=b)
    with pytest.raises(Forbidden):
        services.check_in(tournament_id=t.pk, player=b, by=outsider)
    with pytest.raises(Forbidden):
        services.register(tournament_id=t.pk, player=outsider, by=b)
    assert Registration.objects.get(tournament=t, player=b).status == "registered"
    services.check_in(tournament_id=t.pk, player=b, by=club[0])
    assert Registration.objects.get(tournament=t, player=b).status == "checked_in"
    with pytest.raises(Conflict, match="registered already"):
        services.register(tournament_id=t.pk, player=a, by=club[0])


# ----------------------------------------------------------- pause and resume


def test_pause_stops_the_pairing_and_resume_pairs_at_once(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t = event(club, rounds=3, rated=False)
    with pytest.raises(Conflict, match="only a running event can be paused"):
        services.pause(tournament_id=t.pk, by=org)
    for p in people(make_actor, 4):
        services.register(tournament_id=t.pk, player=p)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org)
    outsider = make_actor("nosy").player
    with pytest.raises(Forbidden):
        services.pause(tournament_id=t.pk, by=outsider)
    services.pause(tournament_id=t.pk, by=org)
    with pytest.raises(Conflict, match="paused already"):
        services.pause(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    for table in current_tables(t):
        with django_capture_on_commit_callbacks(execute=True):
            finish_by_resignations(table.pk, [1, 2])
    t.refresh_from_db()
    assert t.current_round == 1 and Round.objects.get(tournament=t, number=1).status == "finished"
    assert not Round.objects.filter(tournament=t, number=2).exists(), "paused: round 2 is not paired"
    with pytest.raises(Forbidden):
        services.resume(tournament_id=t.pk, by=outsider)
    rnd = services.resume(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    assert rnd is not None and rnd.number == 2 and t.current_round == 2 and not t.paused
    assert list(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True)) == [
        "resume",
        "pause",
        "start",
    ]
    with pytest.raises(Conflict, match="is not paused"):
        services.resume(tournament_id=t.pk, by=org)


def test_resume_while_a_round_is_played_pairs_nothing_and_the_round_end_pairs_as_usual(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t = event(club, rounds=2, rated=False)
    for p in people(make_actor, 2):
        services.register(tournament_id=t.pk, player=p)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org)
    services.pause(tournament_id=t.pk, by=org)
    assert services.resume(tournament_id=t.pk, by=org) is None
    t.refresh_from_db()
    (table,) = current_tables(t)
    with django_capture_on_commit_callbacks(execute=True):
        finish_by_resignations(table.pk, [1, 2])
    t.refresh_from_db()
    assert t.current_round == 2


def test_a_paused_event_still_ends_after_its_last_round(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t = event(club, rounds=1, rated=False)
    for p in people(make_actor, 2):
        services.register(tournament_id=t.pk, player=p)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org)
    services.pause(tournament_id=t.pk, by=org)
    (table,) = current_tables(Tournament.objects.get(pk=t.pk))
    with django_capture_on_commit_callbacks(execute=True):
        finish_by_resignations(table.pk, [1, 2])
    assert Tournament.objects.get(pk=t.pk).status == "finished"


# --------------------------------------------------------------------- seeds


def test_seeds_order_a_knockout_bracket_before_ratings(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t = event(club, format="knockout", rated=False)
    players = people(make_actor, 4)
    for i, p in enumerate(players):
        rate(p, 20.0 + 5 * i)  # by rating the last is the top seed
        services.register(tournament_id=t.pk, player=p)
    a, b, c, d = players
    services.set_seeds(tournament_id=t.pk, seeds={a.pk: 1, b.pk: 2}, by=org)
    with pytest.raises(InvalidInput, match="seed 1 is given twice"):
        services.set_seeds(tournament_id=t.pk, seeds={c.pk: 1}, by=org)
    with pytest.raises(InvalidInput, match="a seed is 1 or more"):
        services.set_seeds(tournament_id=t.pk, seeds={c.pk: 0}, by=org)
    with pytest.raises(Forbidden):
        services.set_seeds(tournament_id=t.pk, seeds={c.pk: 3}, by=d)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    assert t.seeds == [a.pk, b.pk, d.pk, c.pk], "seeded players first, then the rest by rating"
    # 1 v 4 and 2 v 3 in the first round
    tables = [{s.player_id for s in table.seats.all()} for table in current_tables(t)]
    assert {a.pk, c.pk} in tables and {b.pk, d.pk} in tables
    with pytest.raises(Conflict, match="before the start"):
        services.set_seeds(tournament_id=t.pk, seeds={c.pk: 3}, by=org)


def test_without_seeds_a_knockout_seeds_by_rating_as_before(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t = event(club, format="knockout", rated=False)
    players = people(make_actor, 4)
    for i, p in enumerate(players):
        rate(p, 20.0 + 5 * i)
        services.register(tournament_id=t.pk, player=p)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    assert t.seeds == [p.pk for p in reversed(players)]
    assert all(tb.status == Table.Status.ACTIVE for tb in current_tables(t))


def test_seeds_order_a_swiss_score_group_before_ratings(
    club: tuple[Player, League], make_actor: Callable[..., Actor], django_capture_on_commit_callbacks: Any
) -> None:
    org = club[0]
    t = event(club, rounds=2, rated=False)
    players = people(make_actor, 4)
    for i, p in enumerate(players):
        rate(p, 20.0 + 5 * i)  # by rating: d, c, b, a
        services.register(tournament_id=t.pk, player=p)
    a, b, c, d = players
    services.set_seeds(tournament_id=t.pk, seeds={a.pk: 1, b.pk: 2}, by=org)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament_id=t.pk, by=org)
    t.refresh_from_db()
    order = [a.pk, b.pk, d.pk, c.pk]
    expected = pairing.swiss_round([pairing.Entrant(p, rating=-float(i)) for i, p in enumerate(order)], 2)
    by_rating = pairing.swiss_round(
        [pairing.Entrant(p.pk, rating=20.0 + 5 * i) for i, p in enumerate(players)], 2
    )
    got = sorted(sorted(s.player_id for s in table.seats.all()) for table in current_tables(t))
    assert got == sorted(sorted(tb.players) for tb in expected.tables)
    assert got != sorted(sorted(tb.players) for tb in by_rating.tables), "the seeds changed the pairing"
