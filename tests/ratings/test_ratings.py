"""TrueSkill ratings: values, exactly-once updates, finishing order, recompute, API and pages."""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
import trueskill
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from games import services as game_services
from games.events import game_finished
from games.models import Player, Seat, Table
from games.selectors import game_result, seated_players
from ratings import environment, services
from ratings.models import Rating, RatingChange, RatingUpdate
from ratings.tasks import rate_pending, rate_table
from tests.games.conftest import Actor, every_seat_moves

T0 = timezone.now() - timedelta(days=10)


def env(game: str = "pacru") -> trueskill.TrueSkill:
    return trueskill.TrueSkill(
        mu=25, sigma=25 / 3, beta=25 / 6, tau=25 / 300, draw_probability={"pacru": 0.02}.get(game, 0.10)
    )


def finished(
    players: list[Player], ranks: list[int], *, minutes: int, game: str = "pacru", rated: bool = True
) -> Table:
    """A finished table with this ranking (seat order = player order), as the games app leaves it."""
    table = Table.objects.create(
        game=game,
        players=len(players),
        created_by=players[0],
        status=Table.Status.FINISHED,
        rated=rated,
        started_at=T0,
        finished_at=T0 + timedelta(minutes=minutes),
        result={"ranking": {str(i + 1): r for i, r in enumerate(ranks)}},
    )
    Seat.objects.bulk_create(
        Seat(table=table, number=i + 1, player=p, colour=Seat.COLOURS[i + 1], rank=ranks[i])
        for i, p in enumerate(players)
    )
    return table


@pytest.fixture
def people(make_actor: Callable[..., Actor]) -> list[Player]:
    return [make_actor(f"r{i}").player for i in range(6)]


def rating(player: Player, game: str = "pacru") -> tuple[float, float]:
    r = Rating.objects.get(player=player, game=game)
    return r.mu, r.sigma


def test_a_two_player_win_matches_trueskill(people: list[Player]) -> None:
    a, b = people[:2]
    table = finished([a, b], [1, 2], minutes=1)
    assert rate_table(table.pk) == 1
    e = env()
    (wa,), (wb,) = e.rate([(e.create_rating(),), (e.create_rating(),)], ranks=[1, 2])
    assert rating(a) == pytest.approx((wa.mu, wa.sigma))
    assert rating(b) == pytest.approx((wb.mu, wb.sigma))
    assert rating(a)[0] > 25 > rating(b)[0]
    change = RatingChange.objects.get(player=a, table=table)
    assert change.rank == 1 and change.seats == 2 and change.delta > 0
    assert change.conservative_after == pytest.approx(wa.mu - 3 * wa.sigma)


def test_a_four_player_table_with_a_tie(people: list[Player]) -> None:
    a, b, c, d = people[:4]
    finished([a, b, c, d], [1, 2, 2, 4], minutes=1)
    rate_pending()
    e = env()
    expected = e.rate([(e.create_rating(),) for _ in range(4)], ranks=[1, 2, 2, 4])
    for p, (r,) in zip([a, b, c, d], expected, strict=True):
        assert rating(p) == pytest.approx((r.mu, r.sigma))
    assert rating(b) == pytest.approx(rating(c), abs=1e-2), "a tie moves both (almost) alike"


def test_a_three_player_table_where_one_was_eliminated_first(people: list[Player]) -> None:
    a, b, c = people[:3]
    # seat 2 was eliminated first, so it ranks last; seat 3 second (RULES 6.6)
    finished([a, b, c], [1, 3, 2], minutes=1, game="azacru")
    rate_pending()
    e = env("azacru")
    expected = e.rate([(e.create_rating(),) for _ in range(3)], ranks=[1, 3, 2])
    for p, (r,) in zip([a, b, c], expected, strict=True):
        assert rating(p, "azacru") == pytest.approx((r.mu, r.sigma))
    assert not Rating.objects.filter(game="pacru").exists(), "one pool per game"


