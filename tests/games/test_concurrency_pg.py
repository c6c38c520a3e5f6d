"""Two clients race to answer the same ply: exactly one move is recorded, the other gets 409."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services
from games.models import Move, Player, Table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 40


def client_for(player: Player) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=player.user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def test_racing_moves_for_one_ply_record_exactly_one() -> None:
    players = [services.player_register(username=f"racer{i}", password="correct-horse-9") for i in range(2)]
    table = services.table_create(creator=players[0], game="azacru", players=2)
    services.seat_join(table_id=table.pk, player=players[1])
    rng = random.Random(4)
    rounds = 0
    while rounds < ROUNDS:
        table.refresh_from_db()
        if table.status != Table.Status.ACTIVE:
            break
        state = services.current_state(table)
        moves = state.legal_moves()
        mover = players[state.to_move - 1]
        if len(moves) < 2:
            services.move_submit(table_id=table.pk, player=mover, ply=table.ply, move=moves[0])
            continue
        contenders = rng.sample(moves, 2)
        barrier = threading.Barrier(2)
        results: dict[str, Any] = {}

        def submit(
            move: str,
            mover: Player = mover,
            barrier: threading.Barrier = barrier,
            results: dict[str, Any] = results,
        ) -> None:
            client = client_for(mover)  # each thread: its own client and its own DB connection
            barrier.wait()
            r = client.post(
                f"/api/v1/tables/{table.pk}/moves/", {"ply": table.ply, "move": move}, format="json"
            )
            results[move] = (r.status_code, r.json())
            connection.close()

        threads = [threading.Thread(target=submit, args=(m,)) for m in contenders]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        statuses = sorted(code for code, _ in results.values())
        assert statuses == [201, 409], results
        winner = next(m for m, (code, _) in results.items() if code == 201)
        loser_body = next(body for code, body in results.values() if code == 409)
        assert loser_body["code"] == "stale_ply" and loser_body["ply"] == table.ply + 1
        recorded = Move.objects.filter(table=table, ply=table.ply + 1)
        assert [m.notation for m in recorded] == [winner]
        rounds += 1
    assert rounds >= 10
    assert Move.objects.filter(table=table).count() == Table.objects.get(pk=table.pk).actions
