"""A Unicode picture of a position for the terminal.

Each field is three characters: the marker (``·`` neutral, or the seat's
letter in lower case) and, when a chevron stands there, an arrow for its
facing followed by its owner's letter in upper case. Heavy lines mark the
borders between borderlands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import ARROWS, FILES, SIZE

if TYPE_CHECKING:
    # Type-only: engine.state imports this module for State.__str__, so a run-time import would be a cycle.
    from .state import State

LETTERS = {1: "r", 2: "b", 3: "y", 4: "g"}
_ANSI = {1: "\033[31m", 2: "\033[34m", 3: "\033[33m", 4: "\033[32m"}
_RESET = "\033[0m"


def _paint(text: str, seat: int, color: bool) -> str:
    return f"{_ANSI[seat]}{text}{_RESET}" if color and seat else text


def board_text(state: State, color: bool = False) -> str:
    """The board, rank 9 at the top, with a legend of seats and markers."""
    rule = "   +" + "+".join(["━" * 11] * 3) + "+"
    lines = [rule]
    for rank in range(SIZE - 1, -1, -1):
        row = f" {rank + 1} ┃"
        for file in range(SIZE):
            cell = rank * SIZE + file
            owner = state.tiles[cell]
            marker = _paint(LETTERS[owner], owner, color) if owner else "·"
            o = state.occ[cell]
            piece = _paint(ARROWS[o & 7] + LETTERS[o >> 3].upper(), o >> 3, color) if o >= 0 else "  "
            row += marker + piece
            row += "┃" if file % 3 == 2 else " "
        lines.append(row)
        if rank % 3 == 0:
            lines.append(rule)
    lines.append("    " + "".join(f" {f}  " for f in FILES))
    seats = []
    for s in state.seats:
        status = " out" if s in state.eliminated else ""
        mark = "▶" if s == state.to_move and not state.is_over else " "
        seats.append(f"{mark}{s} {LETTERS[s].upper()}: {state.counts[s]} markers{status}")
    lines.append("  ".join(seats))
    return "\n".join(lines)
