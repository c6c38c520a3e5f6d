"""The leaderboard and the player page as players read them: the display scale, provisional
players marked (and listed while few are established), the player's events and ladder positions,
and a constant number of queries however many rows there are."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services as games
from games.models import Player, Table
from ratings.models import Rating
from ratings.services import apply_pending
from tournaments import ladders
from tournaments.competitions import selectors as event_selectors
from tournaments.competitions import services
from tournaments.ladders import selectors
from tournaments.models import Ladder, League, Round, Tournament

from ..games.conftest import Actor, as_organiser, every_seat_moves

pytestmark = pytest.mark.django_db


def player(name: str) -> Player:
    return games.player_register(username=name.lower(), password="correct-horse-9", display_name=name)


def rate(p: Player, mu: float, sigma: float, game: str = "pacru", tables: int = 5) -> Rating:
    return Rating.objects.create(
        player=p,
        game=game,
        mu=mu,
        sigma=sigma,
        conservative=mu - 3 * sigma,
        games=tables,
        last_played=timezone.now() - timedelta(days=1),
    )


def board_rows(html: str) -> list[tuple[str, str, bool]]:
    """(name, rating, marked provisional) per row of the leaderboard, in order."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = []
    for row in re.findall(r"<tr.*?</tr>", body, re.S):
        name = re.search(r'<a href="/players/\d+/">([^<]+)</a>', row)
        cells = re.findall(r'<td class="num">([^<]*)</td>', row)
        assert name and cells, row
        rows.append((name.group(1), cells[1], "provisional</small>" in row))
    return rows


def test_a_new_clubs_board_lists_everyone_with_provisional_players_marked() -> None:
    rate(player("Steady"), 28.0, 2.0)  # established: 1680, cautious 22
    rate(player("Lucky"), 32.78, 6.4)  # one win at a table of four: 1967?, cautious 13.6
    rate(player("Newcomer"), 17.22, 6.4)  # one loss: 1033?, cautious −1.97
    rate(player("Sunk"), -1.0, 2.2)  # an established player below zero: shown as 0
    html = Client().get("/ratings/pacru/").content.decode()
    assert board_rows(html) == [
        ("Steady", "1680", False),
        ("Lucky", "1967?", True),
        ("Newcomer", "1033?", True),
        ("Sunk", "0", False),
    ], "ordered by the cautious value, shown on the display scale"
    assert "Only 2 players are established so far" in html and "?all=1" not in html
    assert "± 120" in html and "± 384" in html
    assert not re.search(r"(>|\s)[-−]\d", html), "never a negative number"
    assert re.search(r'<td class="num">1</td>\s*<td><a href="/players/\d+/">Steady</a>', html)


def test_once_many_are_established_provisional_players_are_behind_a_toggle() -> None:
    for i in range(10):
        rate(player(f"Regular {i:02d}"), 26.0 + i / 10, 2.0)
    rate(player("Fresh"), 40.0, 7.0)
    html = Client().get("/ratings/pacru/").content.decode()
    names = [name for name, _, _ in board_rows(html)]
    assert names == [f"Regular {i:02d}" for i in range(9, -1, -1)] and "Fresh" not in html
    assert 'href="?all=1"' in html and "Show provisional players too" in html
    everyone = Client().get("/ratings/pacru/?all=1").content.decode()
    rows = board_rows(everyone)
    assert ("Fresh", "2400?", True) in rows and len(rows) == 11
    assert 'href="?"' in everyone


def test_the_board_has_tabs_for_the_three_games_and_an_empty_board_says_so() -> None:
    html = Client().get("/ratings/shacru/").content.decode()
    assert 'href="/ratings/pacru/"' in html and 'href="/ratings/azacru/"' in html
    assert 'aria-current="page">Shacru' in html
    assert "No rated Shacru players yet" in html
    assert Client().get("/ratings/chess/").status_code == 404
    assert 'href="/ratings/pacru/"' in Client().get("/").content.decode(), "the site bar leads there"


