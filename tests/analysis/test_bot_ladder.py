"""The bot ladder: series reproducible from a seed, ratings stored and added to, the stronger level
rated higher; the command, the task, the Bots page and ``GET /api/v1/bots/``.

Series here are Shacru between the cheap levels (1 random; 2, 3 and 4 the greedy bot, careless in
half, a fifth and none of its moves): a game takes
a fraction of a second."""

from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from analysis import ladder
from analysis.models import BotRating
from analysis.tasks import bot_ladder
from engine.bots.levels import LEVELS
from games.models import Player, Table

pytestmark = pytest.mark.django_db


def test_levels_and_windows() -> None:
    assert ladder.parse_levels("1-8") == list(range(1, 9))
    assert ladder.parse_levels("2,4, 6") == [2, 4, 6]
    assert ladder.parse_levels("1-3,7") == [1, 2, 3, 7]
    for bad in ("0-3", "9", "x", "1-", ""):
        with pytest.raises(ValueError):
            ladder.parse_levels(bad)
    assert ladder.windows([1, 2, 3, 4], 2) == [(1, 2), (2, 3), (3, 4)]
    assert ladder.windows([1, 2, 3, 4, 5], 4) == [(1, 2, 3, 4), (2, 3, 4, 5)]
    with pytest.raises(ValueError):
        ladder.windows([1, 2], 3)


def test_a_series_is_reproducible_from_its_seed_and_rotates_seats() -> None:
    one = ladder.play_series(game="shacru", players=2, levels=[1, 2, 3], games=2, seed=5)
    two = ladder.play_series(game="shacru", players=2, levels=[1, 2, 3], games=2, seed=5)
    assert one.results == two.results
    assert [r.levels for r in one.results] == [(1, 2), (2, 1), (2, 3), (3, 2)]
    assert all(sorted(r.ranks) in ([1, 2], [1, 1]) and r.plies > 0 for r in one.results)
    other = ladder.play_series(game="shacru", players=2, levels=[1, 2, 3], games=2, seed=6)
    assert [r.plies for r in other.results] != [r.plies for r in one.results]
    # Two processes play the same games.
    assert ladder.play_series(
        game="shacru", players=2, levels=[1, 2, 3], games=2, seed=5, jobs=2
    ).results == (one.results)


