"""Bot levels 1–8: defined by work, so a level's move is the same for a seed on any clock; the
levels and the legacy names resolve everywhere; the services, pages and house bots take levels;
the search's verdict on a position (``SearchBot.analyse``) is sound."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from django.test import Client

import engine
from engine.analysis import work as analysis_work
from engine.bots import GreedyBot, LevelBot, RandomBot, SearchBot, Verdict, get
from engine.bots import levels as lv
from engine.bots.base import expected_scores
from engine.match import play_series
from engine.playout import random_step
from games import botlevels, services
from games.botplay import bot_turn
from games.housebots import house_bot, level_accounts
from games.models import Player, Seat, Table
from games.names import reserved
from tests.games.conftest import Actor
from web.pages import TableForm


def position(game: str, players: int, plies: int, seed: int = 3) -> engine.State:
    rng = random.Random(seed)
    state = engine.new_game(game, players)
    for _ in range(plies):
        state, _ = random_step(state, rng, reorient_rate=0.0)
        assert not state.is_over
    return state


def fake_clock(step: float) -> Callable[[], float]:
    """A clock that moves ``step`` seconds each time it is read."""
    now = [0.0]

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


# ------------------------------------------------------------------------ the levels themselves
@pytest.mark.parametrize("game", ["pacru", "shacru", "azacru"])
@pytest.mark.parametrize("number", [5, 6])
def test_a_level_plays_the_same_move_for_a_seed_on_any_clock(game: str, number: int) -> None:
    state = position(game, 2, 12)
    fast = [lv.choose(state, number, seed=s, clock=fake_clock(1e-6)) for s in range(3)]
    # A machine some twenty times slower: 20 ms per look at the clock (one look every 16 positions),
    # still inside the safety cap for a five-ply Pacru search's 25,000 positions.
    slow = [lv.choose(state, number, seed=s, clock=fake_clock(0.02)) for s in range(3)]
    assert fast == slow
    assert all(m in state.legal_moves() or state.play(m).last_move == m for m in fast)
    # And the seed matters: the choice is reproducible, not fixed by the position alone.
    assert lv.choose(state, number, seed=0) == fast[0]


def test_the_cap_is_only_a_safety_limit() -> None:
    """A clock that runs past the cap at once stops the search early: still a legal move."""
    state = position("pacru", 2, 8)
    bot = SearchBot(clock=fake_clock(1000.0), pacru="alphabeta")
    move = bot.choose(state, seed=1, iterations=lv.level(8).work("pacru"), budget=lv.level(8).cap)
    assert state.play(move).last_move == move
    assert bot.iterations_done < 100
    # Within the cap the whole work is done.
    bot = SearchBot(clock=fake_clock(1e-6), pacru="alphabeta")
    bot.choose(state, seed=1, iterations=500, budget=lv.level(8).cap)
    assert bot.iterations_done >= 500


@pytest.mark.parametrize("game", ["pacru", "shacru", "azacru"])
def test_a_level_searches_to_its_depth_within_its_budget(game: str) -> None:
    """Level 5 stops at its depth well inside its budget in an opening; with the depth unbounded
    the same budget is all spent."""
    state = position(game, 2, 4)
    five = lv.level(5)
    bounded = SearchBot(pacru="alphabeta", max_depth=five.depth(game))
    bounded.choose(state, seed=2, iterations=five.work(game))
    assert 0 < bounded.iterations_done < five.work(game)
    unbounded = SearchBot(pacru="alphabeta")
    unbounded.choose(state, seed=2, iterations=five.work(game))
    assert unbounded.iterations_done >= five.work(game)


def test_careless_levels_play_a_random_candidate_in_their_share_of_moves() -> None:
    """Levels 2 and 3 are level 4 (the greedy bot) with half and a fifth of their moves careless:
    per seed, the move is either the greedy bot's or a random candidate, reproducibly."""
    state = position("pacru", 2, 10)
    seeds = range(200)
    greedy = {s: GreedyBot().choose(state, seed=s) for s in seeds}
    assert all(lv.choose(state, 4, seed=s) == greedy[s] for s in seeds)
    for number, low, high in ((2, 70, 130), (3, 20, 60)):
        moves = {s: lv.choose(state, number, seed=s) for s in seeds}
        assert moves == {s: lv.choose(state, number, seed=s) for s in seeds}  # reproducible
        differ = sum(moves[s] != greedy[s] for s in seeds)
        assert low <= differ <= high, (number, differ)
        assert all(state.play(m).last_move == m for m in moves.values())


