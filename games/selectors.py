"""Reads: what the API and the pages show about tables and players."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Prefetch, Q, QuerySet

import engine

from .models import Move, Player, Seat, Table


def table_list() -> QuerySet[Table]:
    return (
        Table.objects.select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .annotate(seats_taken=Count("seats", distinct=True))
    )


def tables_with_open_seats(qs: QuerySet[Table]) -> QuerySet[Table]:
    return qs.filter(status=Table.Status.OPEN, seats_taken__lt=F("players"))


def tables_of_player(qs: QuerySet[Table], player_id: int) -> QuerySet[Table]:
    return qs.filter(Q(seats__player_id=player_id)).distinct()


def table_detail(table_id: int) -> Table:
    return table_list().get(pk=table_id)


def move_history(table: Table) -> list[Move]:
    return list(Move.objects.filter(table=table).order_by("seq"))


def legal_for_turn(table: Table) -> dict[str, Any]:
    """The moves of the player on turn and the choices each needs.

    Pacru: ``{base: {"effects": [...], "effect_kind": ..., "meetings": {option: [...]}}}``
    with meetings listed only where one follows; Shacru/Azacru: complete moves.
    """
    if table.status != Table.Status.ACTIVE or table.position is None:
        return {"base_moves": [], "choices": {}}
    state = engine.load(table.position)
    bases = state.base_moves()
    choices: dict[str, Any] = {}
    if table.game == "pacru":
        for base in bases:
            c = state.choices(base)
            entry: dict[str, Any] = {"effects": list(c.effects), "effect_kind": c.effect_kind}
            meetings = {str(k): list(v) for k, v in c.meetings.items() if v}
            if meetings:
                entry["meetings"] = meetings
            choices[base] = entry
    return {"base_moves": bases, "choices": choices}


def player_list() -> QuerySet[Player]:
    return Player.objects.select_related("user").annotate(tables_played=Count("seats"))


def player_tables(player: Player, limit: int = 50) -> QuerySet[Table]:
    return table_list().filter(seats__player=player).order_by("-created_at")[:limit]