def test_a_duplicated_task_updates_once(people: list[Player]) -> None:
    a, b = people[:2]
    table = finished([a, b], [2, 1], minutes=1)
    assert rate_table(table.pk) == 1
    once = rating(a)
    assert rate_table(table.pk) == 0
    assert rate_table(table.pk) == 0
    assert rating(a) == once
    assert RatingChange.objects.count() == 2 and RatingUpdate.objects.count() == 1


def test_unrated_and_aborted_tables_change_nothing(people: list[Player]) -> None:
    a, b = people[:2]
    finished([a, b], [1, 2], minutes=1, rated=False)
    aborted = finished([a, b], [1, 2], minutes=2)
    Table.objects.filter(pk=aborted.pk).update(status=Table.Status.ABORTED)
    assert rate_pending() == 0
    assert not Rating.objects.exists()


def sequential(tables: list[tuple[list[Player], list[int]]]) -> dict[int, tuple[float, float]]:
    """The in-order result, computed with trueskill directly."""
    e = env()
    now: dict[int, Any] = {}
    for players, ranks in tables:
        groups = [(now.get(p.pk, e.create_rating()),) for p in players]
        for p, (r,) in zip(players, e.rate(groups, ranks=ranks), strict=True):
            now[p.pk] = r
    return {k: (v.mu, v.sigma) for k, v in now.items()}


def test_a_lost_task_is_recovered_in_finishing_order(people: list[Player]) -> None:
    a, b, c = people[:3]
    games = [([a, b], [1, 2]), ([b, c], [1, 2]), ([a, c], [2, 1]), ([a, b, c], [3, 1, 2])]
    tables = [finished(p, r, minutes=i + 1) for i, (p, r) in enumerate(games[:3])]
    # The tasks of the first two tables were lost; the third table's task rates all three, oldest first.
    assert rate_table(tables[2].pk) == 3
    # The fourth table's task is lost too: the periodic job picks it up.
    tables.append(finished(*games[3], minutes=4))
    assert rate_pending() == 1
    assert rate_pending() == 0
    expected = sequential(games)
    for p in (a, b, c):
        assert rating(p) == pytest.approx(expected[p.pk])
    assert list(RatingUpdate.objects.order_by("id").values_list("table_id", flat=True)) == [
        t.pk for t in tables
    ]


def test_recompute_equals_incremental_and_is_deterministic(people: list[Player], capsys: Any) -> None:
    import random

    rng = random.Random(5)
    for i in range(30):
        n = rng.choice([2, 3, 4])
        players = rng.sample(people, n)
        ranks = sorted(rng.choice([1, 2, 3, 4][:n]) for _ in range(n))
        table = finished(players, ranks, minutes=i + 1, game=rng.choice(["pacru", "shacru"]))
        rate_table(table.pk)  # incremental, as tables finish
    incremental = sorted(Rating.objects.values_list("player_id", "game", "mu", "sigma", "games"))
    history = sorted(RatingChange.objects.values_list("player_id", "table_id", "mu_after", "sigma_after"))
    call_command("recompute_ratings")
    assert sorted(Rating.objects.values_list("player_id", "game", "mu", "sigma", "games")) == incremental
    assert (
        sorted(RatingChange.objects.values_list("player_id", "table_id", "mu_after", "sigma_after"))
        == history
    )
    call_command("recompute_ratings", "--game", "pacru", "--quiet")
    assert sorted(Rating.objects.values_list("player_id", "game", "mu", "sigma", "games")) == incremental
    out = capsys.readouterr()
    assert "recomputed" in out.out and "pacru:" in out.out
    assert "[" in out.err and "#" in out.err, "a progress bar"


def test_extreme_upsets_fall_back_to_mpmath() -> None:
    with pytest.raises(FloatingPointError):
        e = environment.env("pacru")
        e.rate([(e.create_rating(400, 2),), (e.create_rating(0, 2),)], ranks=[1, 0])
    (mu_fav, _), (mu_dog, _) = environment.rate("pacru", [(400, 2), (0, 2)], [1, 0])
    assert math.isfinite(mu_fav) and mu_fav < 400 and mu_dog > 0


