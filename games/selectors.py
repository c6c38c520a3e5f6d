"""Reads: what the API and the pages show about tables and players."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Prefetch, Q, QuerySet

import engine
from engine.board import CELL_NAMES

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
    with meetings listed only where one follows, and ``reorient``: the turns the player can
    afford and the markers that may pay for them (``null`` when none is affordable);
    Shacru/Azacru: complete moves (twists included), ``["pass"]`` when nothing can move.
    """
    if table.status != Table.Status.ACTIVE or table.position is None:
        return {"base_moves": [], "choices": {}, "reorient": None}
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
    reorient = None
    if table.game == "pacru":
        cells = [CELL_NAMES[cell] for cell, _, _ in state.chevrons(state.to_move)]
        if cells:
            options = state.reorientations(cells[0])
            if options.turns:
                reorient = {
                    "cells": cells,
                    "turns": list(options.turns),
                    "removable": list(options.removable),
                }
    return {"base_moves": bases, "choices": choices, "reorient": reorient}


def player_list() -> QuerySet[Player]:
    return Player.objects.select_related("user").annotate(tables_played=Count("seats"))


def player_tables(player: Player, limit: int = 50) -> QuerySet[Table]:
    return table_list().filter(seats__player=player).order_by("-created_at")[:limit]


def table_version(table_id: int) -> tuple[str, bool] | None:
    """A cheap tag that changes whenever anything a viewer sees of the table changes, and
    whether a timeout is due (so that readers apply it first); ``None`` for no such table.

    Every move, resignation and timeout bumps ``actions``; starting and finishing change
    ``status``; joining and leaving change the seat count; the deadline moves with the clocks.
    One indexed query, no lock: polling readers never queue behind a move.
    """
    from django.conf import settings
    from django.utils import timezone

    row = (
        Table.objects.filter(pk=table_id)
        .annotate(n_seats=Count("seats"))
        .values_list("status", "actions", "ply", "to_move", "deadline", "n_seats")
        .first()
    )
    if row is None:
        return None
    status, actions, ply, to_move, deadline, n_seats = row
    stamp = deadline.timestamp() if deadline else 0
    due = (
        status == Table.Status.ACTIVE
        and deadline is not None
        and timezone.now().timestamp() >= stamp + settings.CLOCK_GRACE_SECONDS
    )
    return f"t{table_id}-{status}-{actions}-{ply}-{to_move}-{n_seats}-{stamp:.3f}", due


def table_positions(table: Table, start: int = 0) -> dict[str, Any]:
    """The start position and the position after each action from ``start`` (replayed with the
    engine), for stepping through a game: ``{"start", "actions": [{"seq", "ply", "seat",
    "action", "position"}]}``."""
    from .services import initial_state

    state = initial_state(table)
    first = state.to_dict()
    out: list[dict[str, Any]] = []
    for move in Move.objects.filter(table=table).order_by("seq"):
        if move.kind == Move.Kind.MOVE:
            state = state.play(move.notation)
        else:
            state = state.eliminate(move.seat, move.kind)
        if move.seq >= start:
            out.append(
                {"seq": move.seq, "ply": move.ply, "seat": move.seat, "action": move.action,
                 "position": state.to_dict()}
            )  # fmt: skip
    return {"start": first, "actions": out}


def lobby_version(user_id: int | None) -> str:
    """A cheap tag of everything the lobby shows: it changes when a table opens, fills, moves,
    finishes or is aborted (one aggregate query over the tables still in play)."""
    from django.db.models import Max, Sum

    live = Table.objects.filter(status__in=[Table.Status.OPEN, Table.Status.ACTIVE]).aggregate(
        n=Count("id", distinct=True), seats=Count("seats"), actions=Sum("actions"), newest=Max("id")
    )
    last = Table.objects.aggregate(finished=Max("finished_at"))["finished"]
    stamp = last.timestamp() if last else 0
    return f"lobby-{user_id}-{live['n']}-{live['seats']}-{live['actions']}-{live['newest']}-{stamp:.3f}"
