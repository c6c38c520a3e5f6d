"""Bots play through the same move service as people: once per turn, safe to repeat."""

from __future__ import annotations

from django.core.management import call_command

from games import services
from games.botplay import bot_turn, run_bot_turns
from games.housebots import bot_accounts
from games.models import Move, Table
from games.tasks import bot_move

from .conftest import Actor


def test_a_bot_answers_a_human_once(alice: Actor) -> None:
    bot = bot_accounts()["greedy-bot"]
    table = services.table_create(creator=alice.player, game="pacru", players=2)
    services.seat_join(table_id=table.pk, player=bot)
    table.refresh_from_db()
    assert table.bot_seats == [2]
    assert run_bot_turns() == 0, "the human is on turn"
    services.move_submit(table_id=table.pk, player=alice.player, ply=0, move="e1-e2")
    table.refresh_from_db()
    scheduled = table.actions
    assert bot_move(table.pk, scheduled) == "moved"
    assert bot_move(table.pk, scheduled) == "moved-on", "a duplicated task does nothing"
    assert bot_turn(table_id=table.pk) == "not-a-bot"
    moves = list(Move.objects.filter(table=table).values_list("seat", "ply"))
    assert moves == [(1, 1), (2, 2)]


def test_a_table_of_bots_plays_to_the_end(db: None) -> None:
    bots = bot_accounts()
    table = services.table_create(creator=bots["random-bot"], game="azacru", players=3, join=False)
    for seat, name in enumerate(["random-bot", "greedy-bot", "search-bot"], start=1):
        services.seat_join(table_id=table.pk, player=bots[name], seat=seat)
    bots["search-bot"].bot_budget = 0.02
    bots["search-bot"].save()
    for _ in range(2000):
        if Table.objects.get(pk=table.pk).status != "active":
            break
        run_bot_turns()
    table.refresh_from_db()
    assert table.status == "finished" and table.result is not None
    call_command("verify_games", "--table", str(table.pk))


def test_bot_match_command_runs_a_series(db: None, capsys: object) -> None:
    call_command("bot_match", "--game", "shacru", "--bots", "greedy-bot,random-bot", "--games", "2")
    assert Table.objects.filter(status="finished").count() == 2