def count_queries(url: str) -> int:
    client = Client()
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_board_costs_the_same_for_few_and_many_players() -> None:
    for i in range(3):
        rate(player(f"A{i}"), 25.0 + i, 2.0 + i)
    few = [count_queries("/ratings/pacru/"), count_queries("/ratings/pacru/?all=1")]
    for i in range(40):
        rate(player(f"B{i}"), 20.0 + i / 4, 1.5 + (i % 5))
    assert [count_queries("/ratings/pacru/"), count_queries("/ratings/pacru/?all=1")] == few


# --------------------------------------------------------------------------- the player page
@pytest.fixture
def club(make_actor: Callable[..., Actor]) -> tuple[Actor, League]:
    organiser = make_actor("organiser")
    as_organiser(organiser.player)
    return organiser, services.league_create(organiser=organiser.player, name="The Club", slug="club")


def finished_swiss(
    club: tuple[Actor, League], name: str, people: list[Player], capture: Any, loser_first: bool = True
) -> Tournament:
    """A one-round Swiss of two players, played to the end (the first seat resigns)."""
    organiser, league = club
    t = services.tournament_create(
        organiser=organiser.player, league=league, name=name, game="pacru", seats=2, rounds=1
    )
    for p in people:
        services.register(tournament_id=t.pk, player=p)
    with capture(execute=True):
        services.start(tournament_id=t.pk, by=organiser.player)
    for rt in Round.objects.get(tournament=t, number=1).tables.select_related("table"):
        seats = dict(rt.table.seats.values_list("number", "player"))
        with capture(execute=True):
            games.game_resign(table_id=rt.table_id, player=Player.objects.get(pk=seats[1]))
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def section(html: str, name: str) -> str:
    """One section of a page, with its no-break spaces read as spaces."""
    return html.split(f'id="{name}"', 1)[1].split("</section>", 1)[0].replace("\xa0", " ")


