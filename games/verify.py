"""Checking a table's cached position against its move log."""

from __future__ import annotations

import engine

from .models import Move, Seat, Table
from .services import initial_state


def verify_table(table: Table) -> list[str]:
    """Replay the table's actions; return a list of mismatches (empty when all agree)."""
    problems: list[str] = []
    try:
        state = initial_state(table)
    except engine.InvalidPosition as exc:
        return [f"cannot build the start position: {exc}"]
    moves = list(Move.objects.filter(table=table).order_by("seq"))
    for expected_seq, move in enumerate(moves):
        if move.seq != expected_seq:
            problems.append(f"action numbers jump from {expected_seq - 1} to {move.seq}")
            break
        try:
            if move.kind == Move.Kind.MOVE:
                if state.to_move != move.seat:
                    problems.append(
                        f"ply {move.ply}: recorded for seat {move.seat}, seat {state.to_move} was on turn"
                    )
                state = state.play(move.notation)
                if state.ply != move.ply:
                    problems.append(f"action {move.seq}: ply {move.ply} recorded, replay gives {state.ply}")
            else:
                state = state.eliminate(move.seat, move.kind)
        except engine.IllegalMove as exc:
            problems.append(f"action {move.seq} ({move.action}) does not replay: {exc}")
            return problems
    if table.position is not None and table.position != state.to_dict():  # None: archived
        problems.append(f"stored position differs from the replayed one (ply {table.ply} vs {state.ply})")
    if table.ply != state.ply or table.actions != len(moves):
        problems.append(f"stored ply/actions {table.ply}/{table.actions}, replay {state.ply}/{len(moves)}")
    finished = table.status == Table.Status.FINISHED
    if finished != state.is_over:
        problems.append(
            f"status is {table.status} but the replayed game is {'over' if state.is_over else 'not over'}"
        )
    if state.is_over and finished:
        ranking = {str(s): r for s, r in state.ranking().items()}
        if not table.result or table.result.get("ranking") != ranking or table.winner_seat != state.winner:
            problems.append(f"stored result {table.result} differs from the replayed ranking {ranking}")
        for seat in Seat.objects.filter(table=table):
            if seat.rank != state.ranking()[seat.number]:
                problems.append(
                    f"seat {seat.number} has rank {seat.rank}, replay gives {state.ranking()[seat.number]}"
                )
    return problems