def test_match_quality_depends_on_table_size(people: list[Player]) -> None:
    qualities = [services.match_quality(game="pacru", players=people[:n]) for n in (2, 3, 4)]
    assert qualities == pytest.approx([0.447, 0.2, 0.0894], abs=1e-3)
    assert [environment.fair_quality("pacru", n) for n in (2, 3, 4)] == pytest.approx(
        [q / 2 for q in qualities]
    )
    with pytest.raises(ValueError):
        services.match_quality(game="pacru", players=people[:5])


def test_a_finished_game_is_rated_through_the_event(alice: Actor, bob: Actor) -> None:
    table = game_services.table_create(creator=alice.player, game="shacru", players=2)
    game_services.seat_join(table_id=table.pk, player=bob.player)
    every_seat_moves(table)
    game_services.game_resign(table_id=table.pk, player=bob.player)
    # the test database runs each test in a transaction: deliver the on-commit event by hand
    result = game_result(table.pk)
    assert result is not None and [s.ending for s in result.seats] == ["finished", "resigned"]
    game_finished.send(sender=Table, result=result, players=seated_players([table.pk])[table.pk])
    assert rating(alice.player, "shacru")[0] > 25 > rating(bob.player, "shacru")[0]


def test_leaderboard_and_player_ratings_api(people: list[Player], anon: Any) -> None:
    a, b, c = people[:3]
    for i in range(3):
        finished([a, b, c], [1, 2, 3], minutes=i + 1)
    rate_pending()
    board = anon.get("/api/v1/ratings/pacru/").json()
    assert [r["player"]["id"] for r in board["results"]] == [a.pk, b.pk, c.pk]
    top = board["results"][0]
    assert top["position"] == 1 and top["games"] == 3 and top["provisional"] is True
    assert top["conservative"] == pytest.approx(top["mu"] - 3 * top["sigma"], abs=1e-2)
    assert anon.get("/api/v1/ratings/pacru/?provisional=false").json()["count"] == 0
    assert anon.get("/api/v1/ratings/pacru/?ordering=games").status_code == 200
    assert anon.get("/api/v1/ratings/pacru/?ordering=nonsense").status_code == 400
    assert anon.get("/api/v1/ratings/chess/").status_code == 404
    mine = anon.get(f"/api/v1/players/{c.pk}/ratings/?game=pacru").json()
    assert mine["ratings"][0]["games"] == 3 and len(mine["history"]) == 3
    assert all(h["rank"] == 3 and h["mu_after"] < h["mu_before"] for h in mine["history"])
    q = anon.get(f"/api/v1/ratings/pacru/quality/?players={a.pk},{c.pk}").json()
    assert 0 < q["quality"] < 0.447 and q["fair_threshold"] == pytest.approx(0.2236, abs=1e-3)
    assert anon.get("/api/v1/ratings/pacru/quality/?players=1,x").status_code == 400


