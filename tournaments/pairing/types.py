"""The plain data pairing works on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entrant:
    id: int
    score: float = 0.0
    rating: float = 0.0
    meetings: Mapping[int, int] = field(default_factory=dict)
    seat_history: tuple[int, ...] = ()
    byes: int = 0


@dataclass(frozen=True)
class Table:
    players: tuple[int, ...]  # seat order: players[0] takes seat 1 and moves first


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