def test_without_its_careless_moves_a_level_plays_its_own_choice() -> None:
    """``careless=False`` (hints) leaves out the random candidates: level 2 is then the greedy bot,
    seed for seed, although with its careless moves it differs in about half of them."""
    state = position("pacru", 2, 10)
    seeds = range(40)
    careful = [lv.choose(state, 2, seed=s, careless=False) for s in seeds]
    assert careful == [lv.choose(state, 4, seed=s) for s in seeds]
    assert sum(lv.choose(state, 2, seed=s) != careful[s] for s in seeds) >= 10
    # The same for a searching level: Pacru's level 6 without its careless moves is its search.
    six = lv.level(6)
    assert six.noise("pacru") > 0
    search = SearchBot(pacru="alphabeta", max_depth=six.depth("pacru"))
    expected = search.choose(state, seed=1, iterations=six.work("pacru"), budget=six.cap)
    assert lv.choose(state, 6, seed=1, careless=False) == expected


def test_levels_and_legacy_names_resolve() -> None:
    assert [x.number for x in lv.LEVELS] == list(range(1, 9))
    assert len({x.name for x in lv.LEVELS}) == 8
    assert lv.level(3) is lv.level("3") is lv.level(" 3 ") is lv.level(lv.LEVELS[2].name)
    assert lv.level("random").number == 1 and lv.level("greedy").number == 4
    assert lv.level("search").number == 6
    for bad in ("0", "9", 9, "", "strongest", True):
        with pytest.raises(ValueError):
            lv.level(bad)  # type: ignore[arg-type]
    assert not lv.is_level("9") and lv.is_level("8")
    # Each level looks further than the one below, or as far with fewer careless moves.
    assert [x.kind for x in lv.LEVELS] == ["random"] + ["greedy"] * 3 + ["search"] * 4
    reach = {"random": 0, "greedy": 1}
    for game in lv.GAMES:
        steps = [(reach.get(x.kind) or x.depth(game), -x.noise(game)) for x in lv.LEVELS]
        assert all(low < high for low, high in itertools.pairwise(steps)), game
        assert all((x.kind == "search") == (x.work(game) > 0) for x in lv.LEVELS)
    # engine.bots.get takes levels and still the legacy kinds.
    assert isinstance(get("6"), LevelBot) and get("6").level == "6"
    assert isinstance(get("random"), RandomBot) and isinstance(get("search"), SearchBot)
    with pytest.raises(ValueError, match="unknown bot level"):
        get("ninth")


def test_the_match_command_takes_levels() -> None:
    tally = play_series("shacru", 2, ["2", "1"], games=2, budget=0.0, seed=1)
    assert tally.games == 2 and set(tally.wins) == {"1", "2"}
    assert set(tally.moves_by) == {"1", "2"} and tally.thinking_by["2"] >= 0


# -------------------------------------------------------------------------------- the verdict
@pytest.mark.parametrize("game", ["pacru", "shacru", "azacru"])
@pytest.mark.parametrize("players", [2, 3])
def test_analyse_gives_a_legal_best_move_and_sensible_values(game: str, players: int) -> None:
    state = position(game, players, 10, seed=players)
    work = analysis_work(4, game)
    verdict = SearchBot().analyse(state, iterations=work, seed=5)
    assert isinstance(verdict, Verdict)
    assert state.play(verdict.best).last_move == verdict.best
    assert len(verdict.values) == players + 1 and verdict.values[0] == 0.0
    assert all(0.0 <= v <= 1.0 for v in verdict.values)
    assert sum(verdict.values) == pytest.approx(players / 2)
    assert verdict.best in verdict.moves and len(verdict.moves) > 1
    assert all(0.0 <= v <= 1.0 for v in verdict.moves.values())
    me = state.to_move
    assert verdict.values[me] == pytest.approx(verdict.moves[verdict.best], abs=0.02)
    # The line starts with the best move and can be played out.
    assert verdict.line[0] == verdict.best and 1 <= len(verdict.line) <= 6
    after = state
    for move in verdict.line:
        after = after.play(move)
    # Reproducible for a seed, whatever the clock.
    again = SearchBot(clock=fake_clock(5.0)).analyse(state, iterations=work, seed=5)
    assert again == verdict