def test_pages_show_the_leaderboard_and_the_history_chart(people: list[Player], client: Any) -> None:
    a, b = people[:2]
    for i in range(4):
        finished([a, b], [1, 2], minutes=i + 1)
    rate_pending()
    page = client.get("/ratings/pacru/?all=1")
    assert page.status_code == 200
    html = page.content.decode()
    mine = Rating.objects.get(player=a)
    assert a.display_name in html and f'<td class="num">{round(60 * mine.mu)}?</td>' in html  # display scale
    page = client.get(f"/players/{a.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<svg class="rating-chart"' in html and "<polygon" in html and "<polyline" in html
    assert "4 rated tables" in html and "1st\xa0of\xa02" in html
    assert client.get("/players/99999/").status_code == 404


def snapshot(game: str = "pacru") -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Ratings and history of ``game``, exactly (floats compared with ``==``)."""
    ratings = sorted(Rating.objects.filter(game=game).values_list("player_id", "mu", "sigma", "games"))
    history = sorted(
        RatingChange.objects.filter(game=game).values_list(
            "player_id", "table_id", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
    )
    return ratings, history


def test_recompute_replays_in_commit_order_not_finishing_order(people: list[Player]) -> None:
    """Stamp-before-commit: the table that finished first becomes visible after the other was rated."""
    a, b, c = people[:3]
    # X finishes first (its transaction stamps finished_at) but commits late: while it is still
    # invisible, Y (sharing player b) finishes, commits and is rated.
    late = finished([a, b], [1, 2], minutes=1)
    Table.objects.filter(pk=late.pk).update(status=Table.Status.ACTIVE)  # not committed yet
    early = finished([b, c], [1, 2], minutes=2)
    assert rate_pending() == 1
    Table.objects.filter(pk=late.pk).update(status=Table.Status.FINISHED)  # X commits now
    assert rate_pending() == 1
    live = snapshot()
    expected = sequential([([b, c], [1, 2]), ([a, b], [1, 2])])  # the order the ledger saw them
    for player_id, mu, sigma, _ in live[0]:
        assert (mu, sigma) == pytest.approx(expected[player_id])
    assert list(RatingUpdate.objects.order_by("seq").values_list("table_id", flat=True)) == [
        early.pk,
        late.pk,
    ]
    services.recompute(games=["pacru"])
    assert snapshot() == live, "recompute gives exactly the live ratings and history"
    assert list(RatingUpdate.objects.order_by("seq").values_list("table_id", "seq")) == [
        (early.pk, 1),
        (late.pk, 2),
    ]
    # a table finishing now is numbered after them, and recompute still agrees
    finished([a, c], [2, 1], minutes=3)
    assert rate_pending() == 1
    live = snapshot()
    assert RatingUpdate.objects.order_by("seq").last().seq == 3
    services.recompute(games=["pacru"])
    assert snapshot() == live


def test_readers_see_the_old_ratings_until_a_recompute_commits(
    people: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c = people[:3]
    for i, (players, ranks) in enumerate([([a, b], [1, 2]), ([b, c], [2, 1]), ([a, c], [1, 2])] * 3):
        finished(players, ranks, minutes=i + 1)
    assert rate_pending() == 9
    right = snapshot()
    # the stored ratings are off (say, rated with other parameters): a recompute repairs them
    Rating.objects.update(mu=99.0, sigma=1.0)
    old = sorted(Rating.objects.values_list("player_id", "mu", "sigma", "games"))
    monkeypatch.setattr(services, "BATCH", 2)  # several chunks, so the callback runs mid-recompute
    seen: list[tuple[int, int]] = []

    def progress(game: str, done: int, total: int) -> None:
        seen.append((done, total))
        assert sorted(Rating.objects.values_list("player_id", "mu", "sigma", "games")) == old

    assert services.recompute(games=["pacru"], progress=progress) == {"pacru": 9}
    assert seen == [(2, 9), (4, 9), (6, 9), (8, 9), (9, 9)]
    assert snapshot() == right


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_another_connection_reads_the_old_ratings_during_a_recompute(people: list[Player]) -> None:
    """On PostgreSQL, a reader on its own connection sees the old ratings and history until the commit."""
    a, b, c = people[:3]
    for i, (players, ranks) in enumerate([([a, b], [1, 2]), ([b, c], [2, 1]), ([a, c], [1, 2])] * 2):
        finished(players, ranks, minutes=i + 1)
    assert rate_pending() == 6
    right = snapshot()
    Rating.objects.update(mu=99.0, sigma=1.0)
    old = snapshot()

    def read() -> tuple[Any, int]:
        try:  # a thread has its own database connection
            return snapshot(), RatingUpdate.objects.count()
        finally:
            connection.close()

    seen = []

    def progress(game: str, done: int, total: int) -> None:
        with ThreadPoolExecutor(1) as pool:
            seen.append(pool.submit(read).result())

    services.recompute(games=["pacru"], progress=progress)
    assert seen == [(old, 6)]
    assert snapshot() == right
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(read).result() == (right, 6)