def test_paired_openings_play_each_opening_in_every_seating(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``openings`` each game starts after that many random plies; consecutive games of a
    window share one opening (at 2 seats: twice, the seats swapped), the next pair another."""
    started: list[tuple[int, ...]] = []
    real = ladder.opening_position

    def opening(game: str, players: int, *, plies: int, seed: int, ply_limit: int = ladder.PLY_LIMIT) -> Any:
        state = real(game, players, plies=plies, seed=seed, ply_limit=ply_limit)
        started.append((state.ply, seed))
        return state

    monkeypatch.setattr(ladder, "opening_position", opening)
    series = ladder.play_series(game="shacru", players=2, levels=[1, 2, 3], games=4, seed=5, openings=4)
    assert [r.levels for r in series.results] == [
        (1, 2),
        (2, 1),
        (1, 2),
        (2, 1),
        (2, 3),
        (3, 2),
        (2, 3),
        (3, 2),
    ]
    assert all(ply == 4 for ply, _ in started)
    seeds = [s for _, s in started]
    assert seeds[0] == seeds[1] != seeds[2] == seeds[3] and len(set(seeds)) == 4
    # The positions differ: an opening is not the start position, nor another window's opening.
    positions = {ladder.opening_position("shacru", 2, plies=4, seed=s).to_dict()["tiles"] for s in set(seeds)}
    assert len(positions) == 4
    # The bots' moves count, not the opening's random ones; the series is reproducible.
    assert sum(t.moves for t in series.tallies.values()) == sum(r.plies - 4 for r in series.results)
    again = ladder.play_series(game="shacru", players=2, levels=[1, 2, 3], games=4, seed=5, openings=4)
    assert again.results == series.results
    assert ladder.series_from_dict(ladder.series_to_dict(series)).openings == 4
    # No openings: the start position, as the shipped series.
    plain = ladder.play_series(game="shacru", players=2, levels=[1, 2], games=2, seed=5)
    assert plain.openings == 0 and started[-1][0] == 0


def test_openings_need_a_whole_number_of_seatings() -> None:
    with pytest.raises(ValueError, match="multiple of 2"):
        ladder.play_series(game="shacru", players=2, levels=[1, 2], games=3, seed=1, openings=4)
    with pytest.raises(ValueError, match="0 to 20"):
        ladder.play_series(game="shacru", players=2, levels=[1, 2], games=2, seed=1, openings=21)
    with pytest.raises(CommandError, match="multiple of every seat count"):
        call_command("bot_ladder", "--game", "shacru", "--players", "3", "--games", "2", "--openings", "4")
    with pytest.raises(ValueError, match="openings"):
        series = ladder.play_series(game="shacru", players=2, levels=[1, 2], games=2, seed=1)
        ladder.series_from_dict({**ladder.series_to_dict(series), "openings": "many"})


def test_counts_against_the_level_below_at_three_seats() -> None:
    series = ladder.play_series(game="shacru", players=3, levels=[1, 2, 3], games=3, seed=2)
    assert [r.levels for r in series.results] == [(1, 2, 3), (2, 3, 1), (3, 1, 2)]
    t = series.tallies
    assert t[1].games == t[2].games == t[3].games == 3
    assert t[1].games_below == 0 and t[2].games_below == 3 and t[3].games_below == 3
    for level in (2, 3):
        expected = 0.0
        for r in series.results:
            rank = dict(zip(r.levels, r.ranks, strict=True))
            mine, below = rank[level], rank[level - 1]
            expected += 1.0 if mine < below else 0.5 if mine == below else 0.0
        assert t[level].points_below == expected
    assert all(t[lv].moves > 0 and t[lv].ms_per_move is not None for lv in (1, 2, 3))


def test_the_ladder_stores_ratings_and_the_greedy_bot_ends_above_random() -> None:
    rows = ladder.run(game="shacru", players=2, levels=[1, 4], games=6, seed=11)
    stored = {r.level: r for r in BotRating.objects.filter(game="shacru", players=2)}
    assert set(stored) == {1, 4} and [r.level for r in rows] == [1, 4]
    random_bot, greedy = stored[1], stored[4]
    assert random_bot.games == greedy.games == 6
    # Level 3 did not sit, so level 4 has no games against the level below it.
    assert greedy.games_below == 0 and random_bot.games_below == 0
    series = ladder.play_series(game="shacru", players=2, levels=[1, 4], games=6, seed=11)
    wins = sum(dict(zip(r.levels, r.ranks, strict=True))[4] == 1 for r in series.results)
    assert wins >= 5  # the greedy bot beats random nearly always
    assert greedy.mu > random_bot.mu + 2  # clearly above
    assert greedy.sigma < 25 / 3 and random_bot.sigma < 25 / 3
    assert greedy.ms_per_move is not None and random_bot.ms_per_move is not None
    # The stored ratings are the series' games applied in order from newcomers.
    expected = ladder.rate_results("shacru", series.results, {})
    assert (greedy.mu, greedy.sigma) == pytest.approx(expected[4])
    assert (random_bot.mu, random_bot.sigma) == pytest.approx(expected[1])


def test_a_second_run_adds_its_games_to_the_stored_ratings() -> None:
    first = ladder.play_series(game="shacru", players=2, levels=[1, 2], games=2, seed=1)
    second = ladder.play_series(game="shacru", players=2, levels=[1, 2], games=2, seed=2)
    ladder.store(first)
    ladder.store(second)
    row = BotRating.objects.get(game="shacru", players=2, level=2)
    both = ladder.rate_results("shacru", first.results + second.results, {})
    assert (row.mu, row.sigma) == pytest.approx(both[2])
    assert row.games == 4 and row.games_below == 4
    assert row.points_below == first.tallies[2].points_below + second.tallies[2].points_below
    ms = [s.tallies[2].ms_per_move for s in (first, second)]
    assert row.ms_per_move == pytest.approx((ms[0] * 2 + ms[1] * 2) / 4)
    # Other seat counts and games are untouched.
    assert not BotRating.objects.exclude(game="shacru", players=2).exists()


def test_without_a_seed_a_run_plays_new_games() -> None:
    assert ladder.next_seed(game="shacru", players=2) == 1
    ladder.run(game="shacru", players=2, levels=[1, 2], games=2)
    assert ladder.next_seed(game="shacru", players=2) == 1 + 2 + 2  # two rows of 2 games


def test_the_command_prints_the_stored_table() -> None:
    out = StringIO()
    call_command(
        "bot_ladder", "--game", "shacru", "--players", "2", "--players", "3", "--levels", "1-3",
        "--games", "1", "--seed", "4", "--quiet", stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert "shacru at 2 seats: 2 games added (seed 4)" in text
    assert "shacru at 3 seats: 1 games added (seed 4)" in text
    assert re.search(r"^\s+2\s+\S+\s+\d+\s+\d+\s+1\s+[\d.]+/1 = \d+%", text, re.M), text
    assert BotRating.objects.filter(game="shacru", players=3).count() == 3
    with pytest.raises(Exception, match="no level 9"):
        call_command("bot_ladder", "--levels", "1-9", stdout=StringIO())


def test_the_windows_games_are_rated_in_turn() -> None:
    """Each window's first game, then each one's second …: a level's rating is not decided by the
    last window it sat in."""
    a1, a2, a3 = (ladder.GameResult(levels=(1, 2), ranks=(1, 2), plies=i) for i in (1, 2, 3))
    b1, b2 = (ladder.GameResult(levels=(3, 2), ranks=(2, 1), plies=i) for i in (4, 5))
    c1 = ladder.GameResult(levels=(2, 1), ranks=(1, 2), plies=6)  # the first window, seats rotated
    assert ladder.rating_order([a1, a2, c1, b1, a3, b2]) == [a1, b1, a2, b2, c1, a3]
    assert ladder.rating_order([]) == []
    # Rating window after window would leave level 2 where its last window put it; in turn, the
    # wins it took in the first window count as much as the games of the second.
    series = ladder.play_series(game="shacru", players=2, levels=[1, 2, 3], games=4, seed=3)
    order = ladder.rating_order(series.results)
    assert sorted(order, key=id) == sorted(series.results, key=id)
    assert [set(r.levels) for r in order[:2]] == [{1, 2}, {2, 3}]


def test_a_saved_series_loads_as_the_same_ratings(tmp_path: Path) -> None:
    """``bench/bot_ladder.py --save`` writes series that ``bot_ladder --load`` stores: the same
    ratings as storing the series played; a bad file is refused in words and stores nothing."""
    series = ladder.play_series(game="shacru", players=2, levels=[1, 2, 3], games=2, seed=5)
    saved = tmp_path / "ladder.json"
    saved.write_text(json.dumps([ladder.series_to_dict(series)]))
    out = StringIO()
    call_command("bot_ladder", "--load", str(saved), stdout=out)
    assert "shacru at 2 seats: 4 games loaded (seed 5)" in out.getvalue()
    expected = ladder.rate_results("shacru", series.results, {})
    for row in BotRating.objects.filter(game="shacru", players=2):
        assert (row.mu, row.sigma) == pytest.approx(expected[row.level])
        t = series.tallies[row.level]
        assert (row.games, row.games_below, row.points_below) == (t.games, t.games_below, t.points_below)
        assert row.ms_per_move == pytest.approx(t.ms_per_move)
    before = list(BotRating.objects.values_list("level", "mu", "games"))
    good = ladder.series_to_dict(series)
    bad_rank = {**good, "results": [{"levels": [1, 2], "ranks": [1, 7], "plies": 3}]}
    for content, words in (
        ("not json", "cannot read"),
        ("[]", "holds no series"),
        (json.dumps([good, {**good, "game": "chess"}]), "not one the ladder plays"),
        (json.dumps([bad_rank]), "are not places 1 to 2"),
        (json.dumps([{**good, "levels": [1, 2, 9]}]), "no level 9"),
        (json.dumps([{**good, "tallies": {**good["tallies"], "1": {"games": 2}}}]), "missing or malformed"),
        (
            json.dumps(
                [{**good, "tallies": {**good["tallies"], "1": {**good["tallies"]["1"], "moves": "many"}}}]
            ),
            "invalid literal",
        ),
    ):
        saved.write_text(content)
        with pytest.raises(CommandError, match=words):
            call_command("bot_ladder", "--load", str(saved), stdout=StringIO())
    assert list(BotRating.objects.values_list("level", "mu", "games")) == before


def test_the_release_ladder_seeds_an_empty_site_once() -> None:
    """The measured ladder shipped with the release is valid and fills the Bots page of a site that
    has measured nothing yet, once."""
    shipped = ladder.load_series(ladder.MEASURED)
    assert {(s.game, s.players) for s in shipped} >= {("pacru", 2), ("shacru", 2), ("azacru", 2)}
    assert ladder.seed_measured() is True
    eight = BotRating.objects.get(game="pacru", players=2, level=8)
    assert eight.games > 0 and eight.mu > BotRating.objects.get(game="pacru", players=2, level=1).mu
    count = BotRating.objects.count()
    assert ladder.seed_measured() is False and BotRating.objects.count() == count


def test_the_task_runs_a_series() -> None:
    mus = bot_ladder.delay("shacru", 2, "1-2", 2, 3).get()
    assert set(mus) == {"1", "2"}
    assert BotRating.objects.get(game="shacru", players=2, level=2).mu == pytest.approx(mus["2"])


def _measure() -> None:
    BotRating.objects.create(
        game="pacru", players=2, level=2, mu=27.5, sigma=1.2, games=40, games_below=20, points_below=17.5,
        ms_per_move=3.25,
    )  # fmt: skip
    BotRating.objects.create(game="pacru", players=2, level=1, mu=20.0, sigma=1.5, games=20, ms_per_move=0.1)
    BotRating.objects.create(game="azacru", players=4, level=3, mu=26.0, sigma=2.0, games=8, games_below=8)


def test_the_bots_page_shows_every_level_and_the_measured_ratings() -> None:
    _measure()
    page = Client().get("/bots/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('name="level"') == len(LEVELS)  # a play button per level
    for lv in LEVELS:
        assert f'id="level-2-{lv.number}"' in html
    assert "1650" in html and "±&nbsp;72" in html  # 60 × 27.5, 60 × 1.2
    assert "88&nbsp;%" in html and "17.5 of 20" in html
    assert "3.2 ms" in html or "3.3 ms" in html
    assert "not measured the Pacru bots yet" not in html
    # Another game: nothing measured at 2 seats, the 4-seat table measured.
    azacru = Client().get("/bots/?game=azacru").content.decode()
    assert "Not measured yet." in azacru and 'id="level-4-3"' in azacru
    assert 'value="azacru"' in azacru
    # An unknown game falls back to Pacru.
    assert Client().get("/bots/?game=chess").status_code == 200


def test_play_this_level_starts_a_game_against_that_level() -> None:
    client = Client()
    page = client.get("/bots/").content.decode()
    form = re.search(r'<form method="post" action="([^"]+)">.*?name="level" value="6"', page, re.S)
    assert form
    response = client.post(form.group(1), {"game": "pacru", "level": "6"})
    assert response.status_code == 302
    table = Table.objects.get()
    bot = Player.objects.get(seats__table=table, is_bot=True)
    assert table.players == 2 and str(bot.bot_level) in ("6", "expert")


def test_the_api_lists_the_levels_and_their_ratings() -> None:
    _measure()
    api = APIClient()
    body = api.get("/api/v1/bots/").json()
    assert [lv["level"] for lv in body["levels"]] == [lv.number for lv in LEVELS]
    two = body["levels"][1]
    assert two["code"] == LEVELS[1].name and two["name"] and two["description"]
    assert two["ratings"] == [
        {
            "game": "pacru", "players": 2, "rating": 1650, "uncertainty": 72, "mu": 27.5, "sigma": 1.2,
            "games": 40, "games_below": 20, "points_below": 17.5, "score_below": 0.875, "ms_per_move": 3.25,
        }
    ]  # fmt: skip
    assert body["levels"][4]["ratings"] == []
    only = api.get("/api/v1/bots/?game=azacru&players=4").json()["levels"]
    assert [(lv["level"], len(lv["ratings"])) for lv in only if lv["ratings"]] == [(3, 1)]
    assert (
        api.get("/api/v1/bots/?game=pacru&players=2").json()["levels"][0]["ratings"][0]["score_below"] is None
    )
    bad = api.get("/api/v1/bots/?game=chess")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    assert api.get("/api/v1/bots/?players=5").status_code == 400


def test_a_house_bots_player_page_links_to_the_bots_page() -> None:
    from django.urls import reverse

    from games import services

    bot = services.player_register(username="some-bot", password="correct-horse-9", display_name="Some Bot")
    Player.objects.filter(pk=bot.pk).update(is_bot=True, bot_level="3")
    person = services.player_register(username="pat", password="correct-horse-9", display_name="Pat")
    page = Client().get(reverse("player", args=[bot.pk])).content.decode()
    assert f'href="{reverse("bots")}" id="bot-levels-link"' in page
    assert 'id="bot-levels-link"' not in Client().get(reverse("player", args=[person.pk])).content.decode()


def test_the_play_a_bot_box_links_to_the_bots_page() -> None:
    from django.urls import reverse

    assert f'href="{reverse("bots")}" id="bots-link"' in Client().get(reverse("home")).content.decode()


def test_queued_the_series_is_one_task_per_window() -> None:
    out = StringIO()
    call_command(
        "bot_ladder", "--game", "shacru", "--players", "2", "--levels", "1-3", "--games", "1", "--queue",
        stdout=out,
    )  # fmt: skip
    assert "shacru at 2 seats: 2 tasks sent to the slow queue" in out.getvalue()
    # Tasks run eagerly here: both windows (1-2, 2-3) were played and stored.
    games = dict(BotRating.objects.filter(game="shacru", players=2).values_list("level", "games"))
    assert games == {1: 1, 2: 2, 3: 1}
    # A series takes hours at the top levels: not the project's one-minute limit, and not repeated.
    assert bot_ladder.time_limit >= 3600 and bot_ladder.acks_late is False