def test_the_player_page_shows_events_with_final_places_and_ladder_positions(
    club: tuple[Actor, League], alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    organiser, league = club
    me = alice.player
    done = finished_swiss(club, "Autumn Swiss", [me, bob.player], django_capture_on_commit_callbacks)
    apply_pending(game="pacru")
    open_event = services.tournament_create(
        organiser=organiser.player, league=league, name="Winter Open", game="azacru", seats=2
    )
    services.register(tournament_id=open_event.pk, player=me)
    services.tournament_create(
        organiser=organiser.player,
        league=league,
        name="Hidden Draft",
        game="pacru",
        seats=2,
        open_registration=False,
    )
    ladder = ladders.ladder_create(
        organiser=organiser.player, league=league, game="pacru", name="Club Pacru Ladder"
    )
    for p in (me, bob.player, organiser.player):
        ladders.ladder_join(ladder=ladder, player=p)
    html = Client().get(f"/players/{me.pk}/").content.decode()

    events = section(html, "events")
    standings = {s.player: s.place for s in event_selectors.tournament_standings(done)}
    word = {1: "1st", 2: "2nd"}[standings[me.pk]]
    assert f'<a href="/tournaments/{done.pk}/">Autumn Swiss</a>' in events
    assert re.search(rf"Autumn Swiss</a>.*?finished: <strong>{word}</strong> of 2", events, re.S)
    assert re.search(r"Winter Open</a>.*?registered", events, re.S)
    assert "Hidden Draft" not in html
    assert events.index("Winter Open") < events.index("Autumn Swiss"), "newest first"

    # a rating ladder orders its members by the cautious rating: the winner first, the unrated last
    order = [row["player"] for row in selectors.ladder_order(ladder)]
    place = order.index(me.pk) + 1
    ladder_part = section(html, "ladders")
    assert f'<a href="/ladders/{ladder.pk}/">Club Pacru Ladder</a>' in ladder_part
    assert f"<strong>{ {1: '1st', 2: '2nd', 3: '3rd'}[place] }</strong> of 3" in ladder_part


def test_a_position_ladder_shows_the_kept_place(club: tuple[Actor, League], alice: Actor, bob: Actor) -> None:
    organiser, league = club
    ladder = ladders.ladder_create(
        organiser=organiser.player, league=league, game="shacru", kind=Ladder.Kind.POSITION
    )
    for p in (bob.player, alice.player):
        ladders.ladder_join(ladder=ladder, player=p)
    order = [row["player"] for row in selectors.ladder_order(ladder)]
    html = section(Client().get(f"/players/{alice.player.pk}/").content.decode(), "ladders")
    assert f"{ {1: '1st', 2: '2nd'}[order.index(alice.player.pk) + 1] }</strong> of 2" in html


def test_ratings_on_the_player_page_are_on_the_display_scale(alice: Actor, bob: Actor) -> None:
    for _ in range(2):
        table = games.table_create(creator=bob.player, game="pacru", players=2)
        games.seat_join(table_id=table.pk, player=alice.player)
        every_seat_moves(table)
        games.game_resign(table_id=table.pk, player=bob.player)  # Alice wins twice
    apply_pending(game="pacru")
    r = Rating.objects.get(player=alice.player, game="pacru")
    html = Client().get(f"/players/{alice.player.pk}/").content.decode()
    part = section(html, "rating-pacru")
    assert f"{round(60 * r.mu)}?" in part and f"± {round(60 * r.sigma)}" in part and "provisional" in part
    changes = re.findall(r'<td class="num">([+−±][0-9]+)</td>', part)
    assert len(changes) == 2 and all(c.startswith("+") for c in changes), changes
    assert "1st of 2" in part and "2 rated tables" in part
    labels = re.findall(r'text-anchor="end">([^<]+)</text>', part)
    assert labels and all(v.isdigit() for v in labels), "axis labels in display numbers"
    games_part = section(html, "games")
    assert "Alice won" in games_part and "Bob: resigned" in games_part and "1st of 2" in games_part
    bob_page = Client().get(f"/players/{bob.player.pk}/").content.decode()
    assert re.findall(r'<td class="num">(−[0-9]+)</td>', section(bob_page, "rating-pacru")), (
        "losses shown as −N"
    )
    assert not re.search(r"(>|\s)-\d", bob_page), "never a negative number"


def test_the_player_page_costs_the_same_however_many_events_ladders_and_games(
    make_actor: Callable[..., Actor], alice: Actor, bob: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    def club_of(n: int) -> tuple[Actor, League]:
        organiser = make_actor(f"org{n}")
        as_organiser(organiser.player)
        return organiser, services.league_create(
            organiser=organiser.player, name=f"Club {n}", slug=f"club{n}"
        )

    first = club_of(0)
    finished_swiss(first, "First Swiss", [alice.player, bob.player], django_capture_on_commit_callbacks)
    services.register(
        tournament_id=services.tournament_create(
            organiser=first[0].player, league=first[1], name="Open 0", game="pacru", seats=2
        ).pk,
        player=alice.player,
    )
    lad = ladders.ladder_create(organiser=first[0].player, league=first[1], game="pacru")
    ladders.ladder_join(ladder=lad, player=alice.player)
    apply_pending(game="pacru")
    url = f"/players/{alice.player.pk}/"
    small = count_queries(url)
    for n in range(1, 5):
        c = club_of(n)
        others = [make_actor(f"p{n}{i}").player for i in range(2)]
        finished_swiss(c, f"Swiss {n}", [alice.player, *others[:1]], django_capture_on_commit_callbacks)
        ko = services.tournament_create(
            organiser=c[0].player, league=c[1], name=f"Cup {n}", game="pacru", seats=2, format="knockout"
        )
        services.register(tournament_id=ko.pk, player=alice.player)
        for game, kind in (("pacru", Ladder.Kind.RATING), ("shacru", Ladder.Kind.POSITION)):
            lad = ladders.ladder_create(organiser=c[0].player, league=c[1], game=game, kind=kind)
            for p in (alice.player, *others):
                ladders.ladder_join(ladder=lad, player=p)
    apply_pending(game="pacru")
    assert Table.objects.filter(seats__player=alice.player).count() == 5
    html = Client().get(url).content.decode()
    assert len(re.findall(r'href="/tournaments/\d+/"', section(html, "events"))) == 10
    assert len(re.findall(r'href="/ladders/\d+/"', section(html, "ladders"))) == 9
    assert count_queries(url) == small