@pytest.mark.parametrize("seed", [2, 3])
def test_analyse_favours_the_seat_well_ahead_in_markers(seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new_game("shacru", 2)
    for _ in range(60):
        state, _ = random_step(state, rng)
    counts = state.counts
    assert not state.is_over and counts[1] - counts[2] >= 4  # the position these seeds give
    verdict = lv.analyse(state, 6, seed=1)
    assert verdict.values[1] > 0.75 > 0.25 > verdict.values[2]


def test_analyse_refuses_a_finished_game() -> None:
    state = engine.new_game("shacru", 2).eliminate(1)
    with pytest.raises(ValueError):
        SearchBot().analyse(state, iterations=10, seed=1)


def test_expected_scores_are_scaled_and_capped() -> None:
    assert expected_scores([0.0, 0.9, 0.9]) == pytest.approx([0.0, 0.5, 0.5])
    four = expected_scores([0.0, 1.0, 1.0, 0.0, 0.2])
    assert sum(four) == pytest.approx(2.0) and max(four) <= 1.0 and four[3] == 0.0


# --------------------------------------------------------------------- site: house bots, forms
@pytest.mark.django_db
def test_services_accept_levels_and_legacy_names() -> None:
    alice = Actor("alice")
    table = services.table_create(
        creator=alice.player, game="shacru", players=3, rated=False, bot="4", bots=2
    )
    bots = list(Seat.objects.filter(table=table, player__is_bot=True).select_related("player__user"))
    assert sorted(s.player.user.username for s in bots) == ["level-4-bot", "level-4-bot-2"]
    assert {s.player.bot_level for s in bots} == {"4"}
    assert {s.player.display_name for s in bots} == {"Bot level 4", "Bot level 4 2"}
    other = services.table_create(creator=alice.player, game="pacru", players=3, rated=False)
    services.bot_invite(table_id=other.pk, player=alice.player, level="7")
    services.bot_invite(table_id=other.pk, player=alice.player, level="greedy")
    seated = set(Seat.objects.filter(table=other).values_list("player__user__username", "player__bot_level"))
    assert {("level-7-bot", "7"), ("greedy-bot", "greedy")} <= seated
    with pytest.raises(Exception, match="unknown bot level"):
        services.table_create(creator=alice.player, game="pacru", players=2, rated=False, bot="9")
    assert house_bot("club").bot_level == "4"  # a code name is stored as its number
    accounts = level_accounts()
    assert sorted(accounts) == sorted(f"level-{n}-bot" for n in range(1, 9))
    assert all(p.is_house_bot for p in accounts.values())


@pytest.mark.django_db
def test_a_house_bot_plays_its_levels_work_without_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    alice = Actor("alice")
    table = services.table_create(creator=alice.player, game="shacru", players=2, rated=False, bot="6")
    Player.objects.filter(bot_level="6").update(bot_budget=0.0001)  # ignored: the level sets the work
    seen: list[tuple[int | None, float | None]] = []
    real = SearchBot.choose

    def spy(self: SearchBot, state: engine.State, **kw: object) -> str:
        seen.append((kw.get("iterations"), kw.get("budget")))  # type: ignore[arg-type]
        return real(self, state, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchBot, "choose", spy)
    state = engine.load(Table.objects.get(pk=table.pk).position)
    services.move_submit(table_id=table.pk, player=alice.player, ply=0, move=state.legal_moves()[0])
    assert bot_turn(table_id=table.pk) == "moved"
    assert seen == [(lv.level(6).work("shacru"), lv.level(6).cap)]
    assert Table.objects.get(pk=table.pk).ply == 2


@pytest.mark.django_db
def test_play_a_bot_by_level_from_the_home_page(client: Client) -> None:
    page = client.get("/")
    assert page.status_code == 200
    html = page.content.decode()
    for text in botlevels.LEVEL_TEXTS:
        assert f'value="{text.code}"' in html and str(text.name) in html
    r = client.post("/play-bot/", {"game": "azacru", "level": "6"})
    assert r.status_code == 302
    table = Table.objects.latest("pk")
    assert set(Seat.objects.filter(table=table).values_list("player__bot_level", flat=True)) == {"", "6"}
    r = client.post("/play-bot/", {"game": "azacru", "level": "greedy"})  # legacy names stay
    assert r.status_code == 302 and Table.objects.latest("pk").pk != table.pk
    before = Table.objects.count()
    client.post("/play-bot/", {"game": "azacru", "level": "9"})
    assert Table.objects.count() == before


def test_the_table_form_takes_levels_and_legacy_names() -> None:
    base = {"game": "pacru", "players": 3, "edition": "302", "time_control": "untimed", "bots": 1}
    for ok in ("5", "search", ""):
        assert TableForm({**base, "bot": ok}).is_valid(), ok
    assert not TableForm({**base, "bot": "9"}).is_valid()


def test_level_texts_and_reserved_names() -> None:
    assert [t.number for t in botlevels.LEVEL_TEXTS] == list(range(1, 9))
    assert botlevels.level_text("greedy").number == 4
    assert str(botlevels.level_text(4).label) == f"4 · {botlevels.level_text(4).name}"
    assert [c for c, _ in botlevels.choices()] == [str(n) for n in range(1, 9)]
    assert reserved("Bot level 3") and reserved("bot level 5 2")
    assert reserved("Bot level 3", is_bot=True) is None and reserved("Botanist") is None
